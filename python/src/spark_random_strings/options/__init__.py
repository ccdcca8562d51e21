"""The source's options as Python meets them, and the facts every other module builds on (the
JVM source's ``RandomStrings.scala``): the source's names, its schema, each option's name, default
and allowed values.

[`SourceKeywords`][spark_random_strings.options.SourceKeywords] is the one place each option is
written on the Python side: its ``read_random_strings`` keyword, its Python type and, in its
[`Option`][spark_random_strings.options.Option], the source's option name, its default and what it
does. [`OPTIONS`][spark_random_strings.options.OPTIONS] is the same table as rows. The options
parser applies the defaults of this table, ``read_random_strings`` checks its keywords with
[`source_options`][spark_random_strings.options.source_options], the command-line tool makes a flag
of each row, and the tests check the README's option table against it.

This module imports nothing else of the package: every other module builds on it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, TypedDict, get_args, get_type_hints

import pyarrow as pa

from spark_random_strings.options.ranges import INT_MAX, LONG_MIN, Real, Whole

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

UNIFORM, ZIPF = "uniform", "zipf"
#: The values of ``valueDistribution``.
DISTRIBUTIONS = (UNIFORM, ZIPF)
#: The longest string allowed: one mebi code points (at most 4 MiB of UTF-8 per row).
LENGTH_CAP = 1 << 20

ROWS_PER_SECOND_RANGE = Whole(1)
LENGTH_RANGE = Whole(0, LENGTH_CAP)
SEED_RANGE = Whole(LONG_MIN)
NUM_PARTITIONS_RANGE = Whole(1, INT_MAX)
MAX_ROWS_PER_TRIGGER_RANGE = Whole(1)
TOTAL_ROWS_RANGE = Whole(0)
DISTINCT_VALUES_RANGE = Whole(1, INT_MAX)
ZIPF_EXPONENT_RANGE = Real(0.0, False, 10.0, True)
MAX_OUT_OF_ORDER_MS_RANGE = Whole(0)
LATE_ROW_FRACTION_RANGE = Real(0.0, True, 1.0, True)
LATE_BY_MS_RANGE = Whole(1)
DUPLICATE_FRACTION_RANGE = Real(0.0, True, 1.0, False)
MAX_DUPLICATE_DISTANCE_RANGE = Whole(1)
START_TIMESTAMP_RANGE = Whole(LONG_MIN)


def _text(value: object) -> str:
    """A value as an option's text: ``true``/``false`` for a boolean, as Spark writes them."""
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class Option:
    """What the table says of one option, beside its keyword and type."""

    #: The source's option name, as given to ``spark.readStream.option``.
    name: str
    #: The value the source takes when the option is not given; ``None`` where there is none or
    #: it is decided when the stream starts (``unset`` says which).
    value: int | float | str | None
    #: What the option does, in a few words.
    help: str
    #: The placeholder of its value in the command-line help.
    metavar: str = "N"
    #: What the documentation says for a default that is not a value.
    unset: str = "none"

    @property
    def default(self) -> str:
        """The default, as the documentation states it: the value, or what happens without one."""
        return self.unset if self.value is None else _text(self.value)


