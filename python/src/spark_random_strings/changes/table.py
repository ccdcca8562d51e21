"""The table after the first n changes of a change stream (the jar's ``ChangesTable.scala``): one
row per present key, its last image, in key order, found for each key directly
(``ChangeLifecycle.last_occurrence``): time and memory in proportion to the keys, whatever n is.
Its history (SCD type 2) is every version of every key up to then, each with the change numbers
and commit times between which it held: in proportion to the versions."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from spark_random_strings.changes.images import ImageMaker
from spark_random_strings.changes.lifecycle import DELETE, ChangeLifecycle
from spark_random_strings.changes.rows import ChangeStream
from spark_random_strings.randomness.counter_random import I64
from spark_random_strings.rows.column_makers import as_timestamps

#: The most keys one record batch of the table looks at, and the most versions one of the history holds
#: (but for a key that has more).
KEYS_PER_BATCH = 1 << 16

#: The columns a history adds after the declared ones: the change that began the version and the one
#: that ended it (null while it holds), and their commit times (the source's ``Changes.HistoryFields``).
HISTORY_FIELDS = (
    pa.field("valid_from_seq", pa.int64(), nullable=False),
    pa.field("valid_to_seq", pa.int64()),
    pa.field("valid_from", pa.timestamp("us", tz="UTC"), nullable=False),
    pa.field("valid_to", pa.timestamp("us", tz="UTC")),
)


def table_after(stream: ChangeStream, n: int) -> pa.Table:
    """The table after the first ``n`` changes of ``stream`` (changes 0 to n - 1 applied in
    order): the declared columns of each present key's last image, in key order. A row's
    column of kind ``offset`` holds its image's change number."""
    images = ImageMaker(stream.definition, stream.spec.key, stream.spec.updated_columns)
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
        yield pa.RecordBatch.from_arrays(
            images.columns(kept, seqs, seqs, _bases(stream, lifecycle, kept, last[present])),
            schema=images.schema,
        )


def _bases(stream: ChangeStream, lifecycle: ChangeLifecycle, key: I64, j: I64) -> I64 | None:
    """The change whose cells the columns an update leaves keep, of each key's occurrence j (which
    leaves it present): its insert; None without ``updateColumns``, where every column changes."""
    if stream.spec.update_columns is None:
        return None
    return lifecycle.seq_of(key, lifecycle.insert_of(key, j))


def history_after(stream: ChangeStream, n: int) -> pa.Table:
    """Every version of every key up to the first ``n`` changes of ``stream`` (SCD type 2): for each
    insert or update among them, the key's image then, ``valid_from_seq`` its change number,
    ``valid_to_seq`` the number of the key's next change among them (its update or delete; null if
    none), and ``valid_from``/``valid_to`` their commit times. In key order, each key's versions in
    change order."""
    images = ImageMaker(stream.definition, stream.spec.key, stream.spec.updated_columns)
    schema = pa.schema([*images.schema, *HISTORY_FIELDS])
    return pa.Table.from_batches(list(_versions(stream, images, schema, n)), schema=schema)


def _versions(
    stream: ChangeStream, images: ImageMaker, schema: pa.Schema, n: int
) -> Iterator[pa.RecordBatch]:
    lifecycle = ChangeLifecycle(stream.definition.seed, stream.spec)
    # Every key of a group has about as many changes: as many keys a batch as keep it near the size.
    per_key = n // lifecycle.keys + 2
    step = max(1, KEYS_PER_BATCH // per_key)
    for first in range(0, lifecycle.keys, step):
        keys = np.arange(first, min(first + step, lifecycle.keys), dtype=np.int64)
        counts = lifecycle.last_occurrence(keys, n) + 1
        total = int(counts.sum())
        if total == 0:
            continue
        key = np.repeat(keys, counts)
        j = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
        seq = lifecycle.seq_of(key, j)
        # A key's next occurrence is the next element, while the key has one.
        has_next = j < np.repeat(counts - 1, counts)
        next_seq = np.empty(total, np.int64)
        next_seq[:-1] = seq[1:]
        kept = lifecycle.op_of(key, j) != DELETE
        if not kept.any():
            continue
        key, j, seq, has_next, next_seq = (
            key[kept],
            j[kept],
            seq[kept],
            has_next[kept],
            np.where(has_next, next_seq, 0)[kept],
        )
        commit = stream.commit_times_ms
        yield pa.RecordBatch.from_arrays(
            [
                *images.columns(key, seq, seq, _bases(stream, lifecycle, key, j)),
                pa.array(seq, pa.int64()),
                pa.array(next_seq, pa.int64(), mask=~has_next),
                as_timestamps(commit(seq)),
                pc.if_else(pa.array(has_next), as_timestamps(commit(next_seq)), None),
            ],
            schema=schema,
        )
