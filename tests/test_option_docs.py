"""Each source's options are documented twice besides ``options/table.json``: in a table of its
guide (the README for the random strings, ``docs/nexmark.md``, ``docs/change-streams.md``) and in
the list its provider's Scaladoc opens with "Options (". Both name the table's options, no other,
in the table's order, each with the table's default; the change guide's keywords are the table's
too. One reader of each kind serves all three sources. The Scaladoc lists and the Python engine's
keyword hints are made from the guides and the table (``helpers.option_docs``, ``make options``),
and a test fails while any is stale."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest

from helpers.option_docs import COMMAND, DOCS, SourceDocs, guide_rows, stale
from helpers.support import REPO
from spark_random_strings.options.table import SOURCES

BY_SOURCE = pytest.mark.parametrize("docs", DOCS, ids=[docs.source for docs in DOCS])


def guide_table(page: Path) -> list[dict[str, str]]:
    """The rows of the first table in ``page``'s "## Options" section, each by its column's
    heading (``option``, ``default``, ...), every cell stripped of its backticks."""
    return [{column: cell.replace("`", "") for column, cell in row.items()} for row in guide_rows(page)]


def guide_options(page: Path) -> list[tuple[str, str]]:
    """Each option of ``page``'s option table, in its order, with the default it states."""
    return [(row["option"], row["default"]) for row in guide_table(page)]


#: A bullet's head in a Scaladoc's option list: one or more "`name` (...)", joined by ", ", then
#: ": ". A bullet of anything else (`fields.<column>.<property>`) names no option of the table.
HEAD = re.compile(r"((?:`\w+` \([^)]*\)(?:, )?)+): ")
ENTRY = re.compile(r"`(\w+)` \(([^)]*)\)")
#: What an entry's parentheses hold: an example (the random strings'), then its default.
DEFAULT = re.compile(r"(?:e\.g\. [^,]+, )?default: (.+)")


def scaladoc_options(provider: Path) -> list[tuple[str, str]]:
    """Each option the provider's Scaladoc lists after "Options (", in its order, with the default
    it states (``<no default stated>`` where its parentheses give none)."""
    text = provider.read_text()
    assert "\n * Options (" in text, f"{provider.name}: no option list"
    listing = text.split("\n * Options (", 1)[1].split("\n *\n", 1)[0]
    # One line per bullet: its continuation lines joined on.
    bullets = re.sub(r"\n \*    +", " ", listing).split("\n *  - ")[1:]
    entries = []
    for bullet in bullets:
        head = HEAD.match(bullet)
        for name, parenthesis in ENTRY.findall(head.group(1) if head else ""):
            default = DEFAULT.fullmatch(parenthesis)
            entries.append((name, default.group(1) if default else "<no default stated>"))
    return entries


def table_options(source: str) -> list[tuple[str, str]]:
    """The source's options in table.json's order, each with its default as the docs state it."""
    return [(row.name, row.default) for row in SOURCES[source].rows]


def diff(listed: list[tuple[str, str]], expected: list[tuple[str, str]], where: str) -> str:
    """A unified diff from what table.json says to what ``where`` lists, one option a line."""
    lines = difflib.unified_diff(
        [f"{name}: {default}" for name, default in expected],
        [f"{name}: {default}" for name, default in listed],
        "table.json",
        where,
        lineterm="",
    )
    return "\n".join(lines)


@BY_SOURCE
def test_each_guides_option_table_lists_the_tables_options_in_its_order_with_its_defaults(
    docs: SourceDocs,
) -> None:
    listed, expected = guide_options(docs.guide), table_options(docs.source)
    assert listed == expected, diff(listed, expected, str(docs.guide.relative_to(REPO)))


@BY_SOURCE
def test_each_providers_scaladoc_lists_the_tables_options_in_its_order_with_its_defaults(
    docs: SourceDocs,
) -> None:
    listed, expected = scaladoc_options(docs.provider), table_options(docs.source)
    assert listed == expected, diff(listed, expected, str(docs.provider.relative_to(REPO)))


def test_the_change_guides_option_table_gives_each_option_the_tables_keyword() -> None:
    rows = guide_table(REPO / "docs/change-streams.md")
    assert [(row["option"], row["keyword"]) for row in rows] == [
        (row.name, row.keyword) for row in SOURCES["changes"].rows
    ]


def test_the_scaladoc_reader_takes_grouped_entries_and_reports_a_missing_default(tmp_path: Path) -> None:
    provider = tmp_path / "Provider.scala"
    provider.write_text(
        "/**\n"
        " * Options (case-insensitive):\n"
        " *  - `a` (e.g. 5, default: 1): the first.\n"
        " *  - `b` (default: none; not on a stream), `c` (2): the next two,\n"
        " *    told on two lines.\n"
        " *  - `d` (default: 0) or `e`: not an entry of the list's form.\n"
        " *  - `fields.<column>.<property>`: no option of the table.\n"
        " *\n"
        " * `f` (default: 3): after the list.\n"
        " */\n"
    )
    assert scaladoc_options(provider) == [
        ("a", "1"),
        ("b", "none; not on a stream"),
        ("c", "<no default stated>"),
    ]


def test_the_scaladoc_lists_and_the_keyword_hints_are_what_the_guides_and_the_table_make() -> None:
    assert stale() == [], f"run `{COMMAND}`: these files list options the table or a guide no longer says"
