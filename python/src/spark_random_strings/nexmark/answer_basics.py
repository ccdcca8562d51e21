"""What the answers of ``nexmark.answers`` and ``nexmark.stateful_answers`` share: the fields of
the events of a kind, the watermarks of a bounded run's last batch, and q19's order of bids. q6's
and q19's sizes live here too, for the answers and for ``nexmark.processors``."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from spark_random_strings.nexmark.generator import AUCTION, BID, PERSON, EventFields, NexmarkEvent

#: One row of a query's output.
Row = tuple[object, ...]
#: The rows of one query, in no particular order.
Answer = list[Row]

#: Nexmark's watermark delay, 4 s (``nexmark.WATERMARK_DELAY``), in ms.
WATERMARK_DELAY_MS = 4_000

#: How many closed auctions of a seller q6 averages over, the one that just closed included:
#: ``stateful_answers.q6`` and the processor ``processors.LastClosedAuctions`` keep this many.
LAST_AUCTIONS = 10
#: How many bids q19 ranks per auction (ranks 1 to ``TOP_BIDS``): ``stateful_answers.q19`` and
#: the processor ``processors.TopBids`` keep this many. The jar's is ``TopBids.Size``.
TOP_BIDS = 10


def fields_of(events: Iterable[NexmarkEvent], kind: int) -> list[EventFields]:
    """The fields of the events of one kind, in order."""
    if kind == PERSON:
        return [e.person for e in events if e.person is not None]
    if kind == AUCTION:
        return [e.auction for e in events if e.auction is not None]
    return [e.bid for e in events if e.bid is not None]


def int_field(fields: EventFields, name: str) -> int:
    value = fields[name]
    assert isinstance(value, int), f"{name} is a number"
    return value


def str_field(fields: EventFields, name: str) -> str:
    value = fields[name]
    assert isinstance(value, str), f"{name} is a string"
    return value


def final_watermark_ms(events: Sequence[NexmarkEvent], kinds: Iterable[int]) -> int:
    """The watermark of the run's last batch, in epoch ms: the least, over the views that the
    query reads (by event type), of the view's latest event time less 4 s.

    A view without any event keeps its watermark at the epoch (0), which holds the query's there
    (Spark takes the least of its watermarks): no window closes.
    """
    latest: dict[int, int] = {}
    for event in events:
        latest[event.event_type] = max(latest.get(event.event_type, 0), event.date_time_ms)
    wanted = set(kinds)
    if not wanted <= latest.keys():
        return 0
    return min(latest[kind] for kind in wanted) - WATERMARK_DELAY_MS


def closing_watermark_ms(events: Sequence[NexmarkEvent]) -> int:
    """The watermark of q4's and q9's last batch, in epoch ms: the least of the bids' (the latest
    bid's time less 4 s) and the auctions', which is on ``expires`` (the latest expiry less 4 s);
    the epoch (0) without a bid or an auction.

    An auction is written when its expiry is before this watermark, strictly: the join hands the
    aggregation its auction side's state watermark, 1 ms behind, as ``B.dateTime <= A.expires``
    includes a bid at the expiry itself (checked on Spark 4: an auction whose expiry is the
    watermark is not written).
    """
    expiries = [int_field(a, "expires") for a in fields_of(events, AUCTION)]
    bid_times = [int_field(b, "dateTime") for b in fields_of(events, BID)]
    if not expiries or not bid_times:
        return 0
    return min(max(expiries), max(bid_times)) - WATERMARK_DELAY_MS


def closed_auctions(events: Sequence[NexmarkEvent]) -> list[tuple[EventFields, list[EventFields]]]:
    """Each auction closed before the final watermark that has bids from its ``dateTime`` to its
    ``expires``, both included, with those bids."""
    watermark = closing_watermark_ms(events)
    closed = {
        int_field(a, "id"): a for a in fields_of(events, AUCTION) if int_field(a, "expires") < watermark
    }
    bids: dict[int, list[EventFields]] = defaultdict(list)
    for b in fields_of(events, BID):
        a = closed.get(int_field(b, "auction"))
        if a is not None and int_field(a, "dateTime") <= int_field(b, "dateTime") <= int_field(a, "expires"):
            bids[int_field(b, "auction")].append(b)
    return [(closed[auction], auction_bids) for auction, auction_bids in bids.items()]


def bid_rank(b: EventFields) -> tuple[int, int, int, str]:
    """The order of an auction's bids, greatest first, in q9's winner and q19's top ``TOP_BIDS``:
    the highest price, then the earliest, then the lowest bidder id, then the greatest ``extra``.
    ``processors.bid_rank`` is the same order on the processor's rows; the jar's is
    ``TopBids.Order``."""
    return int_field(b, "price"), -int_field(b, "dateTime"), -int_field(b, "bidder"), str_field(b, "extra")
