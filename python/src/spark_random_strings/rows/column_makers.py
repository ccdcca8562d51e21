"""The makers of a batch's columns (the JVM's ``rows/ColumnWriters.scala``): the maker of each
column of a stream, and those of the columns that only copy what the row's draw holds (its offset,
its event time) or what a string column made (its lengths). Each keeps the contract of
``columns.maker``; a string column's maker is ``text.string_column``'s, a declared column's
``typed.cells.maker``'s.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from spark_random_strings.columns.maker import ColumnMaker, RowDraw
from spark_random_strings.randomness.counter_random import I64
from spark_random_strings.rows.columns import (
    Cells,
    Column,
    EventTimeMs,
    EventTimestamp,
    LengthOf,
    Offset,
    Strings,
)
from spark_random_strings.text.string_column import StringColumn
from spark_random_strings.typed.cells.maker import cell_maker


def makers_of(columns: Sequence[Column], seed: int) -> list[ColumnMaker]:
    """The makers of ``columns``, in their order, for a stream of seed ``seed``."""
    makers: list[ColumnMaker] = []
    for i, column in enumerate(columns):
        match column.content:
            case Strings(values):
                makers.append(StringColumn(seed, values))
            case EventTimeMs():
                makers.append(EventTimeMsMaker())
            case EventTimestamp():
                makers.append(EventTimestampMaker())
            case Offset():
                makers.append(OffsetMaker())
            case Cells(spec):
                makers.append(cell_maker(spec, seed))
            case LengthOf(ordinal):
                strings = makers[ordinal] if 0 <= ordinal < i else None
                if not isinstance(strings, StringColumn):
                    raise ValueError(f"column {i}: no string column at {ordinal} before it")
                makers.append(LengthMaker(strings))
    return makers


class EventTimeMsMaker:
    def make(self, rows: RowDraw) -> pa.Array:
        return pa.array(rows.event_times_ms, pa.int64())


class EventTimestampMaker:
    def make(self, rows: RowDraw) -> pa.Array:
        return as_timestamps(rows.event_times_ms)


class OffsetMaker:
    def make(self, rows: RowDraw) -> pa.Array:
        return pa.array(rows.offsets)


class LengthMaker:
    """The lengths of the values the string column ``strings`` made for the same rows."""

    def __init__(self, strings: StringColumn) -> None:
        self.strings = strings

    def make(self, rows: RowDraw) -> pa.Array:
        return pa.array(self.strings.last_lengths.astype(np.int32))


def as_timestamps(ts: I64) -> pa.Array:
    """Event times in ms as Spark's TIMESTAMP: microseconds, saturating at the 64-bit bounds."""
    low, high = -(2**63 // 1000), (2**63 - 1) // 1000
    micros = np.where(ts > high, np.int64(2**63 - 1), np.where(ts < low, np.int64(-(2**63)), ts * 1000))
    return pa.array(micros, pa.timestamp("us", tz="UTC"))
