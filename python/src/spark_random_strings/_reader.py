"""The Python entry points: put the jar on a session, and read the stream."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Literal, Unpack

from spark_random_strings._field_options import flattened
from spark_random_strings._jar import UnsupportedSparkError, jar_path
from spark_random_strings._source_options import parse_options, python_real_time_error
from spark_random_strings.options import (
    FORMAT,
    NUM_PARTITIONS,
    PYTHON_FORMAT,
    SourceKeywords,
    SourceOption,
    keyword_args,
    renamed,
    source_options,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

#: The jar's ``SparkSessionExtensions``: they plan the source's batches as its own scan.
EXTENSIONS = "io.github.sparkrandomstrings.RandomStringsExtensions"


#: Which source ``read_random_strings`` reads: the jar's, the Python data source, or the jar's
#: where the session has it and the Python one where it does not.
Engine = Literal["auto", "jvm", "python"]
ENGINES: tuple[Engine, ...] = ("auto", "jvm", "python")

#: How many times faster the jar's source makes rows than the Python data source, in
#: ``make bench`` (docs/benchmarks.md: 5.8 times in 0.5.0's run, 7.9 in 0.6.0's, on another CPU):
#: the "auto" warning quotes it.
JVM_SPEEDUP = "5 to 8 times"


class SlowerEngineWarning(UserWarning):
    """``engine="auto"`` fell back to the Python data source, which is slower than the jar's."""


class SourceNotFoundError(RuntimeError):
    """The session has no ``InMemoryRandomStrings`` source: its jar is not on the class path."""


