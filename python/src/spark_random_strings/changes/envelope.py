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

#: Each envelope's names of what a row does, by the operation's index (``changes.lifecycle``'s
#: ``INSERT``, ``UPDATE``, ``DELETE``), and in the Delta and Flink envelopes the row before an
#: update last.
KIND_NAMES: dict[str, tuple[str, ...]] = {
    FLAT: ("insert", "update", "delete"),
    DEBEZIUM: ("c", "u", "d"),
    DELTA: ("insert", "update_postimage", "delete", "update_preimage"),
    FLINK: ("+I", "+U", "-D", "-U"),
}
#: The index of an update's row before, in ``KIND_NAMES``.
PREIMAGE = 3
#: Each envelope's column that says what a row does (a value of ``KIND_NAMES``), and the one that
#: holds its change's number, as Spark SQL names them.
KIND_AND_NUMBER: dict[str, tuple[str, str]] = {
    FLAT: ("_op", "_seq"),
    DEBEZIUM: ("op", "source.sequence"),
    DELTA: ("_change_type", "_commit_version"),
    FLINK: ("_row_kind", "_seq"),
}

#: The columns each envelope adds after the declared ones (Debezium's are the whole row's).
_ADDED: dict[str, tuple[pa.Field, ...]] = {
    FLAT: (
        pa.field("_op", pa.string(), nullable=False),
        pa.field("_seq", pa.int64(), nullable=False),
        pa.field("_ts", _TIMESTAMP, nullable=False),
    ),
    DELTA: (
        pa.field("_change_type", pa.string(), nullable=False),
        pa.field("_commit_version", pa.int64(), nullable=False),
        pa.field("_commit_timestamp", _TIMESTAMP, nullable=False),
    ),
    FLINK: (
        pa.field("_row_kind", pa.string(), nullable=False),
        pa.field("_seq", pa.int64(), nullable=False),
        pa.field("_ts", _TIMESTAMP, nullable=False),
    ),
}


def envelope_schema(envelope: str, declared: pa.Schema) -> pa.Schema:
    """The schema of the rows of a stream in ``envelope`` whose declared columns are ``declared``."""
    if envelope == DEBEZIUM:
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
    return pa.schema([*declared, *_ADDED[envelope]])


def added_names(envelope: str) -> tuple[str, ...]:
    """The names of the columns ``envelope`` has besides the declared ones, which no declared
    column may take: ``envelope_schema`` of no declared column."""
    return tuple(envelope_schema(envelope, pa.schema([])).names)


def rows_of(envelope: str, updates: npt.NDArray[np.bool_]) -> I64:
    """How many rows each change takes, given which are updates: an update is two in the Delta
    and Flink envelopes, every other change one."""
    two = envelope in (DELTA, FLINK)
    return np.where(updates & two, 2, 1).astype(np.int64)
