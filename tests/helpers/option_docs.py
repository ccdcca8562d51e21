"""The lines ``make options`` writes from the table of options and the guides, so that a new option
is a row of the table and a row of its guide, and nothing else that lists options
(``docs/development.md``, "Adding an option"):

- each provider's Scaladoc list of options, after its ``Options (`` line: one bullet per row of
  its guide's option table (the README for the random strings, ``docs/nexmark.md``,
  ``docs/change-streams.md``), which ``tests/test_option_docs.py`` holds to the table;
- the keyword ``TypedDict`` s of the Python engine (``read_random_strings``', ``read_nexmark``'s,
  ``read_changes``' and the change oracles'): one hint per row of the table, typed by its kind.

``python -m helpers.option_docs --write`` (from ``tests/``) writes them; ``tests/test_option_docs.py``
fails while any is stale, naming the file and the command.
"""

from __future__ import annotations

import argparse
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from helpers.support import REPO
from spark_random_strings.options.table import KINDS, SOURCES, Option

PROVIDERS = REPO / "jvm/src/main/scala/io/github/sparkrandomstrings"
PACKAGE = REPO / "python/src/spark_random_strings"
#: The command that writes the generated lines, as the stale-file message names it.
COMMAND = "make options"


@dataclass(frozen=True)
class SourceDocs:
    """Where a source's options are documented, besides the table."""

    #: Its key in table.json's sources.
    source: str
    #: The page whose "## Options" section holds its option table.
    guide: Path
    #: The Scala file of its provider, whose Scaladoc lists its options.
    provider: Path


DOCS = (
    SourceDocs("InMemoryRandomStrings", REPO / "README.md", PROVIDERS / "RandomStringsSourceProvider.scala"),
    SourceDocs("nexmark", REPO / "docs/nexmark.md", PROVIDERS / "nexmark/NexmarkSourceProvider.scala"),
    SourceDocs("changes", REPO / "docs/change-streams.md", PROVIDERS / "changes/ChangesSourceProvider.scala"),
)


def guide_rows(page: Path) -> list[dict[str, str]]:
    """The rows of the first table in ``page``'s "## Options" section, each by its column's
    heading (``option``, ``default``, ...), every cell as written (backticks kept)."""
    section = page.read_text().split("\n## Options\n", 1)[1].split("\n## ", 1)[0]
    lines = section[section.index("\n|") + 1 :].split("\n\n", 1)[0].splitlines()

    def cells(line: str) -> list[str]:
        return [cell.strip() for cell in line.strip().strip("|").split("|")]

    heading, rule, *rows = lines
    assert set(rule) <= set("|-: "), f"{page.name}: no table under '## Options'"
    named = [dict(zip(cells(heading), cells(row), strict=True)) for row in rows]
    assert all("option" in row and "default" in row for row in named), cells(heading)
    return named


#: A Markdown link: its text, and the page (none for the guide's own) and section it leads to.
LINK = re.compile(r"\[([^\]]+)\]\(([^)#]*)(#[^)]*)?\)")


def _link(link: re.Match[str], guide: Path) -> str:
    """A link as a Scaladoc says it: the page it leads to, and the section's title on the guide."""
    if not link.group(2):
        return f'{guide.relative_to(REPO)}, "{link.group(1)}"'
    page = link.group(2) if "/" in link.group(2) else f"docs/{link.group(2)}"
    return page if link.group(1) == link.group(2) else f'{page}, "{link.group(1)}"'


def _sentence(text: str, guide: Path) -> str:
    """Markdown text of ``guide`` as a sentence of a Scaladoc: each link as the page and section
    it leads to, ending with a full stop."""
    plain = LINK.sub(lambda link: _link(link, guide), text).strip()
    return plain if plain.endswith((".", "?", "!")) else plain + "."


