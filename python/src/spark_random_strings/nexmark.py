"""The ``nexmark`` source from Python: the Nexmark benchmark's events, identical to Apache Beam's
reference generator, as a streaming DataFrame of Flink's Nexmark table.

[`read_nexmark`][spark_random_strings.nexmark.read_nexmark] reads the stream (the jar's source,
``format("nexmark")``); [`nexmark_views`][spark_random_strings.nexmark.nexmark_views] splits it into
the ``person``, ``auction`` and ``bid`` views with Nexmark's watermark, as Flink's
``ddl_views.sql`` does; [`NexmarkKeywords`][spark_random_strings.nexmark.NexmarkKeywords] lists the
options under their keywords (Beam's ``NexmarkConfiguration`` names in snake_case).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, NamedTuple, TypedDict, Unpack

from spark_random_strings.options import Option, OptionTable

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

    from spark_random_strings._reader import Engine

#: The source's short name, as given to ``spark.readStream.format``.
NEXMARK_FORMAT = "nexmark"
#: How many times faster the jar's source makes events than the Python data source, in
#: ``make bench`` (docs/benchmarks-nexmark.md): the "auto" warning quotes it.
NEXMARK_JVM_SPEEDUP = "about 40 times"

#: How far Nexmark's watermark trails the event time: Flink's ``dateTime - INTERVAL '4' SECOND``.
WATERMARK_DELAY = "4 seconds"

#: Flink's Nexmark table, the source's schema, as DDL.
NEXMARK_DDL = (
    "event_type INT NOT NULL, "
    "person STRUCT<id: BIGINT NOT NULL, name: STRING NOT NULL, emailAddress: STRING NOT NULL, "
    "creditCard: STRING NOT NULL, city: STRING NOT NULL, state: STRING NOT NULL, "
    "dateTime: TIMESTAMP NOT NULL, extra: STRING NOT NULL>, "
    "auction STRUCT<id: BIGINT NOT NULL, itemName: STRING NOT NULL, description: STRING NOT NULL, "
    "initialBid: BIGINT NOT NULL, reserve: BIGINT NOT NULL, dateTime: TIMESTAMP NOT NULL, "
    "expires: TIMESTAMP NOT NULL, seller: BIGINT NOT NULL, category: BIGINT NOT NULL, "
    "extra: STRING NOT NULL>, "
    "bid STRUCT<auction: BIGINT NOT NULL, bidder: BIGINT NOT NULL, price: BIGINT NOT NULL, "
    "channel: STRING NOT NULL, url: STRING NOT NULL, dateTime: TIMESTAMP NOT NULL, extra: STRING NOT NULL>, "
    "dateTime TIMESTAMP NOT NULL"
)


class NexmarkKeywords(TypedDict, total=False):
    """The keywords of ``read_nexmark``: each option of the ``nexmark`` source, in snake_case.

    The first fifteen are Beam's ``NexmarkConfiguration`` names, with Beam's defaults except
    ``num_event_generators``; with the same values, the stream's event ``n`` is event ``n`` of
    Beam's generator. ``None``, like a keyword left out, leaves the default.
    """

    first_event_rate: Annotated[
        int | None, Option("firstEventRate", 10000, "events per rate unit at the start")
    ]
    next_event_rate: Annotated[
        int | None, Option("nextEventRate", 10000, "events per rate unit at the shape's other end")
    ]
    rate_unit: Annotated[str | None, Option("rateUnit", "PER_SECOND", "PER_SECOND or PER_MINUTE", "UNIT")]
    rate_shape: Annotated[
        str | None, Option("rateShape", "SINE", "SQUARE or SINE, when the two rates differ", "SHAPE")
    ]
    rate_period_sec: Annotated[int | None, Option("ratePeriodSec", 600, "one cycle of the shape, in seconds")]
    num_event_generators: Annotated[
        int | None,
        Option(
            "numEventGenerators", 1, "event time advances this many times slower than the rate (Beam: 100)"
        ),
    ]
    avg_person_byte_size: Annotated[
        int | None, Option("avgPersonByteSize", 200, "the size a person's extra pads towards, in bytes")
    ]
    avg_auction_byte_size: Annotated[
        int | None, Option("avgAuctionByteSize", 500, "the size an auction's extra pads towards, in bytes")
    ]
    avg_bid_byte_size: Annotated[
        int | None, Option("avgBidByteSize", 100, "the size a bid's extra pads towards, in bytes")
    ]
    hot_auction_ratio: Annotated[
        int | None, Option("hotAuctionRatio", 2, "1 in this many bids is not on a hot auction")
    ]
    hot_sellers_ratio: Annotated[
        int | None, Option("hotSellersRatio", 4, "1 in this many auctions is not by a hot seller")
    ]
    hot_bidders_ratio: Annotated[
        int | None, Option("hotBiddersRatio", 4, "1 in this many bids is not by a hot bidder")
    ]
    num_active_people: Annotated[
        int | None, Option("numActivePeople", 1000, "how many recent people auctions and bids refer to")
    ]
    num_in_flight_auctions: Annotated[
        int | None, Option("numInFlightAuctions", 100, "how many recent auctions bids refer to")
    ]
    out_of_order_group_size: Annotated[
        int | None, Option("outOfOrderGroupSize", 1, "events are shuffled within groups of this many")
    ]
    num_events: Annotated[
        int | None, Option("numEvents", 100000, "the stream ends after this many events; 0 is endless")
    ]
    num_partitions: Annotated[
        int | None,
        Option(
            "numPartitions", None, "partitions (tasks) per batch", unset="the session's default parallelism"
        ),
    ]
    max_events_per_trigger: Annotated[
        int | None,
        Option("maxEventsPerTrigger", None, "the most events one micro-batch reads", unset="no limit"),
    ]
    real_time: Annotated[
        bool | None,
        Option(
            "realTime",
            False,
            "read through Spark's DSv2 interfaces, which real-time mode needs (4.1+)",
            "BOOL",
        ),
    ]


#: The ``nexmark`` source's options under their keywords.
NEXMARK_OPTIONS = OptionTable(NexmarkKeywords)


class NexmarkViews(NamedTuple):
    """The three views of Flink's ``ddl_views.sql``, each with Nexmark's watermark on ``dateTime``."""

    person: DataFrame
    auction: DataFrame
    bid: DataFrame


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

    from spark_random_strings._nexmark_options import (
        NEXMARK_PYTHON_FORMAT,
        parse_nexmark_options,
        python_real_time_error,
    )
    from spark_random_strings._reader import engine_stream, jar_stream, python_stream

    given = NEXMARK_OPTIONS.options(options, "read_nexmark")

    def check() -> None:
        if parse_nexmark_options(given).real_time:
            raise python_real_time_error()

    try:
        return engine_stream(
            spark,
            engine,
            "read_nexmark",
            jar=lambda: jar_stream(
                spark, NEXMARK_FORMAT, given, otherwise="; or read the Python data source (engine='python')"
            ),
            python=lambda: python_stream(spark, NEXMARK_PYTHON_FORMAT, given, check),
            fallback=f"This Spark session has no {NEXMARK_FORMAT} jar, so read_nexmark reads the Python data "
            f"source, which makes the same events {NEXMARK_JVM_SPEEDUP} slower",
        )
    except IllegalArgumentException as error:
        # The source's message names its options; the caller wrote keywords.
        raise IllegalArgumentException(
            message=NEXMARK_OPTIONS.renamed(str(error), lambda row: row.keyword)
        ) from None


# The docstring's "Keyword Args" section: one entry per row of the option table.
read_nexmark.__doc__ = (read_nexmark.__doc__ or "").rstrip() + "\n" + NEXMARK_OPTIONS.keyword_args()


def nexmark_views(events: DataFrame) -> NexmarkViews:
    """Split the ``nexmark`` stream into Flink's ``person``, ``auction`` and ``bid`` views.

    Each view is its struct's columns, in its order, with the table's ``dateTime`` (the event's
    time) in the struct's own and a watermark 4 s behind it (Flink's ``WATERMARK FOR dateTime AS
    dateTime - INTERVAL '4' SECOND``).
    """
    from pyspark.sql import functions as f
    from pyspark.sql.types import StructType

    def view(event_type: int, struct: str) -> DataFrame:
        kind = events.schema[struct].dataType
        assert isinstance(kind, StructType), f"{struct} is a struct of the nexmark source's schema"
        # Flink's views take the table's dateTime (the watermarked column) where the struct has its own.
        columns = [
            f.col("dateTime") if name == "dateTime" else f.col(f"{struct}.{name}").alias(name)
            for name in kind.fieldNames()
        ]
        selected = events.where(f.col("event_type") == event_type).select(*columns)
        return selected.withWatermark("dateTime", WATERMARK_DELAY)

    return NexmarkViews(view(0, "person"), view(1, "auction"), view(2, "bid"))
