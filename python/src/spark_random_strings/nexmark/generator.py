"""The events of Apache Beam's Nexmark generator (``beam-sdks-java-nexmark`` 2.76.0), bit for bit,
with the two bid fields that Flink's Nexmark adds: a pure-Python twin of the ``nexmark`` source.

Event number n (counted from 0, one generator started at 0) has the id ``adjusted_number(n)``
(see ``nexmark.timeline``), and everything about it is drawn from ``java.util.Random(id)``: of
every 50 ids, the first is a new person, the next 3 new auctions and the other 46 bids. The draws
follow Beam's ``PersonGenerator``, ``AuctionGenerator`` and ``BidGenerator`` in their order. A
bid's ``channel`` and ``url``, which Beam lacks, are drawn after all of Beam's draws from the same
random, so that the bid's other fields stay Beam's.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from spark_random_strings.nexmark.config import NexmarkConfig
from spark_random_strings.nexmark.java_random import (
    INT_MAX,
    JavaRandom,
    java_div,
    java_int_abs,
    java_int_reverse,
    java_rem,
    java_round,
)
from spark_random_strings.nexmark.memo import memoized
from spark_random_strings.nexmark.timeline import nexmark_timeline

#: ``event_type`` of each kind of event (Flink's Nexmark table).
PERSON, AUCTION, BID = 0, 1, 2
#: Of every 50 event ids, the first is a person, the next 3 auctions, the rest bids.
_PROPORTION_DENOMINATOR = 50
_PERSON_PROPORTION, _AUCTION_PROPORTION = 1, 3
_FIRST_PERSON_ID = _FIRST_AUCTION_ID = 1000
_FIRST_CATEGORY_ID, _NUM_CATEGORIES = 10, 5
#: Random people and auctions reach this far past the last one made.
_PERSON_ID_LEAD = _AUCTION_ID_LEAD = 10
#: Hot sellers, bidders and auctions are the first of each batch of this many.
_HOT_BATCH = 100
_MIN_STRING_LENGTH = 3

_FIRST_NAMES = (
    "Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter",
)  # fmt: skip
_LAST_NAMES = ("Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris")
_US_CITIES = (
    "Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland",
    "Bend", "Redmond", "Seattle", "Kent", "Cheyenne",
)  # fmt: skip
_US_STATES = ("AZ", "CA", "ID", "OR", "WA", "WY")

#: Flink's hot channels: a bid is on one of them with probability 1/2.
HOT_CHANNELS = ("Google", "Facebook", "Baidu", "Apple")
#: The other channels are ``channel-<n>`` for n below this.
NUM_CHANNELS = 10_000

#: One event's fields under Flink's names; times are epoch milliseconds.
EventFields = dict[str, int | str]


@dataclass(frozen=True)
class NexmarkEvent:
    """One event as a row of Flink's Nexmark table: its kind, its event time and watermark, and
    the one of ``person``, ``auction`` and ``bid`` that applies (the others are None)."""

    #: 0 a person, 1 an auction, 2 a bid.
    event_type: int
    #: The event time, in epoch ms (Beam's ``eventTimestamp``, also the event's ``dateTime``).
    date_time_ms: int
    #: The event time of the first event of its out-of-order group, in epoch ms.
    watermark_ms: int
    person: EventFields | None = None
    auction: EventFields | None = None
    bid: EventFields | None = None


def nexmark_event(config: NexmarkConfig, number: int) -> NexmarkEvent:
    """Event ``number`` (from 0) of Beam's generator for ``config``."""
    timeline = nexmark_timeline(config)
    event_id = timeline.adjusted_number(number)
    time_ms = timeline.timestamp_ms(event_id)
    watermark_ms = timeline.timestamp_ms(timeline.watermark_number(number))
    random = JavaRandom(event_id)
    kind = event_id % _PROPORTION_DENOMINATOR
    if kind < _PERSON_PROPORTION:
        return NexmarkEvent(PERSON, time_ms, watermark_ms, person=_person(config, event_id, random, time_ms))
    if kind < _PERSON_PROPORTION + _AUCTION_PROPORTION:
        # When the auction numInFlightAuctions auctions ahead is made: its expiry's horizon.
        ahead = (config.num_in_flight_auctions * _PROPORTION_DENOMINATOR) // _AUCTION_PROPORTION
        horizon_ms = timeline.timestamp_ms(event_id + ahead) - time_ms
        auction = _auction(config, event_id, random, time_ms, horizon_ms)
        return NexmarkEvent(AUCTION, time_ms, watermark_ms, auction=auction)
    return NexmarkEvent(BID, time_ms, watermark_ms, bid=_bid(config, event_id, random, time_ms))


