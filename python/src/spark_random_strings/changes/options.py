"""The ``changes`` source's options, parsed once and checked whole (the jar's
``ChangeOptions.scala``): the change options (:class:`ChangeSpec`), the key column's rules, and the
rows' options with the declared schema, parsed as the random strings' typed columns are
(``rows.options``). Names are matched case-insensitively, and each refusal is the jar's
message, naming the option, the value and what is allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from spark_random_strings.changes.declared_columns import check_key_column, key_column, updated_columns
from spark_random_strings.changes.delivery import is_untidy, share_before
from spark_random_strings.changes.envelope import ENVELOPE_OF
from spark_random_strings.changes.keywords import (
    AS_OF,
    AS_OF_RANGE,
    BATCH_NAMES,
    CHANGES_FORMAT,
    CHANGES_PYTHON_FORMAT,
    CHANGES_TABLE,
    DEFAULT_KEY,
    DEFAULT_SCHEMA,
    ENVELOPE,
    HISTORY,
    HOT_KEY_FRACTION,
    HOT_KEYS,
    INTERNAL_NAMES,
    KEY,
    KEYS,
    OPTION_NAMES,
    OWN_NAMES,
    UPDATE_COLUMNS,
)
from spark_random_strings.changes.spec import STORED, ChangeSpec
from spark_random_strings.options import (
    DUPLICATE_FRACTION,
    LATE_BY_MS,
    MAX_OUT_OF_ORDER_MS,
    TOTAL_ROWS,
    real_time_refused,
)
from spark_random_strings.options.ranges import LONG_MAX, java_equals_ignore_case, java_sort_key, java_trim
from spark_random_strings.options.suggestions import boolean, reject_unknown
from spark_random_strings.rows.definition import StreamDefinition
from spark_random_strings.rows.options import SourceOptions, parse_options
from spark_random_strings.typed.fields.options import is_field_option, split
from spark_random_strings.typed.schema.ddl import to_schema
from spark_random_strings.typed.schema.sql_types import sql


@dataclass(frozen=True)
class ChangeOptions:
    """The ``changes`` source's options, parsed and checked whole."""

    #: The change options.
    spec: ChangeSpec
    #: The rows' options (rate, time, seed, partitions, limits) and the declared schema with its
    #: ``fields.`` options, parsed as the random strings' typed columns are.
    rows: SourceOptions
    #: A batch read's number of changes, if given.
    as_of: int | None = None
    #: Whether a batch read asks for the history.
    history: bool = False

    @property
    def positions(self) -> int | None:
        """How many positions (reads) the stream has, if bounded: ``totalRows``, and with untidy
        delivery also the copies of the changes before it."""
        total = self.rows.total_rows
        return None if total is None else total + share_before(self.rows.shape.duplicate_fraction, total)

    def definition(self, seed: int, start_time_ms: int) -> StreamDefinition:
        """The rows' definition of a stream of these options, with this seed and first start."""
        return self.rows.definition(seed, start_time_ms)


def python_real_time_error() -> ValueError:
    """Why ``changesPython`` refuses ``realTime=true``: Spark runs real-time mode on JVM DSv2
    streams only."""
    return real_time_refused(CHANGES_PYTHON_FORMAT, f"{CHANGES_FORMAT} source")


def parse_python_options(parameters: Mapping[str, str], schema: object = None) -> ChangeOptions:
    """The options of the Python data source's stream: :func:`parse_stream_options`, and
    ``realTime`` refused (:func:`python_real_time_error`)."""
    parsed = parse_stream_options(parameters, schema)
    if parsed.rows.real_time:
        raise python_real_time_error()
    return parsed


def parse_stream_options(parameters: Mapping[str, str], schema: object = None) -> ChangeOptions:
    """The options of a stream (the jar's ``ChangeOptions.stream``): a batch read's own refused,
    then :func:`parse_change_options`.

    Raises:
        ValueError: naming the option, the value and what is allowed.
    """
    for name in BATCH_NAMES:
        if any(java_equals_ignore_case(given, name) for given in parameters):
            raise ValueError(
                f"Option '{name}' is for a batch read, spark.read.format(\"{CHANGES_FORMAT}\"), which makes "
                f"the table after a number of changes; a stream has no fixed end. Remove '{name}', or read "
                "the table with spark.read."
            )
    return parse_change_options(parameters, schema)


