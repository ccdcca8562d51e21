"""`make bench`: this source against its peers, side by side, in one process and one session.

Pipelines, each into the noop sink, with the same batch size and 10-character alphanumeric
strings:
  ours          InMemoryRandomStrings, maxRowsPerTrigger = the batch size
  shaped        the same with every shaping option on: a Zipf pool of 1,000,000 values, up to
                5 s out of order, 1% late rows, 1% repeats
  profiled      the same with a rate profile (PROFILE) in place of one rowsPerSecond
  randstr       Spark's rate-micro-batch + randstr(10): the closest thing Spark has built in
  rate alone    rate-micro-batch with no string: the ceiling of the micro-batch machinery
  python        a pure-Python DataSourceStreamReader doing the same job (bench/python_source.py)
  python twin   this source's Python data source (engine="python"): the same rows as ours, made
                with numpy in the Python workers
  python floor  a Python data source that yields batches as the Python engine hands them on, made
                once: what Spark itself spends taking in batches of these columns from Python
                (bench/python_source.py)
The Nexmark section (bench/nexmark.py), in a process of its own, writes its own report,
benchmarks-nexmark.md: the `nexmark` source's generator against Apache Beam's, and the Nexmark
queries' throughput.
The change-streams section (bench/changes.py), in a process of its own too, writes
benchmarks-changes.md: the `changes` source against typed rows of the same schema and a hand-written
change feed, and its oracle's times.
And, in a section of its own (bench/typed_columns.py), one schema of typed columns made by this
source, by dbldatagen, by hand-written Spark SQL on rate-micro-batch and by this source's Python
data source, in batches of the same size, timed the same way.

A pipeline's rate is the rows of its measured batches over the time Spark spent on them
(`triggerExecution`), after warm-up batches. Repetitions interleave the pipelines, in a
rotating order, so that machine noise hits all of them alike; every repetition is reported.
Also measured: the driver's heap after a full GC, across many batches of this source; the
per-trigger time of 1-row batches against rate-micro-batch; this source's rate against
numPartitions and string length; and, last, the latency from a row's existence to a `foreach`
sink in real-time mode (batches of 5 s, and of 30 s) and under the default micro-batch trigger
(bench/real_time.py). Writes a Markdown report and a PNG plot.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boundary
import changes
import nexmark
import python_source
import real_time
import typed_columns
from driver_facts import heap_after_gc_mb, machine
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from report import (
    ChangesResults,
    Run,
    TypedResults,
    write_changes_report,
    write_real_time_report,
    write_report,
    write_section_report,
    write_typed_report,
)

from spark_random_strings import Engine, read_random_strings
from spark_random_strings.engine.local import local_session, stop_between_batches


@dataclass(frozen=True)
class Settings:
    batch_rows: int
    python_batch_rows: int
    warmup: int
    measured: int
    repetitions: int
    tiny_warmup: int
    tiny_batches: int
    curve_measured: int
    heap_batches: int
    # A first run of every pipeline before any is measured, for the JIT compiler: the full run
    # only (the smoke run measures nothing, and runs each pipeline in its repetition anyway).
    compiler_warmup: bool


FULL = Settings(
    batch_rows=2_000_000,
    python_batch_rows=2_000_000,
    warmup=2,
    measured=5,
    repetitions=5,
    tiny_warmup=5,
    tiny_batches=30,
    curve_measured=3,
    heap_batches=40,
    compiler_warmup=True,
)
SMOKE = Settings(
    batch_rows=20_000,
    python_batch_rows=2_000,
    warmup=1,
    measured=2,
    repetitions=1,
    tiny_warmup=1,
    tiny_batches=3,
    curve_measured=1,
    heap_batches=4,
    compiler_warmup=False,
)
LENGTH = 10


def measure(df: DataFrame, warmup: int, measured: int, on_batch: Callable[[int], None] | None = None) -> Run:
    """Run df into the noop sink until warmup + measured batches are done; time the measured."""
    with tempfile.TemporaryDirectory() as checkpoint:
        query = df.writeStream.format("noop").option("checkpointLocation", checkpoint).start()
        try:
            seen = 0
            deadline = time.monotonic() + 1800
            while True:
                batches = [p for p in query.recentProgress if p.numInputRows > 0]
                if on_batch is not None and len(batches) > seen:
                    seen = len(batches)
                    on_batch(seen)
                if len(batches) >= warmup + measured:
                    break
                if query.exception() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the query failed or stalled: {query.exception()}")
                time.sleep(0.05)
        finally:
            stop_between_batches(query)
    timed = batches[warmup : warmup + measured]
    batch_ms = [p.durationMs["triggerExecution"] for p in timed]
    return Run(sum(p.numInputRows for p in timed), sum(batch_ms) / 1000, batch_ms)


def ours(
    spark: SparkSession,
    rows: int,
    length: int = LENGTH,
    partitions: int | None = None,
    engine: Engine = "jvm",
    **shape: Any,
) -> DataFrame:
    # A rate no batch can reach: maxRowsPerTrigger alone sets the batch size. A profile sets
    # its own rate, and excludes rowsPerSecond.
    return read_random_strings(
        spark,
        engine=engine,
        rows_per_second=None if "rate_profile" in shape else 10**12,
        max_rows_per_trigger=rows,
        min_length=length,
        max_length=length,
        charset="alphanumeric",
        seed=1,
        num_partitions=partitions,
        **shape,
    )


def python_twin(spark: SparkSession, rows: int) -> DataFrame:
    return ours(spark, rows, partitions=2, engine="python")


def shaped(spark: SparkSession, rows: int) -> DataFrame:
    return ours(
        spark,
        rows,
        distinct_values=1_000_000,
        value_distribution="zipf",
        max_out_of_order_ms=5000,
        late_row_fraction=0.01,
        late_by_ms=60000,
        duplicate_fraction=0.01,
    )


#: Steady phases and ramps of a few ms, repeated: every batch crosses phases, and the stream
#: goes round its cycle (3,400,000 rows in 5 ms) again and again. Its rates, 200,000,000 to
#: 1,000,000,000 rows/s (the most a profile allows), are 20 to 100 times what this source reads
#: here, so rows exist long before a batch asks for them, as in "ours": maxRowsPerTrigger alone
#: sets the batch size. A ramp shorter than a second is one step, at the rate of its middle.
PROFILE = "2ms@1000000000, 1ms@1000000000..200000000, 1ms@200000000, 1ms@200000000..1000000000, repeat"


def profiled(spark: SparkSession, rows: int) -> DataFrame:
    return ours(spark, rows, rate_profile=PROFILE)


def rate_alone(spark: SparkSession, rows: int) -> DataFrame:
    return spark.readStream.format("rate-micro-batch").option("rowsPerBatch", rows).load()


def rate_randstr(spark: SparkSession, rows: int) -> DataFrame:
    return rate_alone(spark, rows).select(
        F.randstr(F.lit(LENGTH)).alias("value"), "timestamp", F.col("value").alias("offset")
    )


def _bench_python_source(spark: SparkSession, name: str, rows: int) -> DataFrame:
    """One of bench/python_source.py's sources: ``rows`` rows a batch of LENGTH-character strings, in
    two partitions."""
    return (
        spark.readStream.format(name)
        .option("rowsPerBatch", rows)
        .option("length", LENGTH)
        .option("numPartitions", 2)
        .load()
    )


def python_floor(spark: SparkSession, rows: int) -> DataFrame:
    return _bench_python_source(spark, "python_premade_batches", rows)


def python_reader(spark: SparkSession, rows: int) -> DataFrame:
    return _bench_python_source(spark, "python_random_strings", rows)


PIPELINES: dict[str, Callable[[SparkSession, int], DataFrame]] = {
    "ours": ours,
    "shaped": shaped,
    "profiled": profiled,
    "randstr": rate_randstr,
    "rate alone": rate_alone,
    "python": python_reader,
    "python twin": python_twin,
    "python floor": python_floor,
}
DESCRIPTIONS = {
    "ours": "InMemoryRandomStrings (this source)",
    "shaped": "this source, every shaping option on",
    "profiled": "this source with a rate profile",
    "randstr": "rate-micro-batch + randstr(10)",
    "rate alone": "rate-micro-batch alone, no string",
    "python": "pure-Python DataSourceStreamReader",
    "python twin": "this source's Python data source (engine=python)",
    "python floor": "Spark's floor for a Python data source of these columns (batches like the twin's, "
    "made once)",
}
#: The pipelines made by Python workers: seconds a batch, so fewer batches are measured.
IN_PYTHON = ("python", "python twin", "python floor")


def compare(
    spark: SparkSession,
    pipelines: dict[str, Callable[[SparkSession, int], DataFrame]],
    settings: Settings,
    in_python: tuple[str, ...],
    batch_rows: Callable[[str], int],
    label: str = "repetition",
) -> dict[str, list[Run]]:
    """Measure every pipeline once a repetition, in a rotating order; their runs, by name."""
    names = list(pipelines)

    def run_once(name: str) -> Run:
        # The pipelines made in Python workers take seconds a batch: fewer of them.
        warmup = 1 if name in in_python else settings.warmup
        measured = min(2, settings.measured) if name in in_python else settings.measured
        return measure(pipelines[name](spark, batch_rows(name)), warmup, measured)

    # Warm the JVM's compiler up on every pipeline before anything is measured.
    for name in names if settings.compiler_warmup else []:
        run_once(name)
    runs: dict[str, list[Run]] = {name: [] for name in pipelines}
    for repetition in range(settings.repetitions):
        order = names[repetition % len(names) :] + names[: repetition % len(names)]
        for name in order:
            run = run_once(name)
            runs[name].append(run)
            print(
                f"{label} {repetition + 1}: {name:<10} {run.rows_per_s:>14,.0f} rows/s "
                f"(batches {run.batch_ms} ms)",
                flush=True,
            )
    return runs


def typed_section(spark: SparkSession, settings: Settings) -> TypedResults:
    """The typed-columns section (bench/typed_columns.py): its pipelines' runs, on equal batches."""
    typed_columns.same_columns(spark)
    runs = compare(
        spark,
        typed_columns.PIPELINES,
        settings,
        typed_columns.IN_PYTHON,
        lambda name: settings.batch_rows,
        label="typed columns, repetition",
    )
    return TypedResults(
        schema=typed_columns.SCHEMA,
        columns=typed_columns.column_table(),
        peer=typed_columns.DBLDATAGEN,
        batch_rows=settings.batch_rows,
        warmup=settings.warmup,
        measured=settings.measured,
        repetitions=settings.repetitions,
        runs=runs,
        descriptions=typed_columns.DESCRIPTIONS,
    )


