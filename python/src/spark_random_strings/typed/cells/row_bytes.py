"""The most bytes a declared row takes in Spark's binary row format (``UnsafeRow``), and the
refusal of a declaration whose rows may not fit in one (the JVM source's ``RowBytes.scala``, with
its message): Spark's writers hold a row in one byte array of at most :data:`LIMIT` bytes and fail
past it, deep inside a task, once the query runs.

The count follows the layout the JVM's cell writers write: a row's null bits (8 bytes for each 64
columns) and an 8-byte slot for each column; then, word-aligned (to 8 bytes), a STRING's UTF-8
bytes, a BINARY's bytes, a DECIMAL wider than 18 digits' 16 bytes, a STRUCT as a row of its
fields, and an ARRAY as its size (8 bytes), its null bits, its elements' slots (1 to 8 bytes
each, by type) and what each element takes besides. Each part is counted at its most, all at
once: an array at ``maxSize``, a string at ``maxLength`` characters of the widest UTF-8 its
characters have (the room the JVM's writer reserves before it draws one), a pattern at its
longest UTF-8, a ``values`` cell at its longest value; a cell whose ``nullRate`` is 1, always null,
takes its slot only (outside an array, a wide DECIMAL keeps its 16 bytes even when null).

So the bound is the most a row can take, exactly, and Spark's buffer grows to the limit and no
further: every part can be at its most in one row (an array at ``maxSize``, each of its strings at
its longest and widest, which the JVM's writer reserves before it draws one anyway). A row of an
accepted declaration always fits, and a refused declaration can make a row that does not, however
unlikely (a ``unicode`` string of 4-byte characters only). The bound is read from the options, never
from the seed: it counts more than a stream's rows can hold only where the seed's ``distinctValues``
pool has no entry of the longest length and widest characters. The Python engine's rows, which
Spark writes from Arrow with each string's own bytes, take no more than the JVM's.
"""

from __future__ import annotations

from collections.abc import Sequence

from spark_random_strings.options import MAX_LENGTH
from spark_random_strings.text.string_column import max_value_bytes
from spark_random_strings.typed.cells.pattern_plan import max_utf8_bytes
from spark_random_strings.typed.cells.spec import (
    Arrays,
    AtomicType,
    Bytes,
    CellSpec,
    DataType,
    Patterned,
    Strings,
    Structs,
    Values,
)
from spark_random_strings.typed.fields import options as field_options
from spark_random_strings.typed.fields.properties import MAX_SIZE, PATTERN, VALUES
from spark_random_strings.typed.schema.sql_types import (
    BOOLEAN,
    DATE,
    FLOAT,
    INT,
    SMALLINT,
    TINYINT,
    is_decimal,
)

#: The most bytes a row may take: Spark's writers' buffer (``BufferHolder``) grows no further
#: (``ByteArrayMethods.MAX_ROUNDED_ARRAY_LENGTH``, Java's largest array less 15, whole words).
LIMIT = 2_147_483_632
#: The most digits a DECIMAL held in 8 bytes has (``Decimal.MAX_LONG_DIGITS``).
_MAX_LONG_DIGITS = 18


def _words(size: int) -> int:
    """``size`` bytes rounded up to whole 8-byte words, as Spark lays out every variable-length part."""
    return (size + 7) // 8 * 8


def _null_bits(fields: int) -> int:
    """The null bits of ``fields`` fields or elements: 8 bytes for each 64."""
    return (fields + 63) // 64 * 8


def _element_size(t: DataType) -> int:
    """The bytes an element of type ``t`` takes in an array (``CellWriter.elementSize``)."""
    name = t.sql if isinstance(t, AtomicType) else ""
    if name in (BOOLEAN.sql, TINYINT.sql):
        return 1
    if name == SMALLINT.sql:
        return 2
    if name in (INT.sql, FLOAT.sql, DATE.sql):
        return 4
    return 8


