"""The contract every column's maker keeps (the JVM's ``RowDraw`` and ``ColumnWriter`` in
``columns/ColumnWriter.scala``): what ``RowGenerator`` works out once a batch (:class:`RowDraw`), and
the maker of one column's cells from it (:class:`ColumnMaker`). The makers themselves live where
their cells are made: the strings' in ``text``, the declared columns' in ``typed``, the rest in
``rows.column_makers``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import pyarrow as pa

from spark_random_strings.randomness.counter_random import I64


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
