"""The Nexmark benchmark's queries as Spark Structured Streaming queries, after Flink's Nexmark SQL.

Each function takes the stream of [`read_nexmark`][spark_random_strings.nexmark.read_nexmark] and
returns a streaming DataFrame to write in **append** mode (the default; q12, q18 and q19, whose
rows are upserts, in **update** mode: ``UPDATE_QUERIES``), with the columns of Flink's result
table (``nexmark_q<n>``) under their names; its docstring says what Flink's query computes and
where this one differs. Times are Spark ``TIMESTAMP`` columns; where Flink reads a time's calendar
fields (the hour, the day), they are taken in UTC, as Flink's ``TIMESTAMP(3)`` holds the
generator's epoch milliseconds, whatever the session's time zone.

    events = read_nexmark(spark, num_events=1_000_000, first_event_rate=50_000, next_event_rate=50_000)
    q7(events).writeStream.format("noop").start()

Every windowed query closes a window (or a session) once Nexmark's watermark, 4 s behind the
latest event time of each view it reads (the least of them), reaches the window's end. Under
``Trigger.AvailableNow`` a bounded stream is read in one batch, and a last batch without data
then moves the watermark to its final place: the windows that end at or before it are written,
the later ones never are.

The stateless queries (q0, q1, q2, q10, q13, q14, q21, q22) also run in the other output modes.

q4 and q9 close auctions: the auctions carry the watermark on ``expires`` (not ``dateTime``), and
an auction is written once the watermark has passed its expiry (``expires < watermark``), with
its winning bid (``q9``) or its closing price (``q4_closing_prices``); ``q4_average`` then
averages the closing prices per category, in a second step, as Flink's q4 does in one statement.
``q6`` keeps each seller's last 10 closing prices.

Where Spark refuses Flink's statement, each query says what it does instead (checked on Spark 4):

- **q4** (average closing price per category) as one streaming query: an aggregation of an
  aggregation of a stream-stream join. Append mode refuses the average, which has no event-time
  key (``STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION``), update mode refuses the chain ("Detected
  pattern of possible 'correctness' issue due to global watermark"), complete mode refuses the
  join ("Inner join between two streaming DataFrames/Datasets is not supported in Complete output
  mode"). Hence ``q4_closing_prices`` and ``q4_average``.
- **q6**, **q18**, **q19**: ``AVG() OVER`` and ``ROW_NUMBER() OVER (PARTITION BY ...)``, which
  Spark refuses on a stream (``NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING``). q18's latest bid is
  an aggregation; q6's last 10 auctions and q19's top 10 bids are kept by stateful processors
  that ``transformWithState`` runs (Spark 4.0 and later, with the RocksDB state store): q19's in
  the JVM where the driver has the jar (in Python on Spark Connect), q6's in Python. q18 and q19
  are written in update mode, each row an upsert of Flink's key.
- **q15** to **q17** (daily statistics): ``count(DISTINCT ...)``, which Spark refuses on a stream
  ("Distinct aggregations are not supported on streaming DataFrames/Datasets"), is the size of a
  set; the day, a grouping append mode refuses without a watermark, is a one-day window.
- **q12** counts by processing time, which in Spark is each micro-batch's time: its rows depend on
  when the batches ran (update mode; no exact answer). **q13** joins a side input that Flink's
  benchmark generates as a file; ``nexmark_side_input`` makes the same table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spark_random_strings.nexmark.queries.daily import DAY_WINDOW, RANK_PRICES, q15, q16, q17
from spark_random_strings.nexmark.queries.joins import (
    Q3_CATEGORY,
    Q3_STATES,
    Q20_CATEGORY,
    TUMBLING_WINDOW,
    q3,
    q4_average,
    q4_closing_prices,
    q7,
    q8,
    q9,
    q20,
    q23,
)
from spark_random_strings.nexmark.queries.processing_time import PROCESSING_TIME_WINDOW, q12
from spark_random_strings.nexmark.queries.ranking import ROCKSDB_PROVIDER, STATE_STORE_PROVIDER, q6, q18, q19
from spark_random_strings.nexmark.queries.side_input import SIDE_INPUT_ROWS, nexmark_side_input, q13
from spark_random_strings.nexmark.utc import utc_day, utc_hour, utc_minute
from spark_random_strings.nexmark.views import latest_column, latest_event, nexmark_views

if TYPE_CHECKING:
    from pyspark.sql import Column, DataFrame

#: Flink's dollar-to-euro rate (q1, q14), a ``DECIMAL(3, 3)`` literal.
EURO_RATE = "0.908"
#: Flink's type of a price in euros: ``0.908 * price``, a ``DECIMAL(4, 3)`` times a ``BIGINT``.
EURO_PRICE_TYPE = "DECIMAL(23, 3)"
#: q2's modulus: bids on every 123rd auction.
Q2_MODULUS = 123
#: q5's sliding window: its size and slide.
Q5_WINDOW, Q5_SLIDE = "10 seconds", "2 seconds"
#: q11's session gap.
SESSION_GAP = "10 seconds"
#: q14's bounds on the price in euros (exclusive).
Q14_MIN_EUROS, Q14_MAX_EUROS = 1_000_000, 50_000_000
#: q21's channel ids of the hot channels, by lower-case name.
Q21_CHANNEL_IDS = {"apple": "0", "google": "1", "facebook": "2", "baidu": "3"}
#: q21's pattern: group 2 is the channel id of a url.
Q21_CHANNEL_ID_PATTERN = "(&|^)channel_id=([^&]*)"


def _euros(price: str) -> Column:
    """Flink's ``0.908 * price``, as Flink types it (``DECIMAL(23, 3)``)."""
    from pyspark.sql import functions as f

    return f.expr(f"CAST({EURO_RATE} * {price} AS {EURO_PRICE_TYPE})")


