"""The wheel is all a Python user needs: installed into a brand-new virtual environment with
no access to this repository, it streams exact rows."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Iterable, Iterator
from email.parser import Parser
from pathlib import Path
from typing import Any

import numpy
import pyarrow
import pyspark
import pytest

from helpers.spark_lines import BUILDS, pyspark_bounds, scalas_by_line
from helpers.support import EXAMPLES, REPO, child_env, new_environment, pip_into, run_child
from spark_random_strings import expected_rows

VERSION = (REPO / "VERSION").read_text().strip()

# The wheel in a fresh environment: a child Python of its own. What it holds is checked once; what
# pip installs beside each line's pyspark, and which jar the package finds there, on every line.
pytestmark = [
    pytest.mark.processes,
    pytest.mark.slow,
    pytest.mark.xdist_group("fresh_python"),
]
#: The jars the wheel carries: one per Spark line and Scala version.
JARS = [f"spark_random_strings/jars/{build.jar_name(VERSION)}" for build in BUILDS]

# Run inside the fresh environment with `python -I`, in one process (one JVM start, not two):
# the Python example (argv[1]) as a user runs it, then the same stream as the test reads here. The
# last line is a JSON report of both.
SCRIPT = """
import contextlib, io, json, pathlib, runpy, sys, tempfile, traceback
import spark_random_strings
from pyspark.sql import SparkSession
from spark_random_strings import configure_spark_with_random_strings, jar_path, read_random_strings

printed, example_error = io.StringIO(), None
with contextlib.redirect_stdout(printed):
    try:
        runpy.run_path(sys.argv[1], run_name="__main__")  # it stops its session
    except BaseException:
        example_error = traceback.format_exc()

builder = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
spark = configure_spark_with_random_strings(builder).getOrCreate()
df = read_random_strings(spark, seed=9, total_rows=300, max_rows_per_trigger=100,
                         min_length=1, max_length=12, charset="unicode", num_partitions=3)
query = (df.writeStream.format("memory").queryName("fresh").trigger(availableNow=True)
         .option("checkpointLocation", tempfile.mkdtemp()).start())
query.awaitTermination()
rows = [list(r) for r in spark.sql("SELECT value, offset, length FROM fresh ORDER BY offset").collect()]
print(json.dumps({"package": spark_random_strings.__file__, "jar": str(jar_path()),
                  "version": spark_random_strings.__version__, "rows": rows,
                  "example": printed.getvalue().splitlines(), "example_error": example_error}))
