"""`make bench`'s Nexmark section: the `nexmark` source's generator against Apache Beam's, and the
Nexmark queries' throughput in micro-batch, on this machine.

The generator: Beam's own (`beam-sdks-java-nexmark`, the tests' dependency, never the jar's) and
ours, in one plain `java` process with the optimising JIT, on one thread, over the same 2,000,000
default events per round, rounds alternating (NexmarkGeneratorBench, on the test class path that
`make bench` exports from sbt). Each round reads every field of every event into a checksum: the
two generators' checksums must be equal, or the section fails. Ours is measured twice: making the
events, and making them and writing Spark's rows.

The queries: every query of `nexmark_queries` (`QUERY_NAMES`: q0 to q23, q4's closing prices and
q5's counts beside q5) reads a bounded stream of the default events (10,000 a second of event
time, so that the state of the windowed queries holds the 4 s of Nexmark's watermark delay, 40,000
events; all events exist at once under Trigger.AvailableNow) in batches of `batch_events` events
into the noop sink, in its output mode (update for `UPDATE_QUERIES`), q6 and q19 with the RocksDB
state store they need; its rate is the events of the batches after the first over the time Spark
spent on them (`triggerExecution`). The joins without a time bound keep every row of a side in the
state (q3 its persons and auctions, q20 and q23 every auction's bids), those bounded by an
auction's expiry keep its bids and whole rows until it closes (q4's closing prices, q9: batches of
250,000 ran the 1 GB driver heap out in q9), q6 hands each batch's rows to a Python processor, and
q19 keeps 10 bids of each auction in RocksDB: they read batches of `small_batch_events`
(`SMALL_BATCHES`).
Repetitions interleave the queries in a rotating order. Once a query stops, its state stores are
closed (`driver_facts.release_state_stores`: Spark keeps them loaded for up to a minute, and the
queries of one minute ran the 1 GB heap out), and the driver's heap after a full GC is read: a
query's last repetition must leave it within `NEXMARK_HEAP_FLAT` of its first, in any order. The
section's session keeps Spark's history of jobs and executions short (`SESSION_CONFIG`), which
otherwise grows the heap until Spark's bounds.

The latency: q0, q1 and q2 in real-time mode, one partition, at 10,000 and 1,000,000 events/s,
each event measured from the moment it comes to exist to the jar's LatencySink (a `foreach` sink)
as bench/real_time.py measures the random strings: a warm-up batch, then a window of whole
batches of 10 s (`FULL.latency`), with the gaps between batches. Three repetitions, as for the
random strings: the first real-time queries of a JVM have a longer tail (q0's p99 at 10,000
events/s was 3.9 to 24.5 ms in the first repetition of seven runs, 1.1 to 2.9 ms in the second,
whether or not the driver's heap was collected before), and the median of two was their mean.

The stateful latency: each query that real-time mode runs with state on Spark 4.3 (q5's counts,
q12, q17 to q19, q19 with its JVM processor and RocksDB's state store; not q15 and q16, which fall
far behind that rate: `BEHIND_AT_STATEFUL_RATE`) and q13's stream-static join (of the package's
`nexmark.real_time.STATEFUL_REAL_TIME`), at 10,000 events/s, one source
partition and one shuffle partition (every stage's tasks run at once: two of local[2]'s two slots),
with the package's `REAL_TIME_SETTINGS`, in batches of 30 s (`FULL.stateful_latency`): a window
of one batch after two warm-up batches (the pause after a query's first batch holds its first
batch's own work: planning, loading and writing things for the first time), after the stateless
runs (a warm JVM). An aggregation's row is measured from its newest event (the queries'
`latest=True`: `dateTime`, the newest event the row counts), q13's, q18's and q19's rows from their
bid's `dateTime`: each row from the moment the last event that changed it came to exist. Each
pause between two batches is split into its parts (`real_time.boundaries_of`): closing a batch
(removing the state the watermark passed, the state's commit, the logs), posting the progress,
planning the next and starting its job. Databricks publishes real-time p99s for stateful queries
on its own runtime and cluster (`DATABRICKS_P99_MS`): another machine's, beside ours for scale.
bench/boundary.py tries Spark's settings for the pause one at a time.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import statistics
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import real_time
from driver_facts import heap_after_gc_mb, release_state_stores
from pyspark.sql import SparkSession
from report import LatencyRun, LatencySettings
from targets import (
    NEXMARK_GENERATOR,
    NEXMARK_GENERATOR_ROWS,
    NEXMARK_HEAP_FLAT,
    NEXMARK_Q0_P99,
    TargetRow,
)

from spark_random_strings import nexmark_queries
from spark_random_strings.engine.choice import Engine
from spark_random_strings.engine.session import session_setting
from spark_random_strings.nexmark import read_nexmark
from spark_random_strings.nexmark.queries import (
    QUERY_NAMES,
    ROCKSDB_PROVIDER,
    STATE_STORE_PROVIDER,
    TRANSFORM_WITH_STATE_QUERIES,
    UPDATE_QUERIES,
)
from spark_random_strings.nexmark.real_time import REAL_TIME_SETTINGS, STATEFUL_REAL_TIME, STATELESS_REAL_TIME

#: The peer whose generator ours is measured against (project/SparkLineProjects.scala pins its jar).
BEAM = "Beam 2.76.0"
GENERATOR_MAIN = "io.github.sparkrandomstrings.nexmark.NexmarkGeneratorBench"
#: The queries that read batches of `small_batch_events`: the joins whose state keeps a side's
#: every row (q3, q20, q23) or an open auction's bids (q4_closing_prices, q9), q6, whose Python
#: processor sees each row, and q19, whose processor keeps each auction's top 10 (read as before
#: its processor moved to the JVM, so that the figures compare).
SMALL_BATCHES = ("q3", "q4_closing_prices", "q6", "q9", "q19", "q20", "q23")
#: The rate the stateful queries are measured at, events per second.
STATEFUL_RATE = 10_000
#: Databricks' published real-time p99s at 10,000 rows/s (its runtime, cluster and Kafka source:
#: another machine's), by the kind of query, and the query of ours of that kind.
DATABRICKS_P99_MS = {"q5_counts": ("a group-by count", 14.0), "q13": ("a stream-static join", 9.0)}
#: The stateful queries not measured at STATEFUL_RATE: their exact distinct counts keep each day's
#: sets of bidders and auctions, and in real-time mode every bid writes its key's whole set back to
#: the state store, so a row costs more the longer the day has run. They handled 270 to 675 events/s
#: of the 10,000 offered in the runs that measured them (docs/nexmark.md): their latency was the
#: backlog's, over the sink's last bucket of 60 s, and a run ended only once its batch drained the
#: backlog, past the bench's patience on a slower machine. Their rows are tested in real-time mode
#: (tests/test_nexmark_stateful_queries.py); their cost is throughput's, not the boundary's.
BEHIND_AT_STATEFUL_RATE = ("q15", "q16")


#: The section's session settings: Spark's history of jobs, stages and SQL executions, which no
#: figure here reads, kept to the last 50 of each (1,000 by default). The section runs about 400
#: micro-batches and as many jobs; their history grew the heap after GC by 20 to 40 MB a repetition
#: until Spark's bounds, which reads as a leak in the heap check (NEXMARK_HEAP_FLAT).
SESSION_CONFIG = {
    "spark.ui.retainedJobs": "50",
    "spark.ui.retainedStages": "50",
    "spark.sql.ui.retainedExecutions": "50",
}

#: The rates the latency is measured at, events per second.
LATENCY_RATES = (10_000, 1_000_000)


@dataclass(frozen=True)
class NexmarkSettings:
    generator_events: int
    generator_rounds: int
    generator_warmup: int
    batch_events: int
    batches: int
    repetitions: int
    latency: LatencySettings
    #: The Python data source's batches (engine="python"): its events are made by the Python twin.
    python_batch_events: int
    #: The batches of the queries of SMALL_BATCHES.
    small_batch_events: int
    #: The stateful queries in real-time mode.
    stateful_latency: LatencySettings
    #: The queries measured in micro-batch (of nexmark_queries.QUERIES), and in real-time mode with state (of
    #: STATEFUL_REAL_TIME): all of them, or the smoke run's one of each kind.
    queries: tuple[str, ...]
    stateful_queries: tuple[str, ...]


# Batches of 250,000 events (25 s of event time): the state of q7's join holds a batch's bids
# until the watermark passes them, in the driver's heap on a local session.
# The stateful real-time runs: one window of a 30 s batch after two 30 s warm-up batches, once each
# (300,000 events a window; the pause after a query's first batch is its longest, and the second
# warm-up batch keeps it out of the window).
FULL = NexmarkSettings(
    generator_events=2_000_000,
    generator_rounds=5,
    generator_warmup=2,
    batch_events=250_000,
    batches=5,
    repetitions=3,
    latency=LatencySettings(10.0, 2, 1, 10.0, 2, 0.0, 0.0, repetitions=3),
    python_batch_events=25_000,
    small_batch_events=50_000,
    stateful_latency=LatencySettings(30.0, 1, 1, 30.0, 1, 0.0, 0.0, repetitions=1, warmup_batches=2),
    queries=QUERY_NAMES,
    stateful_queries=tuple(name for name in STATEFUL_REAL_TIME if name not in BEHIND_AT_STATEFUL_RATE),
)
# The smoke run measures one query of each way the section runs one: q0 stateless; q6 with small
# batches and RocksDB's state store, in append mode; q12 in update mode; q13 with its side input;
# and q5_counts in real-time mode with latest=True and a published p99 beside it. The others run
# the same code with another query, which their own tests check (each smoke query costs the run
# about 4 s; the smoke run is part of CI's 55 minutes).
SMOKE = dataclasses.replace(
    FULL,
    generator_events=20_000,
    generator_rounds=1,
    generator_warmup=0,
    batch_events=10_000,
    batches=2,
    repetitions=1,
    latency=LatencySettings(0.5, 2, 1, 0.5, 2, 0.0, 0.0, repetitions=1),
    python_batch_events=1_000,
    small_batch_events=1_000,
    stateful_latency=LatencySettings(1.0, 1, 1, 1.0, 1, 0.0, 0.0, repetitions=1),
    queries=("q0", "q6", "q12", "q13"),
    stateful_queries=("q5_counts",),
)


@dataclass
class NexmarkResults:
    settings: NexmarkSettings
    #: Events per second, per round: "beam", "ours", "ours+rows".
    generator: dict[str, list[float]]
    #: Whether every round's checksums of Beam's and ours were equal.
    same_events: bool
    #: Events per second, per repetition, by query.
    queries: dict[str, list[float]] = field(default_factory=dict)
    #: The driver's heap after a full GC after each repetition of each query, MB, by query.
    heap_mb: dict[str, list[float]] = field(default_factory=dict)
    #: Real-time runs, per repetition, by (query, rate).
    latency: dict[tuple[str, int], list[LatencyRun]] = field(default_factory=dict)
    #: q0 through the Python data source, events/s per repetition.
    python_q0: list[float] = field(default_factory=list)
    #: The stateful queries' real-time runs, per repetition, by query.
    stateful_latency: dict[str, list[LatencyRun]] = field(default_factory=dict)

    @property
    def speedup(self) -> float:
        return statistics.median(self.generator["ours"]) / statistics.median(self.generator["beam"])

    @property
    def heap_growth_mb(self) -> float | None:
        """The most any query's heap after GC grew from its first repetition to its last (None if
        no query ran twice)."""
        growths = [heaps[-1] - heaps[0] for heaps in self.heap_mb.values() if len(heaps) > 1]
        return max(growths) if growths else None

    @property
    def rows_speedup(self) -> float:
        """The generator with Spark's rows written, against Beam's generator."""
        return statistics.median(self.generator["ours+rows"]) / statistics.median(self.generator["beam"])


def default_classpath_file() -> Path:
    """The test class path that sbt's testClasspathFile wrote for the installed pyspark's line."""
    import pyspark

    line = ".".join(pyspark.__version__.split(".")[:2])
    found = sorted(
        (Path(__file__).resolve().parent.parent / "jvm" / "lines").glob(
            f"spark-{line}_*/target/test-classpath.txt"
        )
    )
    if not found:
        raise SystemExit(
            f"No test class path for Spark {line} under jvm/lines: run `make bench`, or sbt's "
            "<line>/testClasspathFile, first (it holds Beam's Nexmark jar, which the section runs)."
        )
    return found[-1]


def run_generators(classpath: str, settings: NexmarkSettings) -> tuple[dict[str, list[float]], bool]:
    """Beam's generator and ours, in a `java` of their own: each round's events/s, and whether
    the two made the same events in every round."""
    done = subprocess.run(
        [
            "java",
            "-Xmx2g",
            "-cp",
            classpath,
            GENERATOR_MAIN,
            str(settings.generator_events),
            str(settings.generator_rounds),
            str(settings.generator_warmup),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    rates: dict[str, list[float]] = {}
    checksums: dict[tuple[str, int], int] = {}
    for line in done.stdout.splitlines():
        if not line.startswith("{"):
            continue
        run = json.loads(line)
        rates.setdefault(run["generator"], []).append(run["events"] / run["seconds"])
        checksums[(run["generator"], run["round"])] = run["checksum"]
        rate = run["events"] / run["seconds"]
        print(f"generator {run['generator']:<10} round {run['round']}: {rate:>12,.0f} events/s", flush=True)
    same = all(checksums[("beam", r)] == checksums[("ours", r)] for r in range(settings.generator_rounds))
    return rates, same


def batch_events(name: str, settings: NexmarkSettings, engine: Engine = "jvm") -> int:
    """The events of a batch of query `name`'s runs."""
    if engine == "python":
        return settings.python_batch_events
    return settings.small_batch_events if name in SMALL_BATCHES else settings.batch_events


