"""The cells of a declared column made with numpy (the JVM source's ``CellWriter.scala``): for a
:class:`CellSpec` and a batch of rows, an Arrow array of the rows' cells, the same values the JVM
writes, for whole arrays of rows (and of elements) at once. Each kind's maker is in
``typed.cells.numbers`` or ``typed.cells.text``, the ARRAY and STRUCT makers here; what they share (the
cells' streams, their null draw, the Arrow types) is in ``typed.cells.base``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from spark_random_strings.randomness.counter_random import GAMMA, I64, U64, mix
from spark_random_strings.typed.cells import pattern_plan
from spark_random_strings.typed.cells.base import CellMaker
from spark_random_strings.typed.cells.draws import bounded_first
from spark_random_strings.typed.cells.numbers import (
    BooleansMaker,
    EventTimeMaker,
    RealsMaker,
    RowOffsetMaker,
    SequenceMaker,
    ValuesMaker,
    WholesMaker,
)
from spark_random_strings.typed.cells.spec import (
    Arrays,
    Booleans,
    Bytes,
    CellSpec,
    EventTime,
    Patterned,
    Reals,
    RowOffset,
    SequenceKind,
    Strings,
    Structs,
    Values,
    Wholes,
)
from spark_random_strings.typed.cells.text import BytesMaker, PatternMaker, StringsMaker

if TYPE_CHECKING:
    from spark_random_strings.columns.maker import RowDraw


def cell_weight(spec: CellSpec) -> int:
    """At most about how many characters, bytes and elements one cell of ``spec`` holds, at least
    1: what ``RowGenerator`` sizes its batches by."""
    match spec.kind:
        case Strings(values):
            return max(1, values.max_length)
        case Patterned(_, plan):
            return max(1, pattern_plan.max_length(plan))
        case Bytes(_, max_length):
            return max(1, max_length)
        case Arrays(_, max_size, element):
            return 1 + max_size * cell_weight(element)
        case Structs(fields):
            return sum(cell_weight(f) for f in fields)
        case _:
            return 1


def make_cells(spec: CellSpec, seed: int, rows: RowDraw) -> pa.Array:
    """The cells of ``spec`` (a top-level column) of ``rows``, in a stream of seed ``seed``."""
    return cell_maker(spec, seed).make(rows)


def cell_maker(spec: CellSpec, seed: int) -> CellMaker:
    """The maker of ``spec``'s cells, in a stream of seed ``seed`` (``CellWriter.of``)."""
    match spec.kind:
        case Wholes():
            return WholesMaker(spec, seed)
        case Reals():
            return RealsMaker(spec, seed)
        case Booleans():
            return BooleansMaker(spec, seed)
        case SequenceKind():
            return SequenceMaker(spec, seed)
        case RowOffset():
            return RowOffsetMaker(spec, seed)
        case EventTime():
            return EventTimeMaker(spec, seed)
        case Values():
            return ValuesMaker(spec, seed)
        case Strings():
            return StringsMaker(spec, seed)
        case Patterned():
            return PatternMaker(spec, seed)
        case Bytes():
            return BytesMaker(spec, seed)
        case Arrays():
            return ArraysMaker(spec, seed)
        case Structs():
            return StructsMaker(spec, seed)


# Containers.


class ArraysMaker(CellMaker):
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


class StructsMaker(CellMaker):
    """A struct: each field made as its own cell at the struct's instance."""

    def __init__(self, spec: CellSpec, seed: int) -> None:
        super().__init__(spec, seed)
        kind = spec.kind
        assert isinstance(kind, Structs)
        self.fields = [cell_maker(f, seed) for f in kind.fields]

    def values(self, keys: U64, instances: U64, row_of: I64, rows: RowDraw) -> pa.Array:
        children = [f.cells(instances, row_of, rows) for f in self.fields]
        return pa.StructArray.from_arrays(children, fields=list(self.type))
