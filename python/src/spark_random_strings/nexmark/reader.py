"""The Nexmark Python data source's stream reader (the JVM's ``NexmarkSource.scala``): the stream
is a ``NexmarkStream`` (``nexmark.stream``: the configuration and the first start), kept in every
offset in the JSON of the jar source's checkpoint file ``nexmark-source.json``, and a partition's
events are made by the Python twin of the generator in a Python worker, as Arrow record batches
of Flink's Nexmark table. How batches are planned, capped and read is ``offsets.reader``'s, which
the random strings' reader shares.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from spark_random_strings.nexmark.options import (
    NexmarkOptions,
    parse_nexmark_options,
    python_real_time_error,
)
from spark_random_strings.nexmark.stream import (
    NexmarkStream,
    check_restart,
    event_batches,
    nexmark_schema,
    stream_from_json,
    stream_to_json,
)
from spark_random_strings.nexmark.table import NEXMARK_PYTHON_FORMAT
from spark_random_strings.offsets.reader import OffsetStreamReader

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql.types import StructType


class NexmarkStreamReader(OffsetStreamReader[NexmarkStream]):
    """Plans and reads the batches of one query's Nexmark events."""

    def __init__(self, options: NexmarkOptions) -> None:
        o = options
        super().__init__(
            NEXMARK_PYTHON_FORMAT, o.clock, o.num_partitions, o.max_events_per_trigger, o.num_events
        )
        self.options = options

    def new_stream(self, now_ms: int) -> NexmarkStream:
        return NexmarkStream(self.options.config, now_ms)

    def stream_to_json(self, stream: NexmarkStream) -> dict[str, Any]:
        return stream_to_json(stream)

    def stream_from_json(self, stored: object, where: str) -> NexmarkStream:
        return stream_from_json(stored, where)

    def check_restart(self, stored: NexmarkStream) -> None:
        check_restart(stored, self.options.config, "the offset log of its checkpoint")

    def rows_available_at(self, stream: NexmarkStream, now_ms: int) -> int:
        return stream.events_available_at(now_ms)

    def describe(self, stream: NexmarkStream) -> str:
        return f"started at {stream.start_time_ms} ms"

    def batches(self, stream: NexmarkStream, start: int, end: int) -> Iterator[pa.RecordBatch]:
        yield from event_batches(stream.config, start, end)


def checked_schema(options: Mapping[str, str]) -> StructType:
    """The source's schema, once ``options`` pass (Spark asks for it at ``load()``)."""
    if parse_nexmark_options(options).real_time:
        raise python_real_time_error()
    return nexmark_schema()


def stream_reader(options: Mapping[str, str], schema: StructType) -> NexmarkStreamReader:
    """The reader of a query's events. The source makes Flink's Nexmark table and no other schema."""
    if schema != nexmark_schema():
        raise ValueError(
            f"The {NEXMARK_PYTHON_FORMAT} source makes Flink's Nexmark table and takes no other schema: "
            f"remove .schema(...). Its columns: {nexmark_schema().simpleString()}."
        )
    return NexmarkStreamReader(parse_nexmark_options(options))
