"""The makers of STRING and BINARY cells (``StringColumnWriter.writeDrawn``, ``PatternWriter`` and
``CellWriter.scala``'s bytes), each for whole arrays of cells: a string column's options, a pattern
walked once for all the cells, uniform bytes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from spark_random_strings.randomness.counter_random import I64, U64, bounded, draws32
from spark_random_strings.text.string_column import StringColumn
from spark_random_strings.text.utf8 import string_array
from spark_random_strings.typed.cells.base import CellMaker
from spark_random_strings.typed.cells.draws import bounded_at_cursor, bounded_first, bounded_runs
from spark_random_strings.typed.cells.spec import (
    AnyOf,
    Bytes,
    CellSpec,
    Either,
    Literal,
    Patterned,
    PatternPlan,
    Repeat,
    Strings,
)
from spark_random_strings.typed.cells.spec import Sequence as PatternSequence

if TYPE_CHECKING:
    from spark_random_strings.columns.maker import RowDraw


class StringsMaker(CellMaker):
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


class PatternMaker(CellMaker):
    """Strings that match a pattern: its plan walked left to right, each choice a 32-bit bounded
    draw from the cell's stream (``PatternWriter``)."""

    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        kind = self.spec.kind
        assert isinstance(kind, Patterned)
        walk = PatternWalk(keys)
        walk.draw(kind.plan, np.arange(len(keys)))
        return walk.strings()


class PatternWalk:
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


class BytesMaker(CellMaker):
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
