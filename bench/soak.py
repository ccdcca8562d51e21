"""`make soak`: this source at 1,000,000 rows/s into the noop sink for ten minutes.

Every 30 s it records the driver's heap after a full GC and how many rows the query is behind
(the source's `rowsBehind` metric of the latest batch), then checks that neither grows: the heap
stays within a band, and the lag's fitted growth over the whole run stays under one second of
rows. Writes its section of `docs/reliability.md` (between the soak markers) and
`docs/soak.png`, and exits with 1 if a check fails.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from driver_facts import heap_after_gc_mb, machine
from pyspark.sql import SparkSession
from targets import SOAK_HEAP_FLAT, SOAK_KEEPS_UP, SOAK_LAG_FLAT, TargetRow

from spark_random_strings import read_random_strings
from spark_random_strings.engine.local import local_session, stop_between_batches

BEGIN, END = "<!-- soak:begin -->", "<!-- soak:end -->"

#: Spark keeps bounded histories of finished jobs, stages and SQL executions for its UI and
#: status API, 1,000 of each by default: at five to eight batches a second they fill over the
#: first minutes, and the heap climbs with them (docs/reliability.md says by how much). Kept small here,
#: they are full within seconds, so that what the samples show is what the source keeps.
SPARK_HISTORIES = {
    "spark.ui.retainedJobs": "10",
    "spark.ui.retainedStages": "10",
    "spark.ui.retainedTasks": "100",
    "spark.sql.ui.retainedExecutions": "10",
    "spark.sql.streaming.numRecentProgressUpdates": "10",
}


@dataclass(frozen=True)
class Sample:
    seconds: float
    heap_mb: float
    rows_behind: int
    rows_read: int
    batch_id: int


def slope(xs: Sequence[float], ys: Sequence[float]) -> float:
    """The least-squares slope of ys against xs."""
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=False)) / spread


#: How long past the warm-up interval the first batch may take before the run gives up.
WARM_UP_PATIENCE_S = 120


def soak(spark: SparkSession, rate: int, seconds: int, interval: int) -> list[Sample]:
    """Run the source at ``rate`` rows/s for ``seconds`` after one warm-up interval; sample."""
    df = read_random_strings(spark, rows_per_second=rate, min_length=10, max_length=10, seed=1)
    samples: list[Sample] = []
    with tempfile.TemporaryDirectory() as checkpoint:
        query = df.writeStream.format("noop").option("checkpointLocation", checkpoint).start()
        try:
            # The warm-up: one interval, and at least until the first batch has finished (on a
            # loaded machine the JVM may take longer than an interval to run it).
            warm_up_ends = time.monotonic() + interval
            deadline = warm_up_ends + WARM_UP_PATIENCE_S
            while query.lastProgress is None:
                if not query.isActive:
                    raise RuntimeError(f"the query stopped: {query.exception()}")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"no batch finished within {interval + WARM_UP_PATIENCE_S} s")
                time.sleep(0.1)  # polls the query for its first progress
            started = max(warm_up_ends, time.monotonic())
            for i in range(seconds // interval + 1):
                time.sleep(max(0.0, started + i * interval - time.monotonic()))
                if not query.isActive:
                    raise RuntimeError(f"the query stopped: {query.exception()}")
                heap = heap_after_gc_mb(spark)
                progress = query.lastProgress
                assert progress is not None  # a batch finished in the warm-up
                source = progress.sources[0]
                samples.append(
                    Sample(
                        seconds=time.monotonic() - started,
                        heap_mb=heap,
                        rows_behind=int(source.metrics["rowsBehind"]),
                        rows_read=int(source.endOffset) + 1,
                        batch_id=progress.batchId,
                    )
                )
                print(
                    f"{samples[-1].seconds:6.0f} s  heap {heap:6.1f} MB  "
                    f"rows behind {samples[-1].rows_behind:>10,}  batch {progress.batchId}",
                    flush=True,
                )
        finally:
            stop_between_batches(query)
    return samples


def checks(samples: list[Sample], rate: int) -> list[TargetRow]:
    """(what, measured, met) for the heap, the lag and the throughput."""
    minutes = [s.seconds / 60 for s in samples]
    heaps = [s.heap_mb for s in samples]
    behind = [float(s.rows_behind) for s in samples]
    run_minutes = minutes[-1] - minutes[0]
    lag_growth = slope(minutes, behind) * run_minutes
    throughput = (samples[-1].rows_read - samples[0].rows_read) / (samples[-1].seconds - samples[0].seconds)
    return [
        SOAK_HEAP_FLAT.row(
            f"spread {max(heaps) - min(heaps):.1f} MB, fitted {slope(minutes, heaps):+.2f} MB/min",
            max(heaps) - min(heaps),
        ),
        SOAK_LAG_FLAT.row(f"{lag_growth:+,.0f} rows over {run_minutes:.1f} min", lag_growth, rate),
        SOAK_KEEPS_UP.row(f"{throughput:,.0f} rows/s", throughput, rate),
    ]


def write_section(
    out: Path,
    samples: list[Sample],
    rate: int,
    info: dict[str, str],
    results: list[TargetRow],
    smoke: bool,
) -> None:
    """Replace the soak section of ``out/reliability.md`` (made if missing) and draw soak.png."""
    out.mkdir(parents=True, exist_ok=True)
    lines = [
        BEGIN,
        f"Made by `make soak` (`bench/soak.py`){' in its smoke mode' if smoke else ''}: "
        f"`rowsPerSecond` {rate:,}, 10-character alphanumeric strings, `local[2]`, the noop "
        f"sink, batches back to back; a sample every {samples[1].seconds - samples[0].seconds:.0f} s "
        f"for {samples[-1].seconds / 60:.1f} min after a warm-up.",
        "",
        "| check | measured | met |",
        "|---|---|---|",
        *[f"| {what} | {measured} | {'yes' if met else '**no**'} |" for what, measured, met in results],
        "",
        "| minute | driver heap after GC (MB) | rows behind | rows read | batch |",
        "|---|---|---|---|---|",
        *[
            f"| {s.seconds / 60:.1f} | {s.heap_mb:.1f} | {s.rows_behind:,} | {s.rows_read:,} | {s.batch_id} |"
            for s in samples
        ],
        "",
        "Machine: " + "; ".join(f"{key} {value}" for key, value in info.items()) + ".",
        "",
        "![driver heap and rows behind during the soak](soak.png)",
        END,
    ]
    report = out / "reliability.md"
    text = report.read_text() if report.exists() else f"{BEGIN}\n{END}\n"
    before, rest = text.split(BEGIN, 1)
    report.write_text(before + "\n".join(lines) + rest.split(END, 1)[1])
    _plot(out / "soak.png", samples, rate)


def _plot(path: Path, samples: list[Sample], rate: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    minutes = [s.seconds / 60 for s in samples]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.2))
    left.plot(minutes, [s.heap_mb for s in samples], marker="o")
    left.set_ylim(0, 1.5 * max(s.heap_mb for s in samples))
    left.set_xlabel("minutes")
    left.set_ylabel("MB")
    left.set_title("driver heap after a full GC")
    right.plot(minutes, [s.rows_behind / rate for s in samples], marker="o", color="tab:orange")
    right.set_ylim(0, 1.5 * max(max(s.rows_behind for s in samples) / rate, 0.1))
    right.set_xlabel("minutes")
    right.set_ylabel(f"seconds of rows (at {rate:,}/s)")
    right.set_title("rows behind")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=int, default=1_000_000, help="rowsPerSecond (default 1,000,000)")
    parser.add_argument("--seconds", type=int, default=600, help="how long to sample (default 600)")
    parser.add_argument("--interval", type=int, default=30, help="seconds between samples (default 30)")
    parser.add_argument("--smoke", action="store_true", help="a short run: 12 s, a sample every 3 s")
    parser.add_argument(
        "--out", type=Path, default=Path("docs"), help="where reliability.md and soak.png are (default: docs)"
    )
    args = parser.parse_args(argv)
    seconds, interval = (12, 3) if args.smoke else (args.seconds, args.interval)
    spark = local_session(
        "spark-random-strings soak", cores=2, log_level="OFF", silent_jvm=True, config=SPARK_HISTORIES
    )
    try:
        samples = soak(spark, args.rate, seconds, interval)
        info = machine(spark)
    finally:
        spark.stop()
    results = checks(samples, args.rate)
    write_section(args.out, samples, args.rate, info, results, args.smoke)
    for what, measured, met in results:
        print(f"{'ok  ' if met else 'FAIL'} {what}: {measured}")
    return 0 if args.smoke or all(met for _, _, met in results) else 1


if __name__ == "__main__":
    sys.exit(main())
