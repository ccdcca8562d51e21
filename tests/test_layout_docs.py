"""The two pages that map the code stay whole as files are added or split: every module of the
Python package is named in docs/development.md (its layout, or the table of Scala files and their
Python twins), and every Scala source file in the table of docs/design.md."""

from __future__ import annotations

import re

from helpers.support import REPO

PACKAGE = REPO / "python" / "src" / "spark_random_strings"
SCALA = REPO / "jvm" / "src" / "main"


def code_names(page: str) -> set[str]:
    """The texts in backticks on a docs page, each also without a folder before it
    (``nexmark/NexmarkSource.scala`` names ``NexmarkSource.scala``)."""
    quoted = re.findall(r"`([^`\n]+)`", (REPO / "docs" / page).read_text())
    return set(quoted) | {name.rpartition("/")[2] for name in quoted}


def test_every_python_module_is_named_in_the_development_guide() -> None:
    named = code_names("development.md")
    missing = sorted(path.name for path in PACKAGE.glob("*.py") if path.name not in named)
    assert missing == [], f"docs/development.md names no {missing}: add them to its Layout or twin table"


def test_every_scala_source_file_is_named_in_the_design_notes() -> None:
    named = code_names("design.md")
    files = {path.name for path in SCALA.rglob("*.scala")}
    # The nexmark row names its files by their classes: `NexmarkSource` for NexmarkSource.scala.
    missing = sorted(name for name in files if name not in named and name.removesuffix(".scala") not in named)
    assert missing == [], f"docs/design.md names no {missing}: add them to its table of files"
