"""The benchmark's report: a Markdown file of every number, and a PNG plot of the curves."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from targets import (
    AS_OF_FLAT,
    CHANGES_REAL_TIME_P99,
    CHANGES_VS_SQL,
    CHANGES_VS_TYPED,
    HEAP_FLAT,
    OURS_VS_RANDSTR,
    OURS_VS_RATE,
    PROFILED_VS_OURS,
    PYTHON_TWIN_VS_FLOOR,
    PYTHON_TWIN_VS_PYTHON,
    REAL_TIME_P99,
    REAL_TIME_VS_MICRO_BATCH,
    SHAPED_VS_RANDSTR,
    TINY_TRIGGER,
    TYPED_VS_DBLDATAGEN,
    TYPED_VS_SQL,
    TargetRow,
)


@dataclass
class Run:
    """The measured batches of one pipeline in one repetition."""

    rows: int
    seconds: float
    batch_ms: list[int] = field(default_factory=list)

    @property
    def rows_per_s(self) -> float:
        return self.rows / self.seconds


@dataclass(frozen=True)
class LatencyConfig:
    """One measured configuration of the real-time section: a rate and a trigger."""

    rate: int
    #: The real-time batch duration (s), or None for the default micro-batch trigger.
    batch_s: float | None

    @property
    def real_time(self) -> bool:
        return self.batch_s is not None

    @property
    def trigger(self) -> str:
        return "micro-batch" if self.batch_s is None else f"real-time {self.batch_s:g} s"

    @property
    def label(self) -> str:
        return f"{self.trigger}, {self.rate:,} rows/s"


@dataclass(frozen=True)
class Boundary:
    """The pause between two real-time batches, N and the next, split by the query's progress
    (ms). Spark runs no task between them: the rows that come to exist in the pause wait for the
    next batch's, so a pause longer than 1% of the batch duration sets the p99. The parts add up
    to the gap exactly: ``close_ms + between_ms + start_ms``."""

    #: The next batch's id.
    batch: int
    #: Whether the next batch is one of the window's, whose rows are measured.
    in_window: bool
    #: From the last row of batch N to reach the sink to the first row of the next.
    gap_ms: float
    #: From N's last row to the end of its trigger: its tasks' end, its state stores' commit, its
    #: offset and commit logs.
    close_ms: float
    #: Of close_ms: removing the state the watermark has passed, where it is left for the batch's
    #: end (every stateful operator's `allRemovalsTimeMs`).
    evict_ms: float
    #: Of close_ms: the state stores' commit (every stateful operator's `commitTimeMs`).
    commit_ms: float
    #: Of close_ms: the offset log (`walCommit`, with the source's commit of the batch before,
    #: which ran as N started) and the commit log (`commitOffsets`).
    logs_ms: float
    #: From the end of N's trigger to the next's start: the progress made and posted, in no
    #: duration of Spark's.
    between_ms: float
    #: From the next batch's start to its first row at the sink.
    start_ms: float
    #: Of start_ms: planning the next batch (`latestOffset`, `getBatch`, `queryPlanning`); the
    #: rest is its job's start: scheduling, tasks, the state stores' load, the first row.
    planning_ms: float


@dataclass
class LatencyRun:
    """One run's window of the real-time section: what its sink recorded."""

    #: The rows that reached the sink in the window, over the seconds from its first row to the
    #: first row after it (whole batch periods, the pauses between batches included).
    rows: int
    seconds: float
    p50_ms: float
    p99_ms: float
    p999_ms: float
    max_ms: float
    #: The gaps between the window's batches, from the last row of one to reach the sink to the
    #: first row of the next: how many, and their median and longest (ms; None without a gap).
    gap_count: int
    gap_median_ms: float | None
    gap_max_ms: float | None
    #: The trigger time (`triggerExecution`, ms) of the window's batches.
    trigger_ms: list[int] = field(default_factory=list)
    #: Whether the window ended in a pause between two batches, as it should.
    aligned: bool = True
    #: The pauses before each real-time batch after the first, warm-up batches included, split into
    #: their parts.
    boundaries: list[Boundary] = field(default_factory=list)

    @property
    def rows_per_s(self) -> float:
        return self.rows / self.seconds


@dataclass(frozen=True)
class LatencySettings:
    """How long the real-time section measures (``FULL`` or ``SMOKE`` in ``real_time.py``)."""

    #: A real-time batch's duration (Trigger.RealTime), and how many make a window.
    batch_s: float
    batches: int
    capacity_batches: int
    #: The longer real-time batch duration, measured too at the low rate, and its window's batches.
    long_batch_s: float
    long_batches: int
    #: A micro-batch run's warm-up, and its window.
    micro_batch_warmup_s: float
    micro_batch_window_s: float
    repetitions: int
    #: The real-time batches before a window: the first ends the query's first batch, whose pause
    #: after it is the longest (its first plans, loads and writes); a second measures a query
    #: after that.
    warmup_batches: int = 1


