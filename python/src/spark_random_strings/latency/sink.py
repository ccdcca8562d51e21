"""The jar's ``LatencySink`` from Python: how long rows take from the moment they come to exist
to a ``foreach`` sink, in real-time mode or under the default micro-batch trigger.

The sink is a JVM ``ForeachWriter`` (a Python ``foreach`` would add a Python worker's hop to
every row), so a query is started through the session's JVM: classic sessions only, and its
measurements are read from the driver's JVM, which runs the tasks in local mode.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.streaming.query import StreamingQuery


class BatchArrivals(NamedTuple):
    """When a batch's rows reached a ``LatencySink``: its first and last arrival (epoch µs)."""

    batch: int
    first_us: int
    last_us: int


@dataclass(frozen=True)
class LatencySummary:
    """What a ``LatencySink`` has measured so far (latencies in ms; None before any row)."""

    count: int
    p50_ms: float | None
    p99_ms: float | None
    #: p99.9: the latency below which 99.9% of the rows lie.
    p999_ms: float | None
    max_ms: float | None
    #: Epoch ms at which the first and the last measured row reached the sink.
    first_ms: int | None
    last_ms: int | None
    #: The gaps between batches whose both sides were measured: a gap runs from the last row of a
    #: batch to reach the sink to the first row of the next batch that has rows (in ms, to the
    #: microsecond; None without a gap).
    gap_count: int
    gap_median_ms: float | None
    gap_max_ms: float | None
    #: The arrivals of the last batches' rows (up to 256, oldest first), kept through a reset: a
    #: boundary between two batches is timed from them against the query's progress.
    batches: tuple[BatchArrivals, ...]
    #: Every row that has reached the sink, through resets: the last of them is the last of
    #: ``recent``, so a reader that remembers it knows which of ``recent`` are new.
    arrived: int
    #: The last rows that reached the sink, their columns separated by tabs.
    recent: tuple[str, ...]


def _jvm(spark: SparkSession) -> Any:
    jvm = spark._jvm
    assert jvm is not None, "LatencySink runs on a classic session"
    return jvm


def _sink_class(spark: SparkSession) -> Any:
    return _jvm(spark).io.github.sparkrandomstrings.LatencySink


def start_measured(
    df: DataFrame, *, name: str, checkpoint: str, real_time: str | None, output_mode: str = "update"
) -> StreamingQuery:
    """Start ``df`` (a stream of this source, with its ``offset`` column) into a ``LatencySink``
    named ``name``.

    Args:
        df: the query's DataFrame.
        name: the name its measurements are kept under (see :func:`latency_summary`).
        checkpoint: the query's checkpoint location; the sink reads the stream's definition there.
        real_time: the batch duration of real-time mode, e.g. ``"5 seconds"``; ``None`` runs the
            query under the default micro-batch trigger (each batch as soon as the last ends).
        output_mode: the query's output mode.
    """
    from pyspark.sql.streaming.query import StreamingQuery

    spark = df.sparkSession
    triggers = _jvm(spark).org.apache.spark.sql.streaming.Trigger
    trigger = triggers.ProcessingTime(0) if real_time is None else triggers.RealTime(real_time)
    writer = (
        df._jdf.writeStream()
        .foreach(_sink_class(spark)(name, checkpoint))
        .outputMode(output_mode)
        .option("checkpointLocation", checkpoint)
        .trigger(trigger)
    )
    return StreamingQuery(writer.start())


def latency_summary(spark: SparkSession, name: str) -> LatencySummary:
    """What the ``LatencySink`` named ``name`` has measured so far in the driver's JVM."""
    return summary_from(dict(_sink_class(spark).summary(name)))


def summary_from(found: Mapping[str, str]) -> LatencySummary:
    """A ``LatencySink.summary`` map, as the JVM gives it (every value a string), read."""

    def number(key: str) -> float | None:
        return float(found[key]) if key in found else None

    def moment(key: str) -> int | None:
        return int(found[key]) if key in found else None

    recent = str(found.get("recent", ""))
    batches = str(found.get("batches", ""))
    return LatencySummary(
        count=int(found["count"]),
        p50_ms=number("p50Ms"),
        p99_ms=number("p99Ms"),
        p999_ms=number("p999Ms"),
        max_ms=number("maxMs"),
        first_ms=moment("firstMs"),
        last_ms=moment("lastMs"),
        gap_count=int(found.get("gapCount", "0")),
        gap_median_ms=number("gapMedianMs"),
        gap_max_ms=number("gapMaxMs"),
        arrived=int(found.get("arrived", "0")),
        batches=tuple(BatchArrivals(*map(int, line.split())) for line in batches.split("\n") if line),
        recent=tuple(recent.split("\n")) if recent else (),
    )


def reset_latency(spark: SparkSession, name: str) -> None:
    """Forget what the ``LatencySink`` named ``name`` has measured (e.g. after a warm-up)."""
    _sink_class(spark).reset(name)
