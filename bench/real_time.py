"""`make bench`'s real-time section: how long rows take from the moment they come to exist to a
`foreach` sink, in Spark's real-time mode and, on the same stream, under the default micro-batch
trigger.

The query is stateless: this source (realTime=true, numPartitions=1, 10-character alphanumeric
strings) -> selectExpr("value", "offset", "length") -> the jar's LatencySink, a JVM
ForeachWriter that records, for each row, the moment it reached the sink minus the moment it
came to exist. Both triggers run the same DataFrame; only the trigger differs.

First, what one partition hands on: real-time mode at a rate far above it, rows reaching the
sink over whole batches. Then, interleaved over the repetitions in a rotating order, each
trigger at 10,000 rows/s and at HIGH_FRACTION of that capacity, real-time mode in batches of
Spark's least duration (5 s by default); and at 10,000 rows/s real-time mode also in batches of
30 s, whose gaps between batches hold a sixth of the rows they hold at 5 s.

A run's window is whole batches, so that each of its batch boundaries is counted once. In
real-time mode, after the warm-up batches (`LatencySettings.warmup_batches`; the first also hands
on the rows that existed before its task started), the sink is reset as soon as the last of them
has posted its progress (it has ended, and the next batch's first row comes a planning and a job's
start later), and read as soon as the window's last batch has posted its own: batch ids, not
pauses in the rows, which a shuffled query's bursts also make. Under the micro-batch trigger, after
a warm-up time, the sink is reset in a pause between two batches, and the window runs from the
next batch's first row to the pause after the batch running when the window's time is up.
Rows/s is the window's rows over the time from its first row to the first row after it: whole
batch periods, the pauses between batches included.
"""

from __future__ import annotations

import contextlib
import itertools
import statistics
import tempfile
import time
from collections.abc import Iterable
from datetime import datetime

from driver_facts import release_state_stores
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.streaming.listener import StreamingQueryProgress
from pyspark.sql.streaming.query import StreamingQuery
from report import Boundary, LatencyConfig, LatencyRun, LatencySettings, RealTimeResults

from spark_random_strings import read_random_strings
from spark_random_strings.engine.session import session_setting
from spark_random_strings.latency.sink import (
    BatchArrivals,
    LatencySummary,
    latency_summary,
    reset_latency,
    start_measured,
)

#: The rate of the first configuration, and what the capacity runs offer: far above what one
#: partition hands on, so that rows always exist before the reader asks for them.
LOW_RATE = 10_000
CAPACITY_OFFERED = 1_000_000_000
#: The high rate: this fraction of the capacity's median, to 3 significant figures.
HIGH_FRACTION = 0.8
#: A pause in the sink's row count this long is the gap between two batches.
QUIET_S = 0.010
#: Spark's floor under a real-time batch's duration.
MIN_BATCH_CONF = "spark.sql.streaming.realTimeMode.minBatchDuration"
LENGTH = 10
#: The durations of a batch's progress that plan it, before its job starts.
PLANNING_KEYS = ("latestOffset", "getBatch", "queryPlanning")


FULL = LatencySettings(
    batch_s=5.0,
    batches=3,
    capacity_batches=1,
    long_batch_s=30.0,
    long_batches=2,
    micro_batch_warmup_s=5.0,
    micro_batch_window_s=10.0,
    repetitions=3,
)
SMOKE = LatencySettings(
    batch_s=0.5,
    batches=2,
    capacity_batches=1,
    long_batch_s=1.0,
    long_batches=2,
    micro_batch_warmup_s=1.0,
    micro_batch_window_s=1.0,
    repetitions=1,
)

_names = itertools.count()


def min_batch_duration(spark: SparkSession, batch_s: float) -> contextlib.AbstractContextManager[None]:
    """Spark's floor under a real-time batch's duration at ``batch_s`` for the block (5 s by
    default: the smoke runs' batches are shorter), then as it was."""
    return session_setting(spark, MIN_BATCH_CONF, f"{round(batch_s * 1000)}ms")


