"""The source's rows made with numpy (the JVM source's ``RowGenerator.scala``): the same values,
event times, offsets and lengths as the JVM makes for the same definition, as Arrow arrays.

Row ``o`` is a pure function of (definition, o), made of draws from counter-based random streams
(``randomness.counter_random``), so any draw of any row is computed directly, for whole arrays of rows and
characters at once. A batch is its columns, each made by its column's maker (``rows.column_makers``,
which the definition's columns say), in order, from what the generator works out once a batch:
which original each row carries (``rows.disorder``: a repeated row carries the cells of the row it
repeats, except its offset) and its event time. How a string column's values are drawn is said in
``text.string_column``.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pyarrow as pa

from spark_random_strings.columns.maker import RowDraw
from spark_random_strings.randomness.counter_random import I64
from spark_random_strings.rows.column_makers import makers_of
from spark_random_strings.rows.columns import Cells, Strings
from spark_random_strings.rows.definition import StreamDefinition
from spark_random_strings.rows.disorder import RowDisorder
from spark_random_strings.time.row_clock import event_times
from spark_random_strings.typed.cells.maker import cell_weight


class RowGenerator:
    """Makes the rows of one stream definition, as Arrow record batches."""

    #: About how many characters one batch holds at most, and how many rows.
    CHARACTERS_PER_BATCH = 1 << 22
    ROWS_PER_BATCH = 1 << 20

    def __init__(self, definition: StreamDefinition) -> None:
        self.definition = definition
        self.disorder = RowDisorder(definition.seed, definition.shape)
        columns = definition.columns()
        #: The columns of the rows, as the definition says: the source's, and ``timestamp`` if it asks.
        self.schema = definition.schema
        self.makers = makers_of(columns, definition.seed)
        #: The most characters a row's strings hold, and about the most characters, bytes and
        #: elements its declared columns' cells hold (``typed.cells.maker.cell_weight``).
        self.max_characters = sum(
            c.content.values.max_length for c in columns if isinstance(c.content, Strings)
        ) + sum(cell_weight(c.content.spec) for c in columns if isinstance(c.content, Cells))

    def batches(self, start: int, end: int) -> Iterator[pa.RecordBatch]:
        """The rows at offsets [start, end), in order, as record batches of the source's schema."""
        step = max(1, min(self.ROWS_PER_BATCH, self.CHARACTERS_PER_BATCH // max(1, self.max_characters)))
        for first in range(start, end, step):
            yield self.batch(np.arange(first, min(first + step, end), dtype=np.int64))

    def batch(self, offsets: I64) -> pa.RecordBatch:
        """The rows at ``offsets`` as one record batch: its columns, each made in order from the
        rows' originals and event times."""
        originals = self.disorder.originals(offsets) if self.disorder.has_repeats else offsets
        rows = RowDraw(offsets, originals, self.event_times(originals))
        return pa.RecordBatch.from_arrays([maker.make(rows) for maker in self.makers], schema=self.schema)

    def event_times(self, originals: I64) -> I64:
        """Each original's event time: in order, then moved back as the shape says."""
        d = self.definition
        in_order = event_times(d.event_time_origin, originals, d.rows_per_second, d.rate_profile)
        if not d.shape.moves_event_times:
            return in_order
        return self.disorder.event_times(in_order, originals)


def expected_table(definition: StreamDefinition, start: int, end: int) -> pa.Table:
    """The rows at offsets [start, end) of the stream ``definition`` describes."""
    generator = RowGenerator(definition)
    return pa.Table.from_batches(list(generator.batches(start, end)), schema=generator.schema)
