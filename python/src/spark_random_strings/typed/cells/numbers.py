"""The makers of number, time and listed-value cells (``CellWriter.scala``'s whole numbers, reals,
booleans, sequences, row offsets, event times and ``values``), each for whole arrays of cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from spark_random_strings.options.ranges import LONG_MAX, LONG_MIN
from spark_random_strings.randomness import strictmath as strict
from spark_random_strings.randomness.counter_random import I64, MASK, U64, longs, unit_doubles
from spark_random_strings.randomness.zipf_sampler import ZipfSampler
from spark_random_strings.typed.cells.base import CellMaker, primitive, wholes_array
from spark_random_strings.typed.cells.draws import (
    TWO_TO_63,
    bounded_first,
    double_to_long,
    exponential_cut,
    java_min,
    normals,
    signed,
    unsigned_up_to,
)
from spark_random_strings.typed.cells.spec import (
    AtomicType,
    CellSpec,
    DataType,
    EventTime,
    Exponential,
    Normal,
    PickWeighted,
    PickZipf,
    Reals,
    SequenceKind,
    Uniform,
    Values,
    Wholes,
    Zipf,
)

if TYPE_CHECKING:
    from spark_random_strings.columns.maker import RowDraw

_TWO_TO_64 = 2.0**64


class WholesMaker(CellMaker):
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
                return wholes_array(clamped, self.spec.data_type, self.type)
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
        return wholes_array(value, self.spec.data_type, self.type)


class RealsMaker(CellMaker):
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
            return primitive(self.type, value.astype(np.float32))
        return primitive(self.type, value)


class BooleansMaker(CellMaker):
    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        return pa.array(unit_doubles(longs(keys, 0)) < 0.5, pa.bool_())


class SequenceMaker(CellMaker):
    """start + step * (instance mod count), the instance read as unsigned: no draw."""

    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        k = self.spec.kind
        assert isinstance(k, SequenceKind)
        with np.errstate(over="ignore"):
            step = instances % np.uint64(k.count) * np.uint64(k.step & MASK)
            value = (np.uint64(k.start & MASK) + step).view(np.int64)
        return wholes_array(value, self.spec.data_type, self.type)


class RowOffsetMaker(CellMaker):
    """The row's own offset (a repeat's too)."""

    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        return primitive(self.type, rows.offsets[row_of].astype(np.int64))


class EventTimeMaker(CellMaker):
    """The row's event time: in µs, saturated (``RowClock.timestampMicros``), or in ms."""

    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        k = self.spec.kind
        assert isinstance(k, EventTime)
        ms = rows.event_times_ms[row_of].astype(np.int64)
        if not k.micros:
            return primitive(self.type, ms)
        low, high = -(2**63 // 1000), (2**63 - 1) // 1000
        micros = np.where(ms > high, np.int64(LONG_MAX), np.where(ms < low, np.int64(LONG_MIN), ms * 1000))
        return primitive(self.type, micros)


class ValuesMaker(CellMaker):
    """One of the listed values: uniform, by weights or by Zipf's law over the list's order."""

    def __init__(self, spec: CellSpec, seed: int) -> None:
        super().__init__(spec, seed)
        kind = spec.kind
        assert isinstance(kind, Values)
        self.kind = kind
        self.n = len(kind.values)
        self.table = values_array(spec.data_type, kind.values, self.type)
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


_WHOLE_TYPES = ("TINYINT", "SMALLINT", "INT", "BIGINT", "DATE", "TIMESTAMP", "TIMESTAMP_NTZ")


def values_array(data_type: DataType, values: Sequence[object], arrow: pa.DataType) -> pa.Array:
    """A ``values`` list (``typed.columns``' Python values) as an Arrow array of the column's
    type: a whole type's values are ints of its unit, as the JVM keeps them (a DECIMAL's its
    unscaled value, a DATE's days, a TIMESTAMP's µs); a FLOAT's are rounded to float."""
    assert isinstance(data_type, AtomicType)
    sql = data_type.sql
    if sql.startswith("DECIMAL") or sql in _WHOLE_TYPES:
        units = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
        if len(units) != len(values):
            raise ValueError(f"values of {sql} that are not whole numbers of its unit: {values}")
        return wholes_array(np.array(units, np.int64), data_type, arrow)
    if sql == "FLOAT":
        return primitive(arrow, np.array(values, np.float64).astype(np.float32))
    if sql == "DOUBLE":
        return primitive(arrow, np.array(values, np.float64))
    return pa.array(list(values), arrow)