class SourceKeywords(TypedDict, total=False):
    """The keywords of ``read_random_strings``: each source option, in snake_case.

    ``None``, like a keyword left out, leaves the source's default.
    """

    rows_per_second: Annotated[int | None, Option(ROWS_PER_SECOND, 10, "rows made available per second")]
    min_length: Annotated[int | None, Option(MIN_LENGTH, 0, "the shortest string, in characters")]
    max_length: Annotated[
        int | None, Option(MAX_LENGTH, 4, "the longest string, in characters, at most 1048576")
    ]
    charset: Annotated[
        str | None,
        Option(
            CHARSET,
            "alphanumeric",
            "the characters to draw from: alphanumeric, letters, digits, hex, ascii or unicode",
            "NAME",
        ),
    ]
    alphabet: Annotated[
        str | None,
        Option(
            ALPHABET,
            None,
            "the exact characters to draw from, each distinct one once; wins over charset",
            "TEXT",
        ),
    ]
    seed: Annotated[
        int | None, Option(SEED, None, "the seed of every row", unset="drawn once, kept in the checkpoint")
    ]
    num_partitions: Annotated[
        int | None,
        Option(
            NUM_PARTITIONS, None, "partitions (tasks) per batch", unset="the session's default parallelism"
        ),
    ]
    max_rows_per_trigger: Annotated[
        int | None,
        Option(MAX_ROWS_PER_TRIGGER, None, "the most rows one micro-batch reads", unset="no limit"),
    ]
    total_rows: Annotated[
        int | None, Option(TOTAL_ROWS, None, "the stream ends after this many rows", unset="unbounded")
    ]
    distinct_values: Annotated[
        int | None,
        Option(DISTINCT_VALUES, None, "value is one of exactly this many distinct strings (a pool)"),
    ]
    value_distribution: Annotated[
        str | None,
        Option(
            VALUE_DISTRIBUTION,
            UNIFORM,
            "how rows pick pool entries: uniform or zipf; needs distinctValues",
            "NAME",
        ),
    ]
    zipf_exponent: Annotated[
        float | None,
        Option(ZIPF_EXPONENT, 1.0, "s of zipf: entry k with probability ~ 1/(k+1)^s", "S"),
    ]
    max_out_of_order_ms: Annotated[
        int | None,
        Option(MAX_OUT_OF_ORDER_MS, 0, "each ts moves back by a delay uniform over [0, this]", "MS"),
    ]
    late_row_fraction: Annotated[
        float | None,
        Option(LATE_ROW_FRACTION, 0, "the probability that a row is late by lateByMs more", "P"),
    ]
    late_by_ms: Annotated[
        int | None,
        Option(LATE_BY_MS, None, "how late a late row is; required when lateRowFraction > 0", "MS"),
    ]
    duplicate_fraction: Annotated[
        float | None,
        Option(DUPLICATE_FRACTION, 0, "the probability that a row repeats an earlier row's value, ts", "P"),
    ]
    max_duplicate_distance: Annotated[
        int | None,
        Option(MAX_DUPLICATE_DISTANCE, 1000, "how many offsets back a repeated row may be"),
    ]
    timestamp_column: Annotated[
        bool | None,
        Option(TIMESTAMP_COLUMN, False, "add a last column, timestamp: ts as a TIMESTAMP", "BOOL"),
    ]
    start_timestamp: Annotated[
        int | None,
        Option(
            START_TIMESTAMP,
            None,
            "the event time of offset 0, in epoch ms; without it, the time the stream first starts",
            "MS",
        ),
    ]
    rate_profile: Annotated[
        str | None,
        Option(
            RATE_PROFILE,
            None,
            "phases the rate follows, e.g. '60s@1000, 30s@1000..20000, repeat'; not with rowsPerSecond",
            "PHASES",
        ),
    ]
    real_time: Annotated[
        bool | None,
        Option(
            REAL_TIME,
            False,
            "read through Spark's DSv2 interfaces, which real-time mode needs (Spark 4.1+)",
            "BOOL",
        ),
    ]


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
    """A source's options under their Python keywords, from a ``TypedDict`` of keywords whose
    every hint is ``Annotated[<type> | None, Option(...)]`` (as
    [`SourceKeywords`][spark_random_strings.options.SourceKeywords]): what turns keywords into the
    source's options, and the source's messages back into keywords. Each source of the package has
    one.
    """

    def __init__(self, keywords: type) -> None:
        rows = []
        for keyword, hint in get_type_hints(keywords, include_extras=True).items():
            optional, option = get_args(hint)
            (kind,) = (t for t in get_args(optional) if t is not type(None))
            rows.append(SourceOption(keyword, kind, option))
        #: Every option, in the order the documentation lists them.
        self.rows: tuple[SourceOption, ...] = tuple(rows)
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


_TABLE = OptionTable(SourceKeywords)

#: Every source option, in the order the documentation lists them.
OPTIONS: tuple[SourceOption, ...] = _TABLE.rows

#: Every option name, in the documentation's order.
NAMES = tuple(row.name for row in OPTIONS)
#: The options tests use and users never see: accepted, but not listed in ``NAMES``.
INTERNAL_NAMES = (MANUAL_CLOCK,)


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
