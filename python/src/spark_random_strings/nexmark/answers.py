"""What each query of ``nexmark_queries`` writes for a bounded stream, computed in plain Python
from the twin's events (``nexmark.generator``): the exact answers that the tests hold Spark to.

Each function takes the events numbered 0 to N - 1 (``list(nexmark_events(config, 0, N))``) and
returns the rows that the query writes when it reads the stream of ``numEvents=N`` to its end
under ``Trigger.AvailableNow``, in append mode, as tuples of its columns in their order (in no
particular order of rows). Times, the windows' included, are epoch milliseconds; a price in euros
is a ``Decimal``.

What Spark writes there (checked by experiment, Spark 4): the events come in one batch, while the
watermark is still at the epoch, so no row is late; a last batch without data follows, with the
watermark moved to its final place, ``final_watermark_ms``. A window (tumbling, sliding or
session) is written when its end is at or before that watermark (``end <= watermark``, equality
included); a later window never is. The joins without a time bound write every match. q4's and
q9's auctions, whose watermark is on ``expires``, are written when their expiry is before the
final watermark (``expires < watermark``, equality excluded: see ``closing_watermark_ms``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from decimal import Decimal

from spark_random_strings.nexmark import stateful_answers
from spark_random_strings.nexmark.answer_basics import (
    Answer,
    bid_rank,
    closed_auctions,
    fields_of,
    final_watermark_ms,
    int_field,
    str_field,
)
from spark_random_strings.nexmark.generator import AUCTION, BID, PERSON, EventFields, NexmarkEvent
from spark_random_strings.nexmark.queries import INEXACT_QUERIES, QUERY_NAMES, SIDE_INPUT_ROWS

_SECOND_MS = 1_000
_TUMBLING_MS = 10 * _SECOND_MS
_Q5_SIZE_MS, _Q5_SLIDE_MS = 10 * _SECOND_MS, 2 * _SECOND_MS
_SESSION_GAP_MS = 10 * _SECOND_MS
_MS_PER_HOUR = 3_600_000
#: q14's bounds on ``0.908 * price``, times 1000 to compare with ``908 * price``.
_Q14_LOW, _Q14_HIGH = 1_000_000 * 1000, 50_000_000 * 1000
_HOT_CHANNEL_IDS = {"apple": "0", "google": "1", "facebook": "2", "baidu": "3"}
_CHANNEL_ID = "channel_id="
#: The fields that q20 and q23 take from each side, in their order.
_Q20_BID = ("auction", "bidder", "price", "channel", "url", "dateTime", "extra")
_Q23_BID = ("bidder", "price", "channel", "url", "extra")
_Q23_PERSON = ("id", "name", "emailAddress", "creditCard", "city", "state", "extra")
_JOINED_AUCTION = (
    "itemName", "description", "initialBid", "reserve", "dateTime", "expires", "seller", "category", "extra",
)  # fmt: skip
#: The auction's columns, in the order of Flink's ``auction`` view (q9's ``A.*``).
_AUCTION = ("id", *_JOINED_AUCTION)


def _euros(price: int) -> Decimal:
    """Flink's ``0.908 * price`` as a ``DECIMAL(23, 3)``, exactly."""
    return Decimal(price * 908).scaleb(-3)


def q0(events: Sequence[NexmarkEvent]) -> Answer:
    """Every bid: auction, bidder, price, dateTime, extra."""
    return [
        (b["auction"], b["bidder"], b["price"], b["dateTime"], b["extra"]) for b in fields_of(events, BID)
    ]


def q1(events: Sequence[NexmarkEvent]) -> Answer:
    """Every bid with its price in euros."""
    return [
        (b["auction"], b["bidder"], _euros(int_field(b, "price")), b["dateTime"], b["extra"])
        for b in fields_of(events, BID)
    ]


def q2(events: Sequence[NexmarkEvent]) -> Answer:
    """The bids on auctions whose id is a multiple of 123: auction, price."""
    return [(b["auction"], b["price"]) for b in fields_of(events, BID) if int_field(b, "auction") % 123 == 0]


