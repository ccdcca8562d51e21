"""The cells of a declared column made with numpy (the JVM source's ``CellWriter.scala``): for a
:class:`CellSpec` and a batch of rows, an Arrow array of the rows' cells, the same values the JVM
writes, for whole arrays of rows (and of elements) at once.

Each cell has its own random stream (``_counter_random``): the column's (the stream's seed and
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
drawn again one cell at a time, as ``_string_column`` does. A pattern is walked once for all the
cells, each with its own count of draws.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from spark_random_strings import _strictmath as strict
from spark_random_strings._cell_draws import (
    TWO_TO_63,
    bounded_at_cursor,
    bounded_first,
    bounded_runs,
    double_to_long,
    exponential_cut,
    java_min,
    normals,
    signed,
    unsigned_up_to,
)
from spark_random_strings._cell_spec import (
    AnyOf,
    Arrays,
    ArrayType,
    AtomicType,
    Booleans,
    Bytes,
    CellSpec,
    DataType,
    Either,
    EventTime,
    Exponential,
    Literal,
    Normal,
    Patterned,
    PatternPlan,
    PickWeighted,
    PickZipf,
    Reals,
    Repeat,
    RowOffset,
    SequenceKind,
    Strings,
    Structs,
    StructType,
    Uniform,
    Values,
    Wholes,
    Zipf,
)
from spark_random_strings._cell_spec import Sequence as PatternSequence
from spark_random_strings._counter_random import (
    GAMMA,
    I64,
    MASK,
    U64,
    bounded,
    derived_seed,
    draws32,
    longs,
    mix,
    mix_int,
    unit_doubles,
)
from spark_random_strings._option_range import LONG_MAX, LONG_MIN
from spark_random_strings._string_column import StringColumn
from spark_random_strings._utf8 import string_array
from spark_random_strings._zipf_sampler import ZipfSampler

if TYPE_CHECKING:
    from spark_random_strings._column_maker import RowDraw


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


def cell_weight(spec: CellSpec) -> int:
    """At most about how many characters, bytes and elements one cell of ``spec`` holds, at least
    1: what ``RowGenerator`` sizes its batches by."""
    match spec.kind:
        case Strings(values):
            return max(1, values.max_length)
        case Patterned(_, plan):
            return max(1, _plan_max_length(plan))
        case Bytes(_, max_length):
            return max(1, max_length)
        case Arrays(_, max_size, element):
            return 1 + max_size * cell_weight(element)
        case Structs(fields):
            return sum(cell_weight(f) for f in fields)
        case _:
            return 1


def _plan_max_length(plan: PatternPlan) -> int:
    """The most code points a string of ``plan`` holds (``PatternPlan.maxLength``)."""
    match plan:
        case Literal() | AnyOf():
            return 1
        case PatternSequence(parts):
            return sum(_plan_max_length(p) for p in parts)
        case Either(alternatives):
            return max(_plan_max_length(a) for a in alternatives)
        case Repeat(part, _, most):
            return _plan_max_length(part) * most


def make_cells(spec: CellSpec, seed: int, rows: RowDraw) -> pa.Array:
    """The cells of ``spec`` (a top-level column) of ``rows``, in a stream of seed ``seed``."""
    return cell_maker(spec, seed).make(rows)


def cell_maker(spec: CellSpec, seed: int) -> CellMaker:
    """The maker of ``spec``'s cells, in a stream of seed ``seed`` (``CellWriter.of``)."""
    match spec.kind:
        case Wholes():
            return _WholesMaker(spec, seed)
        case Reals():
            return _RealsMaker(spec, seed)
        case Booleans():
            return _BooleansMaker(spec, seed)
        case SequenceKind():
            return _SequenceMaker(spec, seed)
        case RowOffset():
            return _RowOffsetMaker(spec, seed)
        case EventTime():
            return _EventTimeMaker(spec, seed)
        case Values():
            return _ValuesMaker(spec, seed)
        case Strings():
            return _StringsMaker(spec, seed)
        case Patterned():
            return _PatternMaker(spec, seed)
        case Bytes():
            return _BytesMaker(spec, seed)
        case Arrays():
            return _ArraysMaker(spec, seed)
        case Structs():
            return _StructsMaker(spec, seed)