def _state_store(spark: SparkSession, name: str) -> str:
    """The state store query `name` runs on, fixed by its first batch (its checkpoint keeps it): q6
    and q19 need RocksDB's, the others run on the session's."""
    return (
        ROCKSDB_PROVIDER
        if name in TRANSFORM_WITH_STATE_QUERIES
        else str(spark.conf.get(STATE_STORE_PROVIDER))
    )


def _measure(spark: SparkSession, name: str, settings: NexmarkSettings, engine: Engine = "jvm") -> float:
    """One run of query `name` over `batches` batches: events/s over the batches after the first."""
    batch = batch_events(name, settings, engine)
    events = read_nexmark(
        spark, engine=engine, num_events=batch * settings.batches, max_events_per_trigger=batch
    )
    with (
        tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as checkpoint,
        session_setting(spark, STATE_STORE_PROVIDER, _state_store(spark, name)),
    ):
        running = (
            nexmark_queries.QUERIES[name](events)
            .writeStream.format("noop")
            .outputMode("update" if name in UPDATE_QUERIES else "append")
            .option("checkpointLocation", checkpoint)
            .trigger(availableNow=True)
            .start()
        )
        try:
            running.awaitTermination()
        finally:
            running.stop()
            release_state_stores(spark)
        error = running.exception()
        if error is not None:
            raise RuntimeError(f"the query failed: {error}")
        progress = [p for p in running.recentProgress if int(p["numInputRows"]) > 0]
    measured = progress[1:] or progress
    rows = sum(int(p["numInputRows"]) for p in measured)
    seconds = sum(int(p["durationMs"]["triggerExecution"]) for p in measured) / 1000
    return rows / seconds


