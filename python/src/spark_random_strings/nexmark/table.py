"""The ``nexmark`` source's names, schema and options, as Python meets them (the jar's
``Nexmark.scala`` and ``NexmarkOptions.scala``): its formats, Flink's table as DDL, and each option
under its ``read_nexmark`` keyword."""

from __future__ import annotations

from typing import Annotated, TypedDict

from spark_random_strings.options import OptionTable
from spark_random_strings.options.table import SOURCES

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
    Beam's generator. ``None``, like a keyword left out, leaves the default. Each hint names the
    option's row of the table of options, which says its default, allowed values and what it does.
    """

    # Made from options/table.json by `make options`: edit the table, not these lines.
    first_event_rate: Annotated[int | None, "firstEventRate"]
    next_event_rate: Annotated[int | None, "nextEventRate"]
    rate_unit: Annotated[str | None, "rateUnit"]
    rate_shape: Annotated[str | None, "rateShape"]
    rate_period_sec: Annotated[int | None, "ratePeriodSec"]
    num_event_generators: Annotated[int | None, "numEventGenerators"]
    avg_person_byte_size: Annotated[int | None, "avgPersonByteSize"]
    avg_auction_byte_size: Annotated[int | None, "avgAuctionByteSize"]
    avg_bid_byte_size: Annotated[int | None, "avgBidByteSize"]
    hot_auction_ratio: Annotated[int | None, "hotAuctionRatio"]
    hot_sellers_ratio: Annotated[int | None, "hotSellersRatio"]
    hot_bidders_ratio: Annotated[int | None, "hotBiddersRatio"]
    num_active_people: Annotated[int | None, "numActivePeople"]
    num_in_flight_auctions: Annotated[int | None, "numInFlightAuctions"]
    out_of_order_group_size: Annotated[int | None, "outOfOrderGroupSize"]
    num_events: Annotated[int | None, "numEvents"]
    num_partitions: Annotated[int | None, "numPartitions"]
    max_events_per_trigger: Annotated[int | None, "maxEventsPerTrigger"]
    real_time: Annotated[bool | None, "realTime"]


#: The ``nexmark`` source's options under their keywords.
NEXMARK_OPTIONS = OptionTable(NexmarkKeywords, SOURCES[NEXMARK_FORMAT])
