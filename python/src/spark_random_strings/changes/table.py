"""The table after the first n changes of a change stream (the jar's ``ChangesTable.scala``): one
row per present key, its last image, in key order, found for each key directly
(``ChangeLifecycle.last_occurrence``): time and memory in proportion to the keys, whatever n is."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pyarrow as pa

from spark_random_strings.changes.images import ImageMaker
from spark_random_strings.changes.lifecycle import ChangeLifecycle
from spark_random_strings.changes.rows import ChangeStream

#: The most keys one record batch of the table looks at.
KEYS_PER_BATCH = 1 << 16


def table_after(stream: ChangeStream, n: int) -> pa.Table:
    """The table after the first ``n`` changes of ``stream`` (changes 0 to n - 1 applied in
    order): the declared columns of each present key's last image, in key order. A row's
    column of kind ``offset`` holds its image's change number."""
    images = ImageMaker(stream.definition, stream.spec.key)
    return pa.Table.from_batches(list(_batches(stream, images, n)), schema=images.schema)


def _batches(stream: ChangeStream, images: ImageMaker, n: int) -> Iterator[pa.RecordBatch]:
    lifecycle = ChangeLifecycle(stream.definition.seed, stream.spec)
    for first in range(0, lifecycle.keys, KEYS_PER_BATCH):
        keys = np.arange(first, min(first + KEYS_PER_BATCH, lifecycle.keys), dtype=np.int64)
        last = lifecycle.last_occurrence(keys, n)
        present = last >= 0
        present[present] = ~lifecycle.absent_after(keys[present], last[present])
        if not present.any():
            continue
        kept = keys[present]
        seqs = lifecycle.seq_of(kept, last[present])
        yield pa.RecordBatch.from_arrays(images.columns(kept, seqs, seqs), schema=images.schema)
