"""The Nexmark queries of daily statistics (q15, q16, q17), after Flink's Nexmark SQL;
``nexmark_queries`` is their public module, which re-exports them.

Flink groups the bids by the day of their time, ``DATE_FORMAT(dateTime, 'yyyy-MM-dd')``, and
counts distinct bidders and auctions with ``count(DISTINCT ...) FILTER (WHERE ...)``. Spark refuses
a distinct aggregation on a stream, and append mode refuses a grouping without a watermarked
key. Here the day is a tumbling window of one day (Spark's windows start at the epoch, so each is
a UTC day), which carries the watermark, and a distinct count is the size of the set of the
values: ``size(collect_set(bidder))``, exact, the filter a ``CASE`` that leaves the other bids'
values null, which a set skips.

Written in **update** mode, each batch writes the running row of each day (and channel, or
auction) that its bids changed, as Flink's rows are updated; in **append** mode, each day's row
once, when the watermark has passed the day's end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spark_random_strings.nexmark.utc import utc_day, utc_minute
from spark_random_strings.nexmark.views import latest_column, latest_event, nexmark_views

if TYPE_CHECKING:
    from pyspark.sql import Column, DataFrame

#: The window of the daily queries: one UTC day.
DAY_WINDOW = "1 day"
#: The price bands of q15 to q17 (cents): rank 1 below the first, rank 3 from the second on.
RANK_PRICES = (10_000, 1_000_000)


def _ranks() -> list[Column]:
    """Flink's three filters: ``price < 10000``, ``price >= 10000 and price < 1000000``,
    ``price >= 1000000``."""
    from pyspark.sql import functions as f

    price = f.col("price")
    low, high = RANK_PRICES
    return [price < low, (price >= low) & (price < high), price >= high]


def _bid_counts() -> list[Column]:
    """``total_bids`` and ``rank1_bids`` to ``rank3_bids``: Flink's ``count(*) FILTER (...)``."""
    from pyspark.sql import functions as f

    counts = [f.count_if(rank).alias(f"rank{number}_bids") for number, rank in enumerate(_ranks(), 1)]
    return [f.count("*").alias("total_bids"), *counts]


def _distinct_counts(column: str) -> list[Column]:
    """``total_<column>s`` and ``rank<n>_<column>s``: Flink's ``count(DISTINCT column) FILTER
    (...)``, as the sizes of sets of the column's values (a set skips the nulls of the other
    ranks' bids)."""
    from pyspark.sql import functions as f

    def distinct(values: Column) -> Column:
        return f.size(f.collect_set(values)).cast("bigint")

    ranked = [
        distinct(f.when(rank, f.col(column))).alias(f"rank{number}_{column}s")
        for number, rank in enumerate(_ranks(), 1)
    ]
    return [distinct(f.col(column)).alias(f"total_{column}s"), *ranked]


def _distinct_columns() -> list[str]:
    return [
        f"{which}_{column}s"
        for column in ("bidder", "auction")
        for which in ("total", "rank1", "rank2", "rank3")
    ]


def _bid_columns() -> list[str]:
    return ["total_bids", "rank1_bids", "rank2_bids", "rank3_bids"]


def q15(events: DataFrame, *, latest: bool = False) -> DataFrame:
    """Bidding statistics report: per day, the bids, the distinct bidders and the distinct
    auctions, in all and in each of three price bands (Flink's q15): rank 1 below 10,000, rank 2
    from 10,000 to below 1,000,000, rank 3 from 1,000,000 on (prices in cents).

    The distinct counts are exact, the sizes of the sets of bidders and auctions that the day's
    state keeps. Write in update mode for the running rows, as Flink's, or in append mode for each
    day's row once, when the watermark has passed the day's end (UTC).

    Columns: ``day`` (``yyyy-MM-dd``, UTC), ``total_bids``, ``rank1_bids``, ``rank2_bids``,
    ``rank3_bids``, ``total_bidders``, ``rank1_bidders``, ``rank2_bidders``, ``rank3_bidders``,
    ``total_auctions``, ``rank1_auctions``, ``rank2_auctions``, ``rank3_auctions``. With
    ``latest=True``, a last column ``dateTime``: the time of the newest bid the row counts, what a
    latency measurement reads (`make bench`'s real-time queries).
    """
    from pyspark.sql import functions as f

    bid = nexmark_views(events).bid
    daily = bid.groupBy(f.window("dateTime", DAY_WINDOW)).agg(
        *_bid_counts(), *_distinct_counts("bidder"), *_distinct_counts("auction"), *latest_event(latest)
    )
    return daily.select(
        utc_day(f.col("window.start")).alias("day"),
        *_bid_columns(),
        *_distinct_columns(),
        *latest_column(latest),
    )


def q16(events: DataFrame, *, latest: bool = False) -> DataFrame:
    """Channel statistics report: q15's statistics per channel and day, with the day's latest
    minute of the channel's bids (Flink's q16, ``max(DATE_FORMAT(dateTime, 'HH:mm'))``).

    Write in update mode for the running rows, as Flink's, or in append mode for each channel's
    day once, when the watermark has passed the day's end (UTC).

    Columns: ``channel``, ``day``, ``minute`` (``HH:mm``, UTC), then q15's counts (and with
    ``latest=True``, q15's ``dateTime``).
    """
    from pyspark.sql import functions as f

    bid = nexmark_views(events).bid
    daily = bid.groupBy("channel", f.window("dateTime", DAY_WINDOW)).agg(
        f.max("dateTime").alias("latest"),
        *_bid_counts(),
        *_distinct_counts("bidder"),
        *_distinct_counts("auction"),
    )
    minute = utc_minute(f.col("latest")).alias("minute")
    newest = [f.col("latest").alias("dateTime")] if latest else []
    return daily.select(
        "channel",
        utc_day(f.col("window.start")).alias("day"),
        minute,
        *_bid_columns(),
        *_distinct_columns(),
        *newest,
    )


def q17(events: DataFrame, *, latest: bool = False) -> DataFrame:
    """Auction statistics report: per auction and day, its bids in all and in each price band,
    and the least, greatest, average and total price (Flink's q17).

    As Flink's ``AVG`` of a ``BIGINT``, ``avg_price`` is a ``BIGINT``: the sum divided by the count
    in integers, the remainder dropped. Write in update mode for the running rows, as Flink's, or
    in append mode for each auction's day once, when the watermark has passed the day's end (UTC).

    Columns: ``auction``, ``day``, ``total_bids``, ``rank1_bids``, ``rank2_bids``,
    ``rank3_bids``, ``min_price``, ``max_price``, ``avg_price``, ``sum_price`` (and with
    ``latest=True``, q15's ``dateTime``).
    """
    from pyspark.sql import functions as f

    bid = nexmark_views(events).bid
    daily = bid.groupBy("auction", f.window("dateTime", DAY_WINDOW)).agg(
        *_bid_counts(),
        f.min("price").alias("min_price"),
        f.max("price").alias("max_price"),
        f.expr("sum(price) div count(price)").alias("avg_price"),
        f.sum("price").alias("sum_price"),
        *latest_event(latest),
    )
    prices = ["min_price", "max_price", "avg_price", "sum_price"]
    return daily.select(
        "auction",
        utc_day(f.col("window.start")).alias("day"),
        *_bid_columns(),
        *prices,
        *latest_column(latest),
    )