@dataclass
class RealTimeResults:
    """The real-time section: what one partition hands on, and each configuration's runs."""

    settings: LatencySettings
    capacity_offered: int
    capacity: list[LatencyRun]
    high_fraction: float
    high_rate: int
    low_rate: int
    runs: dict[LatencyConfig, list[LatencyRun]]


@dataclass
class TypedResults:
    """The typed-columns section: one schema, how each pipeline makes its columns, their runs."""

    #: The schema, in DDL.
    schema: str
    #: Per column: its name, this source's fields. options, dbldatagen's withColumn and the SQL.
    columns: list[tuple[str, str, str, str]]
    #: dbldatagen and its version, as the targets name it.
    peer: str
    batch_rows: int
    #: Each run's warm-up and measured batches; dbldatagen's and the Python data source's: 1 and 2.
    warmup: int
    measured: int
    repetitions: int
    #: Keyed "typed ours", "typed dbldatagen", "typed SQL", "typed python".
    runs: dict[str, list[Run]]
    descriptions: dict[str, str]


@dataclass
class ChangesResults:
    """The change-streams section: its pipelines' runs, and the oracle's times."""

    schema: str
    keys: int
    batch_rows: int
    warmup: int
    measured: int
    repetitions: int
    #: Keyed "changes ours", "changes typed", "changes envelope", "changes SQL".
    runs: dict[str, list[Run]]
    descriptions: dict[str, str]
    #: expected_table's seconds (median) at ``as_of[1]`` changes, and the table's rows.
    expected_table_s: float
    table_rows: int
    #: The batch read asOf = n: n -> seconds (median).
    as_of_s: dict[int, float]
    #: The real-time runs: changes/s offered, the batches' duration, one run per repetition.
    latency_rate: int
    latency_batch_s: float
    latency: list[LatencyRun]


def machine_and_targets(info: dict[str, str], targets: list[TargetRow]) -> list[str]:
    """The report's tables of the machine and of the targets (a section without targets has no
    such table), each with its heading."""
    machine = [
        "## Machine",
        "",
        "| | |",
        "|---|---|",
        *[f"| {key} | {value} |" for key, value in info.items()],
        "",
    ]
    if not targets:
        return machine
    return [
        *machine,
        "## Targets",
        "",
        "| target | measured | met |",
        "|---|---|---|",
        *[f"| {name} | {measured} | {'yes' if met else '**no**'} |" for name, measured, met in targets],
        "",
    ]


def _median_rate(runs: list[Run]) -> float:
    return float(statistics.median(run.rows_per_s for run in runs))


