"""A change stream's images, as Arrow arrays (the jar's ``ImageWriter.scala``): an image is the
declared columns, the key column holding the key and every other one the cell that the typed
columns draw at the image's change number, with that change's commit time as its event time. So
the image of change s is row s of the typed columns' stream of the same seed, schema and
``fields.`` options, but for its key (and a column of kind ``offset``, which holds the offset of
the row the image is in). With ``updateColumns``, an update changes those columns alone: every
other column keeps the cell of the key's insert (its base), drawn at the insert's change number
and commit time; a column of kind ``offset`` still holds the row's offset."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from spark_random_strings.columns.maker import RowDraw
from spark_random_strings.randomness.counter_random import I64
from spark_random_strings.rows.column_makers import makers_of
from spark_random_strings.rows.definition import StreamDefinition
from spark_random_strings.time.row_clock import event_times


class ImageMaker:
    """Makes the images of one change stream's declared columns, for arrays of changes at once."""

    def __init__(
        self, definition: StreamDefinition, key: str, updated: tuple[str, ...] | None = None
    ) -> None:
        self.definition = definition
        columns = definition.columns()
        #: The declared columns' fields, in order.
        self.schema = pa.schema([column.field for column in columns])
        #: The key column's position among them.
        self.key_ordinal = self.schema.names.index(key)
        #: Whether each column keeps its key's insert's cell: those ``updated`` (the columns an
        #: update changes, if not all) leaves out, but the key.
        self.kept = [
            updated is not None and i != self.key_ordinal and name not in updated
            for i, name in enumerate(self.schema.names)
        ]
        self._makers = makers_of(columns, definition.seed)

    def columns(self, keys: I64, images: I64, offsets: I64, bases: I64 | None = None) -> list[pa.Array]:
        """The declared columns of the images of change ``images`` of keys ``keys``, in rows at
        ``offsets`` (what a column of kind ``offset`` holds): the key, and every other column's
        cells drawn at the image, with its commit time as the event time; but the columns an
        update leaves, drawn at ``bases``, the keys' inserts (``images`` without it)."""
        d = self.definition
        times = event_times(d.event_time_origin, images, d.rows_per_second, d.rate_profile)
        rows = RowDraw(offsets, images, times)
        base_rows = rows
        if bases is not None and any(self.kept):
            base_times = event_times(d.event_time_origin, bases, d.rows_per_second, d.rate_profile)
            base_rows = RowDraw(offsets, bases, base_times)
        return [
            self.key_cells(keys) if i == self.key_ordinal else maker.make(base_rows if self.kept[i] else rows)
            for i, maker in enumerate(self._makers)
        ]

    def key_cells(self, keys: I64) -> pa.Array:
        """The key column's cells: the keys in its type, or their decimal text for a STRING."""
        arrow = self.schema.field(self.key_ordinal).type
        if pa.types.is_string(arrow):
            return pa.array(keys.astype(str).tolist(), pa.string())
        return pa.array(keys.astype(arrow.to_pandas_dtype()), arrow)

    def empty(self) -> list[pa.Array]:
        """No image: an empty array of each declared column."""
        return [pa.array([], field.type) for field in self.schema]


def spread(columns: list[pa.Array], valid: np.ndarray) -> list[pa.Array]:
    """``columns``, made for the rows where ``valid`` holds, spread out to every row: null where it
    does not."""
    which = np.cumsum(valid) - 1
    indices = pa.array(np.maximum(which, 0), mask=~valid)
    return [column.take(indices) for column in columns]
