"""The README shows only what the tests run: its code is excerpts of the example files, its
command-line examples run as they stand, and its file names carry the current version."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.spark_lines import BUILDS, DEFAULT_LINE
from helpers.support import EXAMPLES, REPO

README = (REPO / "README.md").read_text()
VERSION = (REPO / "VERSION").read_text().strip()


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", README, re.S | re.M)


def code_blocks() -> list[tuple[str, str]]:
    return [(language, block) for language in ("python", "scala") for block in blocks(language)]


@pytest.mark.parametrize(("language", "block"), code_blocks())
def test_each_code_block_is_an_excerpt_of_an_example_file(language: str, block: str) -> None:
    suffix = {"python": ".py", "scala": ".scala"}[language]
    sources = [path.read_text() for path in EXAMPLES.glob(f"*{suffix}")]
    assert any(block in source for source in sources), block


def test_the_file_names_and_coordinates_in_the_readme_and_examples_carry_the_current_version() -> None:
    text = README + "".join(path.read_text() for path in sorted(EXAMPLES.iterdir()) if path.is_file())
    versions = set(re.findall(r"spark_random_strings-([\d.]+)-py3", text))
    versions |= set(re.findall(r"spark-random-strings-spark[\d.]+_2\.1[23]-([\d.]+)\.jar", text))
    versions |= set(re.findall(r"spark-random-strings-spark[\d.]+_2\.1[23]:([\d.]+)", text))
    assert versions == {VERSION}


def shell_lines() -> list[str]:
    """Each command of the README's shell blocks, its continuation lines joined."""
    return [
        line for block in blocks("sh") for line in block.replace("\\\n", " ").splitlines() if line.strip()
    ]


#: The README's line that enters the environment `make demo` and `make test` set up.
(ACTIVATE,) = [line for line in shell_lines() if line.startswith("source ")]
CLI_COMMANDS = [line for line in shell_lines() if line.startswith("spark-random-strings ")]


def in_new_shell(script: str, cwd: Path = REPO, *, enter: bool = True) -> subprocess.CompletedProcess[str]:
    """Run ``script`` as the README's reader does: in a new bash, which has not entered the
    environment, from the project's folder, after the README's activation line (``enter``),
    then in ``cwd``."""
    venv_bin = str(Path(sys.executable).parent)
    dropped = ("SPARK_HOME", "PYTHONPATH", "VIRTUAL_ENV", "PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON")
    env = {key: value for key, value in os.environ.items() if key not in dropped}
    env["PATH"] = os.pathsep.join(path for path in env["PATH"].split(os.pathsep) if path != venv_bin)
    env["SPARK_LOCAL_IP"] = "127.0.0.1"  # loopback only, as every test's Spark
    steps = [ACTIVATE] if enter else []
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-c", " && ".join([*steps, f"cd {shlex.quote(str(cwd))}", script])],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.processes
def test_every_program_the_readme_runs_is_found_in_a_new_shell_once_it_entered_the_environment() -> None:
    programs = sorted({shlex.split(line, comments=True)[0] for line in shell_lines()} - {"source"})
    assert {"make", "pip", "python", "spark-submit", "spark-shell", "spark-random-strings"} <= set(programs)
    found = in_new_shell("; ".join(f"command -v {program}" for program in programs))
    assert found.returncode == 0, found.stderr
    where = dict(zip(programs, found.stdout.split(), strict=True))
    venv_bin = (REPO / ".venv" / "bin").resolve()
    assert {program: Path(path).parent.resolve() for program, path in where.items() if program != "make"} == {
        program: venv_bin for program in programs if program != "make"
    }
    # The package imports there, as the README's Connect example has it print the jar.
    jar = in_new_shell("""python -c 'import spark_random_strings as s; print(s.jar_path())'""")
    assert jar.returncode == 0, jar.stderr
    assert Path(jar.stdout.strip()).is_file()
    # Without the activation line, a new shell finds none of the package's commands.
    assert in_new_shell("command -v spark-random-strings", enter=False).returncode == 1


def test_the_readme_shows_both_commands() -> None:
    assert [shlex.split(line)[1] for line in CLI_COMMANDS] == ["stream", "write"]


@pytest.mark.slow
@pytest.mark.parametrize("line", CLI_COMMANDS)
@pytest.mark.processes
def test_each_command_line_example_runs_as_it_stands_in_a_new_shell(line: str, tmp_path: Path) -> None:
    done = in_new_shell(line, tmp_path)
    assert done.returncode == 0, done.stderr
    summary = done.stdout.strip().splitlines()[-1]
    if shlex.split(line)[1] == "write":
        assert summary.startswith("wrote 1,000,000 rows to strings as parquet (1,000,000 in this run, ")
        assert (tmp_path / "strings" / "_spark_metadata").is_dir()
    else:
        assert re.fullmatch(r"streamed [\d,]+ rows in \d+ batches over [\d.]+ s \([\d.,]+ rows/s\)", summary)


def test_the_compatibility_table_lists_each_build_of_spark_lines_txt_with_its_coordinates_and_javas() -> None:
    section = README.split("\n## Compatibility\n")[1].split("\n## ")[0]
    rows = re.findall(
        r"^\| (\d+\.\d+) \(([\d.]+)\)([^|]*)\| ([\d.]+) \| `([^`]+)` \| `([^`]+)` \| ([\d, ]+) \|",
        section,
        re.M,
    )
    assert [
        (line, spark, scala, jar, coordinates, javas)
        for line, spark, _, scala, jar, coordinates, javas in rows
    ] == [
        (
            b.line,
            b.spark,
            b.scala_binary,
            b.jar_name(VERSION),
            b.coordinates(VERSION),
            ", ".join(map(str, sorted(b.javas))),
        )
        for b in BUILDS
    ]
    assert [line for line, _, note, *_ in rows if "the default" in note] == [DEFAULT_LINE]


def test_the_changelog_lists_the_current_version_first_after_what_is_unreleased() -> None:
    changelog = (REPO / "CHANGELOG.md").read_text()
    sections = re.findall(r"^## (.+)$", changelog, re.M)
    released = sections[1:] if sections[0] == "Unreleased" else sections
    assert released[0] == VERSION, "the newest version listed is the one in VERSION"
    numbers = [tuple(map(int, s.split("."))) for s in released]
    assert numbers == sorted(numbers, reverse=True), "newest first"