def q3(events: Sequence[NexmarkEvent]) -> Answer:
    """Each auction of category 10 whose seller is in OR, ID or CA: name, city, state, id."""
    people = {p["id"]: p for p in fields_of(events, PERSON) if p["state"] in ("OR", "ID", "CA")}
    rows: Answer = []
    for auction in fields_of(events, AUCTION):
        seller = people.get(auction["seller"])
        if auction["category"] == 10 and seller is not None:
            rows.append((seller["name"], seller["city"], seller["state"], auction["id"]))
    return rows


def _q5_counts(events: Sequence[NexmarkEvent], closed: bool = True) -> dict[int, dict[int, int]]:
    """Bids per auction in each closed sliding window (with ``closed``; else in every window):
    window start -> auction -> count."""
    watermark = final_watermark_ms(events, [BID]) if closed else None
    counts: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for bid in fields_of(events, BID):
        time = int_field(bid, "dateTime")
        start = time - time % _Q5_SLIDE_MS
        while start > time - _Q5_SIZE_MS:
            if watermark is None or start + _Q5_SIZE_MS <= watermark:
                counts[start][int_field(bid, "auction")] += 1
            start -= _Q5_SLIDE_MS
    return counts


def q4_closing_prices(events: Sequence[NexmarkEvent]) -> Answer:
    """Each closed auction's highest bid price: id, category, final."""
    return [
        (a["id"], a["category"], max(int_field(b, "price") for b in bids))
        for a, bids in closed_auctions(events)
    ]


