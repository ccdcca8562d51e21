"""The source's options, parsed once and checked eagerly (the JVM source's ``SourceOptions.scala``):
names matched case-insensitively, the same rules and the same messages as the jar's source.

Parsing reads each option's text (a number in its range, a character set, a distribution) and
checks which options were given together; the rules of the definition they make are
``rows.definition.validate``'s, the same that a definition read back from a checkpoint passes.
With a declared schema, the ``fields.`` options say how its columns are made
(``typed.columns``), and the options of the random strings' own columns are refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from spark_random_strings.options import (
    ALPHABET,
    CHARSET,
    DISTINCT_VALUES,
    DISTINCT_VALUES_RANGE,
    DISTRIBUTIONS,
    DUPLICATE_FRACTION,
    DUPLICATE_FRACTION_RANGE,
    FORMAT,
    INTERNAL_NAMES,
    LATE_BY_MS,
    LATE_BY_MS_RANGE,
    LATE_ROW_FRACTION,
    LATE_ROW_FRACTION_RANGE,
    LENGTH_RANGE,
    MANUAL_CLOCK,
    MAX_DUPLICATE_DISTANCE,
    MAX_DUPLICATE_DISTANCE_RANGE,
    MAX_LENGTH,
    MAX_OUT_OF_ORDER_MS,
    MAX_OUT_OF_ORDER_MS_RANGE,
    MAX_ROWS_PER_TRIGGER,
    MAX_ROWS_PER_TRIGGER_RANGE,
    MIN_LENGTH,
    NAMES,
    NUM_PARTITIONS,
    NUM_PARTITIONS_RANGE,
    PYTHON_FORMAT,
    RATE_PROFILE,
    REAL_TIME,
    ROWS_PER_SECOND,
    ROWS_PER_SECOND_RANGE,
    SEED,
    SEED_RANGE,
    START_TIMESTAMP,
    START_TIMESTAMP_RANGE,
    STRINGS_TABLE,
    TIMESTAMP_COLUMN,
    TOTAL_ROWS,
    TOTAL_ROWS_RANGE,
    VALUE_DISTRIBUTION,
    ZIPF,
    ZIPF_EXPONENT,
    ZIPF_EXPONENT_RANGE,
    default,
    real_time_refused,
)
from spark_random_strings.options.ranges import Real, Whole, java_sort_key, java_trim
from spark_random_strings.options.suggestions import boolean, reject_unknown
from spark_random_strings.rows.columns import columns_declared, columns_of, schema_of_columns
from spark_random_strings.rows.definition import RowShape, StreamDefinition, validate
from spark_random_strings.text.character_set import NAMED_SETS, alphabet_set, named_set
from spark_random_strings.text.string_values import StringValues, distribution_error
from spark_random_strings.time.manual_clock import ManualClock, manual
from spark_random_strings.time.rate_profile import RateProfile, parse_rate_profile
from spark_random_strings.typed.declared_schema import DeclaredSchema
from spark_random_strings.typed.fields.options import PREFIX, is_field_option
from spark_random_strings.typed.schema.ddl import to_schema

if TYPE_CHECKING:
    import pyarrow as pa


@dataclass(frozen=True)
class SourceOptions:
    """The source's options, parsed and validated once."""

    rows_per_second: int
    #: What the strings are drawn from: lengths, characters, pool and distribution.
    strings: StringValues
    seed: int | None
    num_partitions: int | None
    max_rows_per_trigger: int | None
    total_rows: int | None
    #: Disorder and repeats of the rows.
    shape: RowShape
    timestamp_column: bool = False
    start_timestamp: int | None = None
    rate_profile: RateProfile | None = None
    real_time: bool = False
    #: Where the stream reads the time: ``None``, the system clock; in tests, the manual clock
    #: that the internal option ``_manualClock`` names.
    clock: ManualClock | None = None
    #: The schema the user declared and its ``fields.`` options, if any.
    declared: DeclaredSchema | None = None

    @property
    def schema(self) -> pa.Schema:
        """The schema of the rows these options describe, from the columns their definition has."""
        if self.declared is not None:
            return schema_of_columns(columns_declared(self.declared.cells))
        return schema_of_columns(columns_of(self.strings, self.timestamp_column))

    def definition(self, seed: int, start_time_ms: int) -> StreamDefinition:
        """The definition of a stream of these options, with this seed and start time."""
        return StreamDefinition(
            seed,
            start_time_ms,
            self.rows_per_second,
            self.strings,
            self.shape,
            self.timestamp_column,
            self.start_timestamp,
            self.rate_profile,
            self.declared,
        )

    def restarting(self, stored: StreamDefinition) -> StreamDefinition:
        """The definition these options ask of a restart of the stream ``stored``: its seed where
        they give none, and its start time."""
        return self.definition(stored.seed if self.seed is None else self.seed, stored.start_time_ms)


#: The options of the random strings' own columns, which a declared schema replaces.
STRING_OPTIONS: tuple[str, ...] = STRINGS_TABLE.own_columns


