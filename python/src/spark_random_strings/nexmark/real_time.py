"""The Nexmark queries in Spark's real-time mode (Spark 4.3): each query's real-time form, whose
rows say when the newest event they count came to exist, and the session settings a stateful
query runs with there.

Real-time mode runs a query's batches back to back, each a long-running task per partition; no
task runs in the pause between two batches, so the rows that come to exist in it wait for the
next batch's. A pause longer than 1% of the batch duration sets the p99. For a stateful query the
longest part of the pause was removing, at the batch's end, the state the watermark had passed
(``allRemovalsTimeMs``: about 300 ms of a 600 to 800 ms pause for q5's counts at 10,000 events/s
in 30 s batches, reading every row of the state). ``REAL_TIME_SETTINGS`` spreads that over the
batch; the pause left (about 250 ms) then no longer grows with the batch, and in 60 s batches it held
fewer than 1% of q5's rows (p99 10.7 ms). bench/boundary.py measures each setting Spark offers on
its own, and docs/real-time.md gives the figures.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from spark_random_strings.nexmark.queries import q0, q1, q5_counts, q12, q13, q18, q19
from spark_random_strings.nexmark.queries.daily import q15, q16, q17

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

#: Spark's setting that removes the state the watermark has passed as rows come in (up to this
#: many rows a row) rather than all at the batch's end.
INCREMENTAL_CLEANUP = "spark.sql.streaming.statefulOperator.incrementalCleanupFactor"

#: The session settings of a stateful query in real-time mode, beside those Spark 4.3 sets itself
#: there (the RocksDB state store, its changelog checkpointing, checkpoint format 2). The
#: watermark moves once a batch, so a 30 s batch makes 30 s of state removable at its start: one
#: removal a row clears it within the batch's first rows, each row's work a little longer.
REAL_TIME_SETTINGS = {INCREMENTAL_CLEANUP: "1"}


def q2_timed(events: DataFrame) -> DataFrame:
    """q2 (Flink's: the bids on auctions whose id is a multiple of 123, their auction and price)
    with each bid's ``dateTime`` kept, which a latency sink measures an event from."""
    return events.where("event_type = 2 AND bid.auction % 123 = 0").selectExpr(
        "bid.auction AS auction", "bid.price AS price", "dateTime"
    )


#: The queries real-time mode runs without state, each with a ``dateTime`` column.
STATELESS_REAL_TIME: dict[str, Callable[[DataFrame], DataFrame]] = {"q0": q0, "q1": q1, "q2": q2_timed}

#: The queries real-time mode runs with state on Spark 4.3 (and q13's stream-static join), each
#: row with the time of the newest event it counts (``dateTime``; q13's, q18's and q19's rows
#: with their bid's).
STATEFUL_REAL_TIME: dict[str, Callable[[DataFrame], DataFrame]] = {
    "q5_counts": functools.partial(q5_counts, latest=True),
    "q12": functools.partial(q12, latest=True),
    "q13": q13,
    "q15": functools.partial(q15, latest=True),
    "q16": functools.partial(q16, latest=True),
    "q17": functools.partial(q17, latest=True),
    "q18": q18,
    "q19": q19,
}

#: Every query real-time mode runs, by name.
REAL_TIME_QUERIES = {**STATELESS_REAL_TIME, **STATEFUL_REAL_TIME}

#: The queries whose rows pass a shuffle: real-time mode runs its stages at once, a long-running
#: task per source partition and one per shuffle partition (q13 joins a broadcast table instead).
SHUFFLED_REAL_TIME = tuple(name for name in STATEFUL_REAL_TIME if name != "q13")
