"""A stream's definition (the JVM source's ``RowShape.scala`` and ``StreamDefinition.scala``):
everything a row depends on besides its offset, the one set of rules every definition passes,
and the check that a restarted query asks for the stream its checkpoint holds. What its string
column's values are drawn from is its ``StringValues`` (``text.string_values``); what belongs to the
whole row, its ``RowShape``; its columns, and the schema made of them, are ``rows.columns``'. A
stream with a declared schema (``declared``, a ``DeclaredSchema``) has that schema's columns in
place of the random strings'.

Options parsed from a user (``rows.options``) and a definition read back from a checkpoint
(``offsets.definition_store``) both pass :func:`validate`, with the same messages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from spark_random_strings.options import (
    DUPLICATE_FRACTION,
    DUPLICATE_FRACTION_RANGE,
    LATE_BY_MS,
    LATE_BY_MS_RANGE,
    LATE_ROW_FRACTION,
    LATE_ROW_FRACTION_RANGE,
    MAX_DUPLICATE_DISTANCE,
    MAX_DUPLICATE_DISTANCE_RANGE,
    MAX_LENGTH,
    MAX_OUT_OF_ORDER_MS,
    MAX_OUT_OF_ORDER_MS_RANGE,
    MIN_LENGTH,
    PYTHON_FORMAT,
    RATE_PROFILE,
    ROWS_PER_SECOND,
    ROWS_PER_SECOND_RANGE,
    SEED,
    START_TIMESTAMP,
    TIMESTAMP_COLUMN,
    default,
)
from spark_random_strings.rows.columns import (
    Cells,
    Column,
    Offset,
    columns_declared,
    columns_of,
    schema_of_columns,
)
from spark_random_strings.text.string_values import (
    DEFAULT_VALUES,
    StringValues,
    validate_pool,
    validate_values,
)
from spark_random_strings.time.rate_profile import RateProfile
from spark_random_strings.time.row_clock import rows_available
from spark_random_strings.typed.cells.spec import RowOffset
from spark_random_strings.typed.declared_schema import DeclaredSchema

if TYPE_CHECKING:
    import pyarrow as pa


@dataclass(frozen=True)
class RowShape:
    """How a stream's rows depart from rows in event-time order, each once: out-of-order and late
    event times, and repeated rows. It is the part of a stream's definition that belongs to the
    whole row, whatever its columns; what a string column's values are drawn from (lengths,
    characters, a pool) is its ``StringValues``. The defaults (the option table's) make exactly
    the rows of 0.1.0."""

    max_out_of_order_ms: int = cast(int, default(MAX_OUT_OF_ORDER_MS))
    late_row_fraction: float = cast(float, default(LATE_ROW_FRACTION))
    late_by_ms: int | None = None
    duplicate_fraction: float = cast(float, default(DUPLICATE_FRACTION))
    max_duplicate_distance: int = cast(int, default(MAX_DUPLICATE_DISTANCE))

    @property
    def moves_event_times(self) -> bool:
        """Whether any event time moves back from its in-order time."""
        return self.max_out_of_order_ms > 0 or self.late_row_fraction > 0.0

    def settings(self) -> list[tuple[str, object]]:
        """Each option's name and value, as the checkpoint's file holds them (None: not set)."""
        return [
            (MAX_OUT_OF_ORDER_MS, self.max_out_of_order_ms),
            (LATE_ROW_FRACTION, self.late_row_fraction),
            (LATE_BY_MS, self.late_by_ms),
            (DUPLICATE_FRACTION, self.duplicate_fraction),
            (MAX_DUPLICATE_DISTANCE, self.max_duplicate_distance),
        ]


@dataclass(frozen=True)
class StreamDefinition:
    """Everything a row depends on besides its offset: row ``offset`` of the stream is a pure
    function of (definition, offset). Fixed when a query first starts, kept in its checkpoint."""

    seed: int
    start_time_ms: int
    rows_per_second: int
    #: What the ``value`` column's strings are drawn from: lengths, characters, pool.
    strings: StringValues
    #: The rows' event-time disorder and repeats (``RowShape()``: none).
    shape: RowShape = field(default_factory=RowShape)
    #: Whether rows carry the ``timestamp`` column.
    timestamp_column: bool = False
    #: The event time of offset 0, if fixed; else the first start's time.
    start_timestamp: int | None = None
    #: The phases the rate follows, in place of ``rows_per_second``.
    rate_profile: RateProfile | None = None
    #: The schema the user declared and its ``fields.`` options, if any: then its columns
    #: replace the random strings' (``strings`` is unused).
    declared: DeclaredSchema | None = None

    @property
    def event_time_origin(self) -> int:
        """The event time of offset 0: ``start_timestamp``, or when the stream first started."""
        return self.start_time_ms if self.start_timestamp is None else self.start_timestamp

    def rows_available_at(self, now_ms: int) -> int:
        """How many rows exist at wall-clock time ``now_ms``: by the rate or the profile, from
        the first start."""
        elapsed = now_ms - self.start_time_ms
        if self.rate_profile is None:
            return rows_available(elapsed, self.rows_per_second)
        return self.rate_profile.rows_available(elapsed)

    def columns(self) -> tuple[Column, ...]:
        """This stream's columns, in order: what its schema and its rows' makers are made from."""
        if self.declared is not None:
            return columns_declared(self.declared.cells)
        return columns_of(self.strings, self.timestamp_column)

    def offset_column(self) -> str | None:
        """The name of the column that holds each row's own offset, if this stream has one: the
        random strings' ``offset``, or the first declared column of kind ``offset``."""
        for column in self.columns():
            content = column.content
            if isinstance(content, Offset) or (
                isinstance(content, Cells) and isinstance(content.spec.kind, RowOffset)
            ):
                return str(column.field.name)
        return None

    @property
    def schema(self) -> pa.Schema:
        """The schema of this stream's rows: every path that makes or reads them takes it from
        here."""
        return schema_of_columns(self.columns())

    def shape_settings(self) -> list[tuple[str, object]]:
        """The options that shape rows, then those of time and schema, in the documentation's
        order (``distinctValues`` to ``rateProfile``), as the checkpoint's file holds them (None:
        not set)."""
        return self.strings.pool_settings() + self.shape.settings() + self.time_settings()

    def time_settings(self) -> list[tuple[str, object]]:
        """The options of time and schema, as the checkpoint's file holds them (None: not set)."""
        return [
            (TIMESTAMP_COLUMN, self.timestamp_column),
            (START_TIMESTAMP, self.start_timestamp),
            (RATE_PROFILE, None if self.rate_profile is None else self.rate_profile.text),
        ]

    def validated(self) -> StreamDefinition:
        """This definition, if it passes :func:`validate` (a stored one: every value counts as
        given, shown as it is), and whose declared schema, if any, makes its cells."""
        validate(self.rows_per_second, self.strings, self.shape)
        if self.declared is not None:
            _ = self.declared.cells
        return self


def validate(
    rows_per_second: int,
    strings: StringValues,
    shape: RowShape,
    written: Callable[[str], str | None] | None = None,
) -> None:
    """The rules every stream definition passes, whether parsed from options or read from a
    checkpoint. In order: the rate in range, the string options' rules
    (``text.string_values.validate_values``), each of the row's shaping values in range, a late row's
    lateness, and a pool that the lengths and characters can fill
    (``text.string_values.validate_pool``).

    Args:
        written: when checking a user's options, an option's value as the user wrote it, or None
            where it was not given (its default applies); None for a stored definition, whose
            values all count as given and are shown as they are.

    Raises:
        ValueError: naming the option, the value and what is allowed (the options' messages).
    """

    def shown(name: str, value: object) -> str:
        text = None if written is None else written(name)
        return str(value) if text is None else text

    def given(name: str) -> bool:
        return written is None or written(name) is not None

    ROWS_PER_SECOND_RANGE.check(ROWS_PER_SECOND, rows_per_second, shown(ROWS_PER_SECOND, rows_per_second))
    validate_values(strings, shown, given)
    MAX_OUT_OF_ORDER_MS_RANGE.check(
        MAX_OUT_OF_ORDER_MS, shape.max_out_of_order_ms, shown(MAX_OUT_OF_ORDER_MS, shape.max_out_of_order_ms)
    )
    LATE_ROW_FRACTION_RANGE.check(
        LATE_ROW_FRACTION, shape.late_row_fraction, shown(LATE_ROW_FRACTION, shape.late_row_fraction)
    )
    if shape.late_by_ms is not None:
        LATE_BY_MS_RANGE.check(LATE_BY_MS, shape.late_by_ms, shown(LATE_BY_MS, shape.late_by_ms))
    DUPLICATE_FRACTION_RANGE.check(
        DUPLICATE_FRACTION, shape.duplicate_fraction, shown(DUPLICATE_FRACTION, shape.duplicate_fraction)
    )
    MAX_DUPLICATE_DISTANCE_RANGE.check(
        MAX_DUPLICATE_DISTANCE,
        shape.max_duplicate_distance,
        shown(MAX_DUPLICATE_DISTANCE, shape.max_duplicate_distance),
    )
    if shape.late_row_fraction > 0.0 and shape.late_by_ms is None:
        raise ValueError(
            f"Options that do not fit together: '{LATE_ROW_FRACTION}' is "
            f"{shown(LATE_ROW_FRACTION, shape.late_row_fraction)}, but '{LATE_BY_MS}' is not set. Say how "
            f"late a late row is, in milliseconds: '{LATE_BY_MS}' >= 1."
        )
    validate_pool(strings, shown)


def check_restart(stored: StreamDefinition, requested: StreamDefinition, where: str) -> None:
    """Check that a restarted query asks for the stream its checkpoint holds (the JVM source's
    ``StreamDefinition.checkRestart``): every setting that makes rows must be the same, since rows
    already delivered cannot change.

    Args:
        requested: the definition the query's options make, with the stored seed where the
            options give none and the stored start time.
        where: the checkpoint file, for the message.

    Raises:
        ValueError: naming each option that differs, with both values.
    """

    def shown(setting: object) -> str:
        if isinstance(setting, bool):
            return str(setting).lower()
        return "none" if setting is None else str(setting)

    differences: list[tuple[str, object, object]] = [
        (SEED, stored.seed, requested.seed),
        (ROWS_PER_SECOND, stored.rows_per_second, requested.rows_per_second),
        (MIN_LENGTH, stored.strings.min_length, requested.strings.min_length),
        (MAX_LENGTH, stored.strings.max_length, requested.strings.max_length),
        ("characters", stored.strings.characters.description, requested.strings.characters.description),
    ]
    differences += [
        (name, shown(was), shown(now))
        for (name, was), (_, now) in zip(stored.shape_settings(), requested.shape_settings(), strict=True)
    ]
    contradictions = [
        f"{name}: the checkpoint has {was}, the query sets {now}"
        for name, was, now in differences
        if was != now
    ]
    if stored.declared is not None and requested.declared is not None:
        contradictions += stored.declared.differences_from(requested.declared)
    elif stored.declared is not None or requested.declared is not None:

        def schema(declared: DeclaredSchema | None) -> str:
            return "the random strings' schema" if declared is None else declared.to_ddl()

        contradictions.append(
            f"schema: the checkpoint has {schema(stored.declared)}, the query declares "
            f"{schema(requested.declared)}"
        )
    fixed = (
        "lengths, characters"
        if stored.declared is None and requested.declared is None
        else "declared schema, its fields. options"
    )
    if contradictions:
        raise ValueError(
            f"The options of this query contradict the stream stored in its checkpoint ({where}): "
            + "; ".join(contradictions)
            + f". A checkpoint's seed, rowsPerSecond, {fixed} and the options that shape "
            "rows (distinctValues to rateProfile) are fixed when its query first starts, so "
            "that every batch can be replayed identically. Restart with the stored values (the seed "
            "may simply be left out), or use a new checkpoint location to start a different stream."
        )


def describe_stream(definition: StreamDefinition) -> str:
    """The Python data source's stream as the JVM source describes its own in progress reports:
    the name, the settings that make rows (a declared stream's schema in place of its lengths and
    characters), and the shaping options that differ from a plain stream's. (Spark describes a
    Python stream by its own class name; the CLI shows this.)"""
    strings = definition.strings
    characters = strings.characters.description
    shown = characters if len(characters) <= 40 else characters[:37] + "..."
    plain = dict(DEFAULT_VALUES.pool_settings() + RowShape().settings())
    shaping = [
        (n, v)
        for n, v in strings.pool_settings() + definition.shape.settings()
        if v is not None and v != plain[n]
    ]
    timing = [
        (n, v)
        for n, v in definition.time_settings()
        if v is not None and v is not False and n != RATE_PROFILE
    ]
    shape = "".join(
        f", {name}={str(value).lower() if isinstance(value, bool) else value}"
        for name, value in shaping + timing
    )
    profile = definition.rate_profile
    rate = f"rowsPerSecond={definition.rows_per_second}" if profile is None else f"rateProfile={profile.text}"
    columns = (
        f"minLength={strings.min_length}, maxLength={strings.max_length}, {shown}"
        if definition.declared is None
        else f"schema={definition.declared.to_ddl()}"
    )
    return f"{PYTHON_FORMAT}[{rate}, {columns}, seed={definition.seed}{shape}]"
