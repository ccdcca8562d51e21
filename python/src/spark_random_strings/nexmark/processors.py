"""The stateful processors of q6 and q19, run by Spark's ``transformWithStateInPandas`` on the
workers. The module travels with the query, pickled by value, so that the workers' Python needs
nothing of this package: it imports pyspark, pandas, and from ``nexmark.answer_basics`` only q6's
and q19's sizes, numbers that travel as values. A function of the package would travel by
reference, for the workers to import; so ``bid_rank`` writes q19's order again here. Where the
driver has the jar, q19 runs the jar's processor instead (``TopBidsProcessor``, in the JVM, which
real-time mode needs); this one is q19's on Spark Connect and without the jar.

Each processor keeps at most ``LAST_AUCTIONS`` or ``TOP_BIDS`` rows per key in a list state,
ordered as its query ranks them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pandas as pd
from pyspark.sql.streaming.stateful_processor import StatefulProcessor, StatefulProcessorHandle

from spark_random_strings.nexmark.answer_basics import LAST_AUCTIONS, TOP_BIDS

#: q6's input (one closed auction of a seller) and q19's (one bid on an auction), as the queries
#: select them: times as epoch microseconds, so that no time zone comes between.
CLOSED_AUCTION_SCHEMA = "id bigint, expires_micros bigint, final bigint"
BID_SCHEMA = "bidder bigint, price bigint, channel string, url string, micros bigint, extra string"
#: Their output.
SELLER_PRICE_SCHEMA = "seller bigint, avg_price bigint"
RANKED_BID_SCHEMA = f"auction bigint, {BID_SCHEMA}, rank_number bigint"

_BID_FIELDS = ("bidder", "price", "channel", "url", "micros", "extra")


def _plain(value: Any) -> Any:
    """A pandas cell as a plain Python value (numpy's integers are not ``int``)."""
    return value.item() if hasattr(value, "item") else value


def _records(
    rows: Iterator[pd.DataFrame],
    fields: tuple[str, ...],
    top: tuple[list[str], list[bool], int] | None = None,
) -> list[tuple[Any, ...]]:
    """The rows of a key's batch, as tuples of ``fields``; with ``top`` (columns, ascending, n),
    only the first n in that order, sorted in pandas before any row becomes a tuple."""
    frames = [frame for frame in rows if len(frame)]
    if not frames:
        return []
    batch = pd.concat(frames, ignore_index=True)
    if top is not None:
        columns, ascending, n = top
        batch = batch.sort_values(columns, ascending=ascending, kind="stable").head(n)
    return [
        tuple(_plain(value) for value in record) for record in batch[list(fields)].itertuples(index=False)
    ]


class LastClosedAuctions(StatefulProcessor):
    """q6: per seller, the final prices of its last ``LAST_AUCTIONS`` closed auctions, in the order
    they closed (their expiry, then their id). Each closed auction that comes writes the seller's
    average over them, that one included, as an integer (the sum divided by the count, the
    remainder dropped)."""

    def init(self, handle: StatefulProcessorHandle) -> None:
        self._finals = handle.getListState("finals", "final bigint")

    def handleInputRows(
        self, key: Any, rows: Iterator[pd.DataFrame], timerValues: Any
    ) -> Iterator[pd.DataFrame]:
        closed = sorted(_records(rows, ("expires_micros", "id", "final")))
        finals = [int(row[0]) for row in self._finals.get()]
        averages = []
        for _, _, final in closed:
            finals = [*finals, final][-LAST_AUCTIONS:]
            averages.append((key[0], sum(finals) // len(finals)))
        if averages:
            self._finals.put([(final,) for final in finals])
            yield pd.DataFrame(averages, columns=["seller", "avg_price"])

    def close(self) -> None:
        pass


#: ``bid_rank``'s order as a pandas sort: the price descending, then the time, the bidder ascending,
#: then ``extra`` descending.
_RANK_SORT = (["price", "micros", "bidder", "extra"], [False, True, True, False])


def bid_rank(bid: tuple[Any, ...]) -> tuple[Any, ...]:
    """q19's order of an auction's bids, greatest first, as ``answer_basics.bid_rank`` orders them,
    on a tuple of ``BID_SCHEMA``'s fields. Written again, not imported: see the module's
    documentation."""
    bidder, price, _, _, micros, extra = bid
    return price, -micros, -bidder, extra


class TopBids(StatefulProcessor):
    """q19: per auction, its ``TOP_BIDS`` greatest bids by ``bid_rank``. Each batch that changes
    them writes the ranks whose bid changed, numbered from 1: an upsert of Flink's ``(auction,
    rank_number)``."""

    def init(self, handle: StatefulProcessorHandle) -> None:
        self._top = handle.getListState("top", BID_SCHEMA)

    def handleInputRows(
        self, key: Any, rows: Iterator[pd.DataFrame], timerValues: Any
    ) -> Iterator[pd.DataFrame]:
        before = [tuple(row) for row in self._top.get()]
        # Of a batch's bids (thousands, on a hot auction) only its own top TOP_BIDS can enter the top.
        batch_top = _records(rows, _BID_FIELDS, (*_RANK_SORT, TOP_BIDS))
        after = sorted([*before, *batch_top], key=bid_rank, reverse=True)[:TOP_BIDS]
        changed = [
            (key[0], *bid, rank)
            for rank, bid in enumerate(after, 1)
            if rank > len(before) or before[rank - 1] != bid
        ]
        if changed:
            self._top.put(after)
            yield pd.DataFrame(changed, columns=["auction", *_BID_FIELDS, "rank_number"])

    def close(self) -> None:
        pass
