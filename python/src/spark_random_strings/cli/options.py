"""The source's options as the command's flags: one flag per option, read back into the source's
keywords, refused before Spark starts with the source's own message on the flag it names."""

from __future__ import annotations

import argparse
import difflib
import re
from typing import TYPE_CHECKING, Any

from spark_random_strings.engine.choice import ENGINES
from spark_random_strings.options import (
    OPTIONS,
    OptionTable,
    SourceOption,
    first_named,
    renamed,
    source_options,
)
from spark_random_strings.rows.options import SourceOptions, parse_options
from spark_random_strings.strings.read import read_random_strings
from spark_random_strings.typed.fields.options import PREFIX, shown, split

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession


#: A per-column option as the source's messages name it: 'fields.<path>.<property>'.
_FIELD_OPTION = re.compile(r"'fields\.([^']*)'", re.IGNORECASE)
#: The reader's call that declares a schema, as the source's messages show it: .schema(...).
_SCHEMA_CALL = re.compile(r"\.schema\(([^)]*)\)")


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


def add_schema_flags(
    parser: argparse.ArgumentParser, default: str = "the random strings' value, ts, offset and length"
) -> None:
    """``--schema`` and the repeatable ``--field``: typed columns (docs/typed-columns.md); ``default``
    says what the columns are without ``--schema``."""
    parser.add_argument(
        "--schema",
        metavar="DDL",
        help='declare the columns and their types (typed columns), e.g. "id BIGINT NOT NULL, amount '
        f'DECIMAL(10,2)" (default: {default})',
    )
    parser.add_argument(
        "--field",
        dest="fields",
        action="append",
        default=[],
        metavar="PATH.PROPERTY=VALUE",
        help="how a declared column is made, the source's option fields.PATH.PROPERTY, e.g. "
        "--field user_id.min=1 --field user_id.distribution=zipf; repeatable, with --schema "
        "(default: each column's defaults)",
    )


def add_engine_flag(parser: argparse.ArgumentParser) -> None:
    """``--engine``: the jar's source, the Python data source, or the jar's where the session has it."""
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="the jar's source (jvm); the Python data source (python: Spark 4.0+, slower, no jar "
        "needed); or the jar's where the session has it, as here (default: auto)",
    )


def add_output_flags(
    parser: argparse.ArgumentParser, *, count_flag: str, unit: str, formats: tuple[str, ...]
) -> None:
    """``--output``, ``--format`` and ``--checkpoint`` of a command that shows a stream, or with
    ``--output`` writes exactly ``count_flag`` of its ``unit`` to files."""
    parser.add_argument(
        "--output",
        metavar="PATH",
        help=f"write the stream's {count_flag} {unit} to files in this folder instead of showing them, "
        "through a checkpointed query that the same command resumes (default: show them)",
    )
    parser.add_argument(
        "--format",
        dest="file_format",
        choices=formats,
        default=formats[0],
        help=f"with --output, the file format (default: {formats[0]})",
    )
    parser.add_argument(
        "--checkpoint",
        metavar="PATH",
        help="with --output, the query's checkpoint folder (default: PATH/_checkpoint under --output)",
    )


def field_options(args: argparse.Namespace) -> dict[str, str]:
    """The source's ``fields.`` options that the ``--field`` flags give (none for a command
    without them).

    Raises:
        UsageError: a ``--field`` is not ``PATH.PROPERTY=VALUE``.
    """
    options: dict[str, str] = {}
    for given in getattr(args, "fields", None) or []:
        name, equals, value = given.partition("=")
        if not equals or not name.strip():
            raise UsageError(
                f"argument --field: {given!r} is not PATH.PROPERTY=VALUE, e.g. --field user_id.min=1 "
                "or --field shipping.zip.pattern=[0-9]{5}"
            )
        options[f"{PREFIX}{name.strip()}"] = value
    return options


