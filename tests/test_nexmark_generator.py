"""The Python twin of Beam's Nexmark generator: every event of the fixture made by Beam's own jar
(``beam-sdks-java-nexmark`` 2.76.0) comes out the same, field for field, and ``JavaRandom``, the
timeline and the bid channels give the values Java gives (pasted from runs of small Java programs
with ``java.util.Random`` and Beam's ``GeneratorConfig``)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from spark_random_strings.nexmark.config import NexmarkConfig
from spark_random_strings.nexmark.generator import (
    AUCTION,
    BID,
    HOT_CHANNELS,
    NUM_CHANNELS,
    PERSON,
    _next_long,
    channel_url,
    hot_url,
    nexmark_event,
    nexmark_events,
)
from spark_random_strings.nexmark.java_random import (
    INT_MIN,
    JavaRandom,
    java_div,
    java_int_abs,
    java_int_reverse,
    java_rem,
    java_round,
)
from spark_random_strings.nexmark.timeline import nexmark_timeline

FIXTURE = Path(__file__).parent / "fixtures" / "nexmark" / "beam-2.76.0-events.jsonl"
LINES: list[dict[str, Any]] = [json.loads(line) for line in FIXTURE.read_text().splitlines()]
KINDS = {"person": PERSON, "auction": AUCTION, "bid": BID}


@pytest.mark.parametrize(
    "line", LINES, ids=[f"{i}-{line['type']}-{line['number']}" for i, line in enumerate(LINES)]
)
def test_every_fixture_event_is_beams_event_field_for_field(line: dict[str, Any]) -> None:
    event = nexmark_event(NexmarkConfig.from_beam_options(line["config"]), line["number"])
    kind = line["type"]
    assert event.event_type == KINDS[kind]
    assert event.date_time_ms == line["eventTimestamp"]
    assert event.watermark_ms == line["watermark"]
    fields = getattr(event, kind)
    assert fields is not None
    assert {k: v for k, v in fields.items() if k not in ("channel", "url")} == line[kind]
    assert [getattr(event, other) for other in KINDS if other != kind] == [None, None]


def test_fixture_covers_every_kind_each_rate_shape_and_unit_and_shuffled_groups() -> None:
    assert {line["type"] for line in LINES} == {"person", "auction", "bid"}
    configs = {json.dumps(line["config"], sort_keys=True) for line in LINES}
    assert len(configs) == 6
    assert any(line["config"].get("rateShape") == "SQUARE" for line in LINES)
    assert any(line["config"].get("rateUnit") == "PER_MINUTE" for line in LINES)
    assert any(line["watermark"] < line["eventTimestamp"] for line in LINES)


def test_java_random_matches_java_util_random_seed_42() -> None:
    random = JavaRandom(42)
    assert [random.next_int() for _ in range(3)] == [-1170105035, 234785527, -1360544799]
    assert random.next_int_below(10) == 4
    assert random.next_int_below(16) == 4  # a power of two: the draw's top bits
    assert random.next_long() == -1068554554583376509
    assert random.next_double() == 0.7077105889551186


def test_java_random_matches_java_util_random_for_a_negative_seed() -> None:
    random = JavaRandom(-123456789)
    assert random.next_int() == 1442175866
    assert random.next_int_below(1000000007) == 667990854
    assert random.next_int_below(1 << 30) == 1036589295
    assert random.next_long() == -5522866145713786942
    assert random.next_double() == 0.42043430888375954


def test_java_random_next_int_below_rejects_the_top_block_as_java_does() -> None:
    random = JavaRandom(7)
    draws = [random.next_int_below((1 << 30) + 1) for _ in range(8)]
    assert draws == [20678044, 747989380, 1053566254, 755731200, 259278708, 542588911, 178712961, 234738279]


def test_java_random_seed_long_min_value() -> None:
    random = JavaRandom(-(1 << 63))
    assert random.next_long() == -4962768465676381896
    assert random.next_int() == 1033096058


def test_next_long_beyond_an_int_is_abs_of_javas_signed_remainder() -> None:
    random = JavaRandom(99)
    assert [_next_long(random, 10_000_000_000) for _ in range(2)] == [9980850796, 1948209991]


def test_java_integer_arithmetic_truncates_and_wraps() -> None:
    assert (java_div(-7, 26), java_rem(-7, 26), java_div(-53, 26), java_rem(-53, 26)) == (0, -7, -2, -1)
    assert java_int_reverse(1) == INT_MIN
    assert java_int_reverse(3) == -1073741824
    assert java_int_abs(INT_MIN) == INT_MIN
    assert java_int_abs(-1073741824) == 1073741824


def test_java_round_rounds_ties_up_without_double_rounding() -> None:
    assert [java_round(x) for x in (2.5, -2.5, 0.49999999999999994, 5678.5, -0.5)] == [3, -2, 0, 5679, 0]


def test_hot_channel_urls_are_javas() -> None:
    assert [hot_url(i) for i in range(4)] == [
        "https://www.nexmark.com/jol/liu/fmf/item.htm?query=1",
        "https://www.nexmark.com/wry/sjse/dciw/item.htm?query=1",
        "https://www.nexmark.com/ek_/ypdf/vpzn/item.htm?query=1",
        "https://www.nexmark.com/uny/ciu_/jml/item.htm?query=1",
    ]


def test_channel_urls_are_javas_with_the_reversed_id() -> None:
    assert channel_url(0) == "https://www.nexmark.com/xnhd/xcat/bwmn/item.htm?query=1&channel_id=0"
    # Math.abs(Integer.reverse(1)) is Integer.MIN_VALUE, which abs leaves negative.
    assert channel_url(1) == "https://www.nexmark.com/_jyw/rnmg/bo_e/item.htm?query=1&channel_id=-2147483648"
    assert channel_url(4242) == "https://www.nexmark.com/poe/swcf/oc_/item.htm?query=1&channel_id=1225261056"
    assert channel_url(9999) == "https://www.nexmark.com/nt_y/mg_/p_r/item.htm?query=1&channel_id=253493248"


def test_first_fifty_numbers_are_one_person_three_auctions_and_46_bids() -> None:
    events = list(nexmark_events(NexmarkConfig(), 0, 50))
    assert [e.event_type for e in events] == [PERSON] + [AUCTION] * 3 + [BID] * 46
    assert events[0].person is not None and events[0].person["id"] == 1000
    assert [e.auction["id"] for e in events[1:4] if e.auction is not None] == [1000, 1001, 1002]


def test_a_bids_channel_is_hot_with_its_url_or_numbered_below_ten_thousand() -> None:
    bids = [e.bid for e in nexmark_events(NexmarkConfig(), 0, 2000) if e.bid is not None]
    hot = [b for b in bids if b["channel"] in HOT_CHANNELS]
    numbered = [b for b in bids if b["channel"] not in HOT_CHANNELS]
    assert 0 < len(hot) < len(bids)
    for bid in hot:
        assert bid["url"] == hot_url(HOT_CHANNELS.index(str(bid["channel"])))
    for bid in numbered:
        prefix, _, number = str(bid["channel"]).partition("-")
        assert prefix == "channel" and 0 <= int(number) < NUM_CHANNELS
        assert bid["url"] == channel_url(int(number))


def test_channel_draws_follow_beams_so_an_event_is_the_same_when_made_twice() -> None:
    config = NexmarkConfig(out_of_order_group_size=10)
    assert list(nexmark_events(config, 95, 105)) == [nexmark_event(config, n) for n in range(95, 105)]


def test_timeline_of_square_and_sine_rates_is_beams_generator_config() -> None:
    square = nexmark_timeline(
        NexmarkConfig(first_event_rate=1000, next_event_rate=50000, rate_shape="SQUARE", rate_period_sec=10)
    )
    assert (square.inter_event_delays_us, square.step_length_sec) == ((1000, 20), 5)
    assert (square.events_per_epoch, square.epoch_period_ms) == (255000, 10000)
    sine = nexmark_timeline(NexmarkConfig(first_event_rate=1000, next_event_rate=50000, rate_period_sec=10))
    assert sine.inter_event_delays_us == (1000, 176, 56, 30, 22, 20, 22, 30, 56, 176)
    assert (sine.step_length_sec, sine.events_per_epoch, sine.epoch_period_ms) == (1, 255650, 9992)


def test_constant_rate_is_one_delay_scaled_by_the_generators() -> None:
    assert nexmark_timeline(NexmarkConfig()).inter_event_delays_us == (100,)
    assert nexmark_timeline(NexmarkConfig(num_event_generators=100)).inter_event_delays_us == (10000,)
    per_minute = nexmark_timeline(
        NexmarkConfig(rate_unit="PER_MINUTE", first_event_rate=120, next_event_rate=120)
    )
    assert per_minute.inter_event_delays_us == (500000,)
    assert per_minute.timestamp_ms(3) == 1436918400000 + 1500


def test_out_of_order_groups_scatter_numbers_by_953_and_hold_the_watermark() -> None:
    shuffled = nexmark_timeline(NexmarkConfig(out_of_order_group_size=10))
    assert [shuffled.adjusted_number(n) for n in range(10, 20)] == [10, 13, 16, 19, 12, 15, 18, 11, 14, 17]
    assert {shuffled.watermark_number(n) for n in range(10, 20)} == {10}
    # 953 % 7 == 1: groups of 7 keep their order, only the watermark lags.
    sevens = nexmark_timeline(NexmarkConfig(out_of_order_group_size=7))
    assert [sevens.adjusted_number(n) for n in range(7, 14)] == list(range(7, 14))
    slow = NexmarkConfig(out_of_order_group_size=7, first_event_rate=1, next_event_rate=1)
    assert nexmark_event(slow, 13).watermark_ms == nexmark_event(slow, 7).date_time_ms == 1436918407000


def test_config_defaults_are_beams_except_one_generator() -> None:
    assert dataclasses.asdict(NexmarkConfig()) == {
        "first_event_rate": 10000,
        "next_event_rate": 10000,
        "rate_unit": "PER_SECOND",
        "rate_shape": "SINE",
        "rate_period_sec": 600,
        "num_event_generators": 1,  # Beam's is 100
        "avg_person_byte_size": 200,
        "avg_auction_byte_size": 500,
        "avg_bid_byte_size": 100,
        "hot_auction_ratio": 2,
        "hot_sellers_ratio": 4,
        "hot_bidders_ratio": 4,
        "num_active_people": 1000,
        "num_in_flight_auctions": 100,
        "out_of_order_group_size": 1,
        "num_events": 100_000,
        "base_time_ms": 1436918400000,
    }


def test_from_beam_options_takes_beams_camel_case_names() -> None:
    config = NexmarkConfig.from_beam_options(
        {"rateShape": "SQUARE", "rateUnit": "PER_MINUTE", "outOfOrderGroupSize": 7, "numInFlightAuctions": 3}
    )
    assert config == NexmarkConfig(
        rate_shape="SQUARE", rate_unit="PER_MINUTE", out_of_order_group_size=7, num_in_flight_auctions=3
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"firstEventRates": 1}, "unknown Nexmark option 'firstEventRates'"),
        ({"firstEventRate": True}, "firstEventRate must be an integer"),
        ({"rateShape": 1}, "rateShape must be a name"),
        ({"rateShape": "TRIANGLE"}, "rate_shape must be one of"),
        ({"hotBiddersRatio": 0}, "hot_bidders_ratio must be at least 1"),
    ],
)
def test_from_beam_options_rejects_what_beam_would_not_run(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        NexmarkConfig.from_beam_options(options)
