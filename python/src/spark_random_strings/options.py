"""The source's options as Python meets them: one table.

[`SourceKeywords`][spark_random_strings.options.SourceKeywords] is the one place each option is
written on the Python side: its ``read_random_strings`` keyword, its Python type and, in its
[`Option`][spark_random_strings.options.Option], the source's option name, the default as the
documentation states it and what it does. [`OPTIONS`][spark_random_strings.options.OPTIONS] is the
same table as rows. ``read_random_strings`` checks its keywords with
[`source_options`][spark_random_strings.options.source_options], the command-line tool makes a flag
of each row, and the tests check the README's option table against it. The values themselves are
validated once, by the source, at ``load()``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, TypedDict, get_args, get_type_hints


@dataclass(frozen=True)
class Option:
    """What the table says of one option, beside its keyword and type."""

    #: The source's option name, as given to ``spark.readStream.option``.
    name: str
    #: The default, as the documentation states it (the source decides it).
    default: str
    #: What the option does, in a few words.
    help: str
    #: The placeholder of its value in the command-line help.
    metavar: str = "N"


class SourceKeywords(TypedDict, total=False):
    """The keywords of ``read_random_strings``: each source option, in snake_case.

    ``None``, like a keyword left out, leaves the source's default.
    """

    rows_per_second: Annotated[int | None, Option("rowsPerSecond", "10", "rows made available per second")]
    min_length: Annotated[int | None, Option("minLength", "0", "the shortest string, in characters")]
    max_length: Annotated[
        int | None, Option("maxLength", "4", "the longest string, in characters, at most 1048576")
    ]
    charset: Annotated[
        str | None,
        Option(
            "charset",
            "alphanumeric",
            "the characters to draw from: alphanumeric, letters, digits, hex, ascii or unicode",
            "NAME",
        ),
    ]
    alphabet: Annotated[
        str | None,
        Option(
            "alphabet",
            "none",
            "the exact characters to draw from, each distinct one once; wins over charset",
            "TEXT",
        ),
    ]
    seed: Annotated[int | None, Option("seed", "drawn once, kept in the checkpoint", "the seed of every row")]
    num_partitions: Annotated[
        int | None,
        Option("numPartitions", "the session's default parallelism", "partitions (tasks) per batch"),
    ]
    max_rows_per_trigger: Annotated[
        int | None, Option("maxRowsPerTrigger", "no limit", "the most rows one micro-batch reads")
    ]
    total_rows: Annotated[
        int | None, Option("totalRows", "unbounded", "the stream ends after this many rows")
    ]
    distinct_values: Annotated[
        int | None,
        Option("distinctValues", "none", "value is one of exactly this many distinct strings (a pool)"),
    ]
    value_distribution: Annotated[
        str | None,
        Option(
            "valueDistribution",
            "uniform",
            "how rows pick pool entries: uniform or zipf; needs distinctValues",
            "NAME",
        ),
    ]
    zipf_exponent: Annotated[
        float | None,
        Option("zipfExponent", "1.0", "s of zipf: entry k with probability ~ 1/(k+1)^s", "S"),
    ]
    max_out_of_order_ms: Annotated[
        int | None,
        Option("maxOutOfOrderMs", "0", "each ts moves back by a delay uniform over [0, this]", "MS"),
    ]
    late_row_fraction: Annotated[
        float | None,
        Option("lateRowFraction", "0", "the probability that a row is late by lateByMs more", "P"),
    ]
    late_by_ms: Annotated[
        int | None,
        Option("lateByMs", "none", "how late a late row is; required when lateRowFraction > 0", "MS"),
    ]
    duplicate_fraction: Annotated[
        float | None,
        Option(
            "duplicateFraction", "0", "the probability that a row repeats an earlier row's value, ts", "P"
        ),
    ]
    max_duplicate_distance: Annotated[
        int | None,
        Option("maxDuplicateDistance", "1000", "how many offsets back a repeated row may be"),
    ]


@dataclass(frozen=True)
class SourceOption:
    """One row of [`OPTIONS`][spark_random_strings.options.OPTIONS]: a source option under its
    Python keyword."""

    #: The keyword of ``read_random_strings`` (and, with dashes, the command-line flag).
    keyword: str
    #: The Python type the keyword takes: ``int``, ``float`` (an ``int`` is taken too) or ``str``.
    kind: type[int] | type[float] | type[str]
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


def _rows() -> tuple[SourceOption, ...]:
    rows = []
    for keyword, hint in get_type_hints(SourceKeywords, include_extras=True).items():
        optional, option = get_args(hint)
        (kind,) = (t for t in get_args(optional) if t is not type(None))
        rows.append(SourceOption(keyword, kind, option))
    return tuple(rows)


#: Every source option, in the order the documentation lists them.
OPTIONS: tuple[SourceOption, ...] = _rows()

_BY_KEYWORD = {row.keyword: row for row in OPTIONS}


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
    options: dict[str, str] = {}
    for keyword, value in keywords.items():
        row = _BY_KEYWORD.get(keyword)
        if row is None:
            near = difflib.get_close_matches(keyword, _BY_KEYWORD, n=1)
            hint = f" Did you mean {near[0]!r}?" if near else ""
            raise TypeError(
                f"{caller}() got an unexpected keyword argument {keyword!r}.{hint} "
                f"Known: {', '.join(_BY_KEYWORD)}."
            )
        if value is None:
            continue
        # bool is a subclass of int, but True is no row count; a float keyword takes an int too.
        accepted = (int, float) if row.kind is float else row.kind
        if not isinstance(value, accepted) or isinstance(value, bool):
            raise TypeError(
                f"{caller}: {keyword} must be {row.kind.__name__} or None, "
                f"got {type(value).__name__} {value!r}"
            )
        options[row.name] = str(value)
    return options
