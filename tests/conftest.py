"""A local Spark session with the jar that the installed package bundles."""

from __future__ import annotations

import itertools
from typing import Iterator

import pytest
from pyspark.sql import SparkSession

from spark_random_strings._local import local_session


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
