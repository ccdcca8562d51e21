"""The source's options as the command's flags: one flag per option, read back into the source's
keywords, refused before Spark starts with the source's own message on the flag it names."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from spark_random_strings._reader import read_random_strings
from spark_random_strings._source_options import parse_options
from spark_random_strings.options import OPTIONS, SourceOption, first_named, renamed, source_options

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession


class UsageError(Exception):
    """A flag's value that the source rejected: reported in one line, exit status 2."""


def add_source_flags(
    parser: argparse.ArgumentParser,
    defaults: dict[str, Any] | None = None,
    **changed: dict[str, Any],
) -> None:
    """A flag for each source option; ``defaults`` are the command's own, which its help shows."""
    for row in OPTIONS:
        settings: dict[str, Any] = {"type": row.kind, "help": row.described, "metavar": row.option.metavar}
        if row.kind is bool:  # a switch: given, true; left out, the source's default
            settings = {"action": "store_const", "const": True, "help": row.described}
        if defaults and row.keyword in defaults:
            value = defaults[row.keyword]
            settings.update(default=value, help=f"{row.option.help} (default: {value})")
        settings.update(changed.get(row.keyword, {}))
        parser.add_argument(row.flag, dest=row.keyword, **settings)


def _keywords(args: argparse.Namespace) -> dict[str, Any]:
    """The source's keywords that the flags give."""
    keywords = {row.keyword: getattr(args, row.keyword) for row in OPTIONS}
    if args.command == "demo" and keywords["rate_profile"] is not None:
        # The demo's own rate yields to a profile (the two exclude each other).
        keywords["rows_per_second"] = None
    return keywords


def check_options(args: argparse.Namespace) -> None:
    """Refuse the flags' values before Spark starts, with the source's own message (the Python
    twin of the jar's checks): a UsageError on the flag of the option it names."""
    try:
        parse_options(source_options(_keywords(args)))
    except ValueError as error:
        raise usage_error(str(error)) from None


def open_stream(spark: SparkSession, args: argparse.Namespace) -> DataFrame:
    """The source with the flags given; a value the source rejects becomes a UsageError."""
    from pyspark.errors import IllegalArgumentException

    try:
        return read_random_strings(spark, engine=args.engine, **_keywords(args))
    except IllegalArgumentException as error:
        raise usage_error(str(error).strip().splitlines()[0]) from None


def usage_error(message: str) -> UsageError:
    """The source's message as a usage error of the flag of the option it names first (the one
    it is about: "Invalid value ... for option 'x'", "'lateByMs' is 5, but ..."), with each option
    it names called by its flag."""
    about = first_named(message)
    if about is None:
        return UsageError(message)
    # argparse's own form: "argument --flag: invalid value '-5': out of range. ...".
    text = renamed(message, _flag).replace(f" for {about.flag}: ", ": ", 1)
    return UsageError(f"argument {about.flag}: {text[0].lower()}{text[1:]}")


def _flag(row: SourceOption) -> str:
    return row.flag