def changes_section(
    spark: SparkSession, settings: Settings, change_settings: changes.ChangeSettings
) -> ChangesResults:
    """The change-streams section (bench/changes.py): its pipelines' runs on equal batches, and the
    oracle's times."""
    runs = compare(
        spark,
        changes.pipelines(change_settings.keys),
        settings,
        (),
        lambda name: settings.batch_rows,
        label="change streams, repetition",
    )
    oracle = changes.oracle_times(spark, change_settings)
    latency = changes.latency_runs(spark, change_settings)
    return ChangesResults(
        schema=changes.SCHEMA,
        keys=change_settings.keys,
        batch_rows=settings.batch_rows,
        warmup=settings.warmup,
        measured=settings.measured,
        repetitions=settings.repetitions,
        runs=runs,
        descriptions=changes.DESCRIPTIONS,
        expected_table_s=oracle.expected_table_s,
        table_rows=oracle.table_rows,
        as_of_s=oracle.as_of_s,
        latency_rate=changes.LATENCY_RATE,
        latency_batch_s=change_settings.latency.long_batch_s,
        latency=latency,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a quick run with tiny batches")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("docs"),
        help="where benchmarks.md and benchmarks.png go (default: docs)",
    )
    parser.add_argument(
        "--real-time-only",
        action="store_true",
        help="run only the real-time section, into benchmarks-real-time.md in --out (not benchmarks.md)",
    )
    parser.add_argument(
        "--typed-only",
        action="store_true",
        help="run only the typed-columns section, into benchmarks-typed.md in --out (not benchmarks.md)",
    )
    parser.add_argument(
        "--changes-only",
        action="store_true",
        help="run only the change-streams section, into benchmarks-changes.md in --out",
    )
    parser.add_argument(
        "--nexmark-only",
        action="store_true",
        help="run only the Nexmark section, into benchmarks-nexmark.md in --out",
    )
    parser.add_argument(
        "--boundary-only",
        action="store_true",
        help="run only the trials of the pause between real-time batches of a stateful query, and the "
        "stateful queries with the package's settings, into benchmarks-boundary.md in --out",
    )
    parser.add_argument(
        "--nexmark-classpath",
        type=Path,
        default=None,
        help="the file holding the default line's test class path (with Beam's Nexmark jar), which sbt's "
        "testClasspathFile writes (default: the one under jvm/lines/ for the installed pyspark's line)",
    )
    args = parser.parse_args(argv)
    settings = SMOKE if args.smoke else FULL
    nexmark_settings = nexmark.SMOKE if args.smoke else nexmark.FULL
    if args.nexmark_classpath is None:
        args.nexmark_classpath = nexmark.default_classpath_file()
    latency_settings = real_time.SMOKE if args.smoke else real_time.FULL
    # The Python reader's workers run this interpreter, which has pyarrow.
    os.environ["PYSPARK_PYTHON"] = sys.executable

    # Queries are stopped mid-batch on purpose; their failures surface through query.exception().
    # local[2] holds the real-time section's one long-running task (one partition) and more.
    spark = local_session(
        "spark-random-strings bench",
        cores=2,
        log_level="OFF",
        silent_jvm=True,
        config=nexmark.SESSION_CONFIG if args.nexmark_only or args.boundary_only else None,
    )
    # A section on its own: run it, read the machine, stop the session, write its report.
    sections: list[tuple[bool, Callable[[], Any], Callable[..., bool]]] = [
        (
            args.real_time_only,
            lambda: real_time.run_real_time_section(spark, latency_settings),
            write_real_time_report,
        ),
        (
            args.nexmark_only,
            lambda: nexmark.run_nexmark_section(spark, args.nexmark_classpath, nexmark_settings),
            write_nexmark_report,
        ),
        (
            args.changes_only,
            lambda: changes_section(spark, settings, changes.SMOKE if args.smoke else changes.FULL),
            write_changes_report,
        ),
        (args.typed_only, lambda: typed_section(spark, settings), write_typed_report),
        (
            args.boundary_only,
            lambda: boundary.run_boundary_section(spark, nexmark_settings, smoke=args.smoke),
            write_boundary_report,
        ),
    ]
    for chosen, run_section, write_section in sections:
        if chosen:
            try:
                results = run_section()
                info = machine(spark)
            finally:
                spark.stop()
            met = write_section(args.out, results, smoke=args.smoke, info=info)
            return 0 if met or args.smoke else 1
    from pyspark import cloudpickle

    # Pickled by value: the Python workers need nothing of bench/ on their path.

    cloudpickle.register_pickle_by_value(python_source)  # type: ignore[no-untyped-call]
    spark.dataSource.register(python_source.PythonRandomStrings)
    spark.dataSource.register(python_source.PremadeBatches)
    started = time.monotonic()
    try:
        heap_before = heap_after_gc_mb(spark)
        runs = compare(
            spark,
            PIPELINES,
            settings,
            IN_PYTHON,
            lambda name: settings.python_batch_rows if name == "python" else settings.batch_rows,
        )
        heap_after_comparison = heap_after_gc_mb(spark)

        # Driver heap across many batches, after a full GC every quarter of them: this source,
        # and rate-micro-batch beside it for what Spark itself keeps per batch.
        heap_samples: dict[str, list[tuple[int, float]]] = {"ours": [], "rate alone": []}
        sample_every = max(1, settings.heap_batches // 4)
        for name, make in (("ours", ours), ("rate alone", rate_alone)):

            def sample(batches_done: int, samples: list[tuple[int, float]] = heap_samples[name]) -> None:
                if batches_done % sample_every == 0:
                    samples.append((batches_done, heap_after_gc_mb(spark)))

            measure(make(spark, settings.batch_rows), 0, settings.heap_batches, on_batch=sample)

        # Per-trigger time of 1-row batches, repeated and interleaved like the throughput runs:
        # the medians differ by a few ms, less than the machine's drift over a minute.
        tiny: dict[str, list[Run]] = {"ours": [], "rate alone": []}
        for repetition in range(settings.repetitions):
            for name in ["ours", "rate alone"][:: 1 if repetition % 2 == 0 else -1]:
                run = measure(PIPELINES[name](spark, 1), settings.tiny_warmup, settings.tiny_batches)
                tiny[name].append(run)
                print(
                    f"1-row batches, repetition {repetition + 1}: {name:<10} median "
                    f"{statistics.median(run.batch_ms):.0f} ms",
                    flush=True,
                )

        # Curves: this source against numPartitions and string length.
        by_partitions = {
            n: measure(
                ours(spark, settings.batch_rows, partitions=n), settings.warmup, settings.curve_measured
            )
            for n in (1, 2)
        }
        by_length = {
            n: measure(ours(spark, settings.batch_rows, length=n), settings.warmup, settings.curve_measured)
            for n in (4, 16, 64, 256)
        }

        # One schema of typed columns: this source against dbldatagen and hand-written SQL.
        typed = typed_section(spark, settings)

        # Latency to a foreach sink, real-time mode against micro-batch: bench/real_time.py.
        latency = real_time.run_real_time_section(spark, latency_settings)
        info = machine(spark)
    finally:
        spark.stop()

    targets_met = write_report(
        args.out,
        settings=settings,
        smoke=args.smoke,
        info=info,
        runs=runs,
        tiny=tiny,
        heap_before=heap_before,
        heap_after_comparison=heap_after_comparison,
        heap_samples=heap_samples,
        by_partitions=by_partitions,
        by_length=by_length,
        descriptions=DESCRIPTIONS,
        typed=typed,
        real_time=latency,
        minutes=(time.monotonic() - started) / 60,
    )
    # The Nexmark section (bench/nexmark.py) runs in a process of its own, with a fresh driver:
    # q7's join keeps a batch's bids in the local driver's 1 GB heap, which the sections above
    # leave too full for it (in one process the full run stalled there in back-to-back full GCs).
    nexmark_run = [sys.executable, __file__, "--nexmark-only", "--out", str(args.out)]
    nexmark_run += ["--nexmark-classpath", str(args.nexmark_classpath)] + (["--smoke"] if args.smoke else [])
    nexmark_met = subprocess.run(nexmark_run, check=False).returncode == 0
    # The change-streams section too, with a fresh driver of its own.
    changes_run = [sys.executable, __file__, "--changes-only", "--out", str(args.out)] + (
        ["--smoke"] if args.smoke else []
    )
    changes_met = subprocess.run(changes_run, check=False).returncode == 0
    return 0 if (targets_met and nexmark_met and changes_met) or args.smoke else 1


def write_nexmark_report(
    out: Path, results: nexmark.NexmarkResults, *, smoke: bool, info: dict[str, str]
) -> bool:
    """The Nexmark section's report, benchmarks-nexmark.md; whether its targets were met."""
    return write_section_report(
        out,
        "benchmarks-nexmark.md",
        title="Benchmarks: Nexmark",
        made_by="Made by `make bench` (or `run_bench.py --nexmark-only`); bench/nexmark.py says how each "
        "figure is measured",
        smoke=smoke,
        info=info,
        targets=nexmark.nexmark_targets(results),
        lines=nexmark.nexmark_lines(results),
    )


def write_boundary_report(
    out: Path, results: boundary.BoundaryResults, *, smoke: bool, info: dict[str, str]
) -> bool:
    """The trials of the pause between real-time batches, benchmarks-boundary.md; their targets'
    verdicts are the stateful queries' (those of the Nexmark section)."""
    return write_section_report(
        out,
        "benchmarks-boundary.md",
        title="Benchmarks: the pause between real-time batches",
        made_by="Made by `run_bench.py --boundary-only`; bench/boundary.py says how each figure is measured",
        smoke=smoke,
        info=info,
        targets=[],
        lines=boundary.boundary_lines_of(results),
    )


if __name__ == "__main__":
    sys.exit(main())