def measure_with_heap(spark: SparkSession, name: str, settings: NexmarkSettings) -> tuple[float, float]:
    """One run of query `name` (events/s over the batches after the first), and the driver's heap
    after a full GC once the query stopped and its state stores were closed, MB."""
    rate = _measure(spark, name, settings)
    return rate, heap_after_gc_mb(spark)


def run_nexmark_section(
    spark: SparkSession, classpath_file: Path, settings: NexmarkSettings
) -> NexmarkResults:
    """The generator rounds, then the queries, interleaved over the repetitions."""
    rates, same = run_generators(classpath_file.read_text().strip(), settings)
    results = NexmarkResults(settings=settings, generator=rates, same_events=same)
    names = list(settings.queries)
    for repetition in range(settings.repetitions):
        shift = repetition % len(names)
        for name in names[shift:] + names[:shift]:
            rate, heap = measure_with_heap(spark, name, settings)
            results.queries.setdefault(name, []).append(rate)
            results.heap_mb.setdefault(name, []).append(heap)
            print(
                f"nexmark {name:<10} repetition {repetition + 1}: {rate:>12,.0f} events/s, "
                f"heap after {heap:,.1f} MB",
                flush=True,
            )
        rate = _measure(spark, "q0", settings, engine="python")
        results.python_q0.append(rate)
        print(f"nexmark q0 (python) repetition {repetition + 1}: {rate:>12,.0f} events/s", flush=True)
    run_latency(spark, settings, results)
    run_stateful_latency(spark, settings, results)
    return results


