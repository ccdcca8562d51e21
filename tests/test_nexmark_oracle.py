"""The public Nexmark oracle: ``nexmark_events`` gives the bounded stream's events without Spark, and
``nexmark_answers`` each query's answer, for the twin's events or for rows of Flink's Nexmark table
as an engine gives them back. (test_nexmark_queries holds Spark's queries to the same answers.)"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from pathlib import Path

import pytest
from pyspark.sql import SparkSession

from helpers.support import available_now
from spark_random_strings import NexmarkKeywords, nexmark_answers, nexmark_events, read_nexmark
from spark_random_strings.nexmark.answers import ANSWERS
from spark_random_strings.nexmark.config import NexmarkConfig
from spark_random_strings.nexmark.generator import nexmark_events as numbered_events

#: Twenty seconds of event time at 1,000 events a second, with small extras: every query but q11
#: (whose sessions need a bidder to pause for 10 s) and q15 to q17 (a day) closes windows in it.
SMALL: NexmarkKeywords = {
    "num_events": 20_000,
    "first_event_rate": 1000,
    "next_event_rate": 1000,
    "avg_person_byte_size": 40,
    "avg_auction_byte_size": 60,
    "avg_bid_byte_size": 40,
}


def test_nexmark_events_are_the_generators_events_of_the_streams_options() -> None:
    config = NexmarkConfig.from_beam_options(
        {"firstEventRate": 1000, "nextEventRate": 1000, "avgPersonByteSize": 40, "avgAuctionByteSize": 60,
         "avgBidByteSize": 40, "numEvents": 20_000}
    )  # fmt: skip
    assert nexmark_events(**SMALL) == list(numbered_events(config, 0, 20_000))


def test_the_table_rows_an_engine_gives_back_have_the_answers_of_the_twins_events(
    spark: SparkSession, query_name: str, tmp_path: Path
) -> None:
    read_with: NexmarkKeywords = {**SMALL, "num_partitions": 2}
    available_now(read_nexmark(spark, **read_with), query_name, tmp_path / "checkpoint")
    rows = spark.table(query_name).collect()
    assert len(rows) == 20_000
    assert any(isinstance(row["dateTime"], datetime) for row in rows)
    from_rows = nexmark_answers(rows)
    from_events = nexmark_answers(nexmark_events(**SMALL))
    assert list(from_rows) == list(ANSWERS), "every query is answered, in the table's order"
    for name, answer in from_events.items():
        assert sorted(from_rows[name], key=repr) == sorted(answer, key=repr), name
    # q11's sessions need a bidder to pause for 10 s, q15 to q17 a day to close: the others pin rows down.
    assert [name for name, answer in from_events.items() if not answer] == ["q11", "q15", "q16", "q17"]
    assert isinstance(from_events["q1"][0][2], Decimal)


def test_rows_as_mappings_with_epoch_milliseconds_answer_alike() -> None:
    events = nexmark_events(**SMALL)
    rows = [
        {
            "event_type": e.event_type,
            "dateTime": e.date_time_ms,
            "person": e.person,
            "auction": e.auction,
            "bid": e.bid,
        }
        for e in events
    ]
    assert nexmark_answers(rows, ["q3", "q8"]) == nexmark_answers(events, ["q3", "q8"])


def test_the_oracle_refuses_an_unknown_query_an_endless_stream_and_a_row_of_another_table() -> None:
    events = nexmark_events(num_events=10)
    with pytest.raises(
        ValueError, match=r"no answer for 'q12' in append mode; the queries answered: q0, q1, "
    ):
        nexmark_answers(events, ["q12"])
    with pytest.raises(
        ValueError, match=r"no answer for 'q5' in update mode; the queries answered: q0, q1, q2, q10, "
    ):
        nexmark_answers(events, ["q5"], output_mode="update")
    with pytest.raises(ValueError, match=r"output_mode is 'complete'; give 'append' or 'update'\."):
        nexmark_answers(events, output_mode="complete")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="num_events is 0, an endless stream"):
        nexmark_events(num_events=0)
    with pytest.raises(
        ValueError,
        match=r"Invalid value '0' for first_event_rate: out of range\. Allowed: a whole number from 1 to "
        r"2147483647\.",
    ):
        nexmark_events(num_events=10, first_event_rate=0)
    with pytest.raises(TypeError, match="num_event"):
        nexmark_events(num_event=10)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match=r"is not a row of Flink's Nexmark table"):
        nexmark_answers([{"value": "x", "offset": 0}])
