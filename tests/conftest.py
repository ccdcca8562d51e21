"""A local Spark session with the jar that the installed package bundles."""

from __future__ import annotations

import itertools
import os
import subprocess
from collections.abc import Iterator

import pyspark
import pytest
from pyspark.sql import SparkSession

from spark_random_strings import expected_rows, installed_spark
from spark_random_strings._local import local_session


def pytest_report_header() -> str:
    """The Spark and the Java this run tests, at the top of its output."""
    java = os.path.join(os.environ["JAVA_HOME"], "bin", "java") if os.environ.get("JAVA_HOME") else "java"
    version = subprocess.run([java, "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    return f"pyspark {pyspark.__version__}, {installed_spark()}, on Java: {version} ({java})"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow first, the rest in their usual order: with two workers, a long test
    handed out last keeps one worker busy while the other has nothing left to run."""
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
