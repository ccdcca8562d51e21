"""The makers of a batch's columns (the JVM source's ``ColumnWriter.scala``): each makes one
column's cells of a batch of rows, as an Arrow array, from what ``RowGenerator`` works out once a
batch (:class:`RowDraw`). A declared column's maker is ``_cell_maker``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import pyarrow as pa

from spark_random_strings._cell_maker import cell_maker
from spark_random_strings._columns import (
    Cells,
    Column,
    EventTimeMs,
    EventTimestamp,
    LengthOf,
    Offset,
    Strings,
)
from spark_random_strings._counter_random import I64
from spark_random_strings._string_column import StringColumn


@dataclass(frozen=True)
class RowDraw:
    """The rows being made, as their columns' makers see them: what every cell is a function of,
    besides the definition. ``RowGenerator`` works it out once a batch, before its makers run."""

    #: The rows' offsets.
    offsets: I64
    #: The offset of the original each row repeats, or its own (see ``_row_disorder``).
    originals: I64
    #: The rows' event times, epoch ms: their originals', moved as the ``RowShape`` says.
    event_times_ms: I64


class ColumnMaker(Protocol):
    """Makes one column's cells of a batch of rows. A maker belongs to one ``RowGenerator``: it
    may keep what it made for a later column of the same batch (a string column's lengths)."""

    def make(self, rows: RowDraw) -> pa.Array:
        """The cells of ``rows``. Makers run in their columns' order, once a batch."""
        ...


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
