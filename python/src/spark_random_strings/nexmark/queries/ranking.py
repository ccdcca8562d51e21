"""The Nexmark queries that rank rows per key (q6, q18, q19), after Flink's Nexmark SQL;
``nexmark_queries`` is their public module, which re-exports them.

Flink writes them with ``ROW_NUMBER() OVER (PARTITION BY ...)`` and ``AVG() OVER (... ROWS ...)``,
which Spark refuses on a stream (``NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING``). Here q18's latest
bid is an aggregation (the greatest of a struct led by the time), and q6's last ten auctions and
q19's top ten bids are kept by stateful processors that Spark's ``transformWithState`` runs (Spark
4.0 and later), which need the RocksDB state store. q19's runs in the JVM (the jar's
``RankingQueries``) where the session's driver has the jar, which real-time mode needs; q6's, and
q19's on Spark Connect, run in Python (``nexmark.processors``, ``transformWithStateInPandas``),
which needs pandas and protobuf in the driver's and the workers' Python.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

from spark_random_strings.engine.session import driver_loads
from spark_random_strings.nexmark.queries.joins import _bids_in_auctions
from spark_random_strings.nexmark.views import nexmark_views

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

#: The session setting that ``transformWithState`` needs, and the value it needs.
STATE_STORE_PROVIDER = "spark.sql.streaming.stateStore.providerClass"
ROCKSDB_PROVIDER = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"
#: The jar's queries whose processor runs in the JVM.
JVM_RANKING_QUERIES = "io.github.sparkrandomstrings.nexmark.queries.RankingQueries"


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False


def _check_transform_with_state(
    events: DataFrame, query: str, *, in_python: bool = True, why: str = ""
) -> None:
    """Refuse, naming what is missing, a session that cannot run ``query``'s processor: in Python
    (``transformWithStateInPandas``; ``why`` says why it runs there) or, with ``in_python`` False,
    in the JVM."""
    import pyspark
    from pyspark.sql import GroupedData

    if not hasattr(GroupedData, "transformWithStateInPandas"):
        raise RuntimeError(
            f"{query} needs Spark 4.0 or later: it keeps its state with transformWithState, which "
            f"pyspark {pyspark.__version__} lacks."
        )
    missing = [name for name in ("pandas", "google.protobuf") if not _importable(name)] if in_python else []
    if missing:
        raise RuntimeError(
            f"{query} needs {' and '.join(missing)} in the driver's and the workers' Python, as Spark's "
            f"transformWithStateInPandas does{why}: pip install 'spark-random-strings[connect]' brings both."
        )
    provider = events.sparkSession.conf.get(STATE_STORE_PROVIDER)
    if provider != ROCKSDB_PROVIDER:
        raise ValueError(
            f"{query} keeps its state with transformWithState, which needs the RocksDB state store, "
            f"but {STATE_STORE_PROVIDER} is {provider!r}. Set it before the query starts: "
            f'spark.conf.set("{STATE_STORE_PROVIDER}", "{ROCKSDB_PROVIDER}").'
        )


def _travelling_processors() -> object:
    """``nexmark.processors``, registered to be pickled by value: the workers' Python needs
    nothing of this package."""
    import importlib

    from pyspark import cloudpickle

    module = importlib.import_module("spark_random_strings.nexmark.processors")
    cloudpickle.register_pickle_by_value(module)  # type: ignore[no-untyped-call]
    return module


def q6(events: DataFrame) -> DataFrame:
    """Average selling price by seller: each time one of a seller's auctions closes, the average
    closing price of its last 10 closed auctions, that one included (Nexmark's q6).

    An auction's closing price is its highest bid from its start to its expiry, both included, as
    [`q4_closing_prices`][spark_random_strings.nexmark.queries.q4_closing_prices] and
    [`q9`][spark_random_strings.nexmark.queries.q9] take it, written once the watermark has passed
    its expiry; auctions without such a bid do not close with a price. A stateful processor keyed by
    the seller keeps its last 10 prices, in the order the auctions closed (their expiry, then their
    id), and writes one row per closed auction. As Flink's ``AVG`` of a ``BIGINT``, the average is
    a ``BIGINT``, the remainder dropped.

    Flink's statement, which Flink cannot run (the ``OVER`` window cannot take the ranking's
    retractions), averages ``ROWS BETWEEN 10 PRECEDING AND CURRENT ROW``, 11 auctions, ordered by
    the winning bid's time; Nexmark's definition takes the last 10, and Beam's ``Query6`` keeps the
    10 with the latest winning bids (by the bid's time, then price) and rounds the mean. Here, the
    last 10 in the order they close, which is the order a stream learns of them, and the mean
    rounded down.

    Spark 4.0 and later, with the RocksDB state store (see the module's documentation). Write in
    append mode.

    Columns: ``seller``, ``avg_price``.
    """
    from pyspark.sql import functions as f

    _check_transform_with_state(events, "q6")
    processors = _travelling_processors()
    joined, _ = _bids_in_auctions(events)
    closed = joined.groupBy("A.id", "A.seller", "A.expires").agg(f.max("B.price").alias("final"))
    sellers = closed.select("seller", "id", f.unix_micros("expires").alias("expires_micros"), "final")
    return sellers.groupBy("seller").transformWithStateInPandas(
        processors.LastClosedAuctions(),  # type: ignore[attr-defined]
        outputStructType=processors.SELLER_PRICE_SCHEMA,  # type: ignore[attr-defined]
        outputMode="Append",
        timeMode="None",
    )


def q18(events: DataFrame) -> DataFrame:
    """Find last bid: each bidder's latest bid on each auction (Flink's q18, ``ROW_NUMBER() OVER
    (PARTITION BY bidder, auction ORDER BY dateTime DESC) <= 1``).

    An aggregation per bidder and auction keeps the greatest of ``(dateTime, price, channel, url,
    extra)``: the latest bid, and of bids at the same time the highest price, then the greatest
    channel, url and extra (Flink keeps whichever came last). Write in **update** mode: each batch
    writes the rows whose latest bid changed, an upsert of ``(bidder, auction)``, as Flink's rows
    are updated; append mode refuses an aggregation without an event-time key. Spark keeps a row
    per bidder and auction for the query's life, as Flink's.

    Columns: ``auction``, ``bidder``, ``price``, ``channel``, ``url``, ``dateTime``, ``extra``.
    """
    from pyspark.sql import functions as f

    bid = nexmark_views(events).bid
    latest = f.max(f.struct("dateTime", "price", "channel", "url", "extra")).alias("latest")
    pairs = bid.groupBy("bidder", "auction").agg(latest)
    fields = ["price", "channel", "url", "dateTime", "extra"]
    return pairs.select("auction", "bidder", *(f.col(f"latest.{name}").alias(name) for name in fields))


def q19(events: DataFrame) -> DataFrame:
    """Auction top-10 price: each auction's 10 highest bids, numbered 1 to 10 (Flink's q19,
    ``ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) <= 10``).

    A stateful processor keyed by the auction keeps its 10 greatest bids: the highest price, then
    the earliest, the lowest bidder id and the greatest ``extra`` (Flink leaves ties to chance).
    Write in **update** mode: each batch writes the ranks whose bid changed, an upsert of
    ``(auction, rank_number)``, as Flink's rows are updated. Spark keeps 10 bids per auction for
    the query's life, as Flink's.

    The processor runs in the JVM (the jar's ``RankingQueries``) where the session's driver has the
    jar: a classic session with the jar on ``spark.jars``, the one query of this kind that Spark
    4.3 runs in real-time mode. On Spark Connect, or a session reading the Python source, the same
    processor runs in Python, and needs pandas and protobuf (see the module's documentation).
    Either way Spark 4.0 and later, with the RocksDB state store. The two keep their state apart: a
    checkpoint restarts with the processor it began with (a query begun on Spark Connect restarts
    there, or on a session without the jar).

    Columns: ``auction``, ``bidder``, ``price``, ``channel``, ``url``, ``dateTime``, ``extra``,
    ``rank_number``.
    """
    from pyspark.sql import DataFrame

    spark = events.sparkSession
    if not driver_loads(spark, JVM_RANKING_QUERIES):
        return _q19_in_python(events)
    _check_transform_with_state(events, "q19", in_python=False)
    bid = nexmark_views(events).bid
    queries = spark._jvm.io.github.sparkrandomstrings.nexmark.queries.RankingQueries  # type: ignore[union-attr]
    return DataFrame(queries.q19(bid._jdf), spark)


def _q19_in_python(events: DataFrame) -> DataFrame:
    """q19 with its processor in Python (``transformWithStateInPandas``): where the driver has no
    jar to run it in the JVM."""
    from pyspark.sql import functions as f

    why = " (q19 runs its processor in Python where the driver has no jar, as on Spark Connect)"
    _check_transform_with_state(events, "q19", why=why)
    processors = _travelling_processors()
    bid = nexmark_views(events).bid
    fields = ["bidder", "price", "channel", "url", f.unix_micros("dateTime").alias("micros"), "extra"]
    ranked = (
        bid.select("auction", *fields)
        .groupBy("auction")
        .transformWithStateInPandas(
            processors.TopBids(),  # type: ignore[attr-defined]
            outputStructType=processors.RANKED_BID_SCHEMA,  # type: ignore[attr-defined]
            outputMode="Update",
            timeMode="None",
        )
    )
    return ranked.select(
        "auction",
        "bidder",
        "price",
        "channel",
        "url",
        f.timestamp_micros("micros").alias("dateTime"),
        "extra",
        "rank_number",
    )
