"""What a Python data source's stream reader does for any stream whose rows are a pure function of
their offset (the JVM's ``OffsetSource.scala``): it plans batches of offsets and hands each
partition's slice to the Python workers, which make its rows. ``strings.reader`` (random strings)
and ``nexmark.reader`` (Nexmark events) say what their streams are; this module keeps the
contract, adapted to what pyspark asks of a Python reader:

- An offset is ``{"offset": n, "stream": {...}}``: ``n`` rows of the stream have been read
  (a batch from offset ``a`` to ``b`` holds rows ``[a, b)``), and ``stream`` is the stream (what
  fixes its rows, and when it first started) in the JSON of the JVM source's checkpoint file.
  Spark writes offsets to the checkpoint's offset log, so the stream survives any restart, and a
  restarted query's options are checked against it with the JVM source's message.
- Rows exist by the clock since the stream first started, capped at the stream's length: the
  system clock, or in tests the manual clock that the internal option ``_manualClock`` names.
  The per-trigger cap is the default read limit, and ``Trigger.AvailableNow`` reads what exists
  when the query starts (a bounded stream: all of it).
- A batch is split into ``numPartitions`` ranges of offsets, each made by a Python worker as
  Arrow record batches. The ``read_`` functions pass the session's default parallelism when the
  option is left out, as the jar's sources default to; a reader that is not told (the source read
  by its name) takes the cores of the Python that plans the batches.

Spark 4.0 and 4.1 call ``latestOffset()`` without the start offset and the read limit, and
have no ``Trigger.AvailableNow`` for Python readers (pyspark 4.2 added all three): there the
reader caps its batches itself, from the end of the last batch it planned, and learns a restarted
query's stream from the checkpoint's last offset, which Spark hands it before it asks for a new
end (``setLatestSeenOffset``, passed on to Python as an empty batch at that offset). Under
``Trigger.AvailableNow`` Spark asks such a reader for its latest offset once, when the query
starts, and reads up to it: one batch of the rows that exist then, at most the per-trigger cap
(on a stream's first start, none yet). A batch whose two ends hold different streams is refused,
never read.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pyspark.sql.datasource import DataSourceStreamReader, InputPartition

from spark_random_strings.offsets.corrupt import CorruptDefinitionError
from spark_random_strings.time.manual_clock import ManualClock, system_now_ms

try:  # pyspark 4.2 and later: read limits and Trigger.AvailableNow for Python readers.
    from pyspark.sql.streaming.datasource import (  # type: ignore[import-not-found, unused-ignore]
        ReadAllAvailable,
        ReadLimit,
        ReadMaxRows,
        SupportsTriggerAvailableNow,
    )

    _AvailableNow: type = SupportsTriggerAvailableNow
except ImportError:  # pragma: no cover - exercised on Spark 4.0 and 4.1
    ReadAllAvailable = ReadLimit = ReadMaxRows = None  # type: ignore[assignment, misc, unused-ignore]

    class _NoAvailableNow:
        """Nothing to mix in: these Spark lines have no Trigger.AvailableNow for Python readers.
        (Not ``object``, which ahead of ``ABC`` in the bases leaves no consistent method order.)"""

    _AvailableNow = _NoAvailableNow

if TYPE_CHECKING:
    import pyarrow as pa

#: A stream's definition: what fixes its rows, and when it first started.
S = TypeVar("S")


@dataclass(frozen=True)
class SlicePartition(InputPartition, Generic[S]):
    """The rows ``[start, end)`` of a stream: one partition's slice of a batch (the JVM's
    ``SlicePartition``)."""

    definition: S
    start: int
    end: int


class OffsetStreamReader(DataSourceStreamReader, _AvailableNow, ABC, Generic[S]):  # type: ignore[misc]
    """Plans and reads the batches of one query's stream (see the module's description)."""

    def __init__(
        self,
        source: str,
        clock: ManualClock | None,
        num_partitions: int | None,
        max_per_trigger: int | None,
        length: int | None,
    ) -> None:
        #: The source's name, as the messages give it.
        self.source = source
        #: The clock, in epoch ms: the system's, or the manual clock the options name (tests).
        self.now_ms: Callable[[], int] = system_now_ms if clock is None else clock.now_ms
        self.partition_count = num_partitions or os.cpu_count() or 1
        self.max_per_trigger = max_per_trigger
        #: How many rows the stream has; None: endless.
        self.length = length
        #: The stream: fixed by the first offset, or adopted from the checkpoint's.
        self.definition: S | None = None
        #: Under Trigger.AvailableNow, how many rows the query reads in all.
        self.available_now_end: int | None = None
        #: The end of the last batch planned (Spark 4.0 and 4.1, which pass no start offset).
        self.planned = 0

    # What each stream says.

    @abstractmethod
    def new_stream(self, now_ms: int) -> S:
        """The stream a query starts at ``now_ms``, when its checkpoint holds none."""

    @abstractmethod
    def stream_to_json(self, stream: S) -> dict[str, Any]:
        """The stream as the JSON the JVM source keeps in its checkpoint file."""

    @abstractmethod
    def stream_from_json(self, stored: object, where: str) -> S:
        """The stream an offset holds, read as the JVM source reads its checkpoint file.

        Raises:
            CorruptDefinitionError: ``stored`` is not such a stream.
        """

    @abstractmethod
    def check_restart(self, stored: S) -> None:
        """Refuse options that contradict ``stored``, the stream a restarted query continues.

        Raises:
            ValueError: naming each option, the stored value and the value given.
        """

    @abstractmethod
    def rows_available_at(self, stream: S, now_ms: int) -> int:
        """How many rows of ``stream`` exist at wall-clock time ``now_ms``, before the length's cap."""

    @abstractmethod
    def describe(self, stream: S) -> str:
        """The stream in a message: what tells it from another, and when it started."""

    @abstractmethod
    def batches(self, stream: S, start: int, end: int) -> Iterator[pa.RecordBatch]:
        """The rows ``[start, end)`` of ``stream``, made in a Python worker."""

    # The stream.

    def _stream(self) -> S:
        """The stream this query reads; a new one (starting now) if none yet."""
        if self.definition is None:
            self.definition = self.new_stream(self.now_ms())
        return self.definition

    def _read(self, offset: dict[str, Any]) -> tuple[S, int]:
        """The stream and the row count that an offset from Spark holds."""
        where = "the offset log of its checkpoint"
        try:
            count = offset["offset"]
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise CorruptDefinitionError(f"The offset {offset} in {where} is corrupt: no row count")
            return self.stream_from_json(offset["stream"], f"The offset in {where}"), count
        except (KeyError, TypeError):
            raise CorruptDefinitionError(
                f"The offset {offset} in {where} is not one of the {self.source} source"
            ) from None

    def _adopt(self, offset: dict[str, Any]) -> tuple[S, int]:
        """The stream and row count of an offset from Spark, checked against this query's
        options: the reader continues that stream."""
        stored, count = self._read(offset)
        if stored != self.definition:
            self.check_restart(stored)
            self.definition = stored
        return stored, count

    def _offset(self, count: int) -> dict[str, Any]:
        return {"offset": count, "stream": self.stream_to_json(self._stream())}

    def _existing(self) -> int:
        """How many rows exist now: by the clock since the stream started, and its length."""
        exist = self.rows_available_at(self._stream(), self.now_ms())
        return exist if self.length is None else min(exist, self.length)

    def _available(self) -> int:
        return self._existing() if self.available_now_end is None else self.available_now_end

    # Spark's contract.

    def initialOffset(self) -> dict[str, Any]:
        return self._offset(0)

    def getDefaultReadLimit(self) -> Any:
        cap = self.max_per_trigger
        return ReadAllAvailable() if cap is None else ReadMaxRows(cap)

    def prepareForTriggerAvailableNow(self) -> None:
        # A bounded stream is available as a whole; an endless one up to what exists now.
        self.available_now_end = self._existing() if self.length is None else self.length

    def latestOffset(self, start: dict[str, Any] | None = None, limit: Any = None) -> dict[str, Any]:
        """The end of the next batch: every row available after ``start``, or at most the read
        limit's rows. Spark 4.0 and 4.1 pass neither: the reader starts from its last batch's end
        and applies the per-trigger cap itself."""
        if start is None:
            begin, cap = self.planned, self.max_per_trigger
        else:
            begin = self._adopt(start)[1]
            cap = limit.max_rows if ReadMaxRows is not None and isinstance(limit, ReadMaxRows) else None
        end = self._available()
        if cap is not None:
            end = min(end, begin + cap)
        self.planned = max(begin, end)
        return self._offset(self.planned)

    def reportLatestOffset(self) -> dict[str, Any]:
        return self._offset(self._available())

    def partitions(self, start: dict[str, Any], end: dict[str, Any]) -> Sequence[InputPartition]:
        stored, first = self._adopt(start)
        ended, last = self._read(end)
        if ended != stored:
            raise RuntimeError(
                f"{self} was asked for a batch from an offset of the stream in the checkpoint "
                f"({self.describe(stored)}) to an offset of another stream ({self.describe(ended)}): "
                "it refuses to read it, since the rows under the stored offsets would change. "
                "Restart the query on Spark 4.2 or later, or use a new checkpoint location to "
                "start a new stream."
            )
        if last < first:
            raise ValueError(f"{self} was asked for the rows [{first}, {last}), which run backwards.")
        self.planned = max(self.planned, last)
        count = last - first
        slices = min(self.partition_count, count)
        quotient, remainder = divmod(count, slices) if slices else (0, 0)
        bounds = [first + i * quotient + min(i, remainder) for i in range(slices + 1)]
        return [SlicePartition(ended, bounds[i], bounds[i + 1]) for i in range(slices)]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        assert isinstance(partition, SlicePartition)
        yield from self.batches(partition.definition, partition.start, partition.end)

    def commit(self, end: dict[str, Any]) -> None:
        # Rows are never held: nothing to free.
        pass

    def __repr__(self) -> str:
        stream = self.definition
        return f"{self.source}[{'not started' if stream is None else self.describe(stream)}]"