def _fields(options: dict[str, str]) -> dict[str, dict[str, object]]:
    """``field_options`` as ``read_random_strings``'s ``fields``: column path to properties."""
    fields: dict[str, dict[str, object]] = {}
    for name, value in options.items():
        path, property_name = split(name)  # parsed() has checked each name
        fields.setdefault(shown(path), {})[property_name] = value
    return fields


def _keywords(args: argparse.Namespace) -> dict[str, Any]:
    """The source's keywords that the flags give."""
    keywords = {row.keyword: getattr(args, row.keyword) for row in OPTIONS}
    if args.command == "demo" and keywords["rate_profile"] is not None:
        # The demo's own rate yields to a profile (the two exclude each other).
        keywords["rows_per_second"] = None
    return keywords


def parsed(args: argparse.Namespace) -> SourceOptions:
    """The flags as the source's options, parsed and checked as the source does at ``load()``.

    Raises:
        UsageError: on the flag of the option the source's message names.
    """
    try:
        return parse_options(
            source_options(_keywords(args)) | field_options(args), getattr(args, "schema", None)
        )
    except ValueError as error:
        raise usage_error(str(error), getattr(args, "schema", None) is not None) from None


def open_stream(spark: SparkSession, args: argparse.Namespace) -> DataFrame:
    """The source with the flags given; a value the source rejects becomes a UsageError."""
    from pyspark.errors import IllegalArgumentException

    try:
        return read_random_strings(
            spark,
            engine=args.engine,
            schema=getattr(args, "schema", None),
            fields=_fields(field_options(args)) or None,
            **_keywords(args),
        )
    except IllegalArgumentException as error:
        raise usage_error(
            str(error).strip().splitlines()[0], getattr(args, "schema", None) is not None
        ) from None


def usage_error(message: str, schema_given: bool = False, table: OptionTable | None = None) -> UsageError:
    """The source's message as a usage error of the flag of the option it names first (the one
    it is about: "Invalid value ... for option 'x'", "'lateByMs' is 5, but ..."), with each option
    it names called by its flag: a per-column option ``'fields.a.min'`` by ``--field a.min``, and
    ``.schema(...)`` by ``--schema``. A message that names no source option first is about a
    ``--field``, if it names one, or else about the ``--schema``, if one was given. The options
    are the random strings' unless ``table`` is another source's."""
    text = _FIELD_OPTION.sub(lambda m: f"--field {m.group(1)}".rstrip(), message)
    text = _SCHEMA_CALL.sub(lambda m: "--schema" + ("" if m.group(1) == "..." else f" {m.group(1)}"), text)
    about = first_named(message) if table is None else table.first_named(message)
    if about is None or _FIELD_OPTION.search(message.split(". ", 1)[0]):
        flag = "--schema" if _FIELD_OPTION.search(message) is None else "--field"
        return UsageError(text if flag == "--schema" and not schema_given else f"argument {flag}: {text}")
    # argparse's own form: "argument --flag: invalid value '-5': out of range. ...".
    text = (renamed(text, _flag) if table is None else table.renamed(text, _flag)).replace(
        f" for {about.flag}: ", ": ", 1
    )
    return UsageError(f"argument {about.flag}: {text[0].lower()}{text[1:]}")


def _flag(row: SourceOption) -> str:
    return row.flag


def unrecognized(unknown: list[str], command: argparse.ArgumentParser) -> str:
    """argparse's error for arguments it does not know, with the closest flag of the command
    suggested for a misspelt one (as read_random_strings suggests the closest keyword)."""
    flags = [flag for flag in command._option_string_actions if flag.startswith("--")]
    near = [
        (given, close[0])
        for given in unknown
        if given.startswith("--")
        and (close := difflib.get_close_matches(given.split("=", 1)[0], flags, n=1, cutoff=0.7))
    ]
    if len(near) == 1:
        hint = f". Did you mean {near[0][1]}?"
    else:
        hint = "".join(f"; {flag} for {given.split('=', 1)[0]}" for given, flag in near)
        hint = f". Did you mean{hint[1:]}?" if hint else ""
    return f"unrecognized arguments: {' '.join(unknown)}{hint}"
