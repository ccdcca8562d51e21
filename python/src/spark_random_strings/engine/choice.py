"""Which engine makes a stream: the jar's source on the JVM, or its Python data source in the
workers. Both sources (random strings, Nexmark) read through these: ``jar_stream``,
``python_stream``, and ``engine_stream``, which picks one for ``engine="auto"``."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Literal

from spark_random_strings.engine.jar import UnsupportedSparkError, jar_path
from spark_random_strings.options import NUM_PARTITIONS

if TYPE_CHECKING:
    from collections.abc import Callable

    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

    from spark_random_strings.engine.python_sources import TravellingDataSource

#: Which source a read takes: the jar's, the Python data source, or the jar's where the session has
#: it and the Python one where it does not.
Engine = Literal["auto", "jvm", "python"]
ENGINES: tuple[Engine, ...] = ("auto", "jvm", "python")


class SlowerEngineWarning(UserWarning):
    """``engine="auto"`` fell back to the Python data source, which is slower than the jar's."""


class SourceNotFoundError(RuntimeError):
    """The session has no ``InMemoryRandomStrings`` source: its jar is not on the class path."""


def engine_stream(
    spark: SparkSession,
    engine: str,
    caller: str,
    jar: Callable[[], DataFrame],
    python: Callable[[], DataFrame],
    fallback: str,
) -> DataFrame:
    """The stream of the ``engine`` chosen: ``jar()`` or ``python()``, or for ``"auto"`` the jar's
    where the session has it, else the Python one with a ``SlowerEngineWarning`` that says
    ``fallback`` and where the benchmark report compares the two.

    Raises:
        ValueError: ``engine`` is none of "auto", "jvm" and "python".
    """
    if engine not in ENGINES:
        raise ValueError(f"{caller}: engine is {engine!r}; allowed: 'auto', 'jvm' or 'python'.")
    if engine == "python":
        return python()
    try:
        return jar()
    except SourceNotFoundError:
        if engine == "jvm" or not _has_python_sources():
            raise
    warnings.warn(
        f"{fallback}, more slowly than the jar's source (docs/benchmarks.md compares them). Put the jar "
        "on the session (configure_spark_with_random_strings, or --jars on the server) for the jar's "
        "speed, or pass engine='python' to choose this one.",
        SlowerEngineWarning,
        stacklevel=3,
    )
    return python()


def jar_stream(
    spark: SparkSession,
    source: str,
    given: dict[str, str],
    schema: str | StructType | None = None,
    otherwise: str = "",
) -> DataFrame:
    """The jar's source ``source`` read with options ``given``: raises ``SourceNotFoundError``
    saying how to add the jar (and ``otherwise``, what else to do) if the session does not have it."""
    try:
        reader = spark.readStream.format(source).options(**given)
        df = (reader if schema is None else reader.schema(schema)).load()
        # Spark Connect analyses a plan only when asked: asking for the schema makes a bad
        # option fail here, as it does on a classic session.
        df.schema  # noqa: B018
    except Exception as error:
        if "[DATA_SOURCE_NOT_FOUND]" not in str(error):
            raise
        raise SourceNotFoundError(
            f"This Spark session has no {source} source: its jar is not on the class path. "
            "Build the session with configure_spark_with_random_strings(SparkSession.builder...), "
            f"run spark-submit with --jars {jar_path()}, or, for Spark Connect, start the "
            f"server with that --jars{otherwise}."
        ) from None
    return df


def pyspark_line() -> tuple[int, int]:
    """The Spark line of this pyspark, e.g. ``(4, 1)``."""
    import pyspark

    major, minor = pyspark.__version__.split(".")[:2]
    return int(major), int(minor)


def _has_python_sources() -> bool:
    """Whether this pyspark has Python streaming data sources (4.0 and later)."""
    return pyspark_line() >= (4, 0)


def python_stream(
    spark: SparkSession,
    data_source: Callable[[], type[TravellingDataSource]],
    given: dict[str, str],
    check: Callable[[], object],
    schema: str | StructType | None = None,
) -> DataFrame:
    """The Python data source that ``data_source()`` gives (imported only on a pyspark that has
    Python data sources), registered and read with options ``given``, once ``check()`` passes
    them (here too, so that a bad option reads as the jar's does, not as a Python worker's
    traceback), with the session's default parallelism for ``numPartitions`` if not given.

    Raises:
        UnsupportedSparkError: this pyspark has no Python streaming data sources (before 4.0).
        pyspark.errors.IllegalArgumentException: ``check()`` refused an option.
    """
    if not _has_python_sources():
        import pyspark

        raise UnsupportedSparkError(
            f"engine='python' needs Spark 4.0 or later, whose pyspark has Python streaming data "
            f"sources; this is pyspark {pyspark.__version__}. Use the jar's source (engine='jvm')."
        )
    from pyspark.errors import IllegalArgumentException

    from spark_random_strings.engine.python_sources import register

    try:
        check()
    except ValueError as error:
        raise IllegalArgumentException(message=str(error)) from None
    if not any(name.lower() == NUM_PARTITIONS.lower() for name in given):
        # The jar's sources default to the session's default parallelism; a Python reader cannot
        # ask the session, so it is told.
        given = {**given, NUM_PARTITIONS: str(default_parallelism(spark))}
    source = data_source()
    register(spark, source)
    reader = spark.readStream.format(source.name()).options(**given)
    return (reader if schema is None else reader.schema(schema)).load()


def default_parallelism(spark: SparkSession) -> int:
    """The session's default parallelism: what the jar's source takes for ``numPartitions``.

    A Spark Connect client has no ``SparkContext`` to ask; there it is the partition count of a
    range read with no count given (Spark's leaf-node default parallelism, the same number
    unless ``spark.sql.leafNodeDefaultParallelism`` is set), found by one small job.
    """
    from pyspark.errors import PySparkException

    try:
        return int(spark.sparkContext.defaultParallelism)
    except PySparkException:  # Spark Connect: no SparkContext on the client
        from pyspark.sql import functions as F

        # Every partition of a range at least as long as the partition count holds rows.
        ids = spark.range(1 << 20).select(F.spark_partition_id().alias("partition"))
        top = ids.agg(F.max("partition")).first()
        return int(top[0]) + 1 if top is not None else 1