class CellMaker(ABC):
    """Makes the cells of one spec: of a top-level column (:meth:`make`, a column maker of
    ``_column_maker``), or of a field or an array's elements (:meth:`cells`)."""

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


# Numbers.


class _WholesMaker(CellMaker):
    """Whole numbers of the type's unit in [min, max]: uniform, Zipf, normal or exponential."""

    def __init__(self, spec: CellSpec, seed: int) -> None:
        super().__init__(spec, seed)
        kind = spec.kind
        assert isinstance(kind, Wholes)
        self.kind = kind
        #: max - min as the JVM's long: below 0 for spans of 2^63 and more.
        self.span = signed(kind.max - kind.min)
        #: max - min as a double, read as unsigned (``CellWriter``'s ``unsignedSpan``).
        self.unsigned_span = float(self.span) if self.span >= 0 else float(self.span) + _TWO_TO_64
        self.zipf = (
            ZipfSampler(self.span + 1, kind.distribution.exponent)
            if isinstance(kind.distribution, Zipf)
            else None
        )
        self.cut = (
            exponential_cut((self.unsigned_span + 1.0) / kind.distribution.mean)
            if isinstance(kind.distribution, Exponential)
            else 0.0
        )

    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        k = self.kind
        match k.distribution:
            case Uniform():
                drawn = unsigned_up_to(keys, self.span)
            case Zipf():
                assert self.zipf is not None
                drawn = (self.zipf.sample(keys) - 1).astype(np.uint64)
            case Normal(mean, stddev):
                low, high = float(k.min), float(k.max)
                normal = normals(keys, mean, stddev, low, high, rounded=True)
                clamped = np.clip(double_to_long(normal), k.min, k.max)
                return _wholes_array(clamped, self.spec.data_type, self.type)
            case Exponential(mean):
                x = -mean * strict.log1p(-unit_doubles(longs(keys, 0)) * self.cut)
                # Added as unsigned: min + the drawn whole part wraps back into [min, max].
                whole = java_min(np.floor(x), self.unsigned_span)
                below = whole < TWO_TO_63
                drawn = np.where(
                    below, double_to_long(whole), double_to_long(whole - TWO_TO_63) ^ LONG_MIN
                ).view(np.uint64)
        with np.errstate(over="ignore"):
            value = (np.uint64(k.min & MASK) + drawn).view(np.int64)
        return _wholes_array(value, self.spec.data_type, self.type)


class _RealsMaker(CellMaker):
    """FLOAT and DOUBLE values in [min, max], drawn as doubles: uniform, normal or exponential."""

    def __init__(self, spec: CellSpec, seed: int) -> None:
        super().__init__(spec, seed)
        kind = spec.kind
        assert isinstance(kind, Reals)
        self.kind = kind
        self.cut = (
            exponential_cut((kind.max - kind.min) / kind.distribution.mean)
            if isinstance(kind.distribution, Exponential)
            else 0.0
        )

    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        k = self.kind
        match k.distribution:
            case Normal(mean, stddev):
                value = normals(keys, mean, stddev, k.min, k.max, rounded=False)
            case Exponential(mean):
                with np.errstate(over="ignore"):  # beyond the doubles: infinite, then max
                    drawn = k.min - mean * strict.log1p(-unit_doubles(longs(keys, 0)) * self.cut)
                value = java_min(k.max, drawn)
            case _:
                u = unit_doubles(longs(keys, 0))
                value = java_min(k.max, k.min * (1.0 - u) + k.max * u)
        if self.type == pa.float32():
            return _primitive(self.type, value.astype(np.float32))
        return _primitive(self.type, value)


