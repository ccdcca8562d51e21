"""A local Spark session with the jar that the installed package bundles."""

from __future__ import annotations

import itertools
from typing import Iterator

import pytest
from pyspark.sql import SparkSession

from spark_random_strings import configure_spark_with_random_strings


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    builder = (
        SparkSession.builder.master("local[2]")
        .appName("spark-random-strings pytest")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
    )
    session = configure_spark_with_random_strings(builder).getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


_names = itertools.count()


@pytest.fixture
def query_name() -> str:
    """A memory-sink table name no other test uses."""
    return f"random_strings_{next(_names)}"