def variable(spec: CellSpec, in_array: bool = False) -> int:
    """The most bytes cells of ``spec`` take besides their fixed slot (8 bytes in a row or a
    struct, 1 to 8 in an array); ``in_array``: they are an ARRAY's elements."""
    t = spec.data_type
    # Spark keeps a wide DECIMAL's 16 bytes in a row or a struct even when it is null; in an
    # array, a null one takes none.
    if isinstance(t, AtomicType) and is_decimal(t) and t.precision > _MAX_LONG_DIGITS:
        return 0 if in_array and spec.null_rate >= 1.0 else 16
    if spec.null_rate >= 1.0:
        return 0
    match spec.kind:
        case Strings(values):
            return max_value_bytes(values)
        case Patterned(_, plan):
            return _words(max_utf8_bytes(plan))
        case Values(values, _, _):
            return max(_value_bytes(v) for v in values)
        case Bytes(_, most):
            return _words(most)
        case Arrays(_, most, element):
            slots = _words(most * _element_size(element.data_type))
            return 8 + _null_bits(most) + slots + most * variable(element, in_array=True)
        case Structs(fields):
            return (
                _null_bits(len(fields)) + 8 * len(fields) + sum(variable(f, in_array=False) for f in fields)
            )
    return 0


def _value_bytes(value: object) -> int:
    """The bytes a listed value takes besides its slot: a string's UTF-8 (as Java encodes it, a
    lone surrogate as ``?``) or a BINARY's bytes, word-aligned; nothing for a number."""
    if isinstance(value, str):
        return _words(len(value.encode("utf-8", "replace")))
    if isinstance(value, bytes):
        return _words(len(value))
    return 0


def column(spec: CellSpec) -> int:
    """The most bytes the column of ``spec`` takes of a row: its slot, and what it takes besides."""
    return 8 + variable(spec)


def row(cells: Sequence[CellSpec]) -> int:
    """The most bytes a row of columns ``cells`` takes."""
    return _null_bits(len(cells)) + sum(column(c) for c in cells)


def drivers(spec: CellSpec) -> list[str]:
    """The options that bound the bytes of ``spec``'s cells, from the column's down to the
    deepest: each ARRAY's ``maxSize``, into a STRUCT's largest field, to the ``maxLength``,
    ``pattern`` or ``values`` of its strings or bytes."""

    def option(name: str) -> str:
        return f"{field_options.PREFIX}{field_options.shown(spec.path)}.{name}"

    if variable(spec) == 0:
        return []
    match spec.kind:
        case Arrays(_, _, element):
            return [option(MAX_SIZE), *drivers(element)]
        case Structs(fields):
            return drivers(max(fields, key=variable))
        case Strings() | Bytes():
            return [option(MAX_LENGTH)]
        case Patterned():
            return [option(PATTERN)]
        case Values():
            return [option(VALUES)]
    return []


def check(cells: Sequence[CellSpec]) -> None:
    """Refuses columns ``cells`` if their row may take more than :data:`LIMIT` bytes: naming the
    first column that can take more alone, or else the largest, with its bound and the options to
    lower.

    Raises:
        ValueError: naming the column, its bound, the limit and the options.
    """
    total = row(cells)
    if total <= LIMIT:
        return
    columns = [column(c) for c in cells]
    alone = next((i for i, size in enumerate(columns) if size > LIMIT), None)
    at = alone if alone is not None else columns.index(max(columns))
    named = field_options.shown(cells[at].path)
    options = [f"'{d}'" for d in drivers(cells[at])]
    listed = f"{', '.join(options[:-1])} or {options[-1]}" if len(options) > 1 else "".join(options)
    limit = f"a row must fit in {LIMIT:,} bytes (Spark's limit)"
    if alone is not None:
        fix = f"Lower {listed}." if options else "Declare it smaller."
        raise ValueError(
            f"Column '{named}' can take up to {columns[at]:,} bytes of a row, and {limit}. {fix}"
        )
    fix = f"Lower {listed}, or declare fewer columns." if options else "Declare fewer columns."
    raise ValueError(
        f"A row of the declared columns can take up to {total:,} bytes, and {limit}; its largest column, "
        f"'{named}', up to {columns[at]:,}. {fix}"
    )