def _median_rates(runs: dict[str, list[Run]], *names: str) -> list[float]:
    """The median rate of each pipeline of ``names``, in their order."""
    return [_median_rate(runs[name]) for name in names]


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
    typed: TypedResults,
    real_time: RealTimeResults,
    minutes: float,
) -> bool:
    """Write benchmarks.md and benchmarks.png into ``out``; return whether every target is met."""
    out.mkdir(parents=True, exist_ok=True)
    ours = _median_rate(runs["ours"])
    targets = [
        *throughput_targets(runs, tiny, heap_samples, settings.heap_batches),
        *typed_targets(typed),
        *real_time_targets(real_time),
    ]

    lines = [
        "# Benchmarks",
        "",
        "Made by `make bench` (`bench/run_bench.py`)"
        + (" in its smoke mode (tiny batches: these numbers say nothing about speed)" if smoke else "")
        + f"; the run took {minutes:.1f} min. "
        "Everything runs in one process and one session. The throughput pipelines write into the "
        "noop sink; a rate is the rows of the measured batches over the time Spark spent on them "
        "(`triggerExecution`), "
        f"after {settings.warmup} warm-up batches. Batches of {settings.batch_rows:,} rows "
        f"(the pure-Python reader: {settings.python_batch_rows:,}), 10-character alphanumeric strings. "
        "Repetitions interleave the pipelines in a rotating order.",
        "",
        *machine_and_targets(info, targets),
        "## Throughput, every repetition",
        "",
        *_throughput_lines(runs, descriptions, settings.repetitions, ours),
        *python_floor_lines(runs),
        "## Driver heap after a full GC",
        "",
        f"- before the comparison: {heap_before:.1f} MB; after it: {heap_after_comparison:.1f} MB",
        f"- during {settings.heap_batches} batches of {settings.batch_rows:,} rows, after batch n "
        "(rate-micro-batch beside it shows what Spark itself keeps per batch):",
        *[
            f"    - {descriptions[name]}: " + ", ".join(f"{n}: {mb:.1f} MB" for n, mb in samples)
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
    lines += typed_lines(typed)
    lines += real_time_lines(real_time, info["session"])
    (out / "benchmarks.md").write_text("\n".join(lines))
    _plot(out / "benchmarks.png", by_partitions, by_length, runs, descriptions)
    return all(met for _, _, met in targets)


def throughput_targets(
    runs: dict[str, list[Run]],
    tiny: dict[str, list[Run]],
    heap_samples: dict[str, list[tuple[int, float]]],
    heap_batches: int,
) -> list[TargetRow]:
    """The throughput pipelines' targets (targets.THROUGHPUT): this source against its peers, its
    driver heap over ``heap_batches`` batches, and its time per 1-row trigger."""
    ours = _median_rate(runs["ours"])
    randstr = _median_rate(runs["randstr"])
    shaped = _median_rate(runs["shaped"])
    profiled = _median_rate(runs["profiled"])
    rate_alone = _median_rate(runs["rate alone"])
    python_twin = _median_rate(runs["python twin"])
    python = _median_rate(runs["python"])
    floor = _median_rate(runs["python floor"])
    heap_values = [mb for _, mb in heap_samples["ours"]]
    heap_spread = max(heap_values) - min(heap_values)
    tiny_ours, tiny_rate = _median_ms(tiny["ours"]), _median_ms(tiny["rate alone"])
    return [
        OURS_VS_RANDSTR.row(f"{ours / randstr:.2f}x", ours, randstr),
        SHAPED_VS_RANDSTR.row(f"{shaped / randstr:.2f}x", shaped, randstr),
        PROFILED_VS_OURS.row(f"{profiled / ours:.2f}x", profiled, ours),
        OURS_VS_RATE.row(f"{ours / rate_alone:.2f}x", ours, rate_alone),
        PYTHON_TWIN_VS_PYTHON.row(f"{python_twin / python:.2f}x", python_twin, python),
        PYTHON_TWIN_VS_FLOOR.row(f"{python_twin / floor:.2f}x", python_twin, floor),
        HEAP_FLAT.row(f"spread {heap_spread:.1f} MB", heap_spread, batches=heap_batches),
        TINY_TRIGGER.row(f"{tiny_ours:.0f} ms vs {tiny_rate:.0f} ms", tiny_ours, tiny_rate),
    ]


def python_floor_lines(runs: dict[str, list[Run]]) -> list[str]:
    """What bounds a Python data source of this source's columns: the floor's rate against the
    pure-Python reader's and the twin's, and whether the target against the reader is within it."""
    python, twin, floor = _median_rates(runs, "python", "python twin", "python floor")
    bound = PYTHON_TWIN_VS_PYTHON.bound
    reach = (
        f"So the target of {bound:g}x the pure-Python reader is beyond what a Python data source of these "
        f"columns reaches on this machine: batches that cost nothing to make reach {floor / python:.2f}x. "
        "The reader makes two columns where this source makes four, and Spark's intake from Arrow costs "
        "by the column."
        if floor / python < bound
        else f"The floor leaves room for the target of {bound:g}x the pure-Python reader: what the twin "
        f"spends past it, {1000 * (1 / twin - 1 / floor) * 1e6:,.0f} ms of wall time a million rows, "
        "is its own making of the rows."
    )
    return [
        "### What bounds a Python data source",
        "",
        "A Python data source hands its rows to Spark as Arrow batches, which Spark copies into its "
        "own rows. The floor is a Python data source that yields batches as the twin hands them on "
        "(this source's four columns, strings of the same length, the same batch size), made once in "
        "each worker and yielded again: what "
        f"Spark spends taking them in, with nothing of the making left. It ran at {floor:,.0f} rows/s "
        f"(median), {floor / python:.2f} times the pure-Python reader; the twin, which makes its "
        f"batches with numpy beside Spark's intake, ran at {twin:,.0f} rows/s, {twin / floor:.2f} of "
        f"the floor. {reach}",
        "",
    ]


def _throughput_lines(
    runs: dict[str, list[Run]], descriptions: dict[str, str], repetitions: int, reference: float
) -> list[str]:
    """A table of every repetition's rows/s, against ``reference`` (rows/s), then each run's
    per-batch trigger times."""
    lines = [
        "| pipeline | "
        + " | ".join(f"rep. {i + 1} rows/s" for i in range(repetitions))
        + " | median rows/s | this source / it |",
        "|---|" + "---|" * (repetitions + 2),
    ]
    for name, name_runs in runs.items():
        cells = " | ".join(f"{run.rows_per_s:,.0f}" for run in name_runs)
        lines.append(
            f"| {descriptions[name]} | {cells} | {_median_rate(name_runs):,.0f} | "
            f"{reference / _median_rate(name_runs):.2f} |"
        )
    return [
        *lines,
        "",
        "Per-batch trigger times (ms) of each run:",
        "",
        *[
            f"- {descriptions[name]}: " + "; ".join(str(run.batch_ms) for run in name_runs)
            for name, name_runs in runs.items()
        ],
        "",
    ]


def typed_targets(typed: TypedResults) -> list[TargetRow]:
    """The typed-columns section's targets (targets.TYPED): this source against dbldatagen and
    against SQL."""
    ours = _median_rate(typed.runs["typed ours"])
    dbldatagen = _median_rate(typed.runs["typed dbldatagen"])
    sql = _median_rate(typed.runs["typed SQL"])
    return [
        TYPED_VS_DBLDATAGEN.row(f"{ours / dbldatagen:.2f}x", ours, dbldatagen, peer=typed.peer),
        TYPED_VS_SQL.row(f"{ours / sql:.2f}x", ours, sql),
    ]


def typed_lines(typed: TypedResults) -> list[str]:
    """The typed-columns section of the report, from its heading on."""
    ours = _median_rate(typed.runs["typed ours"])
    python = _median_rate(typed.runs["typed python"])
    return [
        "## Typed columns",
        "",
        f"One schema, `{typed.schema}`, made by each pipeline below in batches of "
        f"{typed.batch_rows:,} rows into the noop sink and timed as the throughput pipelines are: a "
        f"run measures {_plural(typed.measured, 'batch', 'batches')} after "
        f"{_plural(typed.warmup, 'warm-up batch', 'warm-up batches')}, and {typed.peer}'s and the "
        "Python data source's, which take seconds, 2 after 1. Repetitions interleave the pipelines "
        f"in a rotating order. {typed.peer} makes the columns from its column specs below, its "
        "template in Python workers; it has no Zipf distribution, so its `user_id` is the SQL "
        "expression. Its `build(withStreaming=True)` reads Spark's `rate` source, whose batches grow "
        "with the time the last one took: here the same column expressions read rate-micro-batch's "
        "batches of a fixed size instead (bench/README.md).",
        "",
        f"| column | this source: `fields.<column>.` | {typed.peer}: `withColumn` | hand-written SQL |",
        "|---|---|---|---|",
        *[f"| `{name}` | `{ours_}` | `{peer}` | `{sql}` |" for name, ours_, peer, sql in typed.columns],
        "",
        *_throughput_lines(typed.runs, typed.descriptions, typed.repetitions, ours),
        f"The Python data source makes the same rows at {python:,.0f} rows/s (median): this source "
        f"is {ours / python:.1f} times as fast.",
        "",
        *typed_floor_lines(typed),
    ]


def typed_floor_lines(typed: TypedResults) -> list[str]:
    """What bounds this source against dbldatagen on the schema: the rows with nothing drawn, and
    whether the target is within them."""
    ours, dbldatagen, floor = _median_rates(typed.runs, "typed ours", "typed dbldatagen", "typed floor")
    bound = TYPED_VS_DBLDATAGEN.bound
    reach = (
        f"So the target of {bound:g}x {typed.peer} is beyond what this source reaches on these columns "
        f"on this machine: rows of the schema with nothing drawn reach {floor / dbldatagen:.2f}x."
        if floor / dbldatagen < bound
        else f"The floor leaves room for the target of {bound:g}x {typed.peer}: it reaches "
        f"{floor / dbldatagen:.2f}x, and the target holds while the draws cost at most "
        f"{1000 * (1 / (bound * dbldatagen) - 1 / floor) * 1e6:,.0f} ms of wall time a million rows."
    )
    return [
        "### What bounds the typed columns",
        "",
        "The floor is this source with nothing drawn: the sequence and the event time as above, "
        "every other column a single value as wide as its typical one (`kind` `values`), no nulls. It "
        f"ran at {floor:,.0f} rows/s (median): writing the schema's rows costs "
        f"{1000 / floor * 1e6:,.0f} ms of wall time a million, and the draws "
        f"{1000 * (1 / ours - 1 / floor) * 1e6:,.0f} ms more. {reach}",
        "",
    ]


def write_section_report(
    out: Path,
    filename: str,
    *,
    title: str,
    made_by: str,
    smoke: bool,
    info: dict[str, str],
    targets: list[TargetRow],
    lines: list[str],
) -> bool:
    """A section's report on its own (``filename`` in ``out``): its title, who made it, the machine,
    its targets and its ``lines``; whether every target was met."""
    out.mkdir(parents=True, exist_ok=True)
    text = [
        f"# {title}",
        "",
        made_by
        + (" in its smoke mode (tiny runs: these numbers say nothing about speed)" if smoke else "")
        + ".",
        "",
        *machine_and_targets(info, targets),
        *lines,
    ]
    (out / filename).write_text("\n".join(text))
    return all(met for _, _, met in targets)


def write_typed_report(out: Path, typed: TypedResults, *, smoke: bool, info: dict[str, str]) -> bool:
    """`run_bench.py --typed-only`: the typed-columns section alone, in benchmarks-typed.md."""
    return write_section_report(
        out,
        "benchmarks-typed.md",
        title="Benchmarks: typed columns",
        made_by="Made by `run_bench.py --typed-only`; `make bench` runs this section with the rest",
        smoke=smoke,
        info=info,
        targets=typed_targets(typed),
        lines=typed_lines(typed),
    )


def changes_targets(results: ChangesResults) -> list[TargetRow]:
    """The change-streams section's targets (targets.CHANGES): the lifecycle's cost over typed rows,
    the hand-written feed, an oracle whose time does not grow with the changes, and the real-time
    p99."""
    ours = _median_rate(results.runs["changes ours"])
    typed = _median_rate(results.runs["changes typed"])
    sql = _median_rate(results.runs["changes SQL"])
    (few, few_s), (many, many_s) = sorted(results.as_of_s.items())
    _, p99, _, _ = _latencies(results.latency)
    return [
        CHANGES_VS_TYPED.row(f"{ours / typed:.2f}x", ours, typed),
        CHANGES_VS_SQL.row(f"{ours / sql:.2f}x", ours, sql),
        AS_OF_FLAT.row(
            f"{many_s:.2f} s vs {few_s:.2f} s", many_s, few_s, many=many, few=few, keys=results.keys
        ),
        CHANGES_REAL_TIME_P99.row(
            f"{_ms(p99)} ms", p99, rate=results.latency_rate, batch_s=results.latency_batch_s
        ),
    ]


def changes_lines(results: ChangesResults) -> list[str]:
    """The change-streams section of the report, from its heading on."""
    ours = _median_rate(results.runs["changes ours"])
    (few, few_s), (many, many_s) = sorted(results.as_of_s.items())
    return [
        "## Change streams",
        "",
        f"The `changes` source's stream of `{results.schema}` over {results.keys:,} keys (a change to a "
        "present key deletes it with probability 0.1), in the flat envelope (the columns, then `_op`, "
        "`_seq`, `_ts`), "
        "against the same schema's typed rows (what the lifecycle and the envelope cost on top) and "
        "against the change feed a user would hand-write on rate-micro-batch (a key from `rand()`, "
        "an op from `CASE WHEN`, no lifecycle: an update of an absent key, no table to check it "
        f"against), in batches of {results.batch_rows:,} changes into the noop sink, timed as the "
        f"throughput pipelines are: a run measures {_plural(results.measured, 'batch', 'batches')} "
        f"after {_plural(results.warmup, 'warm-up batch', 'warm-up batches')}; repetitions "
        "interleave the pipelines in a rotating order (bench/changes.py).",
        "",
        *_throughput_lines(results.runs, results.descriptions, results.repetitions, ours),
        *changes_floor_lines(results.runs),
        "The oracle, each time the median of its runs (the batch read's after a first, warm-up run):",
        "",
        "| oracle | keys | changes | seconds |",
        "|---|---|---|---|",
        f"| `expected_table` in Python ({results.table_rows:,} rows) | {results.keys:,} | {many:,} | "
        f"{results.expected_table_s:.2f} |",
        *[
            f"| the batch read `asOf` on the executors, into the noop sink | {results.keys:,} | {n:,} | "
            f"{seconds:.2f} |"
            for n, seconds in ((few, few_s), (many, many_s))
        ],
        "",
        *_changes_latency_lines(results),
    ]


def changes_floor_lines(runs: dict[str, list[Run]]) -> list[str]:
    """What bounds the change stream against typed rows of its schema: the same typed rows with the
    envelope's columns, which every change stream of them writes, and whether the target is within it."""
    ours, typed, envelope = _median_rates(runs, "changes ours", "changes typed", "changes envelope")
    bound = CHANGES_VS_TYPED.bound
    lifecycle = (
        f"its lifecycle's cost, {1000 * (1 / ours - 1 / envelope) * 1e6:,.0f} ms of wall time a "
        "million changes"
        if ours < envelope
        else "its lifecycle cost no more than the draw of `_op` it takes the place of"
    )
    reach = (
        f"So the target of {bound:g}x typed rows of the same schema is beyond what a change stream of these "
        f"columns reaches on this machine: their envelope's columns alone, with no lifecycle, reach "
        f"{envelope / typed:.2f}x."
        if envelope / typed < bound
        else f"The envelope's columns leave room for the target of {bound:g}x typed rows: they reach "
        f"{envelope / typed:.2f}x, and what the change stream spends past them is its lifecycle's."
    )
    return [
        "### What bounds a change stream against typed rows",
        "",
        "A change row is its schema's columns and the envelope's (`_op`, `_seq`, `_ts`). The same "
        "typed rows with the envelope's columns as typed columns (`_op` drawn from the three "
        "operations at the lifecycle's long-run shares, `_seq` a sequence, `_ts` the event time) "
        "write every column a change row has, without the lifecycle that finds each change's key "
        f"and operation. They ran at {envelope:,.0f} rows/s (median), {envelope / typed:.2f} of "
        f"the typed rows of the schema alone; the change stream ran at {ours / envelope:.2f} of "
        f"them: {lifecycle}. {reach}",
        "",
    ]


def _changes_latency_lines(results: ChangesResults) -> list[str]:
    """The change stream's real-time runs: latency and the gaps between batches, every repetition."""
    runs = [
        (f"{results.latency_rate:,}", f"real-time, {results.latency_batch_s:g} s batches", results.latency)
    ]
    reps = len(results.latency)
    return [
        "### Real-time latency",
        "",
        f"The same stream read with `realTime` at {results.latency_rate:,} changes/s, one partition, in "
        f"real-time batches of {results.latency_batch_s:g} s, into the LatencySink: each change from the "
        "moment it came to exist to its arrival at the sink, over the whole batches after a warm-up "
        "batch, measured as the random strings' real-time section measures rows (benchmarks.md). p50 / "
        "p99 / p99.9 / max in ms; a gap runs from the last change of a batch to reach the sink to the "
        "first of the next, and each gaps cell says how many, their median and the longest, in ms.",
        "",
        *_latency_table("changes", reps, runs),
        "",
        *_gaps_table("changes", reps, runs),
        "",
    ]


def _latency_table(unit: str, reps: int, rows: list[tuple[str, str, list[LatencyRun]]]) -> list[str]:
    """A table of latencies: a row per (offered rate, trigger, runs), each run's p50 / p99 / p99.9
    / max and their medians, in ms."""
    lines = [
        f"| offered {unit}/s | trigger | "
        + " | ".join(f"rep. {i + 1} p50 / p99 / p99.9 / max" for i in range(reps))
        + " | median p50 / p99 / p99.9 / max |",
        "|---|---|" + "---|" * (reps + 1),
    ]
    for offered, trigger, runs in rows:
        each = " | ".join(
            f"{_ms(r.p50_ms)} / {_ms(r.p99_ms)} / {_ms(r.p999_ms)} / {_ms(r.max_ms)}" for r in runs
        )
        p50, p99, p999, top = _latencies(runs)
        lines.append(
            f"| {offered} | {trigger} | {each} | {_ms(p50)} / {_ms(p99)} / {_ms(p999)} / {_ms(top)} |"
        )
    return lines


def _gaps_table(unit: str, reps: int, rows: list[tuple[str, str, list[LatencyRun]]]) -> list[str]:
    """A table of the gaps between batches: a row per (offered rate, trigger, runs), each run's
    gaps and all of them together."""
    lines = [
        f"| offered {unit}/s | trigger | "
        + " | ".join(f"rep. {i + 1} gaps: median / longest" for i in range(reps))
        + " | all: median / longest |",
        "|---|---|" + "---|" * (reps + 1),
    ]
    for offered, trigger, runs in rows:
        each = " | ".join(_gap_cell(r.gap_count, r.gap_median_ms, r.gap_max_ms) for r in runs)
        lines.append(f"| {offered} | {trigger} | {each} | {_gap_cell(*_gaps(runs))} |")
    return lines


def write_changes_report(out: Path, results: ChangesResults, *, smoke: bool, info: dict[str, str]) -> bool:
    """`run_bench.py --changes-only`: the change-streams section, in benchmarks-changes.md."""
    return write_section_report(
        out,
        "benchmarks-changes.md",
        title="Benchmarks: change streams",
        made_by="Made by `run_bench.py --changes-only`, which `make bench` runs after the rest",
        smoke=smoke,
        info=info,
        targets=changes_targets(results),
        lines=changes_lines(results),
    )


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


def _median(values: list[float]) -> float:
    return float(statistics.median(values))


def _latencies(runs: list[LatencyRun]) -> tuple[float, float, float, float]:
    """The medians, over the runs, of their p50, p99, p99.9 and max (ms)."""
    return (
        _median([run.p50_ms for run in runs]),
        _median([run.p99_ms for run in runs]),
        _median([run.p999_ms for run in runs]),
        _median([run.max_ms for run in runs]),
    )


def _gaps(runs: list[LatencyRun]) -> tuple[int, float | None, float | None]:
    """The runs' gaps between batches: how many, the median of the runs' medians, the longest (ms)."""
    medians = [run.gap_median_ms for run in runs if run.gap_median_ms is not None]
    longest = [run.gap_max_ms for run in runs if run.gap_max_ms is not None]
    return (
        sum(run.gap_count for run in runs),
        _median(medians) if medians else None,
        max(longest) if longest else None,
    )


def _ms(value: float) -> str:
    return f"{value:,.1f}"


def _gap_cell(count: int, median: float | None, longest: float | None) -> str:
    """A gaps cell: "count: median / longest" (ms), or "none"."""
    if median is None or longest is None:
        return "none"
    return f"{count}: {_ms(median)} / {_ms(longest)}"


def real_time_targets(rt: RealTimeResults) -> list[TargetRow]:
    """The real-time section's targets (targets.REAL_TIME), at the low rate: its p99, and against
    micro-batch's."""
    _, p99_rt, _, _ = _latencies(rt.runs[LatencyConfig(rt.low_rate, rt.settings.batch_s)])
    _, p99_mb, _, _ = _latencies(rt.runs[LatencyConfig(rt.low_rate, None)])
    return [
        REAL_TIME_P99.row(f"{_ms(p99_rt)} ms", p99_rt, rate=rt.low_rate),
        REAL_TIME_VS_MICRO_BATCH.row(
            f"{p99_mb / p99_rt:.1f}x ({_ms(p99_rt)} ms vs {_ms(p99_mb)} ms)", p99_mb, p99_rt, rate=rt.low_rate
        ),
    ]


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def real_time_lines(rt: RealTimeResults, session: str) -> list[str]:
    """The real-time section of the report, from its heading on."""
    reps = rt.settings.repetitions
    configured = [(f"{config.rate:,}", config.trigger, runs) for config, runs in rt.runs.items()]
    batch_ms = rt.settings.batch_s * 1000
    capacity = _median([run.rows_per_s for run in rt.capacity])
    low_rt, low_mb = LatencyConfig(rt.low_rate, rt.settings.batch_s), LatencyConfig(rt.low_rate, None)
    high_rt, high_mb = LatencyConfig(rt.high_rate, rt.settings.batch_s), LatencyConfig(rt.high_rate, None)
    low_long = LatencyConfig(rt.low_rate, rt.settings.long_batch_s)
    long_ms = rt.settings.long_batch_s * 1000
    p50_low, p99_low, p999_low, _ = _latencies(rt.runs[low_rt])
    _, p99_long, p999_long, _ = _latencies(rt.runs[low_long])
    gap_long = _gaps(rt.runs[low_long])[1] or float("nan")
    p50_mb, p99_mb, _, _ = _latencies(rt.runs[low_mb])
    p50_high, p99_high, _, _ = _latencies(rt.runs[high_rt])
    _, p99_mb_high, _, _ = _latencies(rt.runs[high_mb])
    gap_count, gap_median, gap_longest = _gaps(rt.runs[low_rt])
    gap = gap_median if gap_median is not None else float("nan")
    gap_high = _gaps(rt.runs[high_rt])[1] or float("nan")
    spare = capacity - rt.high_rate
    # After a gap of g ms at rate r, the r * g rows made in it drain at the spare rows/s only.
    catch_up_ms = gap_high * rt.high_rate / spare if spare > 0 else float("inf")

    def trigger_ms(runs: list[LatencyRun]) -> float:
        times = [ms for run in runs for ms in run.trigger_ms]
        return _median([float(ms) for ms in times]) if times else float("nan")

    def cells(values: list[str]) -> str:
        return " | ".join(values)

    lines = [
        "## Real-time mode: latency from a row's existence to a foreach sink",
        "",
        "One stateless query: this source (`realTime=true`, numPartitions 1, 10-character "
        'alphanumeric strings) -> `selectExpr("value", "offset", "length")` -> a `foreach` sink, the '
        "jar's `LatencySink`, which records for each row the moment it reached the sink minus the "
        "moment the row came to exist (in buckets of 0.1 ms; the max exactly). The same DataFrame "
        f"runs in real-time mode (`Trigger.RealTime`, batches of {rt.settings.batch_s:g} s, Spark's "
        f"least by default, and at {rt.low_rate:,} rows/s also of {rt.settings.long_batch_s:g} s) and "
        f"under the default micro-batch trigger (`ProcessingTime(0)`), in the session above ({session}): a "
        "real-time batch runs each partition as one long-running task, which holds a task slot "
        "for the batch's whole duration, and the sink runs inside that task. "
        f"A real-time run's window is {_plural(rt.settings.batches, 'whole batch', 'whole batches')} "
        f"({_plural(rt.settings.long_batches, 'whole batch', 'whole batches')} of "
        f"{rt.settings.long_batch_s:g} s) after "
        "a warm-up batch (the first batch also hands on the rows that existed before its task "
        "started, hundreds of ms late); a micro-batch run's, the whole batches of "
        f"{rt.settings.micro_batch_window_s:g} s after {rt.settings.micro_batch_warmup_s:g} s of "
        "warm-up. Rows/s is a "
        "window's rows over the time from its first row to the first row after it, the pauses "
        "between batches included. The runs interleave, in a rotating order, over "
        f"{_plural(reps, 'repetition')}.",
        "",
        "### What one partition hands on",
        "",
        f"Real-time mode, offered {rt.capacity_offered:,} rows/s, far more than one partition hands "
        "on: the rows/s that reached the sink over "
        f"{_plural(rt.settings.capacity_batches, 'whole batch', 'whole batches')} after the warm-up batch.",
        "",
        "| | " + cells([f"rep. {i + 1} rows/s" for i in range(reps)]) + " | median rows/s |",
        "|---|" + "---|" * (reps + 1),
        f"| one partition, real-time mode | {cells([f'{run.rows_per_s:,.0f}' for run in rt.capacity])} "
        f"| {capacity:,.0f} |",
        "",
        f"The high rate below is {rt.high_fraction:.0%} of that median, to 3 significant figures: "
        f"{rt.high_rate:,} rows/s.",
        "",
        "### Latency, every repetition",
        "",
        "p50 / p99 / p99.9 / max in ms of each run's window; the median column is the median of "
        "each over the repetitions.",
        "",
        *_latency_table("rows", reps, configured),
        "",
        "### Gaps between batches, every repetition",
        "",
        "A gap runs from the last row of a batch to reach the sink to the first row of the next "
        "batch; the rows that come to exist in it wait for the next batch. Each cell: the gaps "
        "inside the run's window, their median and the longest, in ms; the last column: all "
        "the runs' gaps, the median of the runs' medians and the longest.",
        "",
        *_gaps_table("rows", reps, configured),
        "",
        "### Rows/s per partition, every repetition",
        "",
        "Rows that reached the sink per second; the last column is the median `triggerExecution` of "
        "the windows' batches (a real-time batch's is its whole duration).",
        "",
        "| offered rows/s | trigger | "
        + cells([f"rep. {i + 1} rows/s" for i in range(reps)])
        + " | median rows/s | of offered | median batch, ms |",
        "|---|---|" + "---|" * (reps + 3),
    ]
    for config, runs in rt.runs.items():
        rate = _median([run.rows_per_s for run in runs])
        lines.append(
            f"| {config.rate:,} | {config.trigger} | {cells([f'{run.rows_per_s:,.0f}' for run in runs])} "
            f"| {rate:,.0f} | {rate / config.rate:.1%} | {trigger_ms(runs):,.0f} |"
        )
    unaligned = sum(not run.aligned for runs in [rt.capacity, *rt.runs.values()] for run in runs)
    if unaligned:
        lines += [
            "",
            f"{_plural(unaligned, 'window')} did not end in a pause between two batches (the "
            "sink's rows paused earlier, or no pause came): there the last batch is cut short, or "
            "a few rows of the next one are in.",
        ]
    lines += [
        "",
        "### What limits it",
        "",
        "- The clock. A row comes to exist at a whole millisecond, and the reader parks until the "
        "clock shows that millisecond, so a row is handed on up to about a millisecond after it "
        f"exists: the real-time p50 at {rt.low_rate:,} rows/s, {_ms(p50_low)} ms, is that wait and "
        "the row's way through the projection to the sink.",
        f"- Batch boundaries. A real-time batch ends at its deadline, every {rt.settings.batch_s:g} s; the "
        "driver merges the readers' offsets into the batch's end, plans the next batch and starts "
        f"its task, whose first row reaches the sink {_ms(gap)} ms after the batch's last row (at "
        f"{rt.low_rate:,} rows/s, the median of the runs' median gaps; {_plural(gap_count, 'gap')} "
        f"in all, the longest {_ms(gap_longest or float('nan'))} ms). The rows made in between wait "
        "for it: "
        f"{gap / (batch_ms + gap):.1%} of the rows. They set the p99 ({_ms(p99_low)} ms) whenever a "
        f"gap is longer than 1% of a batch ({batch_ms / 100:g} ms), and the p99.9 "
        f"({_ms(p999_low)} ms) whenever it is longer than 0.1% ({batch_ms / 1000:g} ms), so a run's "
        "p99 moves from about a millisecond to tens of ms with its gaps. The driver does this on the "
        "2 cores that also run the task and this benchmark's Python side. Longer batches have fewer "
        f"gaps: in batches of {rt.settings.long_batch_s:g} s the gaps (median {_ms(gap_long)} ms) hold "
        f"{gap_long / (long_ms + gap_long):.1%} of the rows, for a p99 of {_ms(p99_long)} ms and a "
        f"p99.9 of {_ms(p999_long)} ms at {rt.low_rate:,} rows/s (Spark's floor under a batch's "
        "duration, `spark.sql.streaming.realTimeMode.minBatchDuration`, is 5 s by default).",
        f"- One partition, one thread. One partition hands on {capacity:,.0f} rows/s (median, the "
        "gaps included): a single task thread makes each row, projects it and hands it to the "
        f"sink. At {rt.high_rate:,} rows/s the {rt.high_rate / 1000:,.0f} rows of each millisecond "
        f"take {rt.high_rate / capacity:.1f} ms of that thread (p50 {_ms(p50_high)} ms), and each "
        f"gap leaves a backlog that the partition works off with its spare {max(spare, 0):,.0f} "
        f"rows/s only, in about {catch_up_ms:,.0f} ms, so more of a batch's rows wait: p99 "
        f"{_ms(p99_high)} ms there.",
        "- Micro-batch. Under the default trigger a row waits for the next batch to be planned and "
        f"then for that batch to run: batches took {trigger_ms(rt.runs[low_mb]):,.0f} ms (median) at "
        f"{rt.low_rate:,} rows/s, for a p50 of {_ms(p50_mb)} ms and a p99 of {_ms(p99_mb)} ms, and "
        f"{trigger_ms(rt.runs[high_mb]):,.0f} ms at {rt.high_rate:,} rows/s, for a p99 of "
        f"{_ms(p99_mb_high)} ms.",
        "",
    ]
    return lines


def write_real_time_report(out: Path, rt: RealTimeResults, *, smoke: bool, info: dict[str, str]) -> bool:
    """`run_bench.py --real-time-only`: the real-time section alone, in benchmarks-real-time.md."""
    out.mkdir(parents=True, exist_ok=True)
    targets = real_time_targets(rt)
    lines = [
        "# Benchmarks: real-time mode",
        "",
        "Made by `run_bench.py --real-time-only`"
        + (" in its smoke mode (these numbers say nothing about speed)" if smoke else "")
        + "; `make bench` runs this section with the rest.",
        "",
        *machine_and_targets(info, targets),
        *real_time_lines(rt, info["session"]),
    ]
    (out / "benchmarks-real-time.md").write_text("\n".join(lines))
    return all(met for _, _, met in targets)
