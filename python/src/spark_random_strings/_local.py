"""A local Spark session with the bundled jar, for the demo and the tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spark_random_strings._reader import configure_spark_with_random_strings

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


def local_session(app_name: str, *, cores: int = 2, log_level: str = "ERROR") -> "SparkSession":
    """Start (or get) a ``local[cores]`` session with the jar on ``spark.jars`` and no web UI."""
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName(app_name)
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", str(cores))
    )
    session = configure_spark_with_random_strings(builder).getOrCreate()
    session.sparkContext.setLogLevel(log_level)
    return session