def run_latency(spark: SparkSession, settings: NexmarkSettings, results: NexmarkResults) -> None:
    """q0 to q2 in real-time mode at each rate, the repetitions interleaved."""
    timed = STATELESS_REAL_TIME
    latency = settings.latency
    with real_time.min_batch_duration(spark, latency.batch_s):
        configs = [(name, rate) for rate in LATENCY_RATES for name in timed]
        for repetition in range(latency.repetitions):
            shift = repetition % len(configs)
            for name, rate in configs[shift:] + configs[:shift]:
                events = read_nexmark(
                    spark,
                    real_time=True,
                    num_events=0,
                    num_partitions=1,
                    first_event_rate=rate,
                    next_event_rate=rate,
                )
                run = real_time.measure_latency(
                    spark, rate, latency.batch_s, latency, latency.batches, df=timed[name](events)
                )
                results.latency.setdefault((name, rate), []).append(run)
                print(
                    f"nexmark real-time {name} at {rate:,}/s, repetition {repetition + 1}: "
                    f"p50 {run.p50_ms:.1f} ms, p99 {run.p99_ms:.1f} ms, p99.9 {run.p999_ms:.1f} ms, "
                    f"max {run.max_ms:.1f} ms, "
                    f"{run.rows_per_s:,.0f} events/s",
                    flush=True,
                )