def q4(events: Sequence[NexmarkEvent]) -> Answer:
    """The closing prices' average per category, their sum divided by their count in integers
    (what ``q4_average`` makes of ``q4_closing_prices``): id (the category), final."""
    prices: dict[object, list[int]] = defaultdict(list)
    for _, category, final in q4_closing_prices(events):
        assert isinstance(final, int)
        prices[category].append(final)
    return [(category, sum(finals) // len(finals)) for category, finals in prices.items()]


def q5_counts(events: Sequence[NexmarkEvent], closed: bool = True) -> Answer:
    """Bids per auction and closed sliding window (every window without ``closed``): auction, num,
    starttime, endtime."""
    return [
        (auction, num, start, start + _Q5_SIZE_MS)
        for start, per_auction in _q5_counts(events, closed).items()
        for auction, num in per_auction.items()
    ]


def q5(events: Sequence[NexmarkEvent]) -> Answer:
    """The auctions with the most bids of each closed sliding window: auction, num, starttime,
    endtime (also what ``q5_hot_items`` makes of ``q5_counts``'s batches)."""
    rows: Answer = []
    for start, per_auction in _q5_counts(events).items():
        most = max(per_auction.values())
        rows += [(a, n, start, start + _Q5_SIZE_MS) for a, n in per_auction.items() if n == most]
    return rows


def q7(events: Sequence[NexmarkEvent]) -> Answer:
    """The bids at each closed tumbling window's highest price, from the window's start to its
    end, both included: auction, bidder, price, dateTime, extra."""
    watermark = final_watermark_ms(events, [BID])
    windows: dict[int, list[EventFields]] = defaultdict(list)
    for bid in fields_of(events, BID):
        time = int_field(bid, "dateTime")
        windows[time - time % _TUMBLING_MS].append(bid)
    rows: Answer = []
    for start, bids in windows.items():
        end = start + _TUMBLING_MS
        if end > watermark:
            continue
        top = max(int_field(b, "price") for b in bids)
        at_end = [b for b in windows.get(end, []) if b["dateTime"] == end]
        rows += [
            (b["auction"], b["bidder"], b["price"], b["dateTime"], b["extra"])
            for b in bids + at_end
            if b["price"] == top
        ]
    return rows


def q8(events: Sequence[NexmarkEvent]) -> Answer:
    """The people who opened an auction in the closed tumbling window they joined in: id, name,
    stime."""
    watermark = final_watermark_ms(events, [PERSON, AUCTION])

    def window(fields: EventFields) -> int:
        time = int_field(fields, "dateTime")
        return time - time % _TUMBLING_MS

    sellers = {(a["seller"], window(a)) for a in fields_of(events, AUCTION)}
    return [
        (p["id"], p["name"], window(p))
        for p in fields_of(events, PERSON)
        if window(p) + _TUMBLING_MS <= watermark and (p["id"], window(p)) in sellers
    ]


def q9(events: Sequence[NexmarkEvent]) -> Answer:
    """Each closed auction with its winning bid, the highest price, then the earliest, then the
    lowest bidder id, then the greatest extra: the auction's columns, then auction, bidder,
    price, bid_dateTime, bid_extra."""

    rows: Answer = []
    for a, bids in closed_auctions(events):
        won = max(bids, key=bid_rank)
        rows.append(
            (
                *(a[name] for name in _AUCTION),
                *(won[name] for name in ("auction", "bidder", "price", "dateTime", "extra")),
            )
        )
    return rows


def q10(events: Sequence[NexmarkEvent]) -> Answer:
    """Every bid with its UTC day and minute: auction, bidder, price, dateTime, extra, dt, hm."""
    rows: Answer = []
    for b in fields_of(events, BID):
        moment = datetime.fromtimestamp(int_field(b, "dateTime") / 1000, UTC)
        day, minute = moment.strftime("%Y-%m-%d"), moment.strftime("%H:%M")
        rows.append((b["auction"], b["bidder"], b["price"], b["dateTime"], b["extra"], day, minute))
    return rows


def q11(events: Sequence[NexmarkEvent]) -> Answer:
    """Each bidder's closed sessions (10 s gap; bids exactly 10 s apart share one): bidder,
    bid_count, starttime, endtime."""
    watermark = final_watermark_ms(events, [BID])
    times: dict[int, list[int]] = defaultdict(list)
    for bid in fields_of(events, BID):
        times[int_field(bid, "bidder")].append(int_field(bid, "dateTime"))
    sessions: list[tuple[int, int, int, int]] = []
    for bidder, bid_times in times.items():
        bid_times.sort()
        start, end, count = bid_times[0], bid_times[0] + _SESSION_GAP_MS, 0
        for time in bid_times:
            if time > end:
                sessions.append((bidder, count, start, end))
                start, count = time, 0
            end, count = max(end, time + _SESSION_GAP_MS), count + 1
        sessions.append((bidder, count, start, end))
    return [session for session in sessions if session[3] <= watermark]


def q13(events: Sequence[NexmarkEvent]) -> Answer:
    """Every bid with the side input's value for its auction's id mod 10,000 (the key's digits):
    auction, bidder, price, dateTime, value."""
    return [
        (b["auction"], b["bidder"], b["price"], b["dateTime"], str(int_field(b, "auction") % SIDE_INPUT_ROWS))
        for b in fields_of(events, BID)
    ]


def q14(events: Sequence[NexmarkEvent]) -> Answer:
    """The bids between 1,000,000 and 50,000,000 euros: auction, bidder, price (euros),
    bidTimeType, dateTime, extra, c_counts."""
    rows: Answer = []
    for b in fields_of(events, BID):
        price = int_field(b, "price")
        if not _Q14_LOW < price * 908 < _Q14_HIGH:
            continue
        hour = int_field(b, "dateTime") // _MS_PER_HOUR % 24
        time_type = "dayTime" if 8 <= hour <= 18 else "nightTime" if hour <= 6 or hour >= 20 else "otherTime"
        extra = str_field(b, "extra")
        rows.append(
            (b["auction"], b["bidder"], _euros(price), time_type, b["dateTime"], extra, extra.count("c"))
        )
    return rows


def q20(events: Sequence[NexmarkEvent]) -> Answer:
    """Every bid on an auction of category 10, with the auction's fields."""
    auctions = {a["id"]: a for a in fields_of(events, AUCTION) if a["category"] == 10}
    rows: Answer = []
    for b in fields_of(events, BID):
        a = auctions.get(b["auction"])
        if a is not None:
            rows.append((*(b[name] for name in _Q20_BID), *(a[name] for name in _JOINED_AUCTION)))
    return rows


def _channel_id(url: str) -> str | None:
    """Group 2 of ``(&|^)channel_id=([^&]*)`` in ``url``, None without a match or when empty."""
    at = 0
    while (at := url.find(_CHANNEL_ID, at)) != -1:
        if at == 0 or url[at - 1] == "&":
            value = url[at + len(_CHANNEL_ID) :].split("&", 1)[0]
            return value or None
        at += 1
    return None


def q21(events: Sequence[NexmarkEvent]) -> Answer:
    """The bids with a channel id: auction, bidder, price, channel, channel_id."""
    rows: Answer = []
    for b in fields_of(events, BID):
        channel = str_field(b, "channel")
        channel_id = _HOT_CHANNEL_IDS.get(channel.lower()) or _channel_id(str_field(b, "url"))
        if channel_id is not None:
            rows.append((b["auction"], b["bidder"], b["price"], channel, channel_id))
    return rows


def q22(events: Sequence[NexmarkEvent]) -> Answer:
    """Every bid with parts 3, 4 and 5 of its url split at ``/``: auction, bidder, price,
    channel, dir1, dir2, dir3."""
    rows: Answer = []
    for b in fields_of(events, BID):
        parts = str_field(b, "url").split("/")
        dirs = [parts[i] if i < len(parts) else None for i in (3, 4, 5)]
        rows.append((b["auction"], b["bidder"], b["price"], b["channel"], *dirs))
    return rows


def q23(events: Sequence[NexmarkEvent]) -> Answer:
    """Every bid with its bidder and each auction its bidder sells."""
    people = {p["id"]: p for p in fields_of(events, PERSON)}
    sold: dict[object, list[EventFields]] = defaultdict(list)
    for a in fields_of(events, AUCTION):
        sold[a["seller"]].append(a)
    rows: Answer = []
    for b in fields_of(events, BID):
        p = people.get(b["bidder"])
        if p is None:
            continue
        bid_and_bidder = (*(b[name] for name in _Q23_BID), *(p[name] for name in _Q23_PERSON))
        rows += [(*bid_and_bidder, *(a[name] for name in _JOINED_AUCTION)) for a in sold.get(b["bidder"], [])]
    return rows


#: Each query's answer by the query's name (``nexmark_queries.QUERIES``), and q4's (what
#: ``q4_average`` makes of ``q4_closing_prices``): the function of this module of that name, or
#: of ``nexmark.stateful_answers`` (q6, q15 to q19); none for q12, which counts by the wall clock.
ANSWERS: dict[str, Callable[[Sequence[NexmarkEvent]], Answer]] = {
    name: getattr(stateful_answers, name, None) or globals()[name]
    for name in (*QUERY_NAMES, "q4")
    if name not in INEXACT_QUERIES
}

#: The queries whose rows are the same in every output mode: those without state.
STATELESS_QUERIES = ("q0", "q1", "q2", "q10", "q13", "q14", "q21", "q22")
#: Each answer for a run written in update mode, where a query has one: the table its upserts
#: leave. The stateless queries write the same rows; q18 and q19 are update-mode queries; q5_counts
#: and q15 to q17 hold every window's final row, closed or not.
UPDATE_ANSWERS: dict[str, Callable[[Sequence[NexmarkEvent]], Answer]] = {
    **{name: ANSWERS[name] for name in (*STATELESS_QUERIES, "q18", "q19")},
    "q5_counts": lambda events: q5_counts(events, closed=False),
    **stateful_answers.DAILY_UPDATES,
}
