"""The change streams' Python data source's stream reader (the jar's ``ChangesSource.scala``): the
stream is a ``ChangeStream`` (the rows' definition and the change options), kept in every offset
(``changes.store``), and a partition's changes are made by the Python twin of the lifecycle and the
envelopes (``changes.rows``) in a Python worker, as Arrow record batches. Offset n is change n; how
batches are planned, capped and read is ``offsets.reader``'s, which the other Python sources share.

The declared columns come as the internal option ``_declaredSchema`` (DDL text, or Spark's JSON of a
``StructType``), which ``read_changes(engine="python")`` passes: a Python data source's rows have
the schema its reader is given, and a change stream's rows are the declared columns in an envelope,
so ``.schema(...)`` cannot declare them.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from pyspark.sql.pandas.types import from_arrow_schema
from pyspark.sql.types import StructType

from spark_random_strings.changes.keywords import CHANGES_PYTHON_FORMAT, DECLARED_SCHEMA
from spark_random_strings.changes.options import ChangeOptions, parse_python_options
from spark_random_strings.changes.rows import ChangeRows, ChangeStream
from spark_random_strings.changes.store import check_restart, stream_from_json, stream_to_json
from spark_random_strings.offsets.reader import OffsetStreamReader
from spark_random_strings.options.ranges import java_equals_ignore_case

if TYPE_CHECKING:
    import pyarrow as pa


class ChangesStreamReader(OffsetStreamReader[ChangeStream]):
    """Plans and reads the batches of one query's changes."""

    def __init__(self, options: ChangeOptions) -> None:
        rows = options.rows
        super().__init__(
            CHANGES_PYTHON_FORMAT,
            rows.clock,
            rows.num_partitions,
            rows.max_rows_per_trigger,
            options.positions,
        )
        self.options = options

    def new_stream(self, now_ms: int) -> ChangeStream:
        # The seed given, or one drawn: the offsets keep it.
        seed = self.options.rows.seed
        if seed is None:
            seed = secrets.randbits(64) - (1 << 63)
        return ChangeStream(self.options.definition(seed, now_ms), self.options.spec)

    def stream_to_json(self, stream: ChangeStream) -> dict[str, Any]:
        return stream_to_json(stream)

    def stream_from_json(self, stored: object, where: str) -> ChangeStream:
        return stream_from_json(stored, where)

    def check_restart(self, stored: ChangeStream) -> None:
        check_restart(stored, self.options, "the offset log of its checkpoint")

    def rows_available_at(self, stream: ChangeStream, now_ms: int) -> int:
        # Change n exists at its commit time: row n's in-order event time; offsets are reads.
        return stream.rows_available_at(now_ms)

    def describe(self, stream: ChangeStream) -> str:
        return f"seed {stream.definition.seed}, started at {stream.definition.start_time_ms} ms"

    def batches(self, stream: ChangeStream, start: int, end: int) -> Iterator[pa.RecordBatch]:
        yield from ChangeRows(stream).batches(start, end)


def parsed(options: Mapping[str, str]) -> ChangeOptions:
    """The stream's options, the declared columns taken from ``_declaredSchema``."""
    declared: str | StructType | None = None
    rest = {}
    for name, value in options.items():
        if java_equals_ignore_case(name, DECLARED_SCHEMA):
            declared = _declared(value)
        else:
            rest[name] = value
    return parse_python_options(rest, declared)


def _declared(value: str) -> str | StructType:
    """The declared columns the option ``_declaredSchema`` holds: DDL text, or a ``StructType``'s JSON.

    Raises:
        ValueError: naming the option, when it holds JSON that is not a ``StructType``'s.
    """
    if not value.lstrip().startswith("{"):
        return value
    try:
        return StructType.fromJson(json.loads(value))
    except (ValueError, KeyError, TypeError) as error:
        raise ValueError(
            f"Option '{DECLARED_SCHEMA}' holds JSON that is not a StructType's ({error!r}): it is "
            "read_changes's, which passes the declared columns in it; declare them with its schema=."
        ) from None


def envelope_schema(options: ChangeOptions) -> StructType:
    """The rows' columns: the declared ones in the envelope, as Spark types them."""
    schema: StructType = from_arrow_schema(ChangeStream(options.definition(0, 0), options.spec).schema)
    return schema


def checked_schema(options: Mapping[str, str]) -> StructType:
    """The source's schema, once ``options`` pass (Spark asks for it at ``load()``)."""
    return envelope_schema(parsed(options))


def stream_reader(options: Mapping[str, str], schema: StructType) -> ChangesStreamReader:
    """The reader of a query's changes, for the schema Spark asks for: the one ``checked_schema``
    made. A schema given with ``.schema(...)`` is refused: the declared columns are an option."""
    parsed_options = parsed(options)
    expected = envelope_schema(parsed_options)
    if schema != expected:
        raise ValueError(
            f"The {CHANGES_PYTHON_FORMAT} source makes the declared columns in the change envelope, "
            f"{expected.simpleString()}, and takes no schema from .schema(...): declare the columns with "
            "read_changes(engine='python', schema=...), which passes them as the option "
            f"'{DECLARED_SCHEMA}'."
        )
    return ChangesStreamReader(parsed_options)
