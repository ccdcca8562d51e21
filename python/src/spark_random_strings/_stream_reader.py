"""The Python data source's stream reader (the JVM source's ``RandomStringsSource.scala``, and its
``SlicePartition``): it plans batches of the stream and makes their rows with the numpy row
function in the Python workers of the Spark that runs the query.

The reader keeps the jar source's contract, adapted to what pyspark asks of a Python reader:

- An offset is ``{"offset": n, "stream": {...}}``: ``n`` rows of the stream have been read
  (a batch from offset ``a`` to ``b`` holds rows ``[a, b)``), and ``stream`` is the stream's
  definition (seed, start time, the options that shape rows) in the JSON of the JVM source's
  checkpoint file. Spark writes offsets to the checkpoint's offset log, so the definition, and
  with it a seed that was drawn, survives any restart; and a restarted query's options are
  checked against it with the JVM source's message.
- Rows exist by the clock since the stream first started, capped at ``totalRows``: the
  system clock, or in tests the manual clock that the internal option ``_manualClock`` names
  (``_manual_clock``);
  ``maxRowsPerTrigger`` is the default read limit, and ``Trigger.AvailableNow`` reads what
  exists when the query starts (a bounded stream: all of it).
- A batch is split into ``numPartitions`` ranges of offsets, each made by a Python worker as
  Arrow record batches. ``read_random_strings`` passes the session's default parallelism when
  the option is left out, as the jar's source defaults to; a reader that is not told (the
  source read by its name) takes the cores of the Python that plans the batches.

Spark 4.0 and 4.1 call ``latestOffset()`` without the start offset and the read limit, and
have no ``Trigger.AvailableNow`` for Python readers (pyspark 4.2 added all three): there the
reader caps its batches itself, from the end of the last batch it planned, and learns a restarted
query's stream from the checkpoint's last offset, which Spark hands it before it asks for a new
end (``setLatestSeenOffset``, passed on to Python as an empty batch at that offset). Under
``Trigger.AvailableNow`` Spark asks such a reader for its latest offset once, when the query
starts, and reads up to it: one batch of the rows that exist then, at most
``maxRowsPerTrigger`` (on a stream's first start, none yet). A batch whose two ends hold
different streams is refused, never read.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pyspark.sql.datasource import DataSourceStreamReader, InputPartition
from pyspark.sql.pandas.types import from_arrow_schema
from pyspark.sql.types import StructType

from spark_random_strings._definition_store import (
    CorruptDefinitionError,
    definition_from_json,
    definition_to_json,
)
from spark_random_strings._field_options import is_field_option
from spark_random_strings._manual_clock import system_now_ms
from spark_random_strings._row_generator import RowGenerator
from spark_random_strings._source_options import SourceOptions, parse_options, python_real_time_error
from spark_random_strings._stream_definition import StreamDefinition, check_restart
from spark_random_strings.options import PYTHON_FORMAT, schema_of

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
    _AvailableNow = object

if TYPE_CHECKING:
    import pyarrow as pa


def source_schema(options: SourceOptions) -> StructType:
    """The columns of the rows ``options`` describe (``SourceOptions.schema``), as Spark types
    them: none nullable."""
    return from_arrow_schema(options.schema)


@dataclass(frozen=True)
class SlicePartition(InputPartition):
    """The rows ``[start, end)`` of a stream: one partition's slice of a batch (the JVM source's
    ``SlicePartition``)."""

    definition: StreamDefinition
    start: int
    end: int


class RandomStringsStreamReader(DataSourceStreamReader, _AvailableNow):  # type: ignore[misc]
    """Plans and reads the batches of one query's stream (see the module's description)."""

    def __init__(self, options: SourceOptions, now_ms: Callable[[], int] | None = None) -> None:
        self.options = options
        #: The clock, in epoch ms: the system's, or the manual clock the options name (tests).
        self.now_ms = now_ms or (system_now_ms if options.clock is None else options.clock.now_ms)
        #: The stream: fixed by the first offset, or adopted from the checkpoint's.
        self.definition: StreamDefinition | None = None
        #: Under Trigger.AvailableNow, how many rows the query reads in all.
        self.available_now_end: int | None = None
        #: The end of the last batch planned (Spark 4.0 and 4.1, which pass no start offset).
        self.planned = 0
        self.partition_count = options.num_partitions or os.cpu_count() or 1

    # The stream.

    def _stream(self) -> StreamDefinition:
        """The stream this query reads; a new one (now, and the seed given or drawn) if none yet."""
        if self.definition is None:
            seed = self.options.seed
            if seed is None:
                seed = secrets.randbits(64) - (1 << 63)
            self.definition = self.options.definition(seed, self.now_ms())
        return self.definition

    @staticmethod
    def _read(offset: dict[str, Any]) -> tuple[StreamDefinition, int]:
        """The stream and the row count that an offset from Spark holds."""
        where = "the offset log of its checkpoint"
        try:
            count = offset["offset"]
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise CorruptDefinitionError(f"The offset {offset} in {where} is corrupt: no row count")
            return definition_from_json(offset["stream"], f"The offset in {where}"), count
        except (KeyError, TypeError):
            raise CorruptDefinitionError(
                f"The offset {offset} in {where} is not one of the {PYTHON_FORMAT} source"
            ) from None

    def _adopt(self, offset: dict[str, Any]) -> tuple[StreamDefinition, int]:
        """The stream and row count of an offset from Spark, checked against this query's
        options: the reader continues that stream."""
        stored, count = self._read(offset)
        if stored != self.definition:
            check_restart(stored, self.options.restarting(stored), "the offset log of its checkpoint")
            self.definition = stored
        return stored, count

    def _offset(self, count: int) -> dict[str, Any]:
        return {"offset": count, "stream": definition_to_json(self._stream())}

    def _existing(self) -> int:
        """How many rows exist now: by the clock since the stream started, and totalRows."""
        stream = self._stream()
        exist = stream.rows_available_at(self.now_ms())
        total = self.options.total_rows
        return exist if total is None else min(exist, total)

    def _available(self) -> int:
        return self._existing() if self.available_now_end is None else self.available_now_end

    # Spark's contract.

    def initialOffset(self) -> dict[str, Any]:
        return self._offset(0)

    def getDefaultReadLimit(self) -> Any:
        cap = self.options.max_rows_per_trigger
        return ReadAllAvailable() if cap is None else ReadMaxRows(cap)

    def prepareForTriggerAvailableNow(self) -> None:
        # A bounded stream is available as a whole; an endless one up to what exists now.
        total = self.options.total_rows
        self.available_now_end = self._existing() if total is None else total

    def latestOffset(self, start: dict[str, Any] | None = None, limit: Any = None) -> dict[str, Any]:
        """The end of the next batch: every row available after ``start``, or at most the read
        limit's rows. Spark 4.0 and 4.1 pass neither: the reader starts from its last batch's end
        and applies ``maxRowsPerTrigger`` itself."""
        if start is None:
            begin, cap = self.planned, self.options.max_rows_per_trigger
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
                f"(seed {stored.seed}, started at {stored.start_time_ms} ms) to an offset of "
                f"another stream (seed {ended.seed}, started at {ended.start_time_ms} ms): it "
                "refuses to read it, since the rows under the stored offsets would change. "
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
        yield from RowGenerator(partition.definition).batches(partition.start, partition.end)

    def commit(self, end: dict[str, Any]) -> None:
        # Rows are never held: nothing to free.
        pass

    def __repr__(self) -> str:
        stream = self.definition
        return f"{PYTHON_FORMAT}[{'not started' if stream is None else f'seed={stream.seed}'}]"


def checked_schema(options: Mapping[str, str]) -> StructType:
    """The source's schema, once ``options`` pass (Spark asks for it at ``load()``: the options
    are checked there, as the jar's are)."""
    parsed = parse_options(options)
    if parsed.real_time:
        raise python_real_time_error()
    return source_schema(parsed)


def stream_reader(options: Mapping[str, str], schema: StructType) -> RandomStringsStreamReader:
    """The reader of a query's stream, for the schema Spark asks for: the source's own (what
    ``checked_schema`` gave, when none was declared), or the one the user declared."""
    # Spark passes the schema `checked_schema` made when none was declared: one of the random
    # strings' two. A declared schema is any other, or any with `fields.` options (as the jar's
    # provider tells them apart).
    classic = (from_arrow_schema(schema_of(False)), from_arrow_schema(schema_of(True)))
    declared = any(is_field_option(name) for name in options) or schema not in classic
    return RandomStringsStreamReader(parse_options(options, schema if declared else None))