spark.stop()
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `make test` built into dist/, or one built here from the package."""
    given = os.environ.get("SPARK_RANDOM_STRINGS_WHEEL")
    if given and Path(given).is_file():
        return Path(given)
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--quiet", "--wheel", "--outdir", str(out), str(REPO / "python")],
        check=True,
        capture_output=True,
    )
    return next(out.glob("*.whl"))


#: The test run's own installs that the fresh environment links to rather than unpacks again:
#: pyspark alone is 400 MB, whose unpacking took a minute and a half of a worker's time on
#: every Spark line; pip finds them installed, at the versions it is asked for.
LINKED = ("pyspark", "py4j", "numpy", "pyarrow")


def link_distributions(site_packages: Path, names: Iterable[str]) -> None:
    """Link each top-level entry (package, its libraries' folder, its metadata) of this Python's
    installs of ``names`` into ``site_packages``."""
    for name in names:
        distribution = importlib.metadata.distribution(name)
        tops = {Path(str(file)).parts[0] for file in distribution.files or []}
        for top in sorted(tops - {"..", "__pycache__"}):
            (site_packages / top).symlink_to(Path(str(distribution.locate_file(top))))


@pytest.fixture(scope="module")
def fresh_python(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A new virtual environment, outside the repository, with only the wheel installed (and
    the pyspark, numpy and pyarrow of this test run, linked there, so that the wheel is tried with
    the Spark line under test and the versions pinned for it)."""
    home = tmp_path_factory.mktemp("fresh")
    python = new_environment(home / "venv")
    site_packages = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    link_distributions(Path(site_packages), LINKED)
    subprocess.run(
        pip_into(
            python,
            str(wheel),
            f"pyspark=={pyspark.__version__}",
            f"numpy=={numpy.__version__}",
            f"pyarrow=={pyarrow.__version__}",
        ),
        check=True,
        cwd=home,
        env=child_env(),
        capture_output=True,
    )
    yield python


@pytest.fixture(scope="module")
def fresh_run(fresh_python: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What SCRIPT reported, run in the fresh environment's Python isolated (-I) from this one's
    settings, outside the repository."""
    done = run_child(
        [str(fresh_python), "-I", "-c", SCRIPT, str(EXAMPLES / "read_random_strings.py")],
        tmp_path_factory.mktemp("run"),
        PYSPARK_PYTHON=str(fresh_python),
        PYSPARK_DRIVER_PYTHON=str(fresh_python),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


@pytest.mark.every_jar
def test_the_wheel_holds_every_lines_jar_the_typing_marker_and_the_command(wheel: Path) -> None:
    assert wheel.name == f"spark_random_strings-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = Parser().parsestr(
            archive.read(f"spark_random_strings-{VERSION}.dist-info/METADATA").decode()
        )
        entry_points = archive.read(f"spark_random_strings-{VERSION}.dist-info/entry_points.txt").decode()
        manifests = []
        for name in JARS:
            with zipfile.ZipFile(archive.open(name)) as jar:
                manifests.append(jar.read("META-INF/MANIFEST.MF").decode())
    assert {*JARS, "spark_random_strings/py.typed"} <= names
    assert sorted(n for n in names if n.endswith(".jar")) == JARS
    assert metadata["Version"] == VERSION
    assert "spark-random-strings = spark_random_strings.cli:main" in entry_points
    for name, manifest in zip(JARS, manifests, strict=False):
        line = name.split("-spark")[1].split("_")[0]
        assert f"Implementation-Version: {VERSION}" in manifest
        assert f"Spark-Version: {line}." in manifest


def _and_joined(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def bundled_text() -> str:
    """The jars of spark-lines.txt as the package page says them, the lines that share their
    Scala versions together: "Spark 3.5 (Scala 2.12 and 2.13), 4.0 and 4.1 (Scala 2.13)"."""
    groups: list[tuple[list[str], list[str]]] = []
    for line, versions in scalas_by_line((build.line, build.scala_binary) for build in BUILDS).items():
        if groups and groups[-1][1] == versions:
            groups[-1][0].append(line)
        else:
            groups.append(([line], versions))
    return "Spark " + ", ".join(f"{_and_joined(lines)} (Scala {_and_joined(v)})" for lines, v in groups)


def test_the_metadata_and_the_package_page_state_the_supported_ranges_and_the_jars(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        metadata = Parser().parsestr(
            archive.read(f"spark_random_strings-{VERSION}.dist-info/METADATA").decode()
        )
    page = " ".join(str(metadata.get_payload()).split())
    assert page == " ".join((REPO / "python" / "README.md").read_text().split())
    assert metadata["Description-Content-Type"] == "text/markdown"
    # pyspark from the oldest line to the newest of spark-lines.txt, whose jars the wheel holds.
    oldest, past = pyspark_bounds()
    assert f"pyspark<{past},>={oldest}.0" in (metadata.get_all("Requires-Dist") or [])
    assert metadata["Requires-Python"] == ">=3.11"
    assert f"**Works with** pyspark {oldest} to {BUILDS[-1].line} and Python 3.11 or newer." in page
    assert f"**Bundles** one jar for each Spark line and Scala version: {bundled_text()}." in page
    assert f"**License:** {metadata['License-Expression']}." in page


def test_the_wheel_carries_the_license_text_and_names_it_in_its_metadata(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        metadata = Parser().parsestr(
            archive.read(f"spark_random_strings-{VERSION}.dist-info/METADATA").decode()
        )
        text = archive.read(f"spark_random_strings-{VERSION}.dist-info/licenses/LICENSE").decode()
    assert metadata["License-Expression"] == "Apache-2.0"
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert text == (REPO / "LICENSE").read_text()
    assert "Apache License\n                           Version 2.0, January 2004" in text


@pytest.mark.every_line
def test_a_fresh_environment_with_only_the_wheel_streams_exact_rows(
    fresh_python: Path, fresh_run: dict[str, Any]
) -> None:
    result = fresh_run
    venv = fresh_python.parent.parent
    # The package and its jar come from the fresh environment, not from this repository.
    assert Path(result["package"]).is_relative_to(venv)
    assert Path(result["jar"]).is_relative_to(venv)
    assert result["version"] == VERSION

    made = expected_rows(seed=9, start=0, end=300, min_length=1, max_length=12, charset="unicode")
    expected = [[row["value"], row["offset"], row["length"]] for row in made.to_pylist()]
    assert [row[1] for row in result["rows"]] == list(range(300))
    assert result["rows"] == expected


@pytest.mark.every_line
def test_the_python_example_runs_in_the_fresh_environment(
    fresh_run: dict[str, Any], expected_lines: list[str]
) -> None:
    assert fresh_run["example_error"] is None, fresh_run["example_error"]
    assert fresh_run["example"] == expected_lines
