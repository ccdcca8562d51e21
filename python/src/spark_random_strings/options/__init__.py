"""The source's options as Python meets them, and the facts every other module builds on (the
JVM source's ``RandomStrings.scala``): the source's names, its schema, each option's name, default
and allowed values.

Each option's name, keyword, default, allowed values and help line are a row of the one table of
options, ``options/table.json``, which the jar carries too (``options.table`` reads it).
[`SourceKeywords`][spark_random_strings.options.SourceKeywords] types each keyword of
``read_random_strings`` for type checkers, and names its row;
[`OPTIONS`][spark_random_strings.options.OPTIONS] is the table's rows under their keywords. The
options parser applies the defaults and ranges of the table, ``read_random_strings`` checks its
keywords with [`source_options`][spark_random_strings.options.source_options], the command-line
tool makes a flag of each row, and the tests check the README's option table against it.

This module imports nothing of the package outside its room: every other module builds on it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, TypedDict, get_args, get_type_hints

import pyarrow as pa

from spark_random_strings.options.ranges import Real, Whole
from spark_random_strings.options.table import KINDS, SOURCES, Option, SourceTable, _text

#: The source's short name, as given to ``spark.readStream.format`` (Spark matches it
#: case-insensitively).
FORMAT = "InMemoryRandomStrings"
#: The Python data source's name: the same stream without the jar.
PYTHON_FORMAT = f"{FORMAT}Python"

#: The source's columns, as Arrow types them (Spark's string, long, long, int; none nullable).
SCHEMA = pa.schema(
    [
        pa.field("value", pa.string(), nullable=False),
        pa.field("ts", pa.int64(), nullable=False),
        pa.field("offset", pa.int64(), nullable=False),
        pa.field("length", pa.int32(), nullable=False),
    ]
)
#: The column ``timestampColumn`` adds, last: ``ts`` as Spark's TIMESTAMP (microseconds, UTC).
TIMESTAMP_FIELD = pa.field("timestamp", pa.timestamp("us", tz="UTC"), nullable=False)


def schema_of(timestamp_column: bool) -> pa.Schema:
    """The source's columns, with the ``timestamp`` column or without it."""
    return SCHEMA.append(TIMESTAMP_FIELD) if timestamp_column else SCHEMA


ROWS_PER_SECOND = "rowsPerSecond"
MIN_LENGTH = "minLength"
MAX_LENGTH = "maxLength"
CHARSET = "charset"
ALPHABET = "alphabet"
SEED = "seed"
NUM_PARTITIONS = "numPartitions"
MAX_ROWS_PER_TRIGGER = "maxRowsPerTrigger"
TOTAL_ROWS = "totalRows"
DISTINCT_VALUES = "distinctValues"
VALUE_DISTRIBUTION = "valueDistribution"
ZIPF_EXPONENT = "zipfExponent"
MAX_OUT_OF_ORDER_MS = "maxOutOfOrderMs"
LATE_ROW_FRACTION = "lateRowFraction"
LATE_BY_MS = "lateByMs"
DUPLICATE_FRACTION = "duplicateFraction"
MAX_DUPLICATE_DISTANCE = "maxDuplicateDistance"
TIMESTAMP_COLUMN = "timestampColumn"
START_TIMESTAMP = "startTimestamp"
RATE_PROFILE = "rateProfile"
REAL_TIME = "realTime"

#: Internal, for tests: the name of a manual clock (``time.manual_clock``) that the stream reads the
#: time from instead of the system clock. Not among ``NAMES``: the documentation does not list it.
MANUAL_CLOCK = "_manualClock"

#: This source's rows of the table of options.
STRINGS_TABLE: SourceTable = SOURCES[FORMAT]

#: The values of ``valueDistribution``.
DISTRIBUTIONS = STRINGS_TABLE[VALUE_DISTRIBUTION].values
UNIFORM, ZIPF = DISTRIBUTIONS
#: The longest string allowed: one mebi code points (at most 4 MiB of UTF-8 per row).
LENGTH_CAP = STRINGS_TABLE[MAX_LENGTH].whole.high

ROWS_PER_SECOND_RANGE: Whole = STRINGS_TABLE[ROWS_PER_SECOND].whole
LENGTH_RANGE: Whole = STRINGS_TABLE[MAX_LENGTH].whole
SEED_RANGE: Whole = STRINGS_TABLE[SEED].whole
NUM_PARTITIONS_RANGE: Whole = STRINGS_TABLE[NUM_PARTITIONS].whole
MAX_ROWS_PER_TRIGGER_RANGE: Whole = STRINGS_TABLE[MAX_ROWS_PER_TRIGGER].whole
TOTAL_ROWS_RANGE: Whole = STRINGS_TABLE[TOTAL_ROWS].whole
DISTINCT_VALUES_RANGE: Whole = STRINGS_TABLE[DISTINCT_VALUES].whole
ZIPF_EXPONENT_RANGE: Real = STRINGS_TABLE[ZIPF_EXPONENT].real
MAX_OUT_OF_ORDER_MS_RANGE: Whole = STRINGS_TABLE[MAX_OUT_OF_ORDER_MS].whole
LATE_ROW_FRACTION_RANGE: Real = STRINGS_TABLE[LATE_ROW_FRACTION].real
LATE_BY_MS_RANGE: Whole = STRINGS_TABLE[LATE_BY_MS].whole
DUPLICATE_FRACTION_RANGE: Real = STRINGS_TABLE[DUPLICATE_FRACTION].real
MAX_DUPLICATE_DISTANCE_RANGE: Whole = STRINGS_TABLE[MAX_DUPLICATE_DISTANCE].whole
START_TIMESTAMP_RANGE: Whole = STRINGS_TABLE[START_TIMESTAMP].whole


