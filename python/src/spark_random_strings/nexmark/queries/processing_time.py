"""Nexmark's q12: bids counted in windows of processing time, the one Nexmark query whose rows
depend on the wall clock."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spark_random_strings.nexmark.views import latest_column, latest_event, nexmark_views

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

#: q12's tumbling window of processing time.
PROCESSING_TIME_WINDOW = "10 seconds"


def q12(events: DataFrame, *, latest: bool = False) -> DataFrame:
    """Processing-time windows: each bidder's bids per 10 s tumbling window of processing time
    (Flink's q12, ``TUMBLE(..., DESCRIPTOR(PROCTIME()), INTERVAL '10' SECOND)``).

    Flink reads the clock for each bid; Spark's processing time, ``current_timestamp()``, is the
    micro-batch's time, which the checkpoint keeps (a batch replayed after a failure has the time
    it first had). So all the bids of a batch fall into the window of the batch's time, and a
    window counts the bids of the batches that started in it. The rows depend on when the batches
    ran: no answer is exact, but every bid is counted once, in the window of its batch.

    Write in **update** mode: each batch writes the running count of each bidder's window it
    changed, an upsert of ``(bidder, starttime)``. Append mode would write a window only once a
    later batch's time had passed its end, which no watermark on a clock can promise.

    Columns: ``bidder``, ``bid_count``, ``starttime``, ``endtime``. With ``latest=True``, a last
    column ``dateTime``: the time of the newest bid the row counts, what a latency measurement
    reads (`make bench`'s real-time queries).
    """
    from pyspark.sql import functions as f

    bid = nexmark_views(events).bid.withColumn("p_time", f.current_timestamp())
    counts = bid.groupBy("bidder", f.window("p_time", PROCESSING_TIME_WINDOW)).agg(
        f.count("*").alias("bid_count"), *latest_event(latest)
    )
    return counts.select(
        "bidder",
        "bid_count",
        f.col("window.start").alias("starttime"),
        f.col("window.end").alias("endtime"),
        *latest_column(latest),
    )