def q0(events: DataFrame) -> DataFrame:
    """Pass-through: every bid (Flink's q0, the source's cost alone).

    Columns: ``auction``, ``bidder``, ``price``, ``dateTime``, ``extra``.
    """
    return nexmark_views(events).bid.select("auction", "bidder", "price", "dateTime", "extra")


def q1(events: DataFrame) -> DataFrame:
    """Currency conversion: every bid with its price in euros, ``0.908 * price`` (Flink's q1).

    Columns: ``auction``, ``bidder``, ``price`` (``DECIMAL(23, 3)``, Flink's type), ``dateTime``,
    ``extra``.
    """
    bid = nexmark_views(events).bid
    return bid.select("auction", "bidder", _euros("price").alias("price"), "dateTime", "extra")


def q2(events: DataFrame) -> DataFrame:
    """Selection: the bids on every 123rd auction, ``MOD(auction, 123) = 0`` (Flink's q2).

    Columns: ``auction``, ``price``.
    """
    from pyspark.sql import functions as f

    bid = nexmark_views(events).bid
    return bid.where(f.col("auction") % Q2_MODULUS == 0).select("auction", "price")


def q5_counts(events: DataFrame, *, latest: bool = False) -> DataFrame:
    """The streamable part of Flink's q5 (hot items): the bids on each auction in each sliding
    window of 10 s every 2 s, one row per auction and window, written when the window closes.

    Flink's q5 joins these counts with their maximum per window; in Spark's append mode that join
    writes no rows (checked: none of the 35 that the data holds; the aggregated streams' rows are
    dropped as late). Rank each micro-batch instead, with ``foreachBatch`` and
    [`q5_hot_items`][spark_random_strings.nexmark.queries.q5_hot_items]: in append mode a window's
    counts all come in the batch that closes it. [`q5`][spark_random_strings.nexmark.queries.q5]
    does the whole query in the stream.

    Columns: ``auction``, ``num`` (its bids in the window), ``starttime``, ``endtime`` (the
    window's). With ``latest=True``, a last column ``dateTime``: the time of the newest bid the
    row counts, what a latency measurement reads (`make bench`'s real-time queries).
    """
    from pyspark.sql import functions as f

    bid = nexmark_views(events).bid
    counts = bid.groupBy("auction", f.window("dateTime", Q5_WINDOW, Q5_SLIDE)).agg(
        f.count("*").alias("num"), *latest_event(latest)
    )
    return counts.select(
        "auction",
        "num",
        f.col("window.start").alias("starttime"),
        f.col("window.end").alias("endtime"),
        *latest_column(latest),
    )


def q5_hot_items(batch: DataFrame) -> DataFrame:
    """Rank a batch of [`q5_counts`][spark_random_strings.nexmark.queries.q5_counts]: in each
    window, the auctions with the most bids (every one of them on a tie), as Flink's q5's join
    with the maximum per window (``num >= maxn``).

    Args:
        batch: a static DataFrame of ``q5_counts``'s rows, such as a ``foreachBatch`` batch,
            holding every count of each of its windows.

    Returns:
        Columns ``auction``, ``num``, ``starttime``, ``endtime``.
    """
    from pyspark.sql import Window
    from pyspark.sql import functions as f

    window = Window.partitionBy("starttime", "endtime")
    ranked = batch.withColumn("maxn", f.max("num").over(window))
    return ranked.where(f.col("num") >= f.col("maxn")).select("auction", "num", "starttime", "endtime")


