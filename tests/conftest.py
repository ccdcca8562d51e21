"""A local Spark session with the jar that the installed package bundles."""

from __future__ import annotations

import itertools
import os
import subprocess
from collections.abc import Iterator
from typing import Any, NoReturn

import pyspark
import pytest
from pyspark.sql import SparkSession

from helpers.jvm_options import ClassArchive, java_command, java_version_line, jvm_environment
from helpers.support import CLI, RunInProcess, StartedSpark
from spark_random_strings import cli, expected_rows, installed_spark
from spark_random_strings.engine import local as _local
from spark_random_strings.engine.local import local_session


def pytest_report_header() -> str:
    """The Spark and the Java this run tests, at the top of its output."""
    java = f"{java_version_line()} ({java_command()})"
    return f"pyspark {pyspark.__version__}, {installed_spark()}, on Java: {java}"


_class_archive = pytest.StashKey[ClassArchive | None]()


def pytest_configure(config: pytest.Config) -> None:
    """Before any JVM starts: the options of every Spark JVM the tests start (``jvm_options``),
    set by the controller for itself, its xdist workers and their children."""
    if hasattr(config, "workerinput"):
        return
    environment, config.stash[_class_archive] = jvm_environment()
    os.environ.update(environment)


def pytest_unconfigure(config: pytest.Config) -> None:
    archive = config.stash.get(_class_archive, None)
    if archive is not None:
        archive.wait()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """On an xdist worker under ``--dist loadgroup``, a test of an ``xdist_group`` carries its group
    in its node id: that is how the scheduler keeps a group on one worker. Where it does not
    (pytest 9.2.0 with pytest-xdist 3.8.0: pytest-dev/pytest-xdist#1386), each worker would make the
    group's module fixtures again (a Spark Connect server, a fresh environment, a run of every
    Nexmark query) and nothing would fail but the time: the test fails instead, before them."""
    if not (hasattr(item.config, "workerinput") and item.config.getoption("loadgroup", False)):
        return
    groups = sorted(
        {
            str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
            for mark in item.iter_markers("xdist_group")
        }
    )
    if groups and not item.nodeid.endswith("@" + "_".join(groups)):
        pytest.fail(
            f"--dist loadgroup does not keep the group {'_'.join(groups)} on one worker with pytest "
            f"{pytest.__version__}: pin a pytest whose node ids pytest-xdist can mark in "
            "python/constraints.txt (see its comment)",
            pytrace=False,
        )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow first, the rest in their usual order: with a few workers, a long test
    handed out last keeps one worker busy while the others have nothing left to run."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    # The helper puts the jar on spark.jars with configure_spark_with_random_strings.
    session = local_session("spark-random-strings pytest")
    yield session
    session.stop()


_names = itertools.count()


@pytest.fixture
def query_name() -> str:
    """A memory-sink table name no other test uses."""
    return f"random_strings_{next(_names)}"


@pytest.fixture(scope="session")
def expected_lines() -> list[str]:
    """What every example in examples/ prints: its stream (seed 42, ten rows of 4-8 letters),
    computed by ``expected_rows``, as "offset value length" lines."""
    rows = expected_rows(seed=42, start=0, end=10, min_length=4, max_length=8, charset="letters")
    return [f"{row['offset']} {row['value']} {row['length']}" for row in rows.to_pylist()]


@pytest.fixture
def in_process(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> RunInProcess:
    """Run the command's main function in this process, as ``run`` runs the command in a child:
    its exit status (argparse's SystemExit included) and what it printed. A command that would
    start a Spark session, or run a query, fails at once with StartedSpark."""

    def refuse(*_: Any, **__: Any) -> NoReturn:
        raise StartedSpark("the command went on to start a Spark session or a query")

    monkeypatch.setattr(_local, "local_session", refuse)
    for runner in ("_run_stream", "_run_write", "_run_demo"):
        monkeypatch.setattr(cli, runner, refuse)
    # argparse wraps the help to the terminal's width: 80 columns, as in a child whose output
    # is a pipe, also under `pytest -s` in a terminal.
    monkeypatch.setenv("COLUMNS", "80")

    def call(*args: str) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()
        try:
            status = cli.main(list(args))
        except SystemExit as exited:
            assert isinstance(exited.code, int), exited.code
            status = exited.code
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess([*CLI, *args], status, out, err)

    return call
