"""``read_nexmark``: the ``nexmark`` stream from Python, from the jar's source or its Python data source."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from spark_random_strings.nexmark.table import NEXMARK_FORMAT, NEXMARK_OPTIONS, NexmarkKeywords

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

    from spark_random_strings.engine.choice import Engine
    from spark_random_strings.engine.python_sources import TravellingDataSource


def read_nexmark(
    spark: SparkSession, *, engine: Engine = "auto", **options: Unpack[NexmarkKeywords]
) -> DataFrame:
    """Return a streaming DataFrame of the Nexmark benchmark's events (the ``nexmark`` source).

    Columns (Flink's Nexmark table): ``event_type`` (0 person, 1 auction, 2 bid), the ``person``,
    ``auction`` and ``bid`` structs (the two that do not apply are null) and ``dateTime``, the
    event's time. With the same options, the stream's event ``n`` is event ``n`` of Apache Beam's
    generator, every field equal; a bid's ``channel`` and ``url`` are Flink's, drawn from the
    event's own random. Events come to exist at the wall clock their timestamps say, counted from
    the stream's first start, or all at once under ``Trigger.AvailableNow``.

    Two engines make the same events. The jar's source runs on the JVM and needs the jar in the
    session (or, for Spark Connect, on the server). The Python data source ``nexmarkPython``
    (Spark 4.0+) needs no jar and nothing of this package on the server: its code travels with the
    client, and the server's Python workers make the events with the Python twin of the
    generator, about 15,000 events a second per core (docs/benchmarks-nexmark.md); it has no
    real-time mode.

    Examples:
        >>> events = read_nexmark(
        ...     spark, num_events=1_000_000, first_event_rate=50_000, next_event_rate=50_000
        ... )  # doctest: +SKIP
        >>> person, auction, bid = nexmark_views(events)  # doctest: +SKIP

    Args:
        spark: a session, classic or Spark Connect; with the package's jar
            ([`configure_spark_with_random_strings`][spark_random_strings.configure_spark_with_random_strings])
            for the jar's source.
        engine: ``"jvm"``: the jar's source (``nexmark``); ``"python"``: the Python data source
            (``nexmarkPython``); ``"auto"`` (the default): the jar's where the session has it,
            else the Python one, with a ``SlowerEngineWarning``.
        **options: the source's options, listed under "Keyword Args" from
            [`NexmarkKeywords`][spark_random_strings.nexmark.NexmarkKeywords].

    Returns:
        A streaming DataFrame (``df.isStreaming`` is ``True``).

    Raises:
        TypeError: a keyword is unknown or has the wrong Python type (raised before Spark is asked).
        ValueError: ``engine`` is none of "auto", "jvm" and "python".
        pyspark.errors.IllegalArgumentException: a value is out of range; the message names the
            keyword, the value and what is allowed.
        SourceNotFoundError: ``engine="jvm"``, and the session does not have the package's jar.
        UnsupportedSparkError: ``engine="python"`` on Spark 3.5, which has no Python streaming
            sources (or ``"auto"`` there without the jar).

    Keyword Args:
    """
    from pyspark.errors import IllegalArgumentException

    from spark_random_strings.engine.choice import engine_stream, jar_stream

    given = NEXMARK_OPTIONS.options(options, "read_nexmark")
    try:
        return engine_stream(
            spark,
            engine,
            "read_nexmark",
            jar=lambda: jar_stream(
                spark, NEXMARK_FORMAT, given, otherwise="; or read the Python data source (engine='python')"
            ),
            python=lambda: _python_stream(spark, given),
            fallback=f"This Spark session has no {NEXMARK_FORMAT} jar, so read_nexmark reads the Python data "
            "source, which makes the same events",
        )
    except IllegalArgumentException as error:
        # The source's message names its options; the caller wrote keywords.
        raise IllegalArgumentException(
            message=NEXMARK_OPTIONS.renamed(str(error), lambda row: row.keyword)
        ) from None


def _python_stream(spark: SparkSession, given: dict[str, str]) -> DataFrame:
    """The Python data source's stream of the source's options ``given``, which refuses realTime."""
    from spark_random_strings.engine.choice import python_stream
    from spark_random_strings.nexmark.options import parse_nexmark_options, python_real_time_error

    def check() -> None:
        if parse_nexmark_options(given).real_time:
            raise python_real_time_error()

    return python_stream(spark, data_source, given, check)


def data_source() -> type[TravellingDataSource]:
    """The data source class, imported only where pyspark has Python data sources."""
    from spark_random_strings.nexmark.python_source import NexmarkDataSource

    return NexmarkDataSource


# The docstring's "Keyword Args" section: one entry per row of the option table.
read_nexmark.__doc__ = (read_nexmark.__doc__ or "").rstrip() + "\n" + NEXMARK_OPTIONS.keyword_args()