def stream(spark: SparkSession, rate: int) -> DataFrame:
    """The measured query's DataFrame: this source, one partition, then a projection."""
    return read_random_strings(
        spark,
        engine="jvm",
        real_time=True,
        rows_per_second=rate,
        num_partitions=1,
        min_length=LENGTH,
        max_length=LENGTH,
        charset="alphanumeric",
        seed=1,
    ).selectExpr("value", "offset", "length")


def _count(spark: SparkSession, name: str) -> int:
    """The rows the sink named ``name`` has recorded: one call, cheaper than a whole summary."""
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    return int(jvm.io.github.sparkrandomstrings.LatencySink.summary(name).get("count"))


def _wait_for_rows(
    spark: SparkSession,
    name: str,
    above: int,
    patience_s: float,
    every_s: float = 0.002,
    query: StreamingQuery | None = None,
) -> float:
    """Poll until the sink has recorded more than ``above`` rows; the moment it had. A ``query``
    that failed meanwhile raises its error (checked every second)."""
    deadline = time.monotonic() + patience_s
    checked = time.monotonic()
    while _count(spark, name) <= above:
        now = time.monotonic()
        if query is not None and now - checked >= 1.0:
            checked = now
            if not query.isActive:
                raise RuntimeError(f"{name} stopped before its rows came: {query.exception()}")
        if now > deadline:
            raise RuntimeError(f"{name}: no row reached the sink in {patience_s:.0f} s")
        time.sleep(every_s)
    return time.monotonic()


def _wait_for_pause(spark: SparkSession, name: str, patience_s: float) -> tuple[int, bool]:
    """Poll until the sink's count stays put for QUIET_S: a gap between two batches. The count
    then, and whether the pause came within ``patience_s``."""
    deadline = time.monotonic() + patience_s
    last, since = _count(spark, name), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.002)
        now_count, now = _count(spark, name), time.monotonic()
        if now_count != last:
            last, since = now_count, now
        elif now - since >= QUIET_S:
            return last, True
    return last, False


def _trigger_ms(query: StreamingQuery, after: int, patience_s: float) -> list[int]:
    """The trigger times (ms) of the batches after batch ``after`` that are done, once at least
    one is: the window's (the batch ``after`` ran when the sink was reset)."""
    progress = _progress_until(query, after + 1, patience_s)
    return [int(p.durationMs["triggerExecution"]) for p in progress if int(p.batchId) > after]


def _epoch_ms(timestamp: str) -> float:
    """A progress's timestamp (ISO 8601, to the ms, in UTC) as epoch ms."""
    return datetime.fromisoformat(timestamp).timestamp() * 1000


def boundaries_of(
    progress: Iterable[StreamingQueryProgress], arrivals: Iterable[BatchArrivals], window: Iterable[int]
) -> list[Boundary]:
    """The pause before each batch split into its parts, from the query's ``progress`` (its
    batches' start, duration and durations) and the sink's ``arrivals`` (each batch's first and
    last row), both read on one clock (local mode); those before the ``window``'s batches are
    marked. A batch whose own or whose predecessor's progress or rows are missing has none."""
    by_id = {int(p.batchId): p for p in progress}
    rows = {a.batch: a for a in arrivals}
    measured = set(window)
    found = []
    for batch in sorted(rows):
        before, after = by_id.get(batch - 1), by_id.get(batch)
        last, first = rows.get(batch - 1), rows.get(batch)
        if before is None or after is None or last is None or first is None:
            continue
        last_ms, first_ms = last.last_us / 1000, first.first_us / 1000
        end_ms = _epoch_ms(before.timestamp) + before.batchDuration
        start_ms = _epoch_ms(after.timestamp)
        durations = before.durationMs
        found.append(
            Boundary(
                batch=batch,
                in_window=batch in measured,
                gap_ms=first_ms - last_ms,
                close_ms=end_ms - last_ms,
                evict_ms=float(sum(op.allRemovalsTimeMs for op in before.stateOperators)),
                commit_ms=float(sum(op.commitTimeMs for op in before.stateOperators)),
                logs_ms=float(durations.get("walCommit", 0) + durations.get("commitOffsets", 0)),
                between_ms=start_ms - end_ms,
                start_ms=first_ms - start_ms,
                planning_ms=float(sum(after.durationMs.get(key, 0) for key in PLANNING_KEYS)),
            )
        )
    return found