def scaladoc_bullets(page: Path) -> list[str]:
    """The Scaladoc list of ``page``'s option table: for each row, "`name` (default: ...): what it
    does", then what it allows where the table has that column, wrapped at 100 columns."""
    lines: list[str] = []
    for row in guide_rows(page):
        what = row.get("what it does") or row.get("meaning") or ""
        text = f"{row['option']} (default: {row['default'].replace('`', '')}): {_sentence(what, page)}"
        if row.get("allowed"):
            text += f" Allowed: {_sentence(row['allowed'], page)}"
        # A comparison stays with its number: "long >= 1" is never cut after ">=".
        lines += textwrap.wrap(
            re.sub(r"([<>]=?) ", "\\1\0", text),
            width=100,
            initial_indent=" *  - ",
            subsequent_indent=" *    ",
            break_long_words=False,
            break_on_hyphens=False,
        )
    return [line.replace("\0", " ") for line in lines]


def with_scaladoc_list(text: str, bullets: list[str], where: str) -> str:
    """``text``, a provider's source, with the bullets of its Scaladoc's "Options (" list replaced
    by ``bullets``: from the first bullet after that line to the Scaladoc's next empty line."""
    head = text.index("\n * Options (")
    first = text.index("\n *  - ", head)
    end = text.index("\n *\n", first)
    assert "\n */" not in text[head:end], f"{where}: the option list does not end with an empty ' *' line"
    return text[: first + 1] + "\n".join(bullets) + text[end:]


#: The line that opens a generated block of hints in a Python file.
HINTS_MARK = "    # Made from options/table.json by `make options`: edit the table, not these lines."


def hints(rows: list[Option]) -> list[str]:
    """One ``TypedDict`` hint per row: its keyword, its kind's type or None, and its name."""
    assert all(row.kind in KINDS for row in rows), [row.name for row in rows if row.kind not in KINDS]
    return [
        f'    {row.keyword}: Annotated[{KINDS[str(row.kind)].__name__} | None, "{row.name}"]' for row in rows
    ]


def with_hints(text: str, owner: str, lines: list[str], where: str) -> str:
    """``text``, a Python module, with the generated hints of class ``owner`` replaced by ``lines``:
    from the line after :data:`HINTS_MARK` in that class to the next empty line."""
    start = text.index(f"\nclass {owner}(")
    mark = text.index("\n" + HINTS_MARK + "\n", start)
    assert "\nclass " not in text[start + 1 : mark], f"{where}: class {owner} has no generated hints"
    first = mark + len(HINTS_MARK) + 2
    end = text.find("\n\n", first)
    end = len(text) if end < 0 else end
    return text[:first] + "\n".join(lines) + text[end:]


def _changes(shapes: bool) -> list[Option]:
    """The change source's rows of its oracles' keywords (they make rows; the seed is the oracles'
    own argument), or the rest."""
    return [row for row in SOURCES["changes"].rows if (row.shapes and row.name != "seed") == shapes]


#: Each Python module with generated hints: its classes, each with the rows it hints.
HINTS: dict[Path, dict[str, Callable[[], list[Option]]]] = {
    PACKAGE / "options/__init__.py": {"SourceKeywords": lambda: list(SOURCES["InMemoryRandomStrings"].rows)},
    PACKAGE / "nexmark/table.py": {"NexmarkKeywords": lambda: list(SOURCES["nexmark"].rows)},
    PACKAGE / "changes/keywords.py": {
        "ChangeDefinitionKeywords": lambda: _changes(True),
        "ChangeKeywords": lambda: _changes(False),
    },
}


def generated() -> dict[Path, str]:
    """Every file with generated lines, as ``make options`` would write it."""
    files: dict[Path, str] = {}
    for docs in DOCS:
        where = str(docs.provider.relative_to(REPO))
        files[docs.provider] = with_scaladoc_list(
            docs.provider.read_text(), scaladoc_bullets(docs.guide), where
        )
    for path, owners in HINTS.items():
        text = path.read_text()
        for owner, rows in owners.items():
            text = with_hints(text, owner, hints(rows()), str(path.relative_to(REPO)))
        files[path] = text
    return files


def stale() -> list[str]:
    """The files whose generated lines are not what the table and the guides make, relative to the
    repository."""
    return [str(path.relative_to(REPO)) for path, text in generated().items() if path.read_text() != text]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--write", action="store_true", help="write the stale files (else list them)")
    written = parser.parse_args().write
    for path, text in generated().items():
        if path.read_text() != text:
            print(("wrote " if written else "stale: ") + str(path.relative_to(REPO)))
            if written:
                path.write_text(text)


if __name__ == "__main__":
    main()
