"""Streams on a clock the test steps, as Spark's own streaming tests step a manual clock: no test
waits for the wall clock, and each step makes exactly the rows the test expects.

A :class:`SteppedClock` is one manual clock, registered under a unique name both in the
session's JVM (``io.github.sparkrandomstrings.time.ManualClock``, which the jar's source reads) and
as a file clock on this machine (``spark_random_strings.time.manual_clock``, which the Python data
source's reader reads in its Python worker); :meth:`SteppedClock.advance` steps both.
:func:`stepped_stream` reads either engine's stream with the internal option ``_manualClock``
naming it. The pattern that gives exact batches:

    with SteppedClock(spark) as clock:
        batches = Batches(clock)
        query = start_stepped(stepped_stream(spark, clock, seed=1), checkpoint, batches)
        clock.advance(1000)          # the rows of one second come to exist, and no others
        query.processAllAvailable()  # one batch has read exactly them

``start_stepped`` starts the query with the default trigger and processes what is available
once, so that the stream has started (at the clock's time) before any step: no row exists
then, so the jar's source plans no batch, and the Python data source's first offset one empty
batch. A step that makes no new row makes no batch. Classic sessions only: a Spark Connect
client has no JVM to register a clock in.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Unpack

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.streaming.query import StreamingQuery

from spark_random_strings import Engine
from spark_random_strings.options import MANUAL_CLOCK, SourceKeywords, source_options
from spark_random_strings.strings.read import _jar_stream, _python_stream
from spark_random_strings.time import manual_clock as _manual_clock

#: Where a stepped clock starts unless told: 2026-01-01T00:00:00Z, in epoch ms.
START_MS = 1_767_225_600_000


class SteppedClock:
    """A manual clock of a unique name, in the session's JVM and on this machine, stepped as one;
    unregistered from both on :meth:`close` (or at the end of a ``with`` block)."""

    def __init__(self, spark: SparkSession, start_ms: int = START_MS) -> None:
        #: The name ``_manualClock`` gives.
        self.name = f"stepped-{uuid.uuid4().hex}"
        #: The time it started at, in epoch ms.
        self.start_ms = start_ms
        self._registry: Any = spark.sparkContext._jvm.io.github.sparkrandomstrings.time.ManualClock  # type: ignore[union-attr]
        self._jvm_clock: Any = self._registry.register(self.name, start_ms)
        self._file_clock = _manual_clock.register(self.name, start_ms)

    def now_ms(self) -> int:
        """The time both clocks read, in epoch ms."""
        now = int(self._jvm_clock.nowMs())
        assert now == self._file_clock.now_ms(), "the JVM's clock and the file clock have parted"
        return now

    @property
    def elapsed_ms(self) -> int:
        """How far the clock has been stepped since it started."""
        return self.now_ms() - self.start_ms

    def advance(self, ms: int) -> int:
        """Steps both clocks forward by ``ms``; the new time."""
        now = int(self._jvm_clock.advance(ms))
        assert self._file_clock.advance(ms) == now
        return now

    def advance_to(self, elapsed_ms: int) -> int:
        """Steps both clocks to ``elapsed_ms`` after their start; the new time."""
        return self.advance(elapsed_ms - self.elapsed_ms)

    def close(self) -> None:
        self._registry.unregister(self.name)
        _manual_clock.unregister(self.name)

    def __enter__(self) -> SteppedClock:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


def stepped_stream(
    spark: SparkSession,
    clock: SteppedClock,
    engine: Engine = "jvm",
    **keywords: Unpack[SourceKeywords],
) -> DataFrame:
    """The stream that ``read_random_strings(spark, engine=engine, **keywords)`` reads, on
    ``clock``: the same options, and the internal option ``_manualClock`` naming the clock (no
    keyword of ``read_random_strings`` gives it). The test session has the jar, so "auto" reads
    the jar's source."""
    given = {**source_options(keywords, caller="stepped_stream"), MANUAL_CLOCK: clock.name}
    return _python_stream(spark, given) if engine == "python" else _jar_stream(spark, given)


@dataclass(frozen=True)
class Batch:
    """One batch a query wrote: its id, when it ran (ms after the clock's start) and its rows."""

    batch_id: int
    at_ms: int
    rows: list[dict[str, Any]]

    @property
    def offsets(self) -> list[int]:
        """The batch's ``offset`` column, in order."""
        return sorted(int(row["offset"]) for row in self.rows)


class Batches:
    """A ``foreachBatch`` function that keeps every batch a query writes (``columns``: SQL
    expressions of its rows). With ``step_ms``, it steps the clock that much at the end of each
    batch: the query's next batch is planned ``step_ms`` later by the clock, as under a
    processing-time trigger of that interval."""

    def __init__(self, clock: SteppedClock, columns: Sequence[str] = ("offset",), step_ms: int = 0) -> None:
        self.clock = clock
        self.columns = list(columns)
        self.step_ms = step_ms
        self._kept: list[Batch] = []
        self._lock = threading.Lock()

    def __call__(self, batch: DataFrame, batch_id: int) -> None:
        rows = [row.asDict() for row in batch.selectExpr(*self.columns).collect()]
        with self._lock:
            self._kept.append(Batch(batch_id, self.clock.elapsed_ms, rows))
        if self.step_ms:
            self.clock.advance(self.step_ms)

    @property
    def kept(self) -> list[Batch]:
        """The batches written so far, in order."""
        with self._lock:
            return list(self._kept)

    def offsets(self) -> list[list[int]]:
        """Each batch's offsets, in order."""
        return [batch.offsets for batch in self.kept]


def start_stepped(
    df: DataFrame, checkpoint: Path, batches: Batches, output_mode: str = "append"
) -> StreamingQuery:
    """Starts ``df`` into ``batches`` with the default trigger, and processes what is available
    once: the stream has started, at the clock's time, before the test's first step."""
    query = (
        df.writeStream.outputMode(output_mode)
        .foreachBatch(batches)
        .option("checkpointLocation", str(checkpoint))
        .start()
    )
    query.processAllAvailable()
    return query