def q5(events: DataFrame) -> DataFrame:
    """Hot items: in each sliding window of 10 s every 2 s, the auctions with the most bids
    (Flink's q5), every one of them on a tie.

    Flink joins the counts per auction and window with their maximum per window, which Spark's
    append mode cannot (see [`q5_counts`][spark_random_strings.nexmark.queries.q5_counts]); here a
    second aggregation, per window, of the first's rows keeps the maximum and the window's counts,
    and the auctions at the maximum are unnested from them. Chained aggregations run in append
    mode (Spark 3.4+), the second closing each window in the batch in which the first writes it.

    Columns: ``auction``, ``num``, and the window's ``starttime`` and ``endtime``, which Flink's
    table leaves out.
    """
    from pyspark.sql import functions as f

    bid = nexmark_views(events).bid
    counts = bid.groupBy("auction", f.window("dateTime", Q5_WINDOW, Q5_SLIDE)).agg(f.count("*").alias("num"))
    windows = counts.groupBy("window").agg(
        f.max("num").alias("maxn"), f.collect_list(f.struct("auction", "num")).alias("counts")
    )
    hot = windows.select("window", "maxn", f.explode("counts").alias("hot")).where("hot.num >= maxn")
    return hot.select(
        "hot.auction",
        "hot.num",
        f.col("window.start").alias("starttime"),
        f.col("window.end").alias("endtime"),
    )


def q10(events: DataFrame) -> DataFrame:
    """Log to file system: every bid with its day and minute, the partition columns of Flink's
    q10, which writes them to files partitioned by both (here: the DataFrame; write it with
    ``partitionBy("dt", "hm")``).

    Columns: ``auction``, ``bidder``, ``price``, ``dateTime``, ``extra``, ``dt``
    (``yyyy-MM-dd``) and ``hm`` (``HH:mm``), both in UTC.
    """
    from pyspark.sql import functions as f

    time = f.col("dateTime")
    bid = nexmark_views(events).bid
    return bid.select(
        "auction",
        "bidder",
        "price",
        "dateTime",
        "extra",
        utc_day(time).alias("dt"),
        utc_minute(time).alias("hm"),
    )


def q11(events: DataFrame) -> DataFrame:
    """User sessions: the bids of each bidder per session, a session ending after 10 s without
    the bidder's bids (Flink's q11), written when the session closes.

    Spark's ``session_window``, like Flink's session windows, merges two bids exactly 10 s apart
    into one session; a session ends 10 s after its last bid.

    Columns: ``bidder``, ``bid_count``, ``starttime``, ``endtime``.
    """
    from pyspark.sql import functions as f

    bid = nexmark_views(events).bid
    sessions = bid.groupBy("bidder", f.session_window("dateTime", SESSION_GAP)).agg(
        f.count("*").alias("bid_count")
    )
    return sessions.select(
        "bidder",
        "bid_count",
        f.col("session_window.start").alias("starttime"),
        f.col("session_window.end").alias("endtime"),
    )


def q14(events: DataFrame) -> DataFrame:
    """Calculation: the bids between 1,000,000 and 50,000,000 in euros (both excluded), with the
    price in euros, the time of day and the number of ``c`` in ``extra`` (Flink's q14, with its
    ``count_char`` function).

    ``bidTimeType`` is ``dayTime`` from 8:00 to 18:59, ``nightTime`` from 20:00 to 6:59 and
    ``otherTime`` else, by the hour in UTC.

    Columns: ``auction``, ``bidder``, ``price`` (``DECIMAL(23, 3)``), ``bidTimeType``,
    ``dateTime``, ``extra``, ``c_counts``.
    """
    from pyspark.sql import functions as f

    hour = utc_hour(f.col("dateTime"))
    time_type = (
        f.when((hour >= 8) & (hour <= 18), "dayTime")
        .when((hour <= 6) | (hour >= 20), "nightTime")
        .otherwise("otherTime")
    )
    c_counts = (f.length("extra") - f.length(f.replace(f.col("extra"), f.lit("c"), f.lit("")))).cast("bigint")
    bid = nexmark_views(events).bid
    euros = _euros("price")
    return bid.where((euros > Q14_MIN_EUROS) & (euros < Q14_MAX_EUROS)).select(
        "auction",
        "bidder",
        euros.alias("price"),
        time_type.alias("bidTimeType"),
        "dateTime",
        "extra",
        c_counts.alias("c_counts"),
    )


