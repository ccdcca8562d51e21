"""One change stream as a checkpoint fixes it, and its rows (the jar's ``ChangeStream.scala``):
the rows' definition (seed, first start, rate or profile, declared schema and its ``fields.``
options) and the change options. Offset ``n`` is change ``n``, one row, or two for an update in
the Delta and Flink envelopes; its commit time is row ``n``'s in-order event time. The image after
an insert or an update is the change's own; the image before an update or a delete is the key's
previous change's (``changes.lifecycle`` says which change that is)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from spark_random_strings.changes.delivery import ChangeDelivery, is_untidy
from spark_random_strings.changes.envelope import (
    CONNECTOR,
    DEBEZIUM,
    ENVELOPE_OF,
    PREIMAGE,
    SNAPSHOT_OP,
    SNAPSHOT_STATES,
    SOURCE_TYPE,
    Envelope,
)
from spark_random_strings.changes.images import ImageMaker, spread
from spark_random_strings.changes.keywords import CHANGES_FORMAT
from spark_random_strings.changes.lifecycle import DELETE, INSERT, UPDATE, ChangeLifecycle
from spark_random_strings.changes.spec import ChangeSpec
from spark_random_strings.randomness.counter_random import I64
from spark_random_strings.rows.column_makers import as_timestamps
from spark_random_strings.rows.definition import StreamDefinition
from spark_random_strings.time.row_clock import event_times


@dataclass(frozen=True)
class ChangeStream:
    """A change stream: its rows' definition and its change options."""

    definition: StreamDefinition
    spec: ChangeSpec

    @property
    def declared_schema(self) -> pa.Schema:
        """The declared columns, as Arrow types them."""
        return self.definition.schema

    @property
    def schema(self) -> pa.Schema:
        """The rows' schema: the declared columns in the envelope."""
        return self.envelope.schema_of(self.declared_schema)

    @property
    def envelope(self) -> Envelope:
        """The format of the rows (``envelope``)."""
        return ENVELOPE_OF[self.spec.envelope]

    def delivery(self) -> ChangeDelivery | None:
        """The order in which offsets read the changes, if untidy (``changes.delivery``): else
        offset n reads change n."""
        return ChangeDelivery(self.definition, self.spec.end) if is_untidy(self.definition.shape) else None

    def rows_available_at(self, now_ms: int) -> int:
        """How many offsets (reads) exist at wall-clock time ``now_ms``."""
        delivery = self.delivery()
        if delivery is None:
            return self.definition.rows_available_at(now_ms)
        return delivery.positions_available_at(now_ms)

    def commit_times_ms(self, n: I64) -> I64:
        """Each change's commit time, epoch ms: its offset's in-order event time."""
        d = self.definition
        return event_times(d.event_time_origin, n, d.rows_per_second, d.rate_profile)