def _whole_batches(summary: LatencySummary, window: range) -> bool:
    """Whether the sink measured the ``window``'s batches whole: its first row after the reset was
    the first batch's first, and no row of a later batch had come."""
    firsts = {a.batch: a.first_us for a in summary.batches}
    started = firsts.get(window[0])
    return (
        summary.first_ms is not None
        and started is not None
        and started // 1000 >= summary.first_ms
        and all(batch <= window[-1] for batch in firsts)
    )


def _wait_for_batch_end(query: StreamingQuery, batch: int, name: str, patience_s: float) -> None:
    """Poll until the query has posted batch ``batch``'s progress: it has ended (real-time mode
    runs the next one at once). A query that stopped raises its error."""
    deadline = time.monotonic() + patience_s
    while _last_batch_id(query) < batch:
        if not query.isActive:
            raise RuntimeError(f"{name} stopped before batch {batch} ended: {query.exception()}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{name}: batch {batch} did not end in {patience_s:.0f} s")
        time.sleep(0.01)


def _last_batch_id(query: StreamingQuery) -> int:
    """The id of the query's last batch that posted its progress (-1 before any): read in the JVM,
    which the polls need cheap (``lastProgress`` parses the progress's JSON)."""
    progress = query._jsq.lastProgress()
    return -1 if progress is None else int(progress.batchId())


def _progress_until(query: StreamingQuery, batch: int, patience_s: float) -> list[StreamingQueryProgress]:
    """The query's recent progress, once it holds batch ``batch``'s (or the patience ran out)."""
    deadline = time.monotonic() + patience_s
    while True:
        progress = query.recentProgress
        if any(int(p.batchId) >= batch for p in progress) or time.monotonic() > deadline:
            return progress
        time.sleep(0.05)


def measure_latency(
    spark: SparkSession,
    rate: int,
    batch_s: float | None,
    settings: LatencySettings,
    batches: int,
    df: DataFrame | None = None,
) -> LatencyRun:
    """One run: start the query, warm it up, reset the sink, and measure a window of whole
    batches (``batches`` real-time batches of ``batch_s`` seconds; with ``batch_s`` None, the
    default micro-batch trigger over ``settings.micro_batch_window_s``). The query is ``df``, or
    else this source's ``stream`` at ``rate``."""
    name = f"bench-latency-{next(_names)}"
    if batch_s is not None:
        window_s = batches * batch_s
        # Where to start watching for the pause after a batch: before its deadline, and after
        # the start of that batch.
        margin_s = min(0.5, batch_s / 4)
        # The first batches are the warm-up; the reset waits for the pause after them.
        warmup_s = settings.warmup_batches * batch_s - margin_s
    else:
        warmup_s, window_s, margin_s = settings.micro_batch_warmup_s, settings.micro_batch_window_s, 0.0
    patience_s = 2 * (batch_s or settings.batch_s) + 30
    # ignore_cleanup_errors: a file a stopped task's thread may still write as the directory goes.
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as checkpoint:
        query = start_measured(
            stream(spark, rate) if df is None else df,
            name=name,
            checkpoint=checkpoint,
            real_time=None if batch_s is None else f"{round(batch_s * 1000)} milliseconds",
        )
        try:
            # Polls cost the driver's core, which plans the next batch: not before their time.
            time.sleep(warmup_s)
            if batch_s is None:
                # The sink counts afresh from a pause between two batches: the window's first row
                # is the next batch's first.
                _wait_for_pause(spark, name, patience_s)
            else:
                # The last warm-up batch has ended once its progress is posted; the next one's first
                # row comes a planning and a job's start later.
                _wait_for_batch_end(query, settings.warmup_batches - 1, name, patience_s)
            reset_latency(spark, name)
            before = _last_batch_id(query)
            first = _wait_for_rows(spark, name, 0, patience_s, every_s=0.005, query=query)
            time.sleep(max(0.0, first + window_s - margin_s - time.monotonic()))
            if batch_s is None:
                rows, paused = _wait_for_pause(spark, name, patience_s)
                summary = latency_summary(spark, name)
            else:
                window = range(settings.warmup_batches, settings.warmup_batches + batches)
                _wait_for_batch_end(query, window[-1], name, patience_s)
                summary = latency_summary(spark, name)
                rows, paused = summary.count, _whole_batches(summary, window)
            after = _wait_for_rows(spark, name, rows, patience_s)
            error = query.exception()
            if error is not None:
                raise RuntimeError(f"{name} failed: {error}")
            trigger_ms = _trigger_ms(query, after=before + 1, patience_s=patience_s)
            boundaries: list[Boundary] = []
            if batch_s is not None:
                progress = _progress_until(query, window[-1], patience_s)
                boundaries = boundaries_of(progress, summary.batches, window)
        finally:
            query.stop()
            reset_latency(spark, name)  # its buckets are a few MB
            release_state_stores(spark)  # a stateful query's (driver_facts says why)
    assert summary.p50_ms is not None and summary.p99_ms is not None and summary.max_ms is not None
    assert summary.p999_ms is not None
    return LatencyRun(
        rows=rows,
        seconds=after - first,
        p50_ms=summary.p50_ms,
        p99_ms=summary.p99_ms,
        p999_ms=summary.p999_ms,
        max_ms=summary.max_ms,
        gap_count=summary.gap_count,
        gap_median_ms=summary.gap_median_ms,
        gap_max_ms=summary.gap_max_ms,
        trigger_ms=trigger_ms,
        aligned=paused and summary.count == rows,
        boundaries=boundaries,
    )


