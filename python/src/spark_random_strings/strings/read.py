"""``read_random_strings``: the random strings from Python, from the jar's source or its Python
data source."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from spark_random_strings.engine.choice import Engine, engine_stream, jar_stream, python_stream
from spark_random_strings.options import (
    FORMAT,
    SourceKeywords,
    SourceOption,
    keyword_args,
    renamed,
    source_options,
)
from spark_random_strings.rows.options import parse_options, python_real_time_error
from spark_random_strings.typed.fields.options import flattened

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

    from spark_random_strings.engine.python_sources import TravellingDataSource


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
            "data source, which makes the same rows",
        )
    except IllegalArgumentException as error:
        # The source's message names its options; the caller wrote keywords.
        raise IllegalArgumentException(message=renamed(str(error), _keyword)) from None


def _keyword(row: SourceOption) -> str:
    return row.keyword


def _jar_stream(
    spark: SparkSession, given: dict[str, str], schema: str | StructType | None = None
) -> DataFrame:
    return jar_stream(spark, FORMAT, given, schema, "; or read the Python data source (engine='python')")


def _python_stream(
    spark: SparkSession, given: dict[str, str], schema: str | StructType | None = None
) -> DataFrame:
    def check() -> None:
        if parse_options(given, schema).real_time:
            raise python_real_time_error()

    return python_stream(spark, data_source, given, check, schema)


def data_source() -> type[TravellingDataSource]:
    """The data source class, imported only where pyspark has Python data sources."""
    from spark_random_strings.strings.python_source import RandomStringsDataSource

    return RandomStringsDataSource


# The docstring's "Keyword Args" section: one entry per row of the option table.
read_random_strings.__doc__ = (read_random_strings.__doc__ or "").rstrip() + "\n" + keyword_args()
