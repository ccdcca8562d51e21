"""The Nexmark queries that join two views (q3, q4, q7, q8, q9, q20, q23), after Flink's Nexmark
SQL; ``nexmark_queries`` is their public module, which re-exports them.

q4 and q9 close an auction as Flink's statements cannot say on a Spark stream: their auctions
carry Nexmark's 4 s watermark on ``expires`` (see ``_closing_auctions``), and an aggregation
grouped by ``expires`` writes an auction once no bid before its expiry can still come.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spark_random_strings.nexmark.generator import AUCTION
from spark_random_strings.nexmark.views import WATERMARK_DELAY, nexmark_views

if TYPE_CHECKING:
    from pyspark.sql import Column, DataFrame

#: q3's category and states.
Q3_CATEGORY = 10
Q3_STATES = ("OR", "ID", "CA")
#: q7's and q8's tumbling window.
TUMBLING_WINDOW = "10 seconds"
#: q20's category.
Q20_CATEGORY = 10


def q3(events: DataFrame) -> DataFrame:
    """Local item suggestion: the auctions in category 10 of sellers in Oregon, Idaho or
    California, each with its seller's name, city and state (Flink's q3).

    A stream-stream inner join on ``seller = id`` without a time bound, as Flink's: every auction
    meets its seller, whenever either comes, and Spark keeps both sides' rows in its state for
    the query's whole life.

    Columns: ``name``, ``city``, ``state``, ``id`` (the auction's).
    """
    from pyspark.sql import functions as f

    views = nexmark_views(events)
    auction = views.auction.where(f.col("category") == Q3_CATEGORY).alias("A")
    person = views.person.where(f.col("state").isin(*Q3_STATES)).alias("P")
    joined = auction.join(person, f.col("A.seller") == f.col("P.id"))
    return joined.select("P.name", "P.city", "P.state", "A.id")


def q7(events: DataFrame) -> DataFrame:
    """Highest bid: the bids at the highest price of each 10 s tumbling window (Flink's q7).

    As Flink's: the maximum price per window, joined back to the bids at that price whose time is
    within the window, both ends included (``dateTime BETWEEN window_end - 10 s AND window_end``,
    so a bid at a window's very end also meets the window before), every one of them on a tie.
    The maximum is written when its window closes; the join's time bound, on the window's
    ``window_time`` (which keeps the watermark), lets Spark drop older bids from its state.

    Columns: ``auction``, ``bidder``, ``price``, ``dateTime``, ``extra``. Flink's statement
    selects ``B.price, B.bidder`` into the table's ``bidder, price`` columns; here each column
    holds what its name says.
    """
    from pyspark.sql import functions as f

    bid = nexmark_views(events).bid
    maxima = bid.groupBy(f.window("dateTime", TUMBLING_WINDOW)).agg(f.max("price").alias("maxprice"))
    # window_time is the window's end less 1 µs, and carries the watermark into the join.
    top = maxima.select(f.window_time("window").alias("window_time"), "maxprice").alias("M")
    bids = bid.alias("B")
    joined = bids.join(
        top,
        (f.col("B.price") == f.col("M.maxprice"))
        & (f.col("B.dateTime") >= f.col("M.window_time") - f.expr("INTERVAL '9.999999' SECOND"))
        & (f.col("B.dateTime") <= f.col("M.window_time") + f.expr("INTERVAL '0.000001' SECOND")),
    )
    return joined.select("B.auction", "B.bidder", "B.price", "B.dateTime", "B.extra")


def q8(events: DataFrame) -> DataFrame:
    """Monitor new users: the people who opened an auction in the same 10 s tumbling window in
    which they joined (Flink's q8).

    As Flink's: the people per window (grouped by id and name) joined with the sellers per window
    on id and window; both sides are written when their window closes, and the window, a join
    key that carries the watermark, lets Spark drop closed windows from the join's state.

    Columns: ``id``, ``name``, ``stime`` (the window's start).
    """
    from pyspark.sql import functions as f

    views = nexmark_views(events)
    people = (
        views.person.groupBy("id", "name", f.window("dateTime", TUMBLING_WINDOW))
        .agg(f.count("*").alias("joined"))
        .alias("P")
    )
    sellers = (
        views.auction.groupBy("seller", f.window("dateTime", TUMBLING_WINDOW))
        .agg(f.count("*").alias("opened"))
        .alias("A")
    )
    joined = people.join(
        sellers, (f.col("P.id") == f.col("A.seller")) & (f.col("P.window") == f.col("A.window"))
    )
    return joined.select("P.id", "P.name", f.col("P.window.start").alias("stime"))


def _joined_auction() -> list[Column]:
    """The columns q20 and q23 take from the auction (aliased ``A``) they join, in Flink's order."""
    from pyspark.sql import functions as f

    return [
        f.col("A.itemName"),
        f.col("A.description"),
        f.col("A.initialBid"),
        f.col("A.reserve"),
        f.col("A.dateTime").alias("auction_dateTime"),
        f.col("A.expires"),
        f.col("A.seller"),
        f.col("A.category"),
        f.col("A.extra").alias("auction_extra"),
    ]


def q20(events: DataFrame) -> DataFrame:
    """Expand bid with auction: every bid on an auction in category 10, with the auction's
    fields (Flink's q20).

    A stream-stream inner join on ``auction = id`` without a time bound, as Flink's: Spark keeps
    both sides' rows in its state for the query's whole life.

    Columns: ``auction``, ``bidder``, ``price``, ``channel``, ``url``, ``bid_dateTime``,
    ``bid_extra``, ``itemName``, ``description``, ``initialBid``, ``reserve``,
    ``auction_dateTime``, ``expires``, ``seller``, ``category``, ``auction_extra``.
    """
    from pyspark.sql import functions as f

    views = nexmark_views(events)
    auction = views.auction.where(f.col("category") == Q20_CATEGORY).alias("A")
    bid = views.bid.alias("B")
    joined = bid.join(auction, f.col("B.auction") == f.col("A.id"))
    return joined.select(
        "B.auction",
        "B.bidder",
        "B.price",
        "B.channel",
        "B.url",
        f.col("B.dateTime").alias("bid_dateTime"),
        f.col("B.extra").alias("bid_extra"),
        *_joined_auction(),
    )


def q23(events: DataFrame) -> DataFrame:
    """Multi-join: every bid with its bidder and with each auction its bidder sells (Flink's
    q23: ``bid JOIN person ON id = bidder JOIN auction ON seller = bidder``).

    Two stream-stream inner joins without a time bound, as Flink's: Spark keeps the three views'
    rows in its state for the query's whole life.

    Columns: ``bidder``, ``price``, ``channel``, ``url``, ``bid_extra``, ``person_id``, ``name``,
    ``emailAddress``, ``creditCard``, ``city``, ``state``, ``person_extra``, ``itemName``,
    ``description``, ``initialBid``, ``reserve``, ``auction_dateTime``, ``expires``, ``seller``,
    ``category``, ``auction_extra``.
    """
    from pyspark.sql import functions as f

    views = nexmark_views(events)
    bid, person, auction = views.bid.alias("B"), views.person.alias("P"), views.auction.alias("A")
    joined = bid.join(person, f.col("P.id") == f.col("B.bidder")).join(
        auction, f.col("A.seller") == f.col("B.bidder")
    )
    return joined.select(
        "B.bidder",
        "B.price",
        "B.channel",
        "B.url",
        f.col("B.extra").alias("bid_extra"),
        f.col("P.id").alias("person_id"),
        "P.name",
        "P.emailAddress",
        "P.creditCard",
        "P.city",
        "P.state",
        f.col("P.extra").alias("person_extra"),
        *_joined_auction(),
    )


def _closing_auctions(events: DataFrame) -> DataFrame:
    """Flink's ``auction`` view with Nexmark's watermark, 4 s behind, on ``expires`` instead of
    ``dateTime``: q4 and q9 group by it, which lets append mode write an auction once the
    watermark has passed its expiry, when no bid before it can still come."""
    from pyspark.sql import functions as f
    from pyspark.sql.types import StructType

    kind = events.schema["auction"].dataType
    assert isinstance(kind, StructType), "auction is a struct of the nexmark source's schema"
    columns = [
        f.col("dateTime") if name == "dateTime" else f.col(f"auction.{name}").alias(name)
        for name in kind.fieldNames()
    ]
    auctions = events.where(f.col("event_type") == AUCTION).select(*columns)
    return auctions.withWatermark("expires", WATERMARK_DELAY)


def _bids_in_auctions(events: DataFrame) -> tuple[DataFrame, list[str]]:
    """Flink's join of q4 and q9: each auction (``A``) with each bid on it (``B``) made from the
    auction's ``dateTime`` to its ``expires``, both included; and the auction's columns."""
    from pyspark.sql import functions as f

    auction = _closing_auctions(events)
    bid = nexmark_views(events).bid.alias("B")
    within = f.col("B.dateTime").between(f.col("A.dateTime"), f.col("A.expires"))
    joined = auction.alias("A").join(bid, (f.col("A.id") == f.col("B.auction")) & within)
    return joined, auction.columns


def q9(events: DataFrame) -> DataFrame:
    """Winning bids: each auction with its highest bid made from its start to its expiry, both
    included, the earliest of them on a tie of prices (Flink's q9).

    Flink ranks each auction's bids with ``ROW_NUMBER() OVER (PARTITION BY A.id ORDER BY B.price
    DESC, B.dateTime ASC)``, which Spark refuses on a stream, and updates (retracts) an
    auction's row as higher bids come, before the auction has closed. Here the same winner is an
    aggregation: the maximum, per auction, of ``(price, the bid's time negated, the bidder's id
    negated, extra)``, so that bids at the same price and time go to the lower bidder id, then the
    greater ``extra`` (Flink leaves that tie to chance); the auction's row is written once, when it
    has closed.

    The auctions carry the 4 s watermark on ``expires`` (not ``dateTime``), and the aggregation
    groups by it: an auction is written in the batch whose watermark has passed its expiry,
    strictly (``expires < watermark``: the join hands on a watermark 1 ms behind the query's, as
    a bid at the watermark itself could still come), and later auctions are never written under
    ``Trigger.AvailableNow``. The query's watermark is the least of the bids' (latest bid less 4 s)
    and the auctions' (latest expiry less 4 s). Spark drops an auction from the join's state once
    the watermark passes its expiry; it keeps every bid, as Flink's join does.

    Columns: the auction's ``id``, ``itemName``, ``description``, ``initialBid``, ``reserve``,
    ``dateTime``, ``expires``, ``seller``, ``category``, ``extra``, then the winning bid's
    ``auction``, ``bidder``, ``price``, ``bid_dateTime``, ``bid_extra``.
    """
    from pyspark.sql import functions as f

    joined, auction_columns = _bids_in_auctions(events)
    # The order of the struct's first four fields decides the winner; the others come with it.
    winner = f.struct(
        f.col("B.price").alias("price"),
        (-f.unix_micros(f.col("B.dateTime"))).alias("earliest"),
        (-f.col("B.bidder")).alias("lowest_bidder"),
        f.col("B.extra").alias("extra"),
        f.col("B.auction").alias("auction"),
        f.col("B.bidder").alias("bidder"),
        f.col("B.dateTime").alias("dateTime"),
    )
    auctions = joined.groupBy(*(f.col(f"A.{name}") for name in auction_columns))
    won = auctions.agg(f.max(winner).alias("winner"))
    return won.select(
        *auction_columns,
        "winner.auction",
        "winner.bidder",
        "winner.price",
        f.col("winner.dateTime").alias("bid_dateTime"),
        f.col("winner.extra").alias("bid_extra"),
    )


def q4_closing_prices(events: DataFrame) -> DataFrame:
    """The streamable part of Flink's q4 (average price for a category): each auction's closing
    price, its highest bid made from its start to its expiry, both included (Flink's inner query,
    ``SELECT MAX(B.price) AS final, A.category ... GROUP BY A.id, A.category``), written once,
    when the auction has closed, as [`q9`][spark_random_strings.nexmark.queries.q9] writes it.
    Auctions without such a bid have no closing price.

    Flink's q4 averages these per category in the same statement, an aggregation of an
    aggregation of a stream-stream join that Spark refuses in every output mode (append: the
    average has no event-time key; update: "possible 'correctness' issue due to global
    watermark"; complete: the join). Average them in a second step with
    [`q4_average`][spark_random_strings.nexmark.queries.q4_average]: over the rows written so far
    (a batch read of the sink), or as a second streaming query that reads the sink (the file
    sink's files, say) in complete mode.

    Columns: ``id`` (the auction's), ``category``, ``final``.
    """
    from pyspark.sql import functions as f

    joined, _ = _bids_in_auctions(events)
    closing = joined.groupBy("A.id", "A.category", "A.expires").agg(f.max("B.price").alias("final"))
    return closing.select("id", "category", "final")


def q4_average(closing: DataFrame) -> DataFrame:
    """Flink's q4 over the closing prices of
    [`q4_closing_prices`][spark_random_strings.nexmark.queries.q4_closing_prices]: the average
    closing price per category, ``AVG(final) GROUP BY category``.

    As Flink's ``AVG`` of a ``BIGINT``, the average is a ``BIGINT``: the sum divided by the count
    in integers, the remainder dropped (Spark's ``avg`` would give a ``DOUBLE``). Flink's result
    is updated as bids come, before the auctions close; this one averages the closed auctions'
    prices that ``closing`` holds.

    Args:
        closing: the rows of ``q4_closing_prices``: a static DataFrame of those written so far,
            or a stream of them (written in complete or update mode).

    Returns:
        Columns ``id`` (the category, as Flink's table names it) and ``final``.
    """
    from pyspark.sql import functions as f

    averages = closing.groupBy("category").agg(f.expr("sum(final) div count(final)").alias("final"))
    return averages.select(f.col("category").alias("id"), "final")
