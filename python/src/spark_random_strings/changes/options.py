"""The ``changes`` source's options, parsed once and checked whole (the jar's
``ChangeOptions.scala``): the change options (:class:`ChangeSpec`), the key column's rules, and the
rows' options with the declared schema, parsed as the random strings' typed columns are
(``rows.options``). Names are matched case-insensitively, and each refusal is the jar's
message, naming the option, the value and what is allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace

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
    DEFAULT_DELETE_FRACTION,
    DEFAULT_ENVELOPE,
    DEFAULT_HOT_KEYS,
    DEFAULT_KEY,
    DEFAULT_KEYS,
    DEFAULT_SCHEMA,
    DELETE_FRACTION,
    DELETE_FRACTION_RANGE,
    ENVELOPE,
    ENVELOPES,
    HISTORY,
    HOT_KEY_FRACTION,
    HOT_KEY_FRACTION_RANGE,
    HOT_KEYS,
    HOT_KEYS_RANGE,
    INTERNAL_NAMES,
    KEY,
    KEYS,
    KEYS_RANGE,
    OPTION_NAMES,
    OWN_NAMES,
    SNAPSHOT,
    UPDATE_COLUMNS,
)
from spark_random_strings.options import (
    DUPLICATE_FRACTION,
    LATE_BY_MS,
    MAX_OUT_OF_ORDER_MS,
    TOTAL_ROWS,
    real_time_refused,
)
from spark_random_strings.options.ranges import LONG_MAX, java_equals_ignore_case, java_sort_key, java_trim
from spark_random_strings.options.suggestions import boolean, closest, reject_unknown
from spark_random_strings.rows.definition import StreamDefinition
from spark_random_strings.rows.options import SourceOptions, parse_options
from spark_random_strings.typed.fields.options import is_field_option, split
from spark_random_strings.typed.schema.ddl import to_schema
from spark_random_strings.typed.schema.sql_types import sql

#: The key of a :class:`ChangeSpec` field's metadata that names the option it holds.
OPTION = "option"
#: The options a spec's settings may hold, in their order (the jar's ``ChangeSpec.Stored``): the
#: kept change options of the table, then ``totalRows``, which untidy delivery fixes (an option
#: without a default is held only when set).
STORED: tuple[str, ...] = (*(name for name in CHANGES_TABLE.kept if name in OWN_NAMES), TOTAL_ROWS)


@dataclass(frozen=True)
class ChangeSpec:
    """What makes a stream's changes besides its rows' definition: the keyspace, the key column
    and the lifecycle. Fixed when a query first starts and kept in its checkpoint."""

    #: The declared column that holds each change's key, as declared.
    key: str = field(default=DEFAULT_KEY, metadata={OPTION: KEY})
    #: How many keys: a change's key is one of 0 to keys - 1.
    keys: int = field(default=DEFAULT_KEYS, metadata={OPTION: KEYS})
    #: The probability that a change to a present key deletes it.
    delete_fraction: float = field(default=DEFAULT_DELETE_FRACTION, metadata={OPTION: DELETE_FRACTION})
    #: How many keys are hot (keys 0 to hot_keys - 1), when ``hot_key_fraction`` > 0.
    hot_keys: int = field(default=DEFAULT_HOT_KEYS, metadata={OPTION: HOT_KEYS})
    #: The share of the live changes that go to the hot keys.
    hot_key_fraction: float = field(default=0.0, metadata={OPTION: HOT_KEY_FRACTION})
    #: Whether the stream begins with an insert of every key, in key order.
    snapshot: bool = field(default=False, metadata={OPTION: SNAPSHOT})
    #: The format of the rows: one of ``ENVELOPES``.
    envelope: str = field(default=DEFAULT_ENVELOPE, metadata={OPTION: ENVELOPE})
    #: The declared columns an update changes, in the declared order and spelling, comma-separated;
    #: every other column keeps the cell of the key's last image, which is its insert's (None: an
    #: update changes every column).
    update_columns: str | None = field(default=None, metadata={OPTION: UPDATE_COLUMNS})
    #: With untidy delivery (``changes.delivery``), ``totalRows``: the changes delivered are 0 to
    #: end - 1, and where the windows are cut depends on it, so it is fixed too (None otherwise).
    end: int | None = field(default=None, metadata={OPTION: TOTAL_ROWS})

    @property
    def updated_columns(self) -> tuple[str, ...] | None:
        """The declared columns an update changes, if not every one."""
        return None if self.update_columns is None else tuple(self.update_columns.split(","))

    def settings(self) -> list[tuple[str, object]]:
        """Each change option's name and value, in the order of the fields (the documentation's),
        each under the option its field names (``OPTION``); ``update_columns`` and ``end`` only
        when set, so other streams keep the checkpoint file they always had."""
        return [
            (f.metadata[OPTION], value) for f in fields(self) if (value := getattr(self, f.name)) is not None
        ]

    @classmethod
    def of(cls, settings: Mapping[str, object]) -> ChangeSpec:
        """The spec whose :meth:`settings` are ``settings``, each field from its option's name:
        for every spec, ``ChangeSpec.of(dict(spec.settings())) == spec``."""

        # A field whose default is not None is required, as the jar's ChangeSpec.of requires it.
        def value(option: str, required: bool) -> object:
            return settings[option] if required else settings.get(option)

        values = {f.name: value(f.metadata[OPTION], f.default is not None) for f in fields(cls)}
        return cls(**values)  # type: ignore[arg-type]

    def validate(self, written: Callable[[str], str | None]) -> None:
        """The rules between the change options' values (each is in its range already): hot keys
        leave at least one cold key.

        Args:
            written: the text of an option as the user wrote it, or None where not given (its
                default applies).

        Raises:
            ValueError: naming both options and their values.
        """
        if self.hot_key_fraction > 0.0 and self.hot_keys >= self.keys:

            def shown(name: str, value: int) -> str:
                text = written(name)
                return f"{value} (its default)" if text is None else text

            raise ValueError(
                f"Options that do not fit together: '{HOT_KEYS}' is {shown(HOT_KEYS, self.hot_keys)} and "
                f"'{KEYS}' is {shown(KEYS, self.keys)}: the hot keys are keys 0 to hotKeys - 1, and the "
                f"other changes need a key that is not hot. Set '{HOT_KEYS}' below '{KEYS}'."
            )


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

    key_text = given(KEY)
    key = DEFAULT_KEY if key_text is None else java_trim(key_text)
    keys_text, fraction_text = given(KEYS), given(DELETE_FRACTION)
    keys = DEFAULT_KEYS if keys_text is None else KEYS_RANGE.parse(KEYS, keys_text)
    delete_fraction = (
        DEFAULT_DELETE_FRACTION
        if fraction_text is None
        else DELETE_FRACTION_RANGE.parse(DELETE_FRACTION, fraction_text)
    )
    envelope_text = given(ENVELOPE)
    envelope = envelope_named(DEFAULT_ENVELOPE if envelope_text is None else envelope_text)
    hot_keys_text, hot_fraction_text = given(HOT_KEYS), given(HOT_KEY_FRACTION)
    hot_keys = None if hot_keys_text is None else HOT_KEYS_RANGE.parse(HOT_KEYS, hot_keys_text)
    hot_key_fraction = None
    if hot_fraction_text is not None:
        hot_key_fraction = HOT_KEY_FRACTION_RANGE.parse(HOT_KEY_FRACTION, hot_fraction_text)
    snapshot_text = given(SNAPSHOT)
    snapshot = snapshot_text is not None and boolean(SNAPSHOT, snapshot_text)
    if hot_keys is not None and not hot_key_fraction:
        said = "not set" if hot_fraction_text is None else hot_fraction_text
        raise ValueError(
            f"Options that do not fit together: '{HOT_KEYS}' is {hot_keys_text}, but '{HOT_KEY_FRACTION}' is "
            f"{said}, so no change goes to a hot key. Set '{HOT_KEY_FRACTION}' above 0, or remove "
            f"'{HOT_KEYS}'."
        )
    spec = ChangeSpec(
        key=key,
        keys=keys,
        delete_fraction=delete_fraction,
        hot_keys=DEFAULT_HOT_KEYS if hot_keys is None else hot_keys,
        hot_key_fraction=0.0 if hot_key_fraction is None else hot_key_fraction,
        snapshot=snapshot,
        envelope=envelope,
    )
    spec.validate(given)

    added = ENVELOPE_OF[envelope].added_names()
    for f in declared.fields:
        if any(java_equals_ignore_case(f.name, name) for name in added):
            raise ValueError(
                f"The declared column '{f.name}' has the name of a column that the {envelope} envelope "
                f"adds ({', '.join(added)}). Rename it."
            )
    index = key_column(declared.fields, key, key_text is not None)
    key_field = declared.fields[index]
    check_key_column(key_field, sql(key_field.data_type, metadata, (index,)), keys, keys_text)
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
    return ChangeOptions(
        replace(spec, key=key_field.name, update_columns=update_columns, end=end), rows, as_of, history
    )


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
    found = next((e for e in ENVELOPES if java_equals_ignore_case(e, java_trim(name))), None)
    if found is None:
        near = closest(java_trim(name), ENVELOPES)
        hint = f" Did you mean '{near}'?" if near else ""
        raise ValueError(
            f"Invalid value '{name}' for option '{ENVELOPE}'.{hint} Allowed: {', '.join(ENVELOPES)} "
            "(case-insensitive)."
        )
    return found