def measure_stateful(
    spark: SparkSession, name: str, latency: LatencySettings, session: Mapping[str, str] = REAL_TIME_SETTINGS
) -> LatencyRun:
    """One real-time run of the query ``name`` of STATEFUL_REAL_TIME at STATEFUL_RATE, one source
    partition and one shuffle partition, in batches of ``latency.batch_s``, with the session
    settings ``session`` (the package's REAL_TIME_SETTINGS by default) for the run."""
    events = read_nexmark(
        spark,
        real_time=True,
        num_events=0,
        num_partitions=1,
        first_event_rate=STATEFUL_RATE,
        next_event_rate=STATEFUL_RATE,
    )
    # Spark 4.3 keeps a real-time query's state in RocksDB (it sets it where the session does
    # not); q19's function asks for the setting itself.
    settings = {"spark.sql.shuffle.partitions": "1", STATE_STORE_PROVIDER: ROCKSDB_PROVIDER, **session}
    with contextlib.ExitStack() as stack:
        stack.enter_context(real_time.min_batch_duration(spark, latency.batch_s))
        for key, value in settings.items():
            stack.enter_context(session_setting(spark, key, value))
        return real_time.measure_latency(
            spark,
            STATEFUL_RATE,
            latency.batch_s,
            latency,
            latency.batches,
            df=STATEFUL_REAL_TIME[name](events),
        )


def run_stateful_latency(spark: SparkSession, settings: NexmarkSettings, results: NexmarkResults) -> None:
    """The stateful queries in real-time mode at STATEFUL_RATE, one shuffle partition, with the
    package's REAL_TIME_SETTINGS."""
    latency = settings.stateful_latency
    names = list(settings.stateful_queries)
    for repetition in range(latency.repetitions):
        shift = repetition % len(names)
        for name in names[shift:] + names[:shift]:
            run = measure_stateful(spark, name, latency)
            results.stateful_latency.setdefault(name, []).append(run)
            print(
                f"nexmark real-time {name} at {STATEFUL_RATE:,}/s, repetition {repetition + 1}: "
                f"p50 {run.p50_ms:.1f} ms, p99 {run.p99_ms:.1f} ms, p99.9 {run.p999_ms:.1f} ms, "
                f"max {run.max_ms:.1f} ms, {run.rows:,} rows",
                flush=True,
            )