class SourceKeywords(TypedDict, total=False):
    """The keywords of ``read_random_strings``: each source option, in snake_case.

    ``None``, like a keyword left out, leaves the source's default. Each hint names the option's
    row of the table of options, which says its default, allowed values and what it does.
    """

    # Made from options/table.json by `make options`: edit the table, not these lines.
    rows_per_second: Annotated[int | None, "rowsPerSecond"]
    min_length: Annotated[int | None, "minLength"]
    max_length: Annotated[int | None, "maxLength"]
    charset: Annotated[str | None, "charset"]
    alphabet: Annotated[str | None, "alphabet"]
    seed: Annotated[int | None, "seed"]
    num_partitions: Annotated[int | None, "numPartitions"]
    max_rows_per_trigger: Annotated[int | None, "maxRowsPerTrigger"]
    total_rows: Annotated[int | None, "totalRows"]
    distinct_values: Annotated[int | None, "distinctValues"]
    value_distribution: Annotated[str | None, "valueDistribution"]
    zipf_exponent: Annotated[float | None, "zipfExponent"]
    max_out_of_order_ms: Annotated[int | None, "maxOutOfOrderMs"]
    late_row_fraction: Annotated[float | None, "lateRowFraction"]
    late_by_ms: Annotated[int | None, "lateByMs"]
    duplicate_fraction: Annotated[float | None, "duplicateFraction"]
    max_duplicate_distance: Annotated[int | None, "maxDuplicateDistance"]
    timestamp_column: Annotated[bool | None, "timestampColumn"]
    start_timestamp: Annotated[int | None, "startTimestamp"]
    rate_profile: Annotated[str | None, "rateProfile"]
    real_time: Annotated[bool | None, "realTime"]


@dataclass(frozen=True)
class SourceOption:
    """One row of [`OPTIONS`][spark_random_strings.options.OPTIONS]: a source option under its
    Python keyword."""

    #: The keyword of ``read_random_strings`` (and, with dashes, the command-line flag).
    keyword: str
    #: The Python type the keyword takes: ``int``, ``float`` (an ``int`` is taken too), ``str`` or
    #: ``bool``.
    kind: type[int] | type[float] | type[str] | type[bool]
    #: The source's option name, its documented default and what it does.
    option: Option

    @property
    def name(self) -> str:
        """The source's option name: ``rowsPerSecond``."""
        return self.option.name

    @property
    def flag(self) -> str:
        """The command-line flag: ``--rows-per-second``."""
        return "--" + self.keyword.replace("_", "-")

    @property
    def described(self) -> str:
        """What it does and its default, as help texts say it."""
        return f"{self.option.help} (default: {self.option.default})"