class ChangeRows:
    """Makes a change stream's rows in its envelope, for arrays of offsets at once."""

    #: The most changes one record batch holds.
    CHANGES_PER_BATCH = 1 << 16

    def __init__(self, stream: ChangeStream) -> None:
        self.stream = stream
        self.lifecycle = ChangeLifecycle(stream.definition.seed, stream.spec)
        self.images = ImageMaker(stream.definition, stream.spec.key, stream.spec.updated_columns)
        self.schema = stream.schema

    def batches(self, start: int, end: int) -> Iterator[pa.RecordBatch]:
        """The rows of offsets [start, end), in order (an update's row before first), as record
        batches of the stream's schema: offset n's change is n, or the delivery's."""
        delivery = self.stream.delivery()
        for first in range(start, end, self.CHANGES_PER_BATCH):
            last = min(first + self.CHANGES_PER_BATCH, end)
            n = (
                np.arange(first, last, dtype=np.int64)
                if delivery is None
                else delivery.changes_at(first, last)
            )
            yield self.batch(n)

    def batch(self, n: I64) -> pa.RecordBatch:
        """The rows of the changes ``n``, in order, as one record batch."""
        if len(n) == 0:
            return pa.RecordBatch.from_arrays([pa.array([], f.type) for f in self.schema], schema=self.schema)
        lifecycle = self.lifecycle
        key, occurrence = lifecycle.locate(n)
        op = lifecycle.op_of(key, occurrence)
        previous = np.full(n.shape, -1, np.int64)
        changed = op != INSERT
        previous[changed] = lifecycle.seq_of(key[changed], occurrence[changed] - 1)
        # The change whose cells the columns an update leaves keep (``updateColumns``): the key's
        # insert, shared by an update and the image before it; a delete's image before is found from
        # the previous change. Each is the image's own change without ``updateColumns``.
        base, previous_base = n, previous
        if self.stream.spec.update_columns is not None:
            insert = lifecycle.seq_of(
                key[changed], lifecycle.insert_of(key[changed], occurrence[changed] - 1)
            )
            previous_base = previous.copy()
            previous_base[changed] = insert
            base = np.where(op == UPDATE, previous_base, n)
        commit_ms = self.stream.commit_times_ms(n)
        if self.stream.envelope.name == DEBEZIUM:
            columns = self._debezium(n, key, op, (previous, previous_base), (base, commit_ms))
        else:
            columns = self._rows(n, key, op, (previous, previous_base), (base, commit_ms))
        return pa.RecordBatch.from_arrays(columns, schema=self.schema)

    def _rows(
        self, n: I64, key: I64, op: I64, earlier: tuple[I64, I64], now: tuple[I64, I64]
    ) -> list[pa.Array]:
        """The flat, Delta and Flink rows: the image, then what the row does, the change's number
        and its commit time. An update that takes two rows has its image before first. ``earlier``
        is each change's image before and its base, ``now`` its own image's base and commit time."""
        (previous, previous_base), (base, commit_ms) = earlier, now
        counts = self.stream.envelope.rows_of(op == UPDATE)
        change = np.repeat(np.arange(len(n)), counts)
        preimage = np.zeros(len(change), np.bool_)
        starts = np.cumsum(counts) - counts
        preimage[starts[counts == 2]] = True
        row_op = op[change]
        before = (row_op == DELETE) | preimage
        image = np.where(before, previous[change], n[change])
        image_base = np.where(before, previous_base[change], base[change])
        kind = np.where(preimage, PREIMAGE, row_op)
        names = np.asarray(self.stream.envelope.kind_names, dtype=object)
        return [
            *self.images.columns(key[change], image, n[change], image_base),
            pa.array(names[kind], pa.string()),
            pa.array(n[change], pa.int64()),
            as_timestamps(commit_ms[change]),
        ]

    def _debezium(
        self, n: I64, key: I64, op: I64, earlier: tuple[I64, I64], now: tuple[I64, I64]
    ) -> list[pa.Array]:
        """Debezium's rows: ``before`` (null for an insert), ``after`` (null for a delete),
        ``source``, ``op`` and ``ts_ms``; ``earlier`` and ``now`` as :meth:`_rows` takes them."""
        (previous, previous_base), (base, commit_ms) = earlier, now
        image_type = pa.struct(list(self.images.schema))
        has_before, has_after = op != INSERT, op != DELETE
        before = spread(
            self.images.columns(
                key[has_before], previous[has_before], n[has_before], previous_base[has_before]
            ),
            has_before,
        )
        after = spread(
            self.images.columns(key[has_after], n[has_after], n[has_after], base[has_after]), has_after
        )
        first_live = self.lifecycle.first_live
        snapshot = np.where(n < first_live, np.where(n + 1 == first_live, 2, 1), 0)
        states = np.asarray(SNAPSHOT_STATES, dtype=object)
        source = pa.StructArray.from_arrays(
            [
                pa.array(np.full(len(n), CONNECTOR, dtype=object), pa.string()),
                pa.array(np.full(len(n), CHANGES_FORMAT, dtype=object), pa.string()),
                pa.array(commit_ms, pa.int64()),
                pa.array(states[snapshot], pa.string()),
                pa.array(n, pa.int64()),
            ],
            fields=list(SOURCE_TYPE),
        )
        ops = np.asarray(self.stream.envelope.kind_names, dtype=object)[op]
        ops[snapshot > 0] = SNAPSHOT_OP
        return [
            pa.StructArray.from_arrays(before, fields=list(image_type), mask=pa.array(~has_before)),
            pa.StructArray.from_arrays(after, fields=list(image_type), mask=pa.array(~has_after)),
            source,
            pa.array(ops, pa.string()),
            pa.array(commit_ms, pa.int64()),
        ]