def parse_change_options(parameters: Mapping[str, str], schema: object = None) -> ChangeOptions:
    """Parse and check the ``changes`` source's options as the jar does at ``load()``. In order:
    the declared schema (``id BIGINT NOT NULL, value STRING`` without one), unknown names, the
    change options, the key column's rules, then the rows' options, as ``rows.options``
    checks them.

    Args:
        parameters: the options, by name as the user wrote them (case-insensitive).
        schema: the declared schema, if any: DDL text, a pyspark ``StructType``, or a
            ``typed.cells.spec`` one.

    Raises:
        ValueError: naming the option, the value given and what is allowed.
    """
    declared_schema = DEFAULT_SCHEMA if schema is None else schema
    declared, metadata = to_schema(declared_schema)
    written = dict(parameters)
    own = [name for name in written if not is_field_option(name)]
    reject_unknown(CHANGES_FORMAT, OPTION_NAMES, INTERNAL_NAMES, own)
    options = {name.lower(): value for name, value in written.items()}

    def given(name: str) -> str | None:
        return options.get(name.lower())

    # Each kept change option by its row of the table: its kind and range, in the table's order.
    parsed = {
        name: CHANGES_TABLE[name].parse(text)
        for name in STORED
        if name in OWN_NAMES and (text := given(name)) is not None
    }
    key_text = given(KEY)
    key = DEFAULT_KEY if key_text is None else java_trim(key_text)
    keys_text, hot_keys_text, hot_fraction_text = given(KEYS), given(HOT_KEYS), given(HOT_KEY_FRACTION)
    if hot_keys_text is not None and not parsed.get(HOT_KEY_FRACTION):
        said = "not set" if hot_fraction_text is None else hot_fraction_text
        raise ValueError(
            f"Options that do not fit together: '{HOT_KEYS}' is {hot_keys_text}, but '{HOT_KEY_FRACTION}' is "
            f"{said}, so no change goes to a hot key. Set '{HOT_KEY_FRACTION}' above 0, or remove "
            f"'{HOT_KEYS}'."
        )
    spec = ChangeSpec.of({name: value for name, value in parsed.items() if name != UPDATE_COLUMNS})
    spec.validate(given)

    added = ENVELOPE_OF[spec.envelope].added_names()
    for f in declared.fields:
        if any(java_equals_ignore_case(f.name, name) for name in added):
            raise ValueError(
                f"The declared column '{f.name}' has the name of a column that the {spec.envelope} envelope "
                f"adds ({', '.join(added)}). Rename it."
            )
    index = key_column(declared.fields, key, key_text is not None)
    key_field = declared.fields[index]
    check_key_column(key_field, sql(key_field.data_type, metadata, (index,)), spec.keys, keys_text)
    for name in sorted((n for n in written if is_field_option(n)), key=java_sort_key):
        path, _ = split(name)
        if java_equals_ignore_case(path[0], key_field.name):
            raise ValueError(
                f"Option '{name}' says how the key column '{key_field.name}' is made, and a change stream "
                f"makes its keys itself: 0 to {KEYS} - 1, as '{KEYS}' says. Remove it."
            )
    update_text = given(UPDATE_COLUMNS)
    update_columns = None if update_text is None else updated_columns(declared.fields, key_field, update_text)
    row_options = {
        name: value
        for name, value in written.items()
        if not any(java_equals_ignore_case(name, own) for own in OWN_NAMES)
    }
    as_of_text, history_text = given(AS_OF), given(HISTORY)
    as_of = None if as_of_text is None else AS_OF_RANGE.parse(AS_OF, as_of_text)
    history = history_text is not None and boolean(HISTORY, history_text)
    if history_text is not None and as_of is None:
        raise ValueError(
            f"Options that do not fit together: '{HISTORY}' is {history_text}, but '{AS_OF}' is not set. "
            f"A history is that of the table after '{AS_OF}' changes: set '{AS_OF}' too, on a batch read."
        )
    rows = parse_options(row_options, declared_schema)
    _check_delivery(rows, given)
    end = rows.total_rows if is_untidy(rows.shape) else None
    kept = spec.updated(KEY, key_field.name).updated(UPDATE_COLUMNS, update_columns).updated(TOTAL_ROWS, end)
    return ChangeOptions(kept, rows, as_of, history)


def _check_delivery(rows: SourceOptions, given: Callable[[str], str | None]) -> None:
    """The delivery options' own bounds for a change stream (the jar's ``checkDelivery``): windows
    and lateness of at most 365 days, and a bounded stream's reads, ``totalRows`` and its copies,
    within a long.

    Raises:
        ValueError: naming the option, with the jar's message.
    """
    shape = rows.shape
    CHANGES_TABLE[MAX_OUT_OF_ORDER_MS].whole.check(
        MAX_OUT_OF_ORDER_MS, shape.max_out_of_order_ms, given(MAX_OUT_OF_ORDER_MS) or "0"
    )
    if shape.late_by_ms is not None:
        CHANGES_TABLE[LATE_BY_MS].whole.check(LATE_BY_MS, shape.late_by_ms, given(LATE_BY_MS))
    total = rows.total_rows
    if total is not None:
        copies = share_before(shape.duplicate_fraction, total)
        if copies > LONG_MAX - total:
            raise ValueError(
                f"Options that do not fit together: '{TOTAL_ROWS}' is {given(TOTAL_ROWS)} and "
                f"'{DUPLICATE_FRACTION}' is {given(DUPLICATE_FRACTION)}: the stream would read {total} "
                f"changes and {copies} copies, more than {LONG_MAX} reads. Lower '{TOTAL_ROWS}'."
            )


def envelope_named(name: str) -> str:
    """The envelope called ``name``, case-insensitive, as the table spells it.

    Raises:
        ValueError: any other name, with the closest one.
    """
    return CHANGES_TABLE[ENVELOPE].choice(name)