def q21(events: DataFrame) -> DataFrame:
    """Add channel id: the bids of a known channel, each with its channel's id (Flink's q21):
    ``0`` to ``3`` for Apple, Google, Facebook and Baidu (by lower-case name), else the url's
    ``channel_id`` parameter; bids with neither are left out.

    Flink's ``REGEXP_EXTRACT`` gives null where the url has no ``channel_id``; Spark's
    ``regexp_extract`` gives an empty string, taken as null here (so an empty ``channel_id=`` is
    null too, which Nexmark's urls never have).

    Columns: ``auction``, ``bidder``, ``price``, ``channel``, ``channel_id``.
    """
    from pyspark.sql import functions as f

    extracted = f.nullif(f.regexp_extract(f.col("url"), Q21_CHANNEL_ID_PATTERN, 2), f.lit(""))
    channel = f.lower(f.col("channel"))
    channel_id = f.when(channel == "apple", Q21_CHANNEL_IDS["apple"])
    for name in ("google", "facebook", "baidu"):
        channel_id = channel_id.when(channel == name, Q21_CHANNEL_IDS[name])
    bid = nexmark_views(events).bid
    known = extracted.isNotNull() | channel.isin(*Q21_CHANNEL_IDS)
    return bid.where(known).select(
        "auction", "bidder", "price", "channel", channel_id.otherwise(extracted).alias("channel_id")
    )


def q22(events: DataFrame) -> DataFrame:
    """Get URL directories: every bid with the first three directories of its url (Flink's q22:
    ``SPLIT_INDEX(url, '/', 3)``, 4 and 5, counted from 0; null where the url has fewer parts).

    Columns: ``auction``, ``bidder``, ``price``, ``channel``, ``dir1``, ``dir2``, ``dir3``.
    """
    from pyspark.sql import functions as f

    parts = f.split(f.col("url"), "/")
    bid = nexmark_views(events).bid
    return bid.select(
        "auction",
        "bidder",
        "price",
        "channel",
        *(f.get(parts, index).alias(f"dir{index - 2}") for index in (3, 4, 5)),
    )


#: The queries of this module, ``q4_closing_prices`` and ``q5_counts`` included (``q4_average``
#: averages the rows of the first, ``q5_hot_items`` ranks the batches of the second).
QUERY_NAMES = (
    "q0",
    "q1",
    "q2",
    "q3",
    "q4_closing_prices",
    "q5",
    "q5_counts",
    "q6",
    "q7",
    "q8",
    "q9",
    "q10",
    "q11",
    "q12",
    "q13",
    "q14",
    "q15",
    "q16",
    "q17",
    "q18",
    "q19",
    "q20",
    "q21",
    "q22",
    "q23",
)
#: Each query of this module by its name.
QUERIES = {name: globals()[name] for name in QUERY_NAMES}
#: The queries written in update mode only: each row an upsert of the query's key.
UPDATE_QUERIES = ("q12", "q18", "q19")
#: The queries without an exact answer: q12 counts by the wall clock.
INEXACT_QUERIES = ("q12",)
#: The queries that keep their state with ``transformWithState``: Spark 4.0 and later, with
#: the RocksDB state store (``STATE_STORE_PROVIDER`` set to ``ROCKSDB_PROVIDER``).
TRANSFORM_WITH_STATE_QUERIES = ("q6", "q19")

#: The public names, in the order the documentation shows them (not sorted), those of
#: ``nexmark.queries.joins`` (q3, q4, q7, q8, q9, q20, q23), ``nexmark.queries.daily`` (q15 to q17)
#: and ``nexmark.queries.ranking`` (q6, q18, q19), ``nexmark.queries.processing_time`` (q12) and
#: ``nexmark.queries.side_input`` (q13) included.
__all__ = [  # noqa: RUF022
    "q0", "q1", "q2", "q3", "q4_closing_prices", "q4_average", "q5", "q5_counts", "q5_hot_items",
    "q6", "q7", "q8", "q9", "q10", "q11", "q12", "q13", "nexmark_side_input", "q14", "q15", "q16",
    "q17", "q18", "q19", "q20", "q21", "q22", "q23", "QUERY_NAMES", "QUERIES", "UPDATE_QUERIES",
    "INEXACT_QUERIES", "TRANSFORM_WITH_STATE_QUERIES",
    "EURO_RATE", "EURO_PRICE_TYPE", "Q2_MODULUS", "Q3_CATEGORY", "Q3_STATES", "Q5_WINDOW", "Q5_SLIDE",
    "TUMBLING_WINDOW", "SESSION_GAP", "PROCESSING_TIME_WINDOW", "SIDE_INPUT_ROWS", "Q14_MIN_EUROS",
    "Q14_MAX_EUROS", "DAY_WINDOW", "RANK_PRICES", "Q20_CATEGORY", "Q21_CHANNEL_IDS",
    "Q21_CHANNEL_ID_PATTERN", "STATE_STORE_PROVIDER", "ROCKSDB_PROVIDER",
]  # fmt: skip
