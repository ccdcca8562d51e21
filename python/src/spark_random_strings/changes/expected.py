"""A change stream's rows, its table and the table's history, computed in Python: the oracles a test
of a pipeline that applies the ``changes`` source's feed asserts against."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Unpack

from spark_random_strings.changes.keywords import (
    BATCH_NAMES,
    CHANGE_OPTIONS,
    CHANGES_TABLE,
    ChangeDefinitionKeywords,
)
from spark_random_strings.changes.options import parse_change_options
from spark_random_strings.changes.rows import ChangeRows, ChangeStream
from spark_random_strings.changes.table import history_after, table_after
from spark_random_strings.typed.fields.options import flattened

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql.types import StructType

#: Keywords of ``read_changes`` that change no row (the table's ``shapes``): the oracles refuse them.
#: The delivery options say in which order offsets read the changes, never what a change is.
NOT_ROW_SHAPING: tuple[str, ...] = CHANGES_TABLE.delivery
#: Keywords of a batch read alone (``spark.read``): the oracles refuse them.
BATCH_ONLY: tuple[str, ...] = tuple(CHANGES_TABLE[name].keyword for name in BATCH_NAMES)


def expected_changes(
    *,
    start: int,
    end: int,
    seed: int,
    start_time_ms: int = 0,
    schema: str | StructType | None = None,
    fields: Mapping[str, Mapping[str, object]] | None = None,
    **options: Unpack[ChangeDefinitionKeywords],
) -> pa.Table:
    """The rows at offsets ``[start, end)`` of the change stream that ``seed``, ``start_time_ms``
    and the options define, computed here, without Spark: the same keys, operations, images,
    numbers and commit times that the ``changes`` source makes for that stream. Offset n is
    change n.

    Examples:
        >>> rows = expected_changes(
        ...     seed=5, start=0, end=6, keys=3, delete_fraction=0.5,
        ...     schema="id INT NOT NULL, score INT", fields={"score": {"min": 1, "max": 9}},
        ... )
        >>> rows.select(["id", "score", "_op", "_seq"]).to_pylist()
        [{'id': 2, 'score': 7, '_op': 'insert', '_seq': 0},
         {'id': 0, 'score': 8, '_op': 'insert', '_seq': 1},
         {'id': 1, 'score': 4, '_op': 'insert', '_seq': 2},
         {'id': 0, 'score': 6, '_op': 'update', '_seq': 3},
         {'id': 1, 'score': 4, '_op': 'delete', '_seq': 4},
         {'id': 2, 'score': 4, '_op': 'update', '_seq': 5}]

        The first round inserts every key; a delete carries the image of the row it deletes
        (change 4's is change 2's).

    Args:
        start: the first offset, >= 0.
        end: the offset after the last one, >= start.
        seed: the stream's seed, a 64-bit integer: the one the query read with.
        start_time_ms: when the stream first started, in epoch milliseconds: the commit time of
            change 0 unless ``start_timestamp`` is given (default 0).
        schema: the declared columns, as ``read_changes`` takes them: DDL text or a
            ``StructType``; ``None`` for ``id BIGINT NOT NULL, value STRING``.
        fields: how each declared column but the key is made: column path to its properties,
            as ``read_changes`` and ``expected_rows`` take them (docs/typed-columns.md).
        **options: the options that make the changes, under their ``read_changes`` keywords
            (``ChangeDefinitionKeywords`` in ``spark_random_strings.changes.keywords``):
            ``key``, ``keys``, ``delete_fraction``, ``hot_keys``, ``hot_key_fraction``,
            ``snapshot``, ``envelope``, ``update_columns``, ``rows_per_second`` or
            ``rate_profile`` (they space the commit times) and ``start_timestamp``.

    Returns:
        A ``pyarrow.Table`` of the rows in offset order (in the Delta and Flink envelopes an
        update is two rows, its image before first), in the envelope's columns. Flat: the
        declared columns (nullable as declared, in the Arrow types of their Spark types), then
        ``_op`` (string: ``insert``, ``update`` or ``delete``), ``_seq`` (int64, the change's
        number) and ``_ts`` (timestamp[us, UTC], its commit time), the three not nullable.

    Raises:
        TypeError: a keyword is unknown, changes no row (``num_partitions``,
            ``max_rows_per_trigger``, ``total_rows``, ``real_time``, and the delivery options
            ``max_out_of_order_ms``, ``duplicate_fraction``, ``late_row_fraction`` and
            ``late_by_ms``, which move a change's offset, never the change), is a batch read's (``as_of``,
            ``history``), or has the wrong type.
        ValueError: a value is out of range, options do not fit together, or the declared schema
            cannot hold the key; the message is the source's own, naming the option, the value
            and what is allowed.
    """
    stream = _stream(
        "expected_changes", seed, start_time_ms, schema, fields, dict(options), start=start, end=end
    )
    if start < 0 or end < start:
        raise ValueError(
            f"expected_changes: offsets [start, end) = [{start}, {end}) must have 0 <= start <= end."
        )
    import pyarrow as pa

    rows = ChangeRows(stream)
    return pa.Table.from_batches(list(rows.batches(start, end)), schema=rows.schema)


def expected_table(
    *,
    end: int,
    seed: int,
    start_time_ms: int = 0,
    schema: str | StructType | None = None,
    fields: Mapping[str, Mapping[str, object]] | None = None,
    **options: Unpack[ChangeDefinitionKeywords],
) -> pa.Table:
    """The table after the first ``end`` changes of the change stream that ``seed``,
    ``start_time_ms`` and the options define: changes 0 to end - 1 applied in ``_seq`` order (an
    insert or an update puts the key's row, a delete removes it), computed for each key directly,
    without replay, in time and memory that grow with ``keys`` and not with ``end``.

    Examples:
        The table those six changes leave:

        >>> expected_table(
        ...     seed=5, end=6, keys=3, delete_fraction=0.5,
        ...     schema="id INT NOT NULL, score INT", fields={"score": {"min": 1, "max": 9}},
        ... ).to_pylist()
        [{'id': 0, 'score': 6}, {'id': 2, 'score': 4}]

    Args:
        end: how many changes, >= 0.
        seed: the stream's seed, a 64-bit integer.
        start_time_ms: when the stream first started, in epoch milliseconds, as for
            [`expected_changes`][spark_random_strings.expected_changes]: it moves the event
            times a column of kind ``eventTime`` holds (default 0).
        schema: the declared columns, as ``read_changes`` takes them (default
            ``id BIGINT NOT NULL, value STRING``).
        fields: how each declared column but the key is made, as ``read_changes`` takes them.
        **options: the options that make the changes, as ``expected_changes`` takes them;
            ``envelope`` is checked but changes no row of the table.

    Returns:
        A ``pyarrow.Table`` of one row per key present after the first ``end`` changes, sorted
        by the key (numerically, a STRING key too), with the declared columns only: each the
        cell of the key's last change (its insert or update), a column of kind ``offset``
        holding that change's number.

    Raises:
        TypeError: a keyword is unknown, changes no row, is a batch read's, or has the wrong
            type, as for ``expected_changes``.
        ValueError: as for ``expected_changes``.
    """
    stream = _stream("expected_table", seed, start_time_ms, schema, fields, dict(options), end=end)
    if end < 0:
        raise ValueError(f"expected_table: end is {end}; it must be >= 0, a number of changes.")
    return table_after(stream, end)


def expected_history(
    *,
    end: int,
    seed: int,
    start_time_ms: int = 0,
    schema: str | StructType | None = None,
    fields: Mapping[str, Mapping[str, object]] | None = None,
    **options: Unpack[ChangeDefinitionKeywords],
) -> pa.Table:
    """The history of the table after the first ``end`` changes, as a slowly changing dimension of
    type 2 keeps it: every version of every key, each insert or update among those changes
    beginning one, which the key's next change (an update or a delete) ends. The batch read
    ``spark.read.format("changes")`` with ``asOf`` = end and ``history`` = true makes the same rows
    on the executors. Each key's versions are found directly, without replay: time and memory grow
    with the versions (about ``end`` of them), not with anything else.

    Examples:
        The versions of the six changes of ``expected_table``'s example: key 0 was updated by
        change 3, key 1 deleted by change 4, key 2 updated by change 5.

        >>> history = expected_history(
        ...     seed=5, end=6, keys=3, delete_fraction=0.5,
        ...     schema="id INT NOT NULL, score INT", fields={"score": {"min": 1, "max": 9}},
        ... )
        >>> history.select(["id", "score", "valid_from_seq", "valid_to_seq"]).to_pylist()
        [{'id': 0, 'score': 8, 'valid_from_seq': 1, 'valid_to_seq': 3},
         {'id': 0, 'score': 6, 'valid_from_seq': 3, 'valid_to_seq': None},
         {'id': 1, 'score': 4, 'valid_from_seq': 2, 'valid_to_seq': 4},
         {'id': 2, 'score': 7, 'valid_from_seq': 0, 'valid_to_seq': 5},
         {'id': 2, 'score': 4, 'valid_from_seq': 5, 'valid_to_seq': None}]

        The rows whose ``valid_to_seq`` is null are ``expected_table``'s.

    Args:
        end: how many changes, >= 0.
        seed: the stream's seed, a 64-bit integer.
        start_time_ms: when the stream first started, in epoch milliseconds, as for
            [`expected_changes`][spark_random_strings.expected_changes]: the commit times count
            from it unless ``start_timestamp`` is given (default 0).
        schema: the declared columns, as ``read_changes`` takes them (default
            ``id BIGINT NOT NULL, value STRING``).
        fields: how each declared column but the key is made, as ``read_changes`` takes them.
        **options: the options that make the changes, as ``expected_changes`` takes them;
            ``envelope`` is checked but changes no row of the history.

    Returns:
        A ``pyarrow.Table`` sorted by the key (numerically, a STRING key too), then by
        ``valid_from_seq``: the declared columns of each version's image, then
        ``valid_from_seq`` (int64, the change that began it), ``valid_to_seq`` (int64, the change
        that ended it, null while it holds), ``valid_from`` and ``valid_to`` (timestamp[us, UTC],
        their commit times, ``valid_to`` null with ``valid_to_seq``).

    Raises:
        TypeError: as for ``expected_table``.
        ValueError: as for ``expected_table``.
    """
    stream = _stream("expected_history", seed, start_time_ms, schema, fields, dict(options), end=end)
    if end < 0:
        raise ValueError(f"expected_history: end is {end}; it must be >= 0, a number of changes.")
    return history_after(stream, end)


def _stream(
    caller: str,
    seed: object,
    start_time_ms: object,
    schema: object,
    fields: object,
    options: dict[str, object],
    **offsets: object,
) -> ChangeStream:
    """The change stream of the oracles' keywords, checked as the source checks its options."""
    for name, value in (("seed", seed), ("start_time_ms", start_time_ms), *offsets.items()):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{caller}: {name} must be int, got {type(value).__name__} {value!r}")
    assert isinstance(seed, int) and isinstance(start_time_ms, int)
    for keyword in NOT_ROW_SHAPING:
        if keyword in options:
            raise TypeError(
                f"{caller}() got the keyword {keyword!r}, which changes no row: the changes are the "
                "same whatever it is. Leave it out."
            )
    for keyword in BATCH_ONLY:
        if keyword in options:
            raise TypeError(
                f"{caller}() got the keyword {keyword!r}, which only a batch read takes: "
                "expected_table(end=n) is the table after n changes, expected_history(end=n) its "
                "history. Leave it out."
            )
    if not -(2**63) <= seed < 2**63 or not -(2**63) <= start_time_ms < 2**63:
        raise ValueError(f"{caller}: seed and start_time_ms must fit a 64-bit signed integer.")
    if any(isinstance(value, int) and value >= 2**63 for value in offsets.values()):
        raise ValueError(f"{caller}: {' and '.join(offsets)} must fit a 64-bit signed integer.")
    given = CHANGE_OPTIONS.options(options, caller)
    if fields is not None:
        given.update(flattened(fields))  # type: ignore[arg-type]
    parsed = parse_change_options(given, schema)
    return ChangeStream(parsed.definition(seed, start_time_ms), parsed.spec)
