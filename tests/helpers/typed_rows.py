"""A typed stream's rows compared exactly, whatever its schema: the JVM source's rows as one JSON
text each (``json_row``, so that streams of different schemas union into one query), read back
(``from_json_cell``), and ``expected_rows``' as pyarrow gives them (``canonical``), both to the
same Python values, whose ``repr`` tells every two different cells apart: a FLOAT, a DOUBLE and
a DECIMAL to the last digit (and -0.0 from 0.0), timestamps to the microsecond, binary, nested
arrays and structs, nulls.
"""

from __future__ import annotations

import base64
import datetime as dt
from collections import Counter
from decimal import Decimal
from typing import Any

import numpy as np
from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql.functions import lit, to_json, transform, unix_micros, when
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    DataType,
    DateType,
    DecimalType,
    DoubleType,
    FloatType,
    StructType,
    TimestampNTZType,
    TimestampType,
)

from helpers.typed_draws import quoted

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
NAIVE_EPOCH = dt.datetime(1970, 1, 1)


def _micros_of_timestamps(column: Column, data_type: DataType) -> Column:
    """``column`` with each TIMESTAMP in it as its microseconds since 1970 (a BIGINT), which JSON
    writes whole whatever the session's time zone."""
    if isinstance(data_type, TimestampType):
        return unix_micros(column)
    if not _holds_timestamps(data_type):
        return column
    if isinstance(data_type, ArrayType):
        element = data_type.elementType
        return transform(column, lambda cell: _micros_of_timestamps(cell, element))
    assert isinstance(data_type, StructType)
    fields = [
        _micros_of_timestamps(column.getField(f.name), f.dataType).alias(f.name) for f in data_type.fields
    ]
    return when(column.isNull(), lit(None)).otherwise(F.struct(*fields))


def _holds_timestamps(data_type: DataType) -> bool:
    if isinstance(data_type, TimestampType):
        return True
    if isinstance(data_type, ArrayType):
        return _holds_timestamps(data_type.elementType)
    if isinstance(data_type, StructType):
        return any(_holds_timestamps(f.dataType) for f in data_type.fields)
    return False


#: How ``to_json`` writes a row of a typed stream: every field, null or not, and a TIMESTAMP_NTZ
#: to the microsecond (a TIMESTAMP is a BIGINT by then, ``_micros_of_timestamps``).
JSON_OPTIONS = {"ignoreNullFields": "false", "timestampNTZFormat": "yyyy-MM-dd'T'HH:mm:ss.SSSSSS"}


def json_row(df: DataFrame) -> Column:
    """A typed stream's row as one JSON text, so that streams of any schemas union: a column of
    each stream's own would make the plan of a hundred streams take a minute to build."""
    cells = [_micros_of_timestamps(df[quoted(f.name)], f.dataType).alias(f.name) for f in df.schema.fields]
    return to_json(F.struct(*cells), JSON_OPTIONS)


def from_json_cell(value: Any, data_type: DataType) -> Any:
    """A cell of type ``data_type`` as ``canonical`` has it, from its JSON (read with
    ``parse_float=str``): a FLOAT, a DOUBLE and a DECIMAL from the digits Spark wrote, which name
    exactly one value of the type."""
    if value is None:
        return None
    if isinstance(data_type, StructType):
        return tuple(from_json_cell(value[f.name], f.dataType) for f in data_type.fields)
    if isinstance(data_type, ArrayType):
        return [from_json_cell(v, data_type.elementType) for v in value]
    if isinstance(data_type, FloatType):
        return float(np.float32(value))
    if isinstance(data_type, DoubleType):
        return float(value)
    if isinstance(data_type, DecimalType):
        return Decimal(value).normalize()
    if isinstance(data_type, BinaryType):
        return base64.b64decode(value)
    if isinstance(data_type, TimestampNTZType):
        return (dt.datetime.fromisoformat(value) - NAIVE_EPOCH) // dt.timedelta(microseconds=1)
    return value  # booleans and whole numbers; strings; a DATE's yyyy-MM-dd; a TIMESTAMP's µs


def canonical(value: Any, data_type: DataType) -> Any:
    """A cell of type ``data_type`` that ``expected_rows`` made (as pyarrow's ``to_pylist`` gives
    it), as ``from_json_cell`` reads the JVM's: structs as tuples, a DATE as yyyy-MM-dd, the
    timestamps as microseconds since 1970, a DECIMAL without trailing zeros (its scale is its
    column's). Its ``repr`` tells every two different cells apart, -0.0 and 0.0 too."""
    if value is None:
        return None
    if isinstance(data_type, StructType):
        return tuple(canonical(value[f.name], f.dataType) for f in data_type.fields)
    if isinstance(data_type, ArrayType):
        return [canonical(v, data_type.elementType) for v in value]
    if isinstance(data_type, DecimalType):
        return value.normalize()
    if isinstance(data_type, DateType):
        return f"{value.year:04d}-{value.month:02d}-{value.day:02d}"
    if isinstance(data_type, TimestampType):
        return (value - EPOCH) // dt.timedelta(microseconds=1)
    if isinstance(data_type, TimestampNTZType):
        return (value - NAIVE_EPOCH) // dt.timedelta(microseconds=1)
    return value


def json_rows(df: DataFrame, order_by: str) -> list[str]:
    """Each row of ``df`` (a batch DataFrame) as ``json_row`` writes it, in the order of its
    column ``order_by``: how released fixtures keep a typed stream's rows."""
    return [row[0] for row in df.orderBy(df[quoted(order_by)]).select(json_row(df)).collect()]


def differences(got: list[str], want: list[str]) -> str:
    """What two lists of rows do not share, for a failure's message."""
    extra, missing = Counter(got) - Counter(want), Counter(want) - Counter(got)
    return (
        f"{len(got)} rows, {len(want)} expected; made but not expected: {list(extra)[:3]}; "
        f"expected but not made: {list(missing)[:3]}"
    )
