"""The benchmark's report: a Markdown file of every number, and a PNG plot of the curves."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: "Flat" driver heap: after a full GC it may move by at most this much across all batches.
HEAP_TOLERANCE_MB = 16.0


@dataclass
class Run:
    """The measured batches of one pipeline in one repetition."""

    rows: int
    seconds: float
    batch_ms: list[int] = field(default_factory=list)

    @property
    def rows_per_s(self) -> float:
        return self.rows / self.seconds


def _median_rate(runs: list[Run]) -> float:
    return float(statistics.median(run.rows_per_s for run in runs))


def _median_ms(runs: list[Run]) -> float:
    """The median trigger time over every measured batch of every run."""
    return float(statistics.median(ms for run in runs for ms in run.batch_ms))


def write_report(
    out: Path,
    *,
    settings: Any,
    smoke: bool,
    info: dict[str, str],
    runs: dict[str, list[Run]],
    tiny: dict[str, list[Run]],
    heap_before: float,
    heap_after_comparison: float,
    heap_samples: dict[str, list[tuple[int, float]]],
    by_partitions: dict[int, Run],
    by_length: dict[int, Run],
    descriptions: dict[str, str],
    minutes: float,
) -> bool:
    """Write benchmarks.md and benchmarks.png into ``out``; return whether every target is met."""
    out.mkdir(parents=True, exist_ok=True)
    ours = _median_rate(runs["ours"])
    heap_values = [mb for _, mb in heap_samples["ours"]]
    heap_spread = max(heap_values) - min(heap_values)
    targets: list[tuple[str, str, bool]] = [
        (
            "this source >= 2x rate-micro-batch + randstr(10)",
            f"{ours / _median_rate(runs['randstr']):.2f}x",
            ours >= 2 * _median_rate(runs["randstr"]),
        ),
        (
            "this source with every shaping option >= 1.5x rate-micro-batch + randstr(10)",
            f"{_median_rate(runs['shaped']) / _median_rate(runs['randstr']):.2f}x",
            _median_rate(runs["shaped"]) >= 1.5 * _median_rate(runs["randstr"]),
        ),
        (
            "this source with a rate profile >= 0.9x this source",
            f"{_median_rate(runs['profiled']) / ours:.2f}x",
            _median_rate(runs["profiled"]) >= 0.9 * ours,
        ),
        (
            "this source >= 1x rate-micro-batch alone",
            f"{ours / _median_rate(runs['rate alone']):.2f}x",
            ours >= _median_rate(runs["rate alone"]),
        ),
        (
            "this source's Python data source >= 4x the pure-Python reader",
            f"{_median_rate(runs['python twin']) / _median_rate(runs['python']):.2f}x",
            _median_rate(runs["python twin"]) >= 4 * _median_rate(runs["python"]),
        ),
        (
            f"driver heap after GC flat across {settings.heap_batches} batches "
            f"(spread <= {HEAP_TOLERANCE_MB:.0f} MB)",
            f"spread {heap_spread:.1f} MB",
            heap_spread <= HEAP_TOLERANCE_MB,
        ),
        (
            "1-row trigger time no worse than rate-micro-batch's (medians of every trigger)",
            f"{_median_ms(tiny['ours']):.0f} ms vs {_median_ms(tiny['rate alone']):.0f} ms",
            _median_ms(tiny["ours"]) <= _median_ms(tiny["rate alone"]),
        ),
    ]

    lines = [
        "# Benchmarks",
        "",
        "Made by `make bench` (`bench/run_bench.py`)"
        + (" in its smoke mode (tiny batches: these numbers say nothing about speed)" if smoke else "")
        + f"; the run took {minutes:.1f} min. "
        "Every pipeline runs in one process and one session into the noop sink; a rate is the "
        "rows of the measured batches over the time Spark spent on them (`triggerExecution`), "
        f"after {settings.warmup} warm-up batches. Batches of {settings.batch_rows:,} rows "
        f"(the pure-Python reader: {settings.python_batch_rows:,}), 10-character alphanumeric strings. "
        "Repetitions interleave the pipelines in a rotating order.",
        "",
        "## Machine",
        "",
        "| | |",
        "|---|---|",
        *[f"| {key} | {value} |" for key, value in info.items()],
        "",
        "## Targets",
        "",
        "| target | measured | met |",
        "|---|---|---|",
        *[f"| {name} | {measured} | {'yes' if met else '**no**'} |" for name, measured, met in targets],
        "",
        "## Throughput, every repetition",
        "",
        "| pipeline | "
        + " | ".join(f"rep. {i + 1} rows/s" for i in range(settings.repetitions))
        + " | median rows/s | this source / it |",
        "|---|" + "---|" * (settings.repetitions + 2),
    ]
    for name, name_runs in runs.items():
        cells = " | ".join(f"{run.rows_per_s:,.0f}" for run in name_runs)
        lines.append(
            f"| {descriptions[name]} | {cells} | {_median_rate(name_runs):,.0f} | "
            f"{ours / _median_rate(name_runs):.2f} |"
        )
    lines += [
        "",
        "Per-batch trigger times (ms) of each run:",
        "",
        *[
            f"- {descriptions[name]}: " + "; ".join(str(run.batch_ms) for run in name_runs)
            for name, name_runs in runs.items()
        ],
        "",
        "## Driver heap after a full GC",
        "",
        f"- before the comparison: {heap_before:.1f} MB; after it: {heap_after_comparison:.1f} MB",
        f"- during {settings.heap_batches} batches of {settings.batch_rows:,} rows, after batch n "
        "(rate-micro-batch beside it shows what Spark itself keeps per batch):",
        *[
            f"  - {descriptions[name]}: " + ", ".join(f"{n}: {mb:.1f} MB" for n, mb in samples)
            for name, samples in heap_samples.items()
        ],
        "",
        "## 1-row batches: time per trigger",
        "",
        f"{settings.tiny_batches} triggers a run after {settings.tiny_warmup} warm-up ones, "
        "the two pipelines interleaved, in alternating order, in each repetition.",
        "",
        "| pipeline | "
        + " | ".join(f"rep. {i + 1} median ms" for i in range(settings.repetitions))
        + " | median of every trigger, ms |",
        "|---|" + "---|" * (settings.repetitions + 1),
        *[
            f"| {descriptions[name]} | "
            + " | ".join(f"{_median_ms([run]):.0f}" for run in name_runs)
            + f" | {_median_ms(name_runs):.0f} |"
            for name, name_runs in tiny.items()
        ],
        "",
        "Every trigger's time (ms), run by run:",
        "",
        *[
            f"- {descriptions[name]}: " + "; ".join(str(run.batch_ms) for run in name_runs)
            for name, name_runs in tiny.items()
        ],
        "",
        "## This source against numPartitions and string length",
        "",
        "| numPartitions | rows/s | | string length | rows/s | MB/s of strings |",
        "|---|---|---|---|---|---|",
    ]
    partitions, lengths = list(by_partitions.items()), list(by_length.items())
    for i in range(max(len(partitions), len(lengths))):
        left = f"{partitions[i][0]} | {partitions[i][1].rows_per_s:,.0f}" if i < len(partitions) else " | "
        right = (
            f"{lengths[i][0]} | {lengths[i][1].rows_per_s:,.0f} | "
            f"{lengths[i][1].rows_per_s * lengths[i][0] / 1e6:,.0f}"
            if i < len(lengths)
            else " | | "
        )
        lines.append(f"| {left} | | {right} |")
    lines += ["", "![rows/s against numPartitions and string length](benchmarks.png)", ""]
    (out / "benchmarks.md").write_text("\n".join(lines))
    _plot(out / "benchmarks.png", by_partitions, by_length, runs, descriptions)
    return all(met for _, _, met in targets)


def _plot(
    path: Path,
    by_partitions: dict[int, Run],
    by_length: dict[int, Run],
    runs: dict[str, list[Run]],
    descriptions: dict[str, str],
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.bar(
        [str(n) for n in by_partitions],
        [r.rows_per_s / 1e6 for r in by_partitions.values()],
        color="tab:blue",
        label="this source",
    )
    for name, style in (("randstr", "tab:orange"), ("rate alone", "tab:green")):
        left.axhline(
            _median_rate(runs[name]) / 1e6,
            color=style,
            linestyle="--",
            label=f"{descriptions[name]} (numPartitions 2)",
        )
    left.set_xlabel("numPartitions (local[2])")
    left.set_ylabel("million rows/s")
    left.set_title("10-character strings")
    left.set_ylim(0, 1.45 * max(r.rows_per_s / 1e6 for r in [*by_partitions.values(), *runs["rate alone"]]))
    left.legend(fontsize=7, loc="upper left")
    right.plot(list(by_length), [r.rows_per_s / 1e6 for r in by_length.values()], marker="o")
    right.set_xscale("log", base=2)
    right.set_xticks(list(by_length), [str(n) for n in by_length])
    right.set_xlabel("string length (characters)")
    right.set_ylabel("million rows/s")
    right.set_ylim(bottom=0)
    right.set_title("this source, numPartitions 2")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