def configure_spark_with_random_strings(
    builder: SparkSession.Builder,
) -> SparkSession.Builder:
    """Add the bundled jar to ``spark.jars`` of a session builder, and its session extensions to
    ``spark.sql.extensions``, keeping what those settings hold already.

    The jar is the one built for the Spark that pyspark runs here
    ([`jar_path`][spark_random_strings.jar_path]). The extensions (``EXTENSIONS``) plan the source's
    batches as its own scan; a session started without them gets that scan from ``load()`` instead.
    Call it before ``getOrCreate()``: both must be on the session from its start.

    Examples:
        >>> from pyspark.sql import SparkSession
        >>> builder = SparkSession.builder.master("local[2]").config("spark.jars", "/opt/other.jar")
        >>> spark = configure_spark_with_random_strings(builder).getOrCreate()  # doctest: +SKIP
        >>> spark.conf.get("spark.jars")  # doctest: +SKIP
        '/opt/other.jar,/.../spark_random_strings/jars/spark-random-strings-spark4.3_2.13-0.5.0.jar'

    Args:
        builder: a ``SparkSession.builder``, configured as you like.

    Returns:
        The same builder, with the jar appended to ``spark.jars`` and the extensions to
        ``spark.sql.extensions``.

    For Spark Connect, the jar belongs on the server instead: start it with
    ``--jars`` and the path that [`jar_path`][spark_random_strings.jar_path] returns.

    Raises:
        TypeError: ``builder`` is not a ``SparkSession.Builder``.
        ValueError: ``builder`` connects to a Spark Connect server (``remote("sc://...")``),
            whose class path a client cannot change.
        UnsupportedSparkError: no bundled jar is built for the Spark that pyspark runs here.
        FileNotFoundError: the package holds no jar (see [`jar_path`][spark_random_strings.jar_path]).
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
    builder.config("spark.jars", _appended(settings.get("spark.jars"), ours))
    return builder.config("spark.sql.extensions", _appended(settings.get("spark.sql.extensions"), EXTENSIONS))


def _appended(setting: object, item: str) -> str:
    """A comma-separated setting with ``item`` at its end, once."""
    items = [each.strip() for each in str(setting or "").split(",") if each.strip()]
    if item not in items:
        items.append(item)
    return ",".join(items)


def read_random_strings(
    spark: SparkSession,
    *,
    engine: Engine = "auto",
    schema: str | StructType | None = None,
    fields: Mapping[str, Mapping[str, object]] | None = None,
    **options: Unpack[SourceKeywords],
) -> DataFrame:
    """Return a streaming DataFrame of random strings from the ``InMemoryRandomStrings`` stream.

    Columns: ``value`` (string), ``ts`` (event time, epoch ms), ``offset`` (the row's position
    in the stream) and ``length`` (of ``value``, in characters); or, with ``schema``, the
    declared columns, each made as ``fields`` says (typed columns, docs/typed-columns.md). Each
    keyword is a source option in snake_case
    ([`SourceKeywords`][spark_random_strings.options.SourceKeywords]); one left out, or ``None``,
    leaves the source's default.

    Examples:
        >>> df = read_random_strings(spark, rows_per_second=100, min_length=5, max_length=10,
        ...                          charset="hex", seed=42)  # doctest: +SKIP
        >>> query = df.writeStream.format("console").start()  # doctest: +SKIP

        Typed columns: a Zipf-skewed user id, an amount that is null in 5% of the rows, and the
        rows' event time.

        >>> orders = read_random_strings(
        ...     spark, seed=7, rows_per_second=1000,
        ...     schema="user_id INT NOT NULL, amount DECIMAL(10,2), at TIMESTAMP NOT NULL",
        ...     fields={"user_id": {"min": 1, "max": 1000, "distribution": "zipf"},
        ...             "amount": {"min": "0.50", "max": "999.99", "nullRate": 0.05},
        ...             "at": {"kind": "eventTime"}},
        ... )  # doctest: +SKIP

    Two engines make the same rows for the same seed and start time. The jar's source runs on the
    JVM and needs the jar in the session (or, for Spark Connect, on the server). The Python data
    source (Spark 4.0+) needs no jar and nothing of this package on the server: its code travels
    with the client, and the server's Python workers make the rows with numpy; it is several
    times slower (docs/benchmarks.md).

    Args:
        spark: a session, classic or Spark Connect.
        engine: ``"jvm"``: the jar's source (``InMemoryRandomStrings``); ``"python"``: the Python
            data source (``InMemoryRandomStringsPython``); ``"auto"`` (the default): the jar's
            where the session has it, else the Python one, with a ``SlowerEngineWarning``.
        schema: the columns to make (typed columns, docs/typed-columns.md): a DDL string such as
            ``"id BIGINT NOT NULL, amount DECIMAL(10,2)"`` or a ``StructType``, of BOOLEAN,
            TINYINT to BIGINT, FLOAT, DOUBLE, DECIMAL, STRING, BINARY, DATE, TIMESTAMP,
            TIMESTAMP_NTZ, and ARRAY and STRUCT of them; ``None`` (the default) for the random
            strings' own columns. With a schema, the keywords of those columns (``min_length``,
            ``max_length``, ``charset``, ``alphabet``, ``distinct_values``,
            ``value_distribution``, ``zipf_exponent``, ``timestamp_column``) are refused: give
            them per column.
        fields: with ``schema``, how each column is made: column path to its properties, e.g.
            ``{"user_id": {"min": 1, "max": 1000, "distribution": "zipf"}, "tags.element":
            {"values": ["gift", "express"]}}``, each the option ``fields.<path>.<property>``. A
            path is written as in the option's name (``"shipping.zip"``, ``"tags.element"``,
            backticks around a name with a dot); a value becomes the option's text: a list or
            tuple its JSON, a boolean ``true`` or ``false``, anything else its ``str()``.
            docs/typed-columns.md lists every property, where it applies and its default.
        **options: the source options, listed under "Keyword Args" from
            [`OPTIONS`][spark_random_strings.options.OPTIONS].

    Returns:
        A streaming DataFrame (``df.isStreaming`` is ``True``).

    Raises:
        TypeError: a keyword is unknown or has the wrong Python type, or ``fields`` is not a
            mapping of column paths to mappings of properties (raised before Spark is asked).
        ValueError: ``engine`` is none of "auto", "jvm" and "python".
        pyspark.errors.IllegalArgumentException: a value is out of range, or values do not fit
            together; the message names the keyword (or the ``fields.`` option), the value and
            what is allowed.
        SourceNotFoundError: ``engine="jvm"``, and the session does not have the source's jar.
        UnsupportedSparkError: ``engine="python"`` on Spark 3.5, which has no Python streaming
            sources (or ``"auto"`` there without the jar).

    Keyword Args:
    """
    from pyspark.errors import IllegalArgumentException

    given = source_options(options)
    if fields is not None:
        given.update(flattened(fields))
    try:
        return engine_stream(
            spark,
            engine,
            "read_random_strings",
            jar=lambda: _jar_stream(spark, given, schema),
            python=lambda: _python_stream(spark, given, schema),
            fallback=f"This Spark session has no {FORMAT} jar, so read_random_strings reads the Python "
            f"data source, which makes the same rows {JVM_SPEEDUP} slower",
        )
    except IllegalArgumentException as error:
        # The source's message names its options; the caller wrote keywords.
        raise IllegalArgumentException(message=renamed(str(error), _keyword)) from None


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
    ``fallback``.

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
        f"{fallback}. Put the jar on the session (configure_spark_with_random_strings, or --jars on "
        "the server) for the jar's speed, or pass engine='python' to choose this one.",
        SlowerEngineWarning,
        stacklevel=3,
    )
    return python()


def _keyword(row: SourceOption) -> str:
    return row.keyword


def _jar_stream(
    spark: SparkSession, given: dict[str, str], schema: str | StructType | None = None
) -> DataFrame:
    return jar_stream(spark, FORMAT, given, schema, "; or read the Python data source (engine='python')")


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


def _python_stream(
    spark: SparkSession, given: dict[str, str], schema: str | StructType | None = None
) -> DataFrame:
    def check() -> None:
        if parse_options(given, schema).real_time:
            raise python_real_time_error()

    return python_stream(spark, PYTHON_FORMAT, given, check, schema)


def python_stream(
    spark: SparkSession,
    source: str,
    given: dict[str, str],
    check: Callable[[], object],
    schema: str | StructType | None = None,
) -> DataFrame:
    """The Python data source ``source`` read with options ``given``, once ``check()`` passes
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

    from spark_random_strings._source import NexmarkDataSource, RandomStringsDataSource, register

    try:
        check()
    except ValueError as error:
        raise IllegalArgumentException(message=str(error)) from None
    if not any(name.lower() == NUM_PARTITIONS.lower() for name in given):
        # The jar's sources default to the session's default parallelism; a Python reader cannot
        # ask the session, so it is told.
        given = {**given, NUM_PARTITIONS: str(default_parallelism(spark))}
    register(spark, RandomStringsDataSource if source == PYTHON_FORMAT else NexmarkDataSource)
    reader = spark.readStream.format(source).options(**given)
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


# The docstring's "Keyword Args" section: one entry per row of the option table.
read_random_strings.__doc__ = (read_random_strings.__doc__ or "").rstrip() + "\n" + keyword_args()