def _timed(spark: SparkSession, config: LatencyConfig, settings: LatencySettings, what: str) -> LatencyRun:
    """measure_latency, with a line on standard output."""
    started = time.monotonic()
    if config.rate == CAPACITY_OFFERED:
        batches = settings.capacity_batches
    elif config.batch_s == settings.long_batch_s:
        batches = settings.long_batches
    else:
        batches = settings.batches
    run = measure_latency(spark, config.rate, config.batch_s, settings, batches)
    took = time.monotonic() - started
    gaps = (
        f"{run.gap_count} gaps, median {run.gap_median_ms:6.1f} ms, longest {run.gap_max_ms:6.1f} ms"
        if run.gap_median_ms is not None and run.gap_max_ms is not None
        else "no gap"
    )
    print(
        f"{what}: {config.label:<32} p50 {run.p50_ms:7.1f} ms  p99 {run.p99_ms:7.1f} ms  "
        f"p99.9 {run.p999_ms:7.1f} ms  max {run.max_ms:8.1f} ms  {gaps}  "
        f"{run.rows_per_s:>12,.0f} rows/s  (run of {took:.1f} s)"
        + ("" if run.aligned else "  (the window did not end in a pause between batches)"),
        flush=True,
    )
    return run


def run_real_time_section(spark: SparkSession, settings: LatencySettings) -> RealTimeResults:
    """The capacity runs, then every configuration, interleaved over the repetitions."""
    with min_batch_duration(spark, settings.batch_s):
        capacity_config = LatencyConfig(CAPACITY_OFFERED, settings.batch_s)
        capacity = [
            _timed(spark, capacity_config, settings, f"capacity, repetition {repetition + 1}")
            for repetition in range(settings.repetitions)
        ]
        median_capacity = statistics.median(run.rows_per_s for run in capacity)
        high_rate = int(float(f"{HIGH_FRACTION * median_capacity:.3g}"))
        configs = [
            LatencyConfig(LOW_RATE, settings.batch_s),
            LatencyConfig(LOW_RATE, None),
            LatencyConfig(LOW_RATE, settings.long_batch_s),
            LatencyConfig(high_rate, settings.batch_s),
            LatencyConfig(high_rate, None),
        ]
        runs: dict[LatencyConfig, list[LatencyRun]] = {config: [] for config in configs}
        for repetition in range(settings.repetitions):
            shift = repetition % len(configs)
            for config in configs[shift:] + configs[:shift]:
                runs[config].append(_timed(spark, config, settings, f"latency, repetition {repetition + 1}"))
    return RealTimeResults(
        settings=settings,
        capacity_offered=CAPACITY_OFFERED,
        capacity=capacity,
        high_fraction=HIGH_FRACTION,
        high_rate=high_rate,
        low_rate=LOW_RATE,
        runs=runs,
    )
