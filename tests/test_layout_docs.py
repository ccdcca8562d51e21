"""The two pages that map the code stay whole as files are added, split or moved, and the rooms they
show are the rooms the code has: every module of the Python package is named in
docs/development.md by its path in the package, every Scala source file in docs/design.md, and
both sides' imports follow the table of rooms in docs/development.md (a room uses only the rooms
its row names, each further up the table)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers.support import REPO

PACKAGE = REPO / "python" / "src" / "spark_random_strings"
SCALA = REPO / "jvm" / "src" / "main"
JVM_PACKAGE = "io.github.sparkrandomstrings"
#: The room of what lies at the top of either side: the front door.
TOP = "top"


def code_names(page: str) -> set[str]:
    """The texts in backticks on a docs page, each also without a folder before it
    (``nexmark/NexmarkSource.scala`` names ``NexmarkSource.scala``)."""
    quoted = re.findall(r"`([^`\n]+)`", (REPO / "docs" / page).read_text())
    return set(quoted) | {name.rpartition("/")[2] for name in quoted}


def python_modules() -> list[Path]:
    """The package's modules, but the empty ``__init__.py`` of a room."""
    return sorted(p for p in PACKAGE.rglob("*.py") if p.name != "__init__.py" or p.read_text().strip())


def test_every_python_module_is_named_in_the_development_guide_by_its_path() -> None:
    quoted = set(re.findall(r"`([^`\n]+)`", (REPO / "docs" / "development.md").read_text()))
    missing = [
        str(p.relative_to(PACKAGE)) for p in python_modules() if str(p.relative_to(PACKAGE)) not in quoted
    ]
    assert missing == [], f"docs/development.md names no {missing}: add them to its Layout or twin table"


def test_every_scala_source_file_is_named_in_the_design_notes() -> None:
    named = code_names("design.md")
    files = {path.name for path in SCALA.rglob("*.scala")}
    # The nexmark row names its files by their classes: `NexmarkSource` for NexmarkSource.scala.
    missing = sorted(name for name in files if name not in named and name.removesuffix(".scala") not in named)
    assert missing == [], f"docs/design.md names no {missing}: add them to its table of files"


@dataclass(frozen=True)
class Room:
    """A row of the table of rooms."""

    name: str
    jvm: str | None
    python: str | None
    uses: frozenset[str]


def rooms() -> list[Room]:
    """The table of rooms in docs/development.md, from the bottom up."""
    page = (REPO / "docs" / "development.md").read_text()
    section = page.split("## Rooms", 1)[1].split("\n## ", 1)[0]
    table: list[Room] = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("room", "---"):
            continue
        name = cells[0].strip("`")
        uses = frozenset(re.findall(r"`([a-z]+)`", cells[4]))

        def package(cell: str) -> str | None:
            return None if cell == "none" else cell.strip("`")

        table.append(Room(name, package(cells[1]), package(cells[2]), uses))
    return table


def test_the_table_of_rooms_names_each_room_once_and_each_uses_only_rooms_further_up() -> None:
    table = rooms()
    names = [room.name for room in table]
    assert len(table) > 10 and len(set(names)) == len(names), names
    assert names[-1] == TOP
    for i, room in enumerate(table):
        below = set(names[:i])
        assert room.uses <= below, f"{room.name} uses {sorted(room.uses - below)}, which are not further up"


def test_the_rooms_on_disk_are_the_rooms_of_the_table() -> None:
    table = [room for room in rooms() if room.name != TOP]
    python = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    jvm = {p.name for p in (SCALA / "scala" / "io" / "github" / "sparkrandomstrings").iterdir() if p.is_dir()}
    assert python == {room.python for room in table if room.python}
    assert jvm == {room.jvm for room in table if room.jvm}
    assert all(room.python in (None, room.name) and room.jvm in (None, room.name) for room in table)


def python_uses(path: Path) -> set[str]:
    """The rooms a Python module imports from (its own left out)."""
    used: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "spark_random_strings" and len(parts) > 1 and (PACKAGE / parts[1]).is_dir():
                used.add(parts[1])
    return used


def room_of_python(path: Path) -> str:
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else TOP


def room_of_scala(path: Path, text: str) -> str | None:
    package = re.search(r"^package (\S+)", text, re.M)
    assert package, path
    if not package.group(1).startswith(JVM_PACKAGE):
        return None  # the one shim under org.apache.spark.sql
    rest = package.group(1)[len(JVM_PACKAGE) :].strip(".")
    return rest.split(".")[0] if rest else TOP


@pytest.mark.parametrize("side", ["python", "jvm"])
def test_each_file_imports_only_the_rooms_its_room_uses(side: str) -> None:
    table = {room.name: room for room in rooms()}
    wrong = []
    if side == "python":
        for path in python_modules():
            room = room_of_python(path)
            extra = python_uses(path) - {room} - table[room].uses
            wrong += [f"{path.relative_to(PACKAGE)} ({room}) uses {sorted(extra)}"] if extra else []
    else:
        for path in SCALA.rglob("*.scala"):
            text = path.read_text()
            jvm_room = room_of_scala(path, text)
            if jvm_room is None:
                continue
            used = set(re.findall(re.escape(JVM_PACKAGE) + r"\.([a-z]+)[.{]", text)) - {jvm_room}
            extra = used - table[jvm_room].uses
            wrong += [f"{path.name} ({jvm_room}) uses {sorted(extra)}"] if extra else []
    assert wrong == [], "imports the table of rooms does not allow: " + "; ".join(wrong)


def test_no_import_of_the_package_loops() -> None:
    """Between modules, not only rooms: type-only imports count, as a type lives in one room."""
    graph: dict[str, set[str]] = {}
    modules = {".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts): p for p in python_modules()}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                found |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
        graph[name] = {target for target in found if target in modules and target != name}

    def loop_from(start: str) -> list[str] | None:
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for target in graph[node]:
                if target == start:
                    return [*path, start]
                if target not in seen:
                    seen.add(target)
                    stack.append((target, [*path, target]))
        return None

    loops = [loop for name in graph if (loop := loop_from(name))]
    assert loops == [], f"import loops: {loops[:3]}"


def test_each_suite_sbt_runs_per_line_or_per_java_exists() -> None:
    """The suites that run on every line (sbt's ``perLineSuites``, beside those of the version
    folders) and on every Java (``javaRunSuites``, a part of them) are suites of these names: a
    misspelt name would leave a line without them, and nothing would fail."""
    build = (REPO / "project" / "SparkLineProjects.scala").read_text()
    named: dict[str, list[str]] = {}
    for key in ("perLineSuites", "javaRunSuites"):
        listed = re.search(rf"val {key}: Set\[String\] = Set\(([^)]*)\)", build)
        assert listed, f"project/SparkLineProjects.scala declares {key}"
        named[key] = re.findall(r'"([\w.]+)"', listed.group(1))
    assert len(named["perLineSuites"]) >= 5
    assert set(named["javaRunSuites"]) <= set(named["perLineSuites"])
    tests = REPO / "jvm" / "src" / "test" / "scala"
    for suite in named["perLineSuites"]:
        source = tests / (suite.replace(".", "/") + ".scala")
        assert source.is_file(), suite
        assert f"class {suite.rpartition('.')[2]} " in source.read_text(), suite