def nexmark_targets(results: NexmarkResults) -> list[TargetRow]:
    q0 = results.latency.get(("q0", LATENCY_RATES[0]), [])
    p99 = statistics.median(run.p99_ms for run in q0) if q0 else float("nan")
    latency = NEXMARK_Q0_P99.row(
        f"{p99:.1f} ms", p99, rate=LATENCY_RATES[0], batch_s=results.settings.latency.batch_s
    )
    label, measured, met = NEXMARK_GENERATOR.row(f"{results.speedup:.2f}x", results.speedup, beam=BEAM)
    if not results.same_events:
        measured += " (**the checksums differed: not the same events**)"
    generator = (label, measured, met and results.same_events)
    rows = NEXMARK_GENERATOR_ROWS.row(f"{results.rows_speedup:.2f}x", results.rows_speedup, beam=BEAM)
    growth = results.heap_growth_mb
    heap = NEXMARK_HEAP_FLAT.row(
        "no query ran twice" if growth is None else f"{growth:+.1f} MB",
        float("nan") if growth is None else growth,
        queries=len(results.heap_mb),
    )
    return [latency, generator, rows, heap]


def nexmark_lines(results: NexmarkResults) -> list[str]:
    """The section's tables: every round and repetition, and the medians."""
    s = results.settings
    gen = results.generator
    lines = [
        "## Nexmark",
        "",
        f"The generator, on one thread, {s.generator_events:,} default events per round "
        f"({s.generator_warmup} warm-up rounds not shown), events/s:",
        "",
        "| generator | "
        + " | ".join(f"round {i + 1}" for i in range(s.generator_rounds))
        + " | median | vs Beam |",
        "|---|" + "---|" * (s.generator_rounds + 2),
    ]
    beam = statistics.median(gen["beam"])
    labels = {"beam": BEAM, "ours": "ours", "ours+rows": "ours, and Spark's rows written"}
    for name in ("beam", "ours", "ours+rows"):
        median = statistics.median(gen[name])
        lines.append(
            f"| {labels[name]} | "
            + " | ".join(f"{rate:,.0f}" for rate in gen[name])
            + f" | {median:,.0f} | {median / beam:.2f}x |"
        )
    lines += [
        "",
        "Same events: " + ("yes, every round's checksums equal." if results.same_events else "**no**."),
        "",
        f"Every query in micro-batch, {s.batches} batches under Trigger.AvailableNow into the noop sink in "
        f"its output mode, the {s.batches - 1} batches after the first, events/s (q6 and q19 with RocksDB's "
        "state store, q19's processor in the JVM, the others with Spark's default), and the driver's "
        "heap after a full GC after each repetition, its state stores closed once the query stopped "
        "(`release_state_stores`):",
        "",
        "| query | batch events | mode | "
        + " | ".join(f"repetition {i + 1}" for i in range(s.repetitions))
        + " | median | heap after, MB |",
        "|---|---|---|" + "---|" * (s.repetitions + 2),
    ]
    for name in QUERY_NAMES:
        rates = results.queries.get(name)
        if not rates:
            continue
        mode = "update" if name in UPDATE_QUERIES else "append"
        lines.append(
            f"| {name} | {batch_events(name, s):,} | {mode} | "
            + " | ".join(f"{rate:,.0f}" for rate in rates)
            + f" | {statistics.median(rates):,.0f} | "
            + ", ".join(f"{mb:,.0f}" for mb in results.heap_mb.get(name, []))
            + " |"
        )
    python_q0 = statistics.median(results.python_q0)
    times = statistics.median(results.queries["q0"]) / python_q0
    lines += [
        "",
        f'q0 through the Python data source (`engine="python"`, the events made by the generator\'s Python '
        f"twin in the Python workers), batches of {s.python_batch_events:,} events, events/s: "
        + ", ".join(f"{rate:,.0f}" for rate in results.python_q0)
        + f"; median {python_q0:,.0f}, the jar's q0 {times:,.0f} times as fast.",
        "",
        f"Real-time mode, one partition, batches of {s.latency.batch_s:g} s: from the moment each "
        "event comes to exist to the `foreach` sink (q2 keeps each bid's dateTime for it), each "
        f"repetition's window of {s.latency.batches} batches after a warm-up batch. Events/s counts "
        "the window's events over its whole batch periods, the gaps between batches included; a gap "
        "runs from the last event of one batch to reach the sink to the first of the next:",
        "",
        "| query | events/s offered | repetition | events/s | p50 ms | p99 ms | p99.9 ms | max ms "
        "| gaps: count, median, longest ms |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for (name, rate), runs in sorted(results.latency.items(), key=lambda item: (item[0][1], item[0][0])):
        for i, run in enumerate(runs):
            lines.append(
                f"| {name} | {rate:,} | {i + 1} | {run.rows_per_s:,.0f} | {run.p50_ms:.1f} "
                f"| {run.p99_ms:.1f} | {run.p999_ms:.1f} | {run.max_ms:.1f} | {_gaps(run)} |"
            )
    lines += stateful_lines(results)
    lines.append("")
    return lines


def _gaps(run: LatencyRun) -> str:
    """A run's gaps between batches: their count, median and longest, in ms."""
    if run.gap_median_ms is None or run.gap_max_ms is None:
        return "none"
    return f"{run.gap_count}, {run.gap_median_ms:.1f}, {run.gap_max_ms:.1f}"


def stateful_lines(results: NexmarkResults) -> list[str]:
    """The stateful real-time table, with Databricks' published figures beside the kind they measure."""
    s = results.settings.stateful_latency
    lines = [
        "",
        f"The stateful queries (and q13's stream-static join) in real-time mode at {STATEFUL_RATE:,} "
        f"events/s, one source partition and one shuffle partition, batches of {s.batch_s:g} s, a "
        f"window of {s.batches} batch(es) after {s.warmup_batches} warm-up batch(es), with the package's "
        "`REAL_TIME_SETTINGS`: each row from the moment the newest event it counts came to exist to "
        "the `foreach` sink (rows are updates: events/s here is rows/s). "
        "Databricks' p99 is its published figure for a query of that kind at 10,000 rows/s, on its "
        "runtime, cluster and Kafka source: another machine's, for scale "
        "(docs/nexmark.md, Benchmarks, cites it):",
        "",
        "| query | repetition | rows/s | p50 ms | p99 ms | p99.9 ms | max ms "
        "| gaps: count, median, longest ms | Databricks' p99 |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, runs in results.stateful_latency.items():
        kind = DATABRICKS_P99_MS.get(name)
        published = f"{kind[1]:g} ms ({kind[0]})" if kind else ""
        for i, run in enumerate(runs):
            lines.append(
                f"| {name} | {i + 1} | {run.rows_per_s:,.0f} | {run.p50_ms:.1f} | {run.p99_ms:.1f} "
                f"| {run.p999_ms:.1f} | {run.max_ms:.1f} | {_gaps(run)} | {published} |"
            )
    lines += [
        "",
        f"Not measured here: {' and '.join(BEHIND_AT_STATEFUL_RATE)}, whose exact distinct counts rewrite "
        "a day's sets of bidders and auctions in the state store for every bid, and fall behind "
        f"{STATEFUL_RATE:,} events/s by far in real-time mode (docs/nexmark.md, Benchmarks, has the "
        "figures).",
    ]
    return lines + boundary_lines(results.stateful_latency, "query")


def boundary_lines(runs: dict[str, list[LatencyRun]], what: str) -> list[str]:
    """The pause before each batch of each run after its first, split into its parts
    (`report.Boundary`); ``runs`` by their ``what``."""
    lines = [
        "",
        "The pause before each batch after the first, split by the query's progress (ms): from the "
        "last row of a batch to reach the sink to the first of the next. Closing the batch runs from "
        "its last row to the end of its trigger (of which removing the state the watermark passed, "
        "`allRemovalsTimeMs`, the state stores' commit, `commitTimeMs`, and the offset and commit logs, "
        "`walCommit` and `commitOffsets`); then the progress is made and posted (in no duration of "
        "Spark's); starting the next runs from its start to its first row (of which planning: "
        "`latestOffset`, `getBatch`, `queryPlanning`; the rest is its job's start: scheduling, tasks, "
        "the state stores' load, the first row through the shuffle). The parts add up to the pause:",
        "",
        f"| {what} | repetition | batch | pause | closing | of which eviction | of which commit "
        "| of which logs | progress | starting | of which planning |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, repetitions in runs.items():
        for i, run in enumerate(repetitions):
            for b in run.boundaries:
                batch = f"{b.batch}" if b.in_window else f"{b.batch} (warm-up)"
                lines.append(
                    f"| {name} | {i + 1} | {batch} | {b.gap_ms:.1f} | {b.close_ms:.1f} | {b.evict_ms:.0f} "
                    f"| {b.commit_ms:.0f} | {b.logs_ms:.0f} | {b.between_ms:.0f} | {b.start_ms:.1f} "
                    f"| {b.planning_ms:.0f} |"
                )
    return lines