def parse_options(parameters: Mapping[str, str], schema: object = None) -> SourceOptions:
    """Parse and validate source options, as the JVM source does at ``load()``: names
    case-insensitive, the same rules and the same messages.

    Args:
        parameters: the options, by name as the user wrote them.
        schema: the schema the user declared, if any: DDL text, a pyspark ``StructType``, or a
            ``typed.cells.spec`` one. Its ``fields.`` options say how its columns are made, and the
            options of the random strings' own columns are refused; without one, a ``fields.``
            option is refused.

    Raises:
        ValueError: naming the option, the value given and what is allowed.
    """
    parameters, declared = _declared(parameters, schema)
    given = _Given({name.lower(): value for name, value in parameters.items()})
    # Each option's text, in the JVM's order: a query with several bad ones is refused for the same.
    min_length = given.whole(MIN_LENGTH, LENGTH_RANGE)
    max_length = given.whole(MAX_LENGTH, LENGTH_RANGE)
    charset_text, alphabet_text = given.text(CHARSET), given.text(ALPHABET)
    charset = None if charset_text is None else named_set(CHARSET, charset_text)
    alphabet = None if alphabet_text is None else alphabet_set(ALPHABET, alphabet_text)
    characters = alphabet or charset or NAMED_SETS[cast(str, default(CHARSET))]
    rows_per_second = given.whole(ROWS_PER_SECOND, ROWS_PER_SECOND_RANGE)
    seed = given.whole(SEED, SEED_RANGE)
    num_partitions = given.whole(NUM_PARTITIONS, NUM_PARTITIONS_RANGE)
    max_rows = given.whole(MAX_ROWS_PER_TRIGGER, MAX_ROWS_PER_TRIGGER_RANGE)
    total_rows = given.whole(TOTAL_ROWS, TOTAL_ROWS_RANGE)
    distinct_values = given.whole(DISTINCT_VALUES, DISTINCT_VALUES_RANGE)
    distribution: str | None = None
    distribution_text = given.text(VALUE_DISTRIBUTION)
    if distribution_text is not None:
        distribution = next((d for d in DISTRIBUTIONS if d == java_trim(distribution_text).lower()), None)
        if distribution is None:
            raise ValueError(distribution_error(distribution_text))
    zipf_exponent = given.real(ZIPF_EXPONENT, ZIPF_EXPONENT_RANGE)
    late_fraction = given.real(LATE_ROW_FRACTION, LATE_ROW_FRACTION_RANGE)
    late_by_ms = given.whole(LATE_BY_MS, LATE_BY_MS_RANGE)
    duplicate_fraction = given.real(DUPLICATE_FRACTION, DUPLICATE_FRACTION_RANGE)
    max_distance = given.whole(MAX_DUPLICATE_DISTANCE, MAX_DUPLICATE_DISTANCE_RANGE)
    max_out_of_order_ms = given.whole(MAX_OUT_OF_ORDER_MS, MAX_OUT_OF_ORDER_MS_RANGE)
    timestamp_text = given.text(TIMESTAMP_COLUMN)
    timestamp_column = None if timestamp_text is None else boolean(TIMESTAMP_COLUMN, timestamp_text)
    start_timestamp = given.whole(START_TIMESTAMP, START_TIMESTAMP_RANGE)
    profile_text = given.text(RATE_PROFILE)
    rate_profile = None if profile_text is None else parse_rate_profile(profile_text)
    real_time_text = given.text(REAL_TIME)
    real_time = None if real_time_text is None else boolean(REAL_TIME, real_time_text)
    clock_text = given.text(MANUAL_CLOCK)
    clock = None if clock_text is None else manual(MANUAL_CLOCK, clock_text)
    _refuse_unfit(given, distribution, distinct_values, zipf_exponent, late_fraction, duplicate_fraction)
    if rate_profile is not None and rows_per_second is not None:
        raise _unfit(
            f"{given.stated(ROWS_PER_SECOND)}, but '{RATE_PROFILE}' is set. The profile sets the rate: "
            f"remove '{ROWS_PER_SECOND}', or remove '{RATE_PROFILE}'"
        )
    late = cast(float, _or_default(LATE_ROW_FRACTION, late_fraction))
    strings = StringValues(
        min_length=cast(int, _or_default(MIN_LENGTH, min_length)),
        max_length=cast(int, _or_default(MAX_LENGTH, max_length)),
        characters=characters,
        distinct_values=distinct_values,
        value_distribution=cast(str, _or_default(VALUE_DISTRIBUTION, distribution)),
        zipf_exponent=cast(float, _or_default(ZIPF_EXPONENT, zipf_exponent)),
    )
    shape = RowShape(
        max_out_of_order_ms=cast(int, _or_default(MAX_OUT_OF_ORDER_MS, max_out_of_order_ms)),
        late_row_fraction=late,
        late_by_ms=late_by_ms if late > 0.0 else None,
        duplicate_fraction=cast(float, _or_default(DUPLICATE_FRACTION, duplicate_fraction)),
        max_duplicate_distance=cast(int, _or_default(MAX_DUPLICATE_DISTANCE, max_distance)),
    )
    parsed = SourceOptions(
        rows_per_second=cast(int, _or_default(ROWS_PER_SECOND, rows_per_second)),
        strings=strings,
        seed=seed,
        num_partitions=num_partitions,
        max_rows_per_trigger=max_rows,
        total_rows=total_rows,
        shape=shape,
        timestamp_column=cast(bool, _or_default(TIMESTAMP_COLUMN, timestamp_column)),
        start_timestamp=start_timestamp,
        rate_profile=rate_profile,
        real_time=cast(bool, _or_default(REAL_TIME, real_time)),
        clock=clock,
        declared=declared,
    )
    validate(parsed.rows_per_second, strings, shape, written=given.text)
    return parsed


