"""The ``nexmark`` source's names, schema and options, as Python meets them (the jar's
``Nexmark.scala`` and ``NexmarkOptions.scala``): its formats, Flink's table as DDL, and each option
under its ``read_nexmark`` keyword."""

from __future__ import annotations

from typing import Annotated, TypedDict

from spark_random_strings.options import Option, OptionTable

#: The source's short name, as given to ``spark.readStream.format``.
NEXMARK_FORMAT = "nexmark"
#: The Python data source's name: the same stream without the jar.
NEXMARK_PYTHON_FORMAT = f"{NEXMARK_FORMAT}Python"

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
