"""The random strings' Python data source's stream reader (the JVM source's
``RandomStringsSource.scala``): the stream is a ``StreamDefinition`` (seed, start time, the
options that shape rows), kept in every offset in the JSON of the JVM source's checkpoint file,
and a partition's rows are made with the numpy row function in a Python worker. How batches are
planned, capped and read is ``offsets.reader``'s, which the Nexmark reader shares.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from pyspark.sql.pandas.types import from_arrow_schema
from pyspark.sql.types import StructType

from spark_random_strings.offsets.definition_store import definition_from_json, definition_to_json
from spark_random_strings.offsets.reader import OffsetStreamReader
from spark_random_strings.options import PYTHON_FORMAT, schema_of
from spark_random_strings.rows.definition import StreamDefinition, check_restart
from spark_random_strings.rows.generator import RowGenerator
from spark_random_strings.rows.options import SourceOptions, parse_options, python_real_time_error
from spark_random_strings.typed.fields.options import is_field_option

if TYPE_CHECKING:
    import pyarrow as pa


def source_schema(options: SourceOptions) -> StructType:
    """The columns of the rows ``options`` describe (``SourceOptions.schema``), as Spark types
    them: none nullable."""
    return from_arrow_schema(options.schema)


class RandomStringsStreamReader(OffsetStreamReader[StreamDefinition]):
    """Plans and reads the batches of one query's random strings."""

    def __init__(self, options: SourceOptions) -> None:
        super().__init__(
            PYTHON_FORMAT,
            options.clock,
            options.num_partitions,
            options.max_rows_per_trigger,
            options.total_rows,
        )
        self.options = options

    def new_stream(self, now_ms: int) -> StreamDefinition:
        # The seed given, or one drawn: the offsets keep it.
        seed = self.options.seed
        if seed is None:
            seed = secrets.randbits(64) - (1 << 63)
        return self.options.definition(seed, now_ms)

    def stream_to_json(self, stream: StreamDefinition) -> dict[str, Any]:
        return definition_to_json(stream)

    def stream_from_json(self, stored: object, where: str) -> StreamDefinition:
        return definition_from_json(stored, where)

    def check_restart(self, stored: StreamDefinition) -> None:
        check_restart(stored, self.options.restarting(stored), "the offset log of its checkpoint")

    def rows_available_at(self, stream: StreamDefinition, now_ms: int) -> int:
        return stream.rows_available_at(now_ms)

    def describe(self, stream: StreamDefinition) -> str:
        return f"seed {stream.seed}, started at {stream.start_time_ms} ms"

    def batches(self, stream: StreamDefinition, start: int, end: int) -> Iterator[pa.RecordBatch]:
        yield from RowGenerator(stream).batches(start, end)


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