def nexmark_events(config: NexmarkConfig, start: int, stop: int) -> Iterator[NexmarkEvent]:
    """The events numbered ``start`` to ``stop - 1``, in order of number."""
    for number in range(start, stop):
        yield nexmark_event(config, number)


def _person(config: NexmarkConfig, event_id: int, random: JavaRandom, time_ms: int) -> EventFields:
    """``PersonGenerator.nextPerson``."""
    name = _FIRST_NAMES[random.next_int_below(11)] + " " + _LAST_NAMES[random.next_int_below(9)]
    email = _next_string(random, 7) + "@" + _next_string(random, 5) + ".com"
    credit_card = " ".join(f"{random.next_int_below(10000):04d}" for _ in range(4))
    city = _US_CITIES[random.next_int_below(len(_US_CITIES))]
    state = _US_STATES[random.next_int_below(len(_US_STATES))]
    size = 8 + len(name) + len(email) + len(credit_card) + len(city) + len(state)
    return {
        "id": _last_base0_person_id(event_id) + _FIRST_PERSON_ID,
        "name": name,
        "emailAddress": email,
        "creditCard": credit_card,
        "city": city,
        "state": state,
        "dateTime": time_ms,
        "extra": _next_extra(random, size, config.avg_person_byte_size),
    }


