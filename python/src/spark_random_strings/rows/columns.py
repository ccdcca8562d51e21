"""A stream's columns (the JVM source's ``Columns.scala``): each one's field of the schema, and what
its cells hold. A stream's columns come from its definition (``StreamDefinition.columns``), and
so does everything made of them: the schema Spark is given, and the makers of each batch's
columns (``rows.column_makers``, which ``RowGenerator`` runs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pyarrow as pa

from spark_random_strings.options import schema_of
from spark_random_strings.text.string_values import StringValues
from spark_random_strings.typed.cells.base import arrow_type
from spark_random_strings.typed.cells.spec import CellSpec


@dataclass(frozen=True)
class Strings:
    """A string drawn as ``values`` says (``text.string_column``), of the row or of its original."""

    values: StringValues


@dataclass(frozen=True)
class EventTimeMs:
    """The row's event time, in epoch ms (an int64)."""


@dataclass(frozen=True)
class EventTimestamp:
    """The row's event time as Spark's TIMESTAMP: microseconds since the epoch, saturated."""


@dataclass(frozen=True)
class Offset:
    """The row's own offset."""


@dataclass(frozen=True)
class LengthOf:
    """The length, in code points, of the string the column at ``ordinal`` holds (made before
    this one)."""

    ordinal: int


@dataclass(frozen=True)
class Cells:
    """A declared column's cells, made as its spec says (``typed.cells.maker``)."""

    spec: CellSpec


#: What a column's cells hold: how its maker (``rows.column_makers.makers_of``) makes each row's cell.
Content = Strings | EventTimeMs | EventTimestamp | Offset | LengthOf | Cells


@dataclass(frozen=True)
class Column:
    """One column of a stream's rows: its ``field`` of the schema (name, type, nullability), and
    what each row's cell of it holds."""

    field: pa.Field
    content: Content


def columns_of(values: StringValues, timestamp_column: bool) -> tuple[Column, ...]:
    """The columns of a stream of random strings: ``value`` drawn as ``values`` says, ``ts``,
    ``offset``, ``length`` and, with ``timestamp_column``, ``timestamp`` last. Their fields are
    ``options.schema_of``'s."""
    contents: list[Content] = [Strings(values), EventTimeMs(), Offset(), LengthOf(0)]
    if timestamp_column:
        contents.append(EventTimestamp())
    return tuple(Column(f, c) for f, c in zip(schema_of(timestamp_column), contents, strict=True))


def columns_declared(specs: Sequence[CellSpec]) -> tuple[Column, ...]:
    """The columns of a declared schema: each named as its path's last part, of its Arrow type
    (``typed.cells.base.arrow_type``) and nullability, and made as its spec says."""
    return tuple(
        Column(pa.field(spec.path[-1], arrow_type(spec.data_type), nullable=spec.nullable), Cells(spec))
        for spec in specs
    )


def schema_of_columns(columns: Sequence[Column]) -> pa.Schema:
    """The schema of rows of ``columns``, in their order."""
    return pa.schema([column.field for column in columns])