class OptionTable:
    """A source's options under their Python keywords: its rows of the table of options, each
    under the keyword of a ``TypedDict`` whose every hint is ``Annotated[<type> | None, <name>]``
    (as [`SourceKeywords`][spark_random_strings.options.SourceKeywords]). What turns keywords into
    the source's options, and the source's messages back into keywords. Each source of the
    package has one.

    Raises:
        ValueError: the keywords and the table disagree: an option missing, under another
            keyword, or of another Python type. The keywords may come in any order (a
            ``TypedDict`` that extends another lists the other's first); the rows take the table's.
        KeyError: a keyword names an option the table does not have.
    """

    def __init__(self, keywords: type, table: SourceTable) -> None:
        by_name: dict[str, SourceOption] = {}
        for keyword, hint in get_type_hints(keywords, include_extras=True).items():
            optional, name = get_args(hint)
            (kind,) = (t for t in get_args(optional) if t is not type(None))
            option = table[name]
            if option.keyword != keyword or KINDS[option.kind or "text"] is not kind:
                raise ValueError(
                    f"{keywords.__name__}.{keyword} ({kind.__name__}) is not table.json's option "
                    f"'{name}': keyword {option.keyword}, kind {option.kind}"
                )
            by_name[name] = SourceOption(keyword, kind, option)
        if set(by_name) != set(table.names):
            raise ValueError(f"{keywords.__name__} lists other options than table.json: {table.names}")
        #: Every option, in the order the documentation lists them.
        self.rows: tuple[SourceOption, ...] = tuple(by_name[name] for name in table.names)
        #: The options tests use and users never see: accepted, but not listed.
        self.internal = table.internal
        self.by_keyword = {row.keyword: row for row in self.rows}
        self.by_name = {row.name: row for row in self.rows}
        # An option the source's messages name: 'rowsPerSecond' or option 'rowsPerSecond', but not
        # a value that happens to be spelt like one (Invalid value 'seed' for option 'charset').
        names = "|".join(map(re.escape, self.by_name))
        self._named = re.compile(r"(?:\b[Oo]ption )?(?<!value )'(" + names + r")'")

    def keyword_args(self) -> str:
        """A docstring's "Keyword Args" entries: one per option, its keyword, type, name and help."""
        return "".join(
            f"        {row.keyword} ({row.kind.__name__}): the option ``{row.name}``: {row.described}.\n"
            for row in self.rows
        )

    def renamed(self, message: str, name: Callable[[SourceOption], str]) -> str:
        """The source's ``message`` with each option it names called ``name(row)`` instead."""
        return self._named.sub(lambda match: name(self.by_name[match.group(1)]), message)

    def first_named(self, message: str) -> SourceOption | None:
        """The option the source's ``message`` names first (the one it is about), if any."""
        match = self._named.search(message)
        return None if match is None else self.by_name[match.group(1)]

    def options(self, keywords: Mapping[str, object], caller: str) -> dict[str, str]:
        """The source options that ``keywords`` give, by option name; ``None`` leaves the default.

        Raises:
            TypeError: a keyword is unknown (the nearest known one is suggested), or its value has
                the wrong Python type. Ranges are the source's to check, at ``load()``.
        """
        options: dict[str, str] = {}
        for keyword, value in keywords.items():
            row = self.by_keyword.get(keyword)
            if row is None:
                near = difflib.get_close_matches(keyword, self.by_keyword, n=1)
                hint = f" Did you mean {near[0]!r}?" if near else ""
                raise TypeError(
                    f"{caller}() got an unexpected keyword argument {keyword!r}.{hint} "
                    f"Known: {', '.join(self.by_keyword)}."
                )
            if value is None:
                continue
            # bool is a subclass of int, but True is no row count; a float keyword takes an int too.
            accepted = (int, float) if row.kind is float else row.kind
            if not isinstance(value, accepted) or isinstance(value, bool) != (row.kind is bool):
                raise TypeError(
                    f"{caller}: {keyword} must be {row.kind.__name__} or None, "
                    f"got {type(value).__name__} {value!r}"
                )
            options[row.name] = _text(value)
        return options


_TABLE = OptionTable(SourceKeywords, STRINGS_TABLE)

#: Every source option, in the order the documentation lists them.
OPTIONS: tuple[SourceOption, ...] = _TABLE.rows

#: Every option name, in the documentation's order.
NAMES = tuple(row.name for row in OPTIONS)
#: The options tests use and users never see: accepted, but not listed in ``NAMES``.
INTERNAL_NAMES = STRINGS_TABLE.internal


def real_time_refused(python_format: str, jar_source: str) -> ValueError:
    """Why a Python data source (``python_format``) refuses ``realTime=true``: Spark runs real-time
    mode on JVM DSv2 streams only; ``jar_source`` names the jar's source that has it."""
    return ValueError(
        f"Option '{REAL_TIME}' is true, but the {python_format} source is a Python data source, and "
        "Spark's Python data sources cannot run in real-time mode: it reads only JVM streams that "
        f"implement its real-time interfaces. Read the jar's {jar_source} (engine='jvm') with '{REAL_TIME}', "
        f"or remove '{REAL_TIME}'."
    )


def keyword_args() -> str:
    """``read_random_strings``'s "Keyword Args" entries, one per option."""
    return _TABLE.keyword_args()


def renamed(message: str, name: Callable[[SourceOption], str]) -> str:
    """The source's ``message`` with each option it names called ``name(row)`` instead: its
    keyword for ``read_random_strings``, its flag for the command line.

    Examples:
        >>> renamed("Invalid value '-5' for option 'rowsPerSecond': out of range.", lambda row: row.keyword)
        "Invalid value '-5' for rows_per_second: out of range."
    """
    return _TABLE.renamed(message, name)


def first_named(message: str) -> SourceOption | None:
    """The option the source's ``message`` names first (the one it is about), if any."""
    return _TABLE.first_named(message)


def default(name: str) -> int | float | str | None:
    """The value the source takes for option ``name`` when it is not given, as the option's
    Python type (``None``: no value, see the table)."""
    row = _TABLE.by_name[name]
    return None if row.option.value is None else row.kind(row.option.value)


def source_options(keywords: Mapping[str, object], caller: str = "read_random_strings") -> dict[str, str]:
    """The source options that ``keywords`` give, by option name; ``None`` leaves the default.

    Args:
        keywords: keyword -> value, as
            [`SourceKeywords`][spark_random_strings.options.SourceKeywords] types them.
        caller: the function named in errors.

    Returns:
        Option name -> value as text, for ``spark.readStream.options``.

    Raises:
        TypeError: a keyword is unknown (the nearest known one is suggested), or its value has
            the wrong Python type. Ranges are the source's to check, at ``load()``.
    """
    return _TABLE.options(keywords, caller)
