"""The exact answers of the queries that keep state per key beyond a window (q6, q15 to q19), as
``nexmark.answers`` computes the others: in plain Python, from the twin's events, for a bounded
stream read to its end under ``Trigger.AvailableNow``.

q6 and q15 to q17 are written in append mode: q6 one row per closed auction, q15 to q17 one row
per day that has closed (``end <= watermark``, the day a UTC day). q18 and q19 are written in
update mode, each row an upsert of the query's key; their answer is the table those upserts
leave: each bidder's latest bid per auction, each auction's top ``TOP_BIDS`` bids.
``DAILY_UPDATES`` gives q15 to q17 in update mode the same way: every day's final row, closed or
not.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from datetime import UTC, datetime

from spark_random_strings.nexmark.answer_basics import (
    LAST_AUCTIONS,
    TOP_BIDS,
    Answer,
    bid_rank,
    closed_auctions,
    fields_of,
    final_watermark_ms,
    int_field,
    str_field,
)
from spark_random_strings.nexmark.generator import BID, EventFields, NexmarkEvent

_MS_PER_DAY = 86_400_000
#: The price bands (cents): rank 1 below the first, rank 3 from the second on.
_RANK_PRICES = (10_000, 1_000_000)
#: The columns of a bid that q18 and q19 write after ``auction``, in their order.
_BID = ("bidder", "price", "channel", "url", "dateTime", "extra")


def q6(events: Sequence[NexmarkEvent]) -> Answer:
    """For each closed auction, its seller's average closing price over its last
    ``LAST_AUCTIONS`` closed auctions, that one included (in the order they closed: by expiry, then
    id), in integers, the remainder dropped: seller, avg_price."""
    closing: dict[object, list[tuple[int, int, int]]] = defaultdict(list)
    for auction, bids in closed_auctions(events):
        final = max(int_field(b, "price") for b in bids)
        closing[auction["seller"]].append((int_field(auction, "expires"), int_field(auction, "id"), final))
    rows: Answer = []
    for seller, auctions in closing.items():
        finals: list[int] = []
        for _, _, final in sorted(auctions):
            finals = [*finals, final][-LAST_AUCTIONS:]
            rows.append((seller, sum(finals) // len(finals)))
    return rows


def _rank(price: int) -> int:
    low, high = _RANK_PRICES
    return 1 if price < low else 2 if price < high else 3


def _day(time_ms: int) -> str:
    return datetime.fromtimestamp(time_ms // 1000, UTC).strftime("%Y-%m-%d")


def _distinct_counts(bids: list[EventFields], field: str) -> list[int]:
    """The distinct values of ``field`` in all of ``bids`` and in each price band."""
    sets: list[set[object]] = [set(), set(), set(), set()]
    for b in bids:
        sets[0].add(b[field])
        sets[_rank(int_field(b, "price"))].add(b[field])
    return [len(values) for values in sets]


def _bid_counts(bids: list[EventFields]) -> list[int]:
    """The number of ``bids``, in all and in each price band."""
    counts = [len(bids), 0, 0, 0]
    for b in bids:
        counts[_rank(int_field(b, "price"))] += 1
    return counts


def _per_day(
    events: Sequence[NexmarkEvent], key: Callable[[EventFields], Hashable], closed: bool
) -> dict[tuple[Hashable, int], list[EventFields]]:
    """The bids by ``key`` and UTC day (its first ms); with ``closed``, only the days whose end is
    at or before the final watermark."""
    watermark = final_watermark_ms(events, [BID])
    groups: dict[tuple[Hashable, int], list[EventFields]] = defaultdict(list)
    for b in fields_of(events, BID):
        time = int_field(b, "dateTime")
        day = time - time % _MS_PER_DAY
        if not closed or day + _MS_PER_DAY <= watermark:
            groups[key(b), day].append(b)
    return groups


def _q15(events: Sequence[NexmarkEvent], closed: bool) -> Answer:
    return [
        (_day(day), *_bid_counts(bids), *_distinct_counts(bids, "bidder"), *_distinct_counts(bids, "auction"))
        for (_, day), bids in _per_day(events, lambda b: None, closed).items()
    ]


def _q16(events: Sequence[NexmarkEvent], closed: bool) -> Answer:
    rows: Answer = []
    for (channel, day), bids in _per_day(events, lambda b: b["channel"], closed).items():
        latest = max(int_field(b, "dateTime") for b in bids)
        minute = datetime.fromtimestamp(latest // 1000, UTC).strftime("%H:%M")
        counts = (*_bid_counts(bids), *_distinct_counts(bids, "bidder"), *_distinct_counts(bids, "auction"))
        rows.append((channel, _day(day), minute, *counts))
    return rows


def _q17(events: Sequence[NexmarkEvent], closed: bool) -> Answer:
    rows: Answer = []
    for (auction, day), bids in _per_day(events, lambda b: b["auction"], closed).items():
        prices = [int_field(b, "price") for b in bids]
        total = sum(prices)
        rows.append(
            (auction, _day(day), *_bid_counts(bids), min(prices), max(prices), total // len(prices), total)
        )
    return rows


def q15(events: Sequence[NexmarkEvent]) -> Answer:
    """Each closed day's bids, distinct bidders and distinct auctions, in all and per price band:
    day, total_bids, rank1_bids ... rank3_auctions."""
    return _q15(events, closed=True)


def q16(events: Sequence[NexmarkEvent]) -> Answer:
    """q15's statistics per channel and closed day, with the latest minute: channel, day, minute,
    total_bids ... rank3_auctions."""
    return _q16(events, closed=True)


def q17(events: Sequence[NexmarkEvent]) -> Answer:
    """Per auction and closed day, its bids in all and per price band and its prices: auction, day,
    total_bids, rank1_bids, rank2_bids, rank3_bids, min_price, max_price, avg_price, sum_price."""
    return _q17(events, closed=True)


#: q15 to q17 written in update mode: the final row of every day, closed or not, by query name.
DAILY_UPDATES: dict[str, Callable[[Sequence[NexmarkEvent]], Answer]] = {
    "q15": lambda events: _q15(events, closed=False),
    "q16": lambda events: _q16(events, closed=False),
    "q17": lambda events: _q17(events, closed=False),
}


def q18(events: Sequence[NexmarkEvent]) -> Answer:
    """Each bidder's latest bid on each auction (of bids at one time, the greatest price, then
    channel, url and extra): auction, bidder, price, channel, url, dateTime, extra."""
    latest: dict[tuple[object, object], tuple[int, int, str, str, str]] = {}
    for b in fields_of(events, BID):
        key = (b["bidder"], b["auction"])
        candidate = (
            int_field(b, "dateTime"),
            int_field(b, "price"),
            str_field(b, "channel"),
            str_field(b, "url"),
            str_field(b, "extra"),
        )
        latest[key] = max(latest.get(key, candidate), candidate)
    return [
        (auction, bidder, price, channel, url, time, extra)
        for (bidder, auction), (time, price, channel, url, extra) in latest.items()
    ]


def q19(events: Sequence[NexmarkEvent]) -> Answer:
    """Each auction's ``TOP_BIDS`` greatest bids by ``bid_rank``, numbered from 1: auction, bidder,
    price, channel, url, dateTime, extra, rank_number."""
    bids: dict[object, list[EventFields]] = defaultdict(list)
    for b in fields_of(events, BID):
        bids[b["auction"]].append(b)

    rows: Answer = []
    for auction, auction_bids in bids.items():
        top = sorted(auction_bids, key=bid_rank, reverse=True)[:TOP_BIDS]
        rows += [(auction, *(b[name] for name in _BID), number) for number, b in enumerate(top, 1)]
    return rows