def _declared(parameters: Mapping[str, str], schema: object) -> tuple[dict[str, str], DeclaredSchema | None]:
    """The source's own options (unknown ones refused) and the declared schema with its ``fields.``
    options, if one is declared: without one a ``fields.`` option is refused, and with one an option
    of the random strings' own columns."""
    declared: DeclaredSchema | None = None
    converted = None if schema is None else to_schema(schema)  # where Spark reads it: at .schema()
    field_parameters = [(name, value) for name, value in parameters.items() if is_field_option(name)]
    own = {name: value for name, value in parameters.items() if not is_field_option(name)}
    reject_unknown(FORMAT, NAMES, INTERNAL_NAMES, own)
    if converted is None:
        named = sorted((name for name, _ in field_parameters), key=java_sort_key)
        if named:
            raise ValueError(
                f"Option '{named[0]}' says how a declared column is made, but no schema was declared. "
                'Declare the columns with .schema(...), e.g. .schema("id BIGINT, name STRING"), or '
                f"remove the '{PREFIX}' options."
            )
        return own, None
    for option in STRING_OPTIONS:
        given = next((name for name in own if name.lower() == option.lower()), None)
        if given is not None:
            replacement = "kind" if option == TIMESTAMP_COLUMN else option
            raise ValueError(
                f"Option '{given}' shapes the random strings' own columns, and this query declares "
                f"its schema. Set it per column instead: '{PREFIX}<column>.{replacement}'"
                + (" = eventTime on a TIMESTAMP column." if option == TIMESTAMP_COLUMN else ".")
                + " Or remove it."
            )
    fields = tuple(sorted(field_parameters, key=lambda field: java_sort_key(field[0])))
    declared = DeclaredSchema(converted[0], fields, converted[1])
    _ = declared.cells
    return own, declared


class _Given:
    """The options given, by lower-cased name: each one's text, and its value in its range."""

    def __init__(self, options: dict[str, str]) -> None:
        self.options = options

    def text(self, name: str) -> str | None:
        return self.options.get(name.lower())

    def whole(self, name: str, allowed: Whole) -> int | None:
        given = self.text(name)
        return None if given is None else allowed.parse(name, given)

    def real(self, name: str, allowed: Real) -> float | None:
        given = self.text(name)
        return None if given is None else allowed.parse(name, given)

    def stated(self, name: str) -> str:
        return f"'{name}' is {self.text(name)}"


def _or_default(name: str, value: object) -> object:
    return default(name) if value is None else value


def _unfit(message: str) -> ValueError:
    return ValueError(f"Options that do not fit together: {message}.")


def _refuse_unfit(
    given: _Given,
    distribution: str | None,
    distinct_values: int | None,
    zipf_exponent: float | None,
    late_fraction: float | None,
    duplicate_fraction: float | None,
) -> None:
    """The rules about which options were given together (a definition's own rules are
    ``validate``'s): a distribution needs a pool, a Zipf exponent a Zipf distribution, and the
    options of late and repeated rows a fraction above 0."""
    if distribution is not None and distinct_values is None:
        raise _unfit(
            f"{given.stated(VALUE_DISTRIBUTION)}, but '{DISTINCT_VALUES}' is not set. A distribution picks "
            f"among a pool of values: set '{DISTINCT_VALUES}' too"
        )
    if zipf_exponent is not None and distribution != ZIPF:
        raise _unfit(
            f"{given.stated(ZIPF_EXPONENT)}, but '{VALUE_DISTRIBUTION}' is not {ZIPF}. "
            f"Set '{VALUE_DISTRIBUTION}' to "
            f"{ZIPF}, or remove '{ZIPF_EXPONENT}'"
        )
    for dependent, fraction, value, none in (
        (LATE_BY_MS, LATE_ROW_FRACTION, late_fraction, "no row is late"),
        (MAX_DUPLICATE_DISTANCE, DUPLICATE_FRACTION, duplicate_fraction, "no row repeats"),
    ):
        if given.text(dependent) is not None and (value or 0.0) == 0.0:
            said = "not set" if value is None else given.text(fraction)
            raise _unfit(
                f"{given.stated(dependent)}, but '{fraction}' is {said}, so {none}. Set '{fraction}' "
                f"above 0, or remove '{dependent}'"
            )


def python_real_time_error() -> ValueError:
    """Why the Python data source refuses ``realTime=true``: Spark runs real-time mode on JVM
    DSv2 streams only."""
    return real_time_refused(PYTHON_FORMAT, "source")
