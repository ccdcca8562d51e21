"""``read_changes``: the ``changes`` stream from Python, from the jar's source or its Python data source."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from spark_random_strings.changes.keywords import (
    CHANGE_OPTIONS,
    CHANGES_FORMAT,
    DECLARED_SCHEMA,
    ChangeKeywords,
)
from spark_random_strings.engine.choice import engine_stream, jar_stream, python_stream
from spark_random_strings.typed.fields.options import flattened

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

    from spark_random_strings.engine.choice import Engine
    from spark_random_strings.engine.python_sources import TravellingDataSource


def read_changes(
    spark: SparkSession,
    *,
    engine: Engine = "auto",
    schema: str | StructType | None = None,
    fields: Mapping[str, Mapping[str, object]] | None = None,
    **options: Unpack[ChangeKeywords],
) -> DataFrame:
    """Return a streaming DataFrame of a change stream: inserts, updates and deletes over a
    keyspace, ``spark.readStream.format("changes")``.

    Each row is a change, in the flat envelope unless ``envelope`` says another: the declared
    columns (the key column, ``key``, holding the change's key, 0 to ``keys`` - 1; every other
    column the row's image, drawn as typed columns draw cells), then ``_op`` (``insert``,
    ``update`` or ``delete``), ``_seq`` (the change's number) and ``_ts`` (its commit time).
    [`expected_changes`][spark_random_strings.expected_changes] computes the same rows without
    Spark, and [`expected_table`][spark_random_strings.expected_table] the table after any number
    of them (docs/change-streams.md).

    Two engines make the same changes. The jar's source runs on the JVM and needs the jar in the
    session (or, for Spark Connect, on the server). The Python data source ``changesPython``
    (Spark 4.0+) needs no jar and nothing of this package on the server: its code travels with
    the client, and the server's Python workers make the changes with the Python twin of the
    lifecycle and the envelopes.

    Examples:
        >>> changes = read_changes(
        ...     spark, seed=7, keys=1000, delete_fraction=0.1, rows_per_second=500,
        ...     schema="id BIGINT NOT NULL, name STRING, balance DECIMAL(12,2)",
        ...     fields={"balance": {"min": "0", "max": "100000"}},
        ... )  # doctest: +SKIP
        >>> query = changes.writeStream.format("console").start()  # doctest: +SKIP

    Args:
        spark: a session, classic or Spark Connect; with the package's jar
            ([`configure_spark_with_random_strings`][spark_random_strings.configure_spark_with_random_strings])
            for the jar's source.
        engine: ``"jvm"``: the jar's source (``changes``); ``"python"``: the Python data source
            (``changesPython``); ``"auto"`` (the default): the jar's where the session has it,
            else the Python one, with a ``SlowerEngineWarning``.
        schema: the declared columns: a DDL string such as ``"id BIGINT NOT NULL, name STRING"``
            or a ``StructType``, of the types typed columns take (docs/typed-columns.md); one of
            them is the key column, NOT NULL, TINYINT to BIGINT or STRING. ``None`` (the default)
            for ``id BIGINT NOT NULL, value STRING``.
        fields: how each declared column but the key is made: column path to its properties,
            each the option ``fields.<path>.<property>``, as ``read_random_strings`` takes them.
        **options: the source's options, listed under "Keyword Args" from the table of options
            (``ChangeKeywords`` in ``spark_random_strings.changes.keywords`` types them).

    Returns:
        A streaming DataFrame (``df.isStreaming`` is ``True``).

    Raises:
        TypeError: a keyword is unknown or has the wrong Python type, or ``fields`` is not a
            mapping of column paths to mappings of properties (raised before Spark is asked).
        pyspark.errors.IllegalArgumentException: a value is out of range, values do not fit
            together, or the declared schema cannot hold the key; the message names the keyword
            (or the ``fields.`` option), the value and what is allowed.
        ValueError: ``engine`` is none of "auto", "jvm" and "python".
        SourceNotFoundError: ``engine="jvm"``, and the session does not have the package's jar.
        UnsupportedSparkError: ``engine="python"`` on Spark 3.5, which has no Python streaming
            sources (or ``"auto"`` there without the jar).

    Keyword Args:
    """
    from pyspark.errors import IllegalArgumentException

    given = CHANGE_OPTIONS.options(options, "read_changes")
    if fields is not None:
        given.update(flattened(fields))
    try:
        return changes_stream(spark, engine, "read_changes", given, schema)
    except IllegalArgumentException as error:
        # The source's message names its options; the caller wrote keywords.
        raise IllegalArgumentException(
            message=CHANGE_OPTIONS.renamed(str(error), lambda row: row.keyword)
        ) from None


def changes_stream(
    spark: SparkSession, engine: str, caller: str, given: dict[str, str], schema: str | StructType | None
) -> DataFrame:
    """The change stream of options ``given`` (by the source's names) from the ``engine`` chosen,
    as ``caller`` (``read_changes``, the ``changes`` command) asks for it."""
    return engine_stream(
        spark,
        engine,
        caller,
        jar=lambda: jar_stream(
            spark, CHANGES_FORMAT, given, schema, "; or read the Python data source (engine='python')"
        ),
        python=lambda: _python_stream(spark, given, schema),
        fallback=f"This Spark session has no {CHANGES_FORMAT} jar, so {caller} reads the Python data source, "
        "which makes the same changes",
    )


def _python_stream(spark: SparkSession, given: dict[str, str], schema: str | StructType | None) -> DataFrame:
    """The Python data source's stream: the declared columns passed as an option, since a Python
    data source's rows have the schema its reader is given (``changes.reader``)."""
    from spark_random_strings.changes.options import parse_python_options

    options = dict(given)
    if schema is not None:
        options[DECLARED_SCHEMA] = schema if isinstance(schema, str) else schema.json()
    return python_stream(spark, data_source, options, lambda: parse_python_options(given, schema))


def data_source() -> type[TravellingDataSource]:
    """The data source class, imported only where pyspark has Python data sources."""
    from spark_random_strings.changes.python_source import ChangesDataSource

    return ChangesDataSource


# The docstring's "Keyword Args" section: one entry per row of the option table.
read_changes.__doc__ = (read_changes.__doc__ or "").rstrip() + "\n" + CHANGE_OPTIONS.keyword_args()