class _BooleansMaker(CellMaker):
    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        return pa.array(unit_doubles(longs(keys, 0)) < 0.5, pa.bool_())


class _SequenceMaker(CellMaker):
    """start + step * (instance mod count), the instance read as unsigned: no draw."""

    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        k = self.spec.kind
        assert isinstance(k, SequenceKind)
        with np.errstate(over="ignore"):
            step = instances % np.uint64(k.count) * np.uint64(k.step & MASK)
            value = (np.uint64(k.start & MASK) + step).view(np.int64)
        return _wholes_array(value, self.spec.data_type, self.type)


class _RowOffsetMaker(CellMaker):
    """The row's own offset (a repeat's too)."""

    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        return _primitive(self.type, rows.offsets[row_of].astype(np.int64))


class _EventTimeMaker(CellMaker):
    """The row's event time: in µs, saturated (``RowClock.timestampMicros``), or in ms."""

    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        k = self.spec.kind
        assert isinstance(k, EventTime)
        ms = rows.event_times_ms[row_of].astype(np.int64)
        if not k.micros:
            return _primitive(self.type, ms)
        low, high = -(2**63 // 1000), (2**63 - 1) // 1000
        micros = np.where(ms > high, np.int64(LONG_MAX), np.where(ms < low, np.int64(LONG_MIN), ms * 1000))
        return _primitive(self.type, micros)


class _ValuesMaker(CellMaker):
    """One of the listed values: uniform, by weights or by Zipf's law over the list's order."""

    def __init__(self, spec: CellSpec, seed: int) -> None:
        super().__init__(spec, seed)
        kind = spec.kind
        assert isinstance(kind, Values)
        self.kind = kind
        self.n = len(kind.values)
        self.table = _values_array(spec.data_type, kind.values, self.type)
        self.zipf = ZipfSampler(self.n, kind.pick.exponent) if isinstance(kind.pick, PickZipf) else None
        self.cumulative = (
            np.asarray(kind.pick.cumulative, np.float64) if isinstance(kind.pick, PickWeighted) else None
        )

    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        if self.zipf is not None:
            index = self.zipf.sample(keys) - 1
        elif self.cumulative is not None:
            target = unit_doubles(longs(keys, 0)) * self.cumulative[-1]
            # The JVM's binary search: the first index whose running sum is above the target.
            index = np.minimum(np.searchsorted(self.cumulative, target, side="right"), self.n - 1)
        else:
            index = bounded_first(keys, self.n)[0]
        return self.table.take(pa.array(index.astype(np.int64)))


# Strings and bytes.


class _StringsMaker(CellMaker):
    """Strings as a string column's options say (``StringColumnWriter.writeDrawn``): a fresh
    value's length and characters from the cell's stream, or the pool entry it picks from the
    cell's stream, whose characters come from the entry's own (the pool keyed by the path's
    seed)."""

    def __init__(self, spec: CellSpec, seed: int) -> None:
        super().__init__(spec, seed)
        kind = spec.kind
        assert isinstance(kind, Strings)
        self.strings = StringColumn(self.key_seed, kind.values)

    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        s = self.strings
        v = s.values
        if s.pool is None:
            choices, first_draw = bounded_first(keys, v.max_length - v.min_length + 1)
            lengths = v.min_length + choices
            return s.strings(lengths, s.character_indexes(keys, first_draw, lengths))
        if s.zipf is not None:
            entries = s.zipf.sample(keys) - 1
        else:
            entries = bounded_first(keys, s.pool.size)[0]
        return s.pool_values(entries)[1]


class _PatternMaker(CellMaker):
    """Strings that match a pattern: its plan walked left to right, each choice a 32-bit bounded
    draw from the cell's stream (``PatternWriter``)."""

    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        kind = self.spec.kind
        assert isinstance(kind, Patterned)
        walk = _PatternWalk(keys)
        walk.draw(kind.plan, np.arange(len(keys)))
        return walk.strings()


class _PatternWalk:
    """One walk of a plan for many cells at once: each cell's next 32-bit draw and length so far,
    and the characters drawn, as (cells, positions, code points) chunks. A step that every cell
    takes (most of a plan's) works on whole arrays, with no gather or scatter."""

    def __init__(self, keys: U64) -> None:
        self.keys = keys
        self.cursor = np.zeros(len(keys), np.int64)
        self.lengths = np.zeros(len(keys), np.int64)
        self.chunks: list[tuple[I64, I64, I64]] = []

    def bounded(self, cells: I64, bound: int) -> I64:
        """``nextBounded(bound)`` of each of ``cells`` (distinct), each from its own next draw."""
        if len(cells) == len(self.keys):  # every cell, in order
            values, rejected = bounded(draws32(self.keys, self.cursor), bound)
            self.cursor += 1
            if rejected.any():
                again = np.flatnonzero(rejected)  # drawn again from their next draws on
                values[again] = bounded_at_cursor(self.keys, self.cursor, again, bound)
            return values
        return bounded_at_cursor(self.keys, self.cursor, cells, bound)

    def put(self, cells: I64, points: I64) -> None:
        """Appends ``points[i]`` to cell ``cells[i]``'s string."""
        if len(cells) == len(self.keys):
            self.chunks.append((cells, self.lengths.copy(), points))
            self.lengths += 1
        else:
            self.chunks.append((cells, self.lengths[cells], points))
            self.lengths[cells] += 1

    def draw(self, plan: PatternPlan, cells: I64) -> None:
        """Draws ``plan`` for ``cells`` (in increasing order), as ``PatternWriter.draw`` does for each."""
        if len(cells) == 0:
            return
        match plan:
            case Literal(code_point):
                self.put(cells, np.full(len(cells), code_point, np.int64))
            case AnyOf(code_points):
                table = np.asarray(code_points, np.int64)
                self.put(cells, table[self.bounded(cells, len(code_points))])
            case PatternSequence(parts):
                for part in parts:
                    self.draw(part, cells)
            case Either(alternatives):
                choice = self.bounded(cells, len(alternatives))
                for i, alternative in enumerate(alternatives):
                    self.draw(alternative, cells[choice == i])
            case Repeat(part, least, most):
                if most == least:
                    for _ in range(least):
                        self.draw(part, cells)
                    return
                times = least + self.bounded(cells, most - least + 1)
                for time in range(most):
                    going = cells[times > time]
                    if len(going) == 0:
                        break
                    self.draw(part, going)

    def strings(self) -> pa.Array:
        """Each cell's characters as an Arrow string array."""
        lengths = self.lengths
        starts = np.cumsum(lengths) - lengths
        points = np.zeros(int(lengths.sum()), np.int64)
        for cells, positions, drawn in self.chunks:
            points[starts[cells] + positions] = drawn
        return string_array(lengths, points)


class _BytesMaker(CellMaker):
    """Bytes, each uniform over 0 to 255: the length, then each byte, 32-bit draws in order."""

    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        k = self.spec.kind
        assert isinstance(k, Bytes)
        choices, first_draw = bounded_first(keys, k.max_length - k.min_length + 1)
        lengths = k.min_length + choices
        data = bounded_runs(keys, first_draw, lengths, 256).astype(np.uint8)
        offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
        return pa.Array.from_buffers(
            pa.binary(), len(keys), [None, pa.py_buffer(offsets), pa.py_buffer(data)]
        )


# Containers.


class _ArraysMaker(CellMaker):
    """An array of minSize to maxSize elements (one 32-bit draw, if they differ), element i made
    as its own cell at instance ``derivedSeed(x, i)``."""

    def __init__(self, spec: CellSpec, seed: int) -> None:
        super().__init__(spec, seed)
        kind = spec.kind
        assert isinstance(kind, Arrays)
        self.kind = kind
        self.elements = cell_maker(kind.element, seed)

    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        k = self.kind
        sizes = k.max_size - k.min_size + 1
        if sizes == 1:
            counts = np.full(len(keys), k.min_size, np.int64)
        else:
            counts = k.min_size + bounded_first(keys, sizes)[0]
        total = int(counts.sum())
        if total > 2**31 - 1:
            raise ValueError(
                "a batch of rows holds 2^31 array elements or more; ask for fewer rows at a time"
            )
        ends = np.cumsum(counts)
        index = np.arange(total, dtype=np.int64) - np.repeat(ends - counts, counts)
        of = np.repeat(np.arange(len(keys)), counts)
        with np.errstate(over="ignore"):
            element_instances = mix(mix(instances[of]) ^ mix(index.astype(np.uint64) * GAMMA))
        elements = self.elements.cells(element_instances, row_of[of], rows)
        offsets = pa.array(np.concatenate([[0], ends]).astype(np.int32))
        return pa.ListArray.from_arrays(offsets, elements, type=self.type)


class _StructsMaker(CellMaker):
    """A struct: each field made as its own cell at the struct's instance."""

    def __init__(self, spec: CellSpec, seed: int) -> None:
        super().__init__(spec, seed)
        kind = spec.kind
        assert isinstance(kind, Structs)
        self.fields = [cell_maker(f, seed) for f in kind.fields]

    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        children = [f.cells(instances, row_of, rows) for f in self.fields]
        return pa.StructArray.from_arrays(children, fields=list(self.type))


# Arrow arrays.


def _primitive(arrow: pa.DataType, values: npt.NDArray[np.generic]) -> pa.Array:
    """A fixed-width Arrow array of ``values`` (already of the type's width), with no null."""
    data = np.ascontiguousarray(values)
    return pa.Array.from_buffers(arrow, len(data), [None, pa.py_buffer(data)])


def _wholes_array(values: I64, data_type: DataType, arrow: pa.DataType) -> pa.Array:
    """Whole numbers of the type's unit as cells of ``data_type`` (``CellWriter.writeWhole``: a
    narrower type keeps the low bits; a DECIMAL's are its unscaled values)."""
    assert isinstance(data_type, AtomicType)
    sql = data_type.sql
    if sql.startswith("DECIMAL"):
        words = np.empty((len(values), 2), np.int64)
        words[:, 0] = values
        words[:, 1] = values >> 63
        return _primitive(arrow, words)
    width = {"TINYINT": np.int8, "SMALLINT": np.int16, "INT": np.int32, "DATE": np.int32}.get(sql, np.int64)
    return _primitive(arrow, values.astype(width))


_WHOLE_TYPES = ("TINYINT", "SMALLINT", "INT", "BIGINT", "DATE", "TIMESTAMP", "TIMESTAMP_NTZ")


def _values_array(data_type: DataType, values: Sequence[object], arrow: pa.DataType) -> pa.Array:
    """A ``values`` list (``_typed_columns``' Python values) as an Arrow array of the column's
    type: a whole type's values are ints of its unit, as the JVM keeps them (a DECIMAL's its
    unscaled value, a DATE's days, a TIMESTAMP's µs); a FLOAT's are rounded to float."""
    assert isinstance(data_type, AtomicType)
    sql = data_type.sql
    if sql.startswith("DECIMAL") or sql in _WHOLE_TYPES:
        units = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
        if len(units) != len(values):
            raise ValueError(f"values of {sql} that are not whole numbers of its unit: {values}")
        return _wholes_array(np.array(units, np.int64), data_type, arrow)
    if sql == "FLOAT":
        return _primitive(arrow, np.array(values, np.float64).astype(np.float32))
    if sql == "DOUBLE":
        return _primitive(arrow, np.array(values, np.float64))
    return pa.array(list(values), arrow)
