"""What every maker of a declared column's cells shares (the JVM source's ``CellWriter.scala``): the
cells' random streams, the null draw, the Arrow types and the Arrow arrays of whole numbers.

Each cell has its own random stream (``randomness.counter_random``): the column's (the stream's seed and
the column's path, see :func:`path_seed`) at the cell's instance, which is the row's original
offset for a column or a field of one, and for element i of an array whose cell is at instance x,
``derivedSeed(x, i)``. A cell draws, in order: whether it is null (one 64-bit number, with a
``null_rate`` above 0), then its value, as its kind says. The value's draws are either all 64-bit
numbers or all 32-bit halves, so they are computed directly from the cell's key: with ``base`` =
1 after a null draw (else 0), its t-th 64-bit draw is number ``base + t``, and its d-th 32-bit
draw the low (even d) or high (odd d) half of number ``base + d // 2``. Here that is the stream
of the *value key* ``key + base * GAMMA``, from its number 0.

Draws that may be rejected (Lemire's bounded draws, ``nextLongUpTo``, the Zipf sampler, the
normal distribution's polar method and its redraws out of range) are made in rounds over the cells
still drawing, each from its own next draw, so every cell gets exactly the JVM's sequence of
draws; the characters and bytes of a value, which a draw rejects with a chance below 2^-12, are
drawn again one cell at a time, as ``text.string_column`` does. A pattern is walked once for all the
cells, each with its own count of draws.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from spark_random_strings.randomness.counter_random import (
    GAMMA,
    I64,
    MASK,
    U64,
    derived_seed,
    longs,
    mix,
    mix_int,
    unit_doubles,
)
from spark_random_strings.typed.cells.spec import ArrayType, AtomicType, CellSpec, DataType, StructType

if TYPE_CHECKING:
    from spark_random_strings.columns.maker import RowDraw


#: The random stream every declared column's stream is derived from (``RandomStreams.Columns``).
COLUMNS = 8
_FNV_OFFSET, _FNV_PRIME = 0xCBF29CE484222325, 0x100000001B3
_TWO_TO_64 = 2.0**64


def columns_seed(seed: int) -> int:
    """The stream every column's streams are derived from (``CellWriter.columnsSeed``)."""
    return derived_seed(seed, COLUMNS)


def path_seed(seed: int, path: Sequence[str]) -> int:
    """The seed of the cells at ``path`` (``CellWriter.pathSeed``): derived from the stream's seed
    and the path's text (each part's UTF-8 bytes after their count, 4 bytes big-endian), hashed
    with 64-bit FNV-1a."""
    h = _FNV_OFFSET
    for part in path:
        data = part.encode("utf-8")
        for b in len(data).to_bytes(4, "big") + data:
            h = ((h ^ b) * _FNV_PRIME) & MASK
    return derived_seed(columns_seed(seed), h)


def arrow_type(data_type: DataType) -> pa.DataType:
    """The Arrow type of cells of Spark type ``data_type``: an ARRAY's elements are the list's
    field ``element``, nullable as the ARRAY's ``containsNull``; a STRUCT's fields keep their names
    and nullability."""
    match data_type:
        case ArrayType(element, contains_null):
            return pa.list_(pa.field("element", arrow_type(element), nullable=contains_null))
        case StructType(fields):
            return pa.struct([pa.field(f.name, arrow_type(f.data_type), nullable=f.nullable) for f in fields])
        case AtomicType(sql, precision, scale):
            if sql.startswith("DECIMAL"):
                return pa.decimal128(precision, scale)
            return _ATOMIC_TYPES[sql]


_ATOMIC_TYPES: dict[str, pa.DataType] = {
    "BOOLEAN": pa.bool_(),
    "TINYINT": pa.int8(),
    "SMALLINT": pa.int16(),
    "INT": pa.int32(),
    "BIGINT": pa.int64(),
    "FLOAT": pa.float32(),
    "DOUBLE": pa.float64(),
    "STRING": pa.string(),
    "BINARY": pa.binary(),
    "DATE": pa.date32(),
    "TIMESTAMP": pa.timestamp("us", tz="UTC"),
    "TIMESTAMP_NTZ": pa.timestamp("us"),
}


class CellMaker(ABC):
    """Makes the cells of one spec: of a top-level column (:meth:`make`, a column maker of
    ``rows.column_makers``), or of a field or an array's elements (:meth:`cells`)."""

    def __init__(self, spec: CellSpec, seed: int) -> None:
        self.spec = spec
        self.seed = seed
        #: The seed of the cells' streams (``CellWriter.pathSeed``).
        self.key_seed = path_seed(seed, spec.path)
        #: Its key, as ``CounterRandom`` keeps it (``mix(seed)``).
        self.seed_key = mix_int(self.key_seed)
        self.type = arrow_type(spec.data_type)

    def make(self, rows: RowDraw) -> pa.Array:
        """The cells of ``rows``: each at its row's original offset."""
        return self.cells(rows.originals.astype(np.uint64), np.arange(len(rows.offsets)), rows)

    def cells(self, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        """The cells at ``instances``, of the rows at ``row_of`` (indexes into ``rows``): null or
        not (one 64-bit draw, if the null rate is above 0), then each non-null one's value."""
        with np.errstate(over="ignore"):
            keys = mix(np.uint64(self.seed_key) + instances * GAMMA)  # CounterRandom.reset
        if self.spec.null_rate <= 0.0:
            return self.values(keys, instances, row_of, rows)
        null = unit_doubles(longs(keys, 0)) < self.spec.null_rate
        with np.errstate(over="ignore"):
            keys = keys + GAMMA  # the value's draws start at number 1
        if not null.any():
            return self.values(keys, instances, row_of, rows)
        present = np.flatnonzero(~null)
        made = self.values(keys[present], instances[present], row_of[present], rows)
        which = np.cumsum(~null) - 1
        return made.take(pa.array(np.maximum(which, 0), mask=null))

    @abstractmethod
    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        """The non-null cells' values, each drawn from its value key (its number 0 on)."""


# Arrow arrays.


def primitive(arrow: pa.DataType, values: npt.NDArray[np.generic]) -> pa.Array:
    """A fixed-width Arrow array of ``values`` (already of the type's width), with no null."""
    data = np.ascontiguousarray(values)
    return pa.Array.from_buffers(arrow, len(data), [None, pa.py_buffer(data)])


def wholes_array(values: I64, data_type: DataType, arrow: pa.DataType) -> pa.Array:
    """Whole numbers of the type's unit as cells of ``data_type`` (``CellWriter.writeWhole``: a
    narrower type keeps the low bits; a DECIMAL's are its unscaled values)."""
    assert isinstance(data_type, AtomicType)
    sql = data_type.sql
    if sql.startswith("DECIMAL"):
        words = np.empty((len(values), 2), np.int64)
        words[:, 0] = values
        words[:, 1] = values >> 63
        return primitive(arrow, words)
    width = {"TINYINT": np.int8, "SMALLINT": np.int16, "INT": np.int32, "DATE": np.int32}.get(sql, np.int64)
    return primitive(arrow, values.astype(width))
