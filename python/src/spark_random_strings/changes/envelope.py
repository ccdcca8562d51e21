"""The formats a change stream's rows take, ``envelope`` (the jar's ``ChangeEnvelope.scala``): the
same changes, each as the rows a consumer of that format reads, with the columns each adds around
the declared ones, as Arrow types them. ``changes.rows`` makes the rows.

- ``flat``: the declared columns, then ``_op`` (insert, update or delete), ``_seq`` (the change's
  number) and ``_ts`` (its commit time); a delete carries the deleted row's last image.
- ``debezium``: Debezium's change-event value: ``before`` (null for an insert), ``after`` (null
  for a delete), ``source`` (this connector, the source's name, the commit time, whether a
  snapshot read, the change's number), ``op`` (``c``, ``u``, ``d``, or ``r`` for a snapshot read)
  and ``ts_ms`` (the commit time, epoch ms).
- ``delta``: Delta Lake's change data feed: the declared columns, ``_change_type``,
  ``_commit_version`` (the change's number) and ``_commit_timestamp``; an update is two rows,
  its pre-image then its post-image.
- ``flink``: Flink's changelog: the declared columns, ``_row_kind`` (``+I``, ``-U``, ``+U``,
  ``-D``), ``_seq`` and ``_ts``; an update is two rows, ``-U`` then ``+U``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from spark_random_strings.changes.keywords import ENVELOPES
from spark_random_strings.randomness.counter_random import I64

FLAT, DEBEZIUM, DELTA, FLINK = ENVELOPES

_TIMESTAMP = pa.timestamp("us", tz="UTC")

#: Debezium's ``source`` struct.
SOURCE_TYPE = pa.struct(
    [
        pa.field("connector", pa.string(), nullable=False),
        pa.field("name", pa.string(), nullable=False),
        pa.field("ts_ms", pa.int64(), nullable=False),
        pa.field("snapshot", pa.string(), nullable=False),
        pa.field("sequence", pa.int64(), nullable=False),
    ]
)
#: Debezium's ``source.connector`` of this source's events.
CONNECTOR = "spark-random-strings"
#: Debezium's ``op`` of a snapshot read.
SNAPSHOT_OP = "r"
#: Debezium's ``source.snapshot`` of a live change, a snapshot read, and the snapshot's last read.
SNAPSHOT_STATES: tuple[str, ...] = ("false", "true", "last")

#: Where :attr:`Envelope.kind_names` of the Delta and Flink envelopes holds the row before an
#: update (the jar's ``ChangeEnvelope.PreimageIndex``).
PREIMAGE = 3


@dataclass(frozen=True)
class Envelope:
    """One format of a change stream's rows (the jar's ``ChangeEnvelope``): its columns and the names
    of what a row does. ``ENVELOPE_OF`` holds each under its name, the option's value."""

    #: The option's value.
    name: str
    #: The names of what a row does, in :attr:`kind_column`, by the operation's index
    #: (``changes.lifecycle``'s ``INSERT``, ``UPDATE``, ``DELETE``), and in the Delta and Flink
    #: envelopes the row before an update's at ``PREIMAGE``.
    kind_names: tuple[str, ...]
    #: The column that says what a row does, and the one that holds its change's number, as Spark
    #: SQL names them.
    kind_column: str
    number_column: str
    #: The columns added after the declared ones; ``None`` for Debezium's, whose columns are the
    #: whole row's, the declared ones inside ``before`` and ``after``.
    added: tuple[pa.Field, ...] | None

    @property
    def updates_take_two_rows(self) -> bool:
        """Whether an update is two rows, its image before first (Delta and Flink)."""
        return len(self.kind_names) > PREIMAGE

    def schema_of(self, declared: pa.Schema) -> pa.Schema:
        """The schema of the rows of a stream whose declared columns are ``declared``."""
        if self.added is None:
            image = pa.struct(list(declared))
            return pa.schema(
                [
                    pa.field("before", image, nullable=True),
                    pa.field("after", image, nullable=True),
                    pa.field("source", SOURCE_TYPE, nullable=False),
                    pa.field("op", pa.string(), nullable=False),
                    pa.field("ts_ms", pa.int64(), nullable=False),
                ]
            )
        return pa.schema([*declared, *self.added])

    def added_names(self) -> tuple[str, ...]:
        """The names of the columns this envelope has besides the declared ones, which no declared
        column may take: :meth:`schema_of` no declared column."""
        return tuple(self.schema_of(pa.schema([])).names)

    def rows_of(self, updates: npt.NDArray[np.bool_]) -> I64:
        """How many rows each change takes, given which are updates: an update is two where
        :attr:`updates_take_two_rows`, every other change one."""
        return np.where(updates & self.updates_take_two_rows, 2, 1).astype(np.int64)


def _fields(kind: str, number: str, time: str) -> tuple[pa.Field, ...]:
    return (
        pa.field(kind, pa.string(), nullable=False),
        pa.field(number, pa.int64(), nullable=False),
        pa.field(time, _TIMESTAMP, nullable=False),
    )


#: Every envelope under its name, in the documentation's order (``ENVELOPES``).
ENVELOPE_OF: dict[str, Envelope] = {
    envelope.name: envelope
    for envelope in (
        Envelope(FLAT, ("insert", "update", "delete"), "_op", "_seq", _fields("_op", "_seq", "_ts")),
        Envelope(DEBEZIUM, ("c", "u", "d"), "op", "source.sequence", None),
        Envelope(
            DELTA,
            ("insert", "update_postimage", "delete", "update_preimage"),
            "_change_type",
            "_commit_version",
            _fields("_change_type", "_commit_version", "_commit_timestamp"),
        ),
        Envelope(FLINK, ("+I", "+U", "-D", "-U"), "_row_kind", "_seq", _fields("_row_kind", "_seq", "_ts")),
    )
}
