"""The ``InMemoryRandomStrings`` Spark Structured Streaming source, from Python.

The package carries the source's jar. Put it on a session with
[`configure_spark_with_random_strings`][spark_random_strings.configure_spark_with_random_strings],
then read the stream with [`read_random_strings`][spark_random_strings.read_random_strings]:

    from pyspark.sql import SparkSession
    from spark_random_strings import configure_spark_with_random_strings, read_random_strings

    builder = SparkSession.builder.master("local[2]")
    spark = configure_spark_with_random_strings(builder).getOrCreate()
    df = read_random_strings(spark, rows_per_second=100, max_length=8, seed=42)

[`expected_rows`][spark_random_strings.expected_rows] computes any rows of a stream without Spark,
and [`stream_definition`][spark_random_strings.stream_definition] reads a query's stream from its
checkpoint, so that a test can assert exactly what the query read.

Where no jar can be added (a Spark Connect server one does not control), ``read_random_strings``
reads the same stream from a Python data source (Spark 4.0+) whose code travels with the client:
``engine="python"``, or ``"auto"``, the default, when the session has no jar.

[`read_nexmark`][spark_random_strings.read_nexmark] reads the jar's second source, ``nexmark``: the
Nexmark benchmark's events, identical to Apache Beam's reference generator
([`spark_random_strings.nexmark`][spark_random_strings.nexmark]); it has a Python data source
too, with the same ``engine`` choice.

[`read_changes`][spark_random_strings.read_changes] reads the jar's third source, ``changes``: a
change stream of inserts, updates and deletes over a keyspace, in a declared schema;
[`expected_changes`][spark_random_strings.expected_changes] computes its rows without Spark, and
[`expected_table`][spark_random_strings.expected_table] the table after any number of them, without
replay, and [`expected_history`][spark_random_strings.expected_history] that table's history (SCD
type 2), for a test of a pipeline that applies the feed to assert against.
"""

from __future__ import annotations

from importlib.metadata import version as _installed_version

from spark_random_strings.changes.expected import expected_changes, expected_history, expected_table
from spark_random_strings.changes.read import read_changes
from spark_random_strings.engine.choice import Engine, SlowerEngineWarning, SourceNotFoundError
from spark_random_strings.engine.jar import (
    SparkBuild,
    UnsupportedSparkError,
    bundled_jars,
    installed_spark,
    jar_path,
)
from spark_random_strings.engine.session import configure_spark_with_random_strings
from spark_random_strings.nexmark import (
    NexmarkKeywords,
    nexmark_answers,
    nexmark_events,
    nexmark_views,
    read_nexmark,
)
from spark_random_strings.options import FORMAT, PYTHON_FORMAT
from spark_random_strings.strings.expected import StreamDefinitionKeywords, expected_rows, stream_definition
from spark_random_strings.strings.read import read_random_strings

__all__ = [
    "FORMAT",
    "PYTHON_FORMAT",
    "Engine",
    "NexmarkKeywords",
    "SlowerEngineWarning",
    "SourceNotFoundError",
    "SparkBuild",
    "StreamDefinitionKeywords",
    "UnsupportedSparkError",
    "bundled_jars",
    "configure_spark_with_random_strings",
    "expected_changes",
    "expected_history",
    "expected_rows",
    "expected_table",
    "installed_spark",
    "jar_path",
    "nexmark_answers",
    "nexmark_events",
    "nexmark_views",
    "read_changes",
    "read_nexmark",
    "read_random_strings",
    "stream_definition",
]
#: The installed version, the same as the bundled jar's (both come from the VERSION file).
__version__ = _installed_version("spark-random-strings")
