"""The Python entry points: put the jar on a session, and read the stream."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spark_random_strings._jar import jar_path

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

#: The source's short name, as given to ``spark.readStream.format``.
FORMAT = "InMemoryRandomStrings"


class SourceNotFoundError(RuntimeError):
    """The session has no ``InMemoryRandomStrings`` source: its jar is not on the class path."""


# Keyword of read_random_strings -> (the source's option name, the Python type it takes).
_OPTIONS: dict[str, tuple[str, type[int | str]]] = {
    "rows_per_second": ("rowsPerSecond", int),
    "min_length": ("minLength", int),
    "max_length": ("maxLength", int),
    "charset": ("charset", str),
    "alphabet": ("alphabet", str),
    "seed": ("seed", int),
    "num_partitions": ("numPartitions", int),
    "max_rows_per_trigger": ("maxRowsPerTrigger", int),
    "total_rows": ("totalRows", int),
}


def configure_spark_with_random_strings(
    builder: SparkSession.Builder,
) -> SparkSession.Builder:
    """Add the bundled jar to ``spark.jars`` of a session builder, keeping jars already set.

    The jar is the one built for the Spark that pyspark runs here (:func:`jar_path`). Call it
    before ``getOrCreate()``: the jar must be on the session from its start.

    >>> from pyspark.sql import SparkSession
    >>> builder = SparkSession.builder.master("local[2]").config("spark.jars", "/opt/other.jar")
    >>> spark = configure_spark_with_random_strings(builder).getOrCreate()  # doctest: +SKIP
    >>> spark.conf.get("spark.jars")  # doctest: +SKIP
    '/opt/other.jar,/.../spark_random_strings/jars/spark-random-strings-spark4.3_2.13-0.1.0.jar'

    Args:
        builder: a ``SparkSession.builder``, configured as you like.

    Returns:
        The same builder, with the jar appended to ``spark.jars``.

    For Spark Connect, the jar belongs on the server instead: start it with
    ``--jars`` and the path that :func:`jar_path` returns.

    Raises:
        TypeError: ``builder`` is not a ``SparkSession.Builder``.
        ValueError: ``builder`` connects to a Spark Connect server (``remote("sc://...")``),
            whose class path a client cannot change.
        UnsupportedSparkError: no bundled jar is built for the Spark that pyspark runs here.
        FileNotFoundError: the package holds no jar (see :func:`jar_path`).
    """
    from pyspark.sql import SparkSession

    if not isinstance(builder, SparkSession.Builder):
        raise TypeError(
            "configure_spark_with_random_strings expects a SparkSession.Builder (for example "
            f"SparkSession.builder.master('local[2]')), got {type(builder).__name__}"
        )
    ours = str(jar_path())
    # pyspark keeps a builder's settings in ``_options``; it has no public getter for them.
    settings = getattr(builder, "_options", {})
    remote = str(settings.get("spark.remote") or "")
    if remote.startswith("sc://"):
        raise ValueError(
            f"This builder connects to the Spark Connect server {remote}, and a client cannot add "
            "jars to a server: start the server with the jar instead, for example "
            "`spark-submit --class org.apache.spark.sql.connect.service.SparkConnectServer "
            f"--jars {ours}`."
        )
    existing = str(settings.get("spark.jars") or "")
    jars = [jar.strip() for jar in existing.split(",") if jar.strip()]
    if ours not in jars:
        jars.append(ours)
    return builder.config("spark.jars", ",".join(jars))


def read_random_strings(
    spark: SparkSession,
    *,
    rows_per_second: int | None = None,
    min_length: int | None = None,
    max_length: int | None = None,
    charset: str | None = None,
    alphabet: str | None = None,
    seed: int | None = None,
    num_partitions: int | None = None,
    max_rows_per_trigger: int | None = None,
    total_rows: int | None = None,
) -> DataFrame:
    """Return a streaming DataFrame of random strings from the ``InMemoryRandomStrings`` source.

    Columns: ``value`` (string), ``ts`` (event time, epoch ms), ``offset`` (the row's position
    in the stream) and ``length`` (of ``value``, in characters). Every keyword mirrors the
    source option of the same name; ``None`` leaves the source's default.

    >>> df = read_random_strings(spark, rows_per_second=100, min_length=5, max_length=10,
    ...                          charset="hex", seed=42)  # doctest: +SKIP
    >>> query = df.writeStream.format("console").start()  # doctest: +SKIP

    Args:
        spark: a session whose ``spark.jars`` holds the jar
            (see :func:`configure_spark_with_random_strings`).
        rows_per_second: rows made available per second (default 10).
        min_length: the shortest string, in characters (default 0).
        max_length: the longest string, in characters (default 4, at most 1,048,576).
        charset: ``alphanumeric`` (default), ``letters``, ``digits``, ``hex``, ``ascii`` or
            ``unicode``.
        alphabet: the characters to draw from, each distinct one once; wins over ``charset``.
        seed: the seed of every row (default: drawn once and kept in the checkpoint).
        num_partitions: partitions per batch (default: the session's default parallelism).
        max_rows_per_trigger: the most rows one micro-batch reads (default: no limit).
        total_rows: end the stream after this many rows (default: endless).

    It works on a classic session and on a Spark Connect session alike (there, the server
    needs the jar).

    Returns:
        A streaming DataFrame (``df.isStreaming`` is ``True``).

    Raises:
        TypeError: a keyword has the wrong Python type (raised before Spark is asked).
        pyspark.errors.IllegalArgumentException: a value is out of range; the message names
            the option, the value and what is allowed.
        SourceNotFoundError: the session does not have the source's jar.
    """
    arguments = locals()
    options: dict[str, str] = {}
    for keyword, (option, expected) in _OPTIONS.items():
        value = arguments[keyword]
        if value is None:
            continue
        # bool is a subclass of int, but True is no row count.
        if not isinstance(value, expected) or isinstance(value, bool):
            raise TypeError(
                f"read_random_strings: {keyword} must be {expected.__name__} or None, "
                f"got {type(value).__name__} {value!r}"
            )
        options[option] = str(value)
    try:
        df = spark.readStream.format(FORMAT).options(**options).load()
        # Spark Connect analyses a plan only when asked: asking for the schema makes a bad
        # option fail here, as it does on a classic session.
        df.schema  # noqa: B018
    except Exception as error:
        if "[DATA_SOURCE_NOT_FOUND]" not in str(error):
            raise
        raise SourceNotFoundError(
            f"This Spark session has no {FORMAT} source: its jar is not on the class path. "
            "Build the session with configure_spark_with_random_strings(SparkSession.builder...), "
            f"run spark-submit with --jars {jar_path()}, or, for Spark Connect, start the "
            "server with that --jars."
        ) from None
    return df