def _auction(
    config: NexmarkConfig, event_id: int, random: JavaRandom, time_ms: int, horizon_ms: int
) -> EventFields:
    """``AuctionGenerator.nextAuction``: its expiry is 1 ms to twice the horizon ahead."""
    if random.next_int_below(config.hot_sellers_ratio) > 0:
        seller = (_last_base0_person_id(event_id) // _HOT_BATCH) * _HOT_BATCH
    else:
        seller = _next_base0_person_id(config, event_id, random)
    category = _FIRST_CATEGORY_ID + random.next_int_below(_NUM_CATEGORIES)
    initial_bid = _next_price(random)
    expires = time_ms + 1 + _next_long(random, max(horizon_ms * 2, 1))
    item_name = _next_string(random, 20)
    description = _next_string(random, 100)
    reserve = initial_bid + _next_price(random)
    size = 8 + len(item_name) + len(description) + 5 * 8
    return {
        "id": _last_base0_auction_id(event_id) + _FIRST_AUCTION_ID,
        "itemName": item_name,
        "description": description,
        "initialBid": initial_bid,
        "reserve": reserve,
        "dateTime": time_ms,
        "expires": expires,
        "seller": seller + _FIRST_PERSON_ID,
        "category": category,
        "extra": _next_extra(random, size, config.avg_auction_byte_size),
    }


def _bid(config: NexmarkConfig, event_id: int, random: JavaRandom, time_ms: int) -> EventFields:
    """``BidGenerator.nextBid``, then Flink's channel and url."""
    if random.next_int_below(config.hot_auction_ratio) > 0:
        auction = (_last_base0_auction_id(event_id) // _HOT_BATCH) * _HOT_BATCH
    else:
        auction = _next_base0_auction_id(config, event_id, random)
    if random.next_int_below(config.hot_bidders_ratio) > 0:
        # The second person of the batch, so that hot bidders and hot sellers differ.
        bidder = (_last_base0_person_id(event_id) // _HOT_BATCH) * _HOT_BATCH + 1
    else:
        bidder = _next_base0_person_id(config, event_id, random)
    price = _next_price(random)
    extra = _next_extra(random, 4 * 8, config.avg_bid_byte_size)
    if random.next_int_below(2) > 0:
        hot = random.next_int_below(len(HOT_CHANNELS))
        channel, url = HOT_CHANNELS[hot], hot_url(hot)
    else:
        number = random.next_int_below(NUM_CHANNELS)
        channel, url = f"channel-{number}", channel_url(number)
    return {
        "auction": auction + _FIRST_AUCTION_ID,
        "bidder": bidder + _FIRST_PERSON_ID,
        "price": price,
        "channel": channel,
        "url": url,
        "dateTime": time_ms,
        "extra": extra,
    }


def _last_base0_person_id(event_id: int) -> int:
    """The last person made at or before ``event_id``, from 0 (``lastBase0PersonId``)."""
    return event_id // _PROPORTION_DENOMINATOR


def _last_base0_auction_id(event_id: int) -> int:
    """The last auction made before ``event_id`` (or at it, for an auction), from 0; -1 before
    the first (``lastBase0AuctionId``)."""
    epoch, offset = divmod(event_id, _PROPORTION_DENOMINATOR)
    if offset < _PERSON_PROPORTION:
        epoch, offset = epoch - 1, _AUCTION_PROPORTION - 1
    elif offset >= _PERSON_PROPORTION + _AUCTION_PROPORTION:
        offset = _AUCTION_PROPORTION - 1
    else:
        offset -= _PERSON_PROPORTION
    return epoch * _AUCTION_PROPORTION + offset


def _next_base0_person_id(config: NexmarkConfig, event_id: int, random: JavaRandom) -> int:
    """One of the active people, or a few past the last (``nextBase0PersonId``)."""
    people = _last_base0_person_id(event_id) + 1
    active = min(people, config.num_active_people)
    return people - active + _next_long(random, active + _PERSON_ID_LEAD)


def _next_base0_auction_id(config: NexmarkConfig, event_id: int, random: JavaRandom) -> int:
    """One of the auctions likely in flight, or a few past the last (``nextBase0AuctionId``)."""
    last = _last_base0_auction_id(event_id)
    first = max(last - config.num_in_flight_auctions, 0)
    return first + _next_long(random, last - first + 1 + _AUCTION_ID_LEAD)


def _next_long(random: JavaRandom, bound: int) -> int:
    """``LongGenerator.nextLong``: ``nextInt`` below an ``int`` bound, else Java's
    ``abs(nextLong() % bound)`` (skewed, as Beam's is)."""
    if bound < INT_MAX:
        return random.next_int_below(bound)
    return abs(java_rem(random.next_long(), bound))


def _next_price(random: JavaRandom) -> int:
    """``PriceGenerator.nextPrice``: 10^(0..6) dollars, in cents."""
    return java_round(10.0 ** (random.next_double() * 6.0) * 100.0)


def _next_string(random: JavaRandom, max_length: int, space: str = " ") -> str:
    """``StringsGenerator.nextString``: 3 to ``max_length - 1`` lower-case letters or (one in 13)
    ``space``, with surrounding spaces trimmed (as Java's ``trim``)."""
    length = _MIN_STRING_LENGTH + random.next_int_below(max_length - _MIN_STRING_LENGTH)
    chars = [
        space if random.next_int_below(13) == 0 else chr(ord("a") + random.next_int_below(26))
        for _ in range(length)
    ]
    return "".join(chars).strip(" ")


def _next_exact_string(random: JavaRandom, length: int) -> str:
    """``StringsGenerator.nextExactString``: six characters from each signed 32-bit draw, by Java's
    ``%`` and ``/``, so that a negative draw gives characters below ``'a'``."""
    chars = []
    rnd = left = 0
    for _ in range(length):
        if left == 0:
            rnd, left = random.next_int(), 6
        chars.append(chr(ord("a") + java_rem(rnd, 26)))
        rnd = java_div(rnd, 26)
        left -= 1
    return "".join(chars)


def _next_extra(random: JavaRandom, current_size: int, average_size: int) -> str:
    """``StringsGenerator.nextExtra``: padding that brings the event to ``average_size`` bytes
    on average, within 20% either way; none for an event already larger."""
    if current_size > average_size:
        return ""
    wanted = average_size - current_size
    delta = java_round(wanted * 0.2)
    size = wanted - delta + (0 if delta == 0 else random.next_int_below(2 * delta))
    return _next_exact_string(random, size)


def base_url(random: JavaRandom) -> str:
    """Flink's ``getBaseUrl``: three path parts of 3 or 4 characters, ``'_'`` for Beam's space."""
    parts = [_next_string(random, 5, "_") for _ in range(3)]
    return "https://www.nexmark.com/" + "/".join(parts) + "/item.htm?query=1"


@memoized
def hot_url(index: int) -> str:
    """The URL of hot channel ``index`` (of ``HOT_CHANNELS``)."""
    return base_url(JavaRandom(-1 - index))


@memoized
def channel_url(number: int) -> str:
    """The URL of ``channel-<number>``: nine in ten carry the channel's id, Java's
    ``Math.abs(Integer.reverse(number))``."""
    random = JavaRandom(number)
    url = base_url(random)
    if random.next_int_below(10) > 0:
        url += "&channel_id=" + str(java_int_abs(java_int_reverse(number)))
    return url
