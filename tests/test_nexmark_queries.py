"""The Nexmark queries of ``nexmark_queries`` on Spark: each one, run to the end of a bounded
``nexmark`` stream under ``Trigger.AvailableNow``, writes exactly the rows that
``_nexmark_answers`` computes from the twin's events, window by window, match by match.

The queries of one configuration run at once, in one module-scoped fixture that the tests share.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as f
from pyspark.sql.streaming.query import StreamingQuery
from pyspark.sql.types import TimestampType

from spark_random_strings import read_nexmark
from spark_random_strings._nexmark_answers import ANSWERS, WATERMARK_DELAY_MS, final_watermark_ms
from spark_random_strings._nexmark_generator import BID, NexmarkConfig, NexmarkEvent, nexmark_events
from spark_random_strings.nexmark import NEXMARK_OPTIONS, NexmarkKeywords
from spark_random_strings.nexmark_queries import QUERIES, q5_counts, q5_hot_items

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("nexmark_queries")]

#: A minute of event time at 1000 events a second, with small extras to keep it fast.
MINUTE: NexmarkKeywords = {
    "num_events": 60_000,
    "first_event_rate": 1000,
    "next_event_rate": 1000,
    "avg_person_byte_size": 40,
    "avg_auction_byte_size": 60,
    "avg_bid_byte_size": 40,
    "num_partitions": 2,
}
#: Events 977 µs apart, whose last bid (number 55,272) is at 54.000 s: the final watermark,
#: 50.000 s, is exactly the end of a tumbling window and of a sliding one.
AT_A_WINDOWS_END: NexmarkKeywords = {
    **MINUTE,
    "num_events": 55_273,
    "first_event_rate": 1024,
    "next_event_rate": 1024,
}
#: The queries that run on each configuration (q23's 100,000 rows on the minute would take long).
MINUTE_QUERIES = [name for name in QUERIES if name != "q23"]
WINDOW_QUERIES = ["q5", "q7", "q11"]
SMALL: NexmarkKeywords = {**MINUTE, "num_events": 12_000}
#: The foreachBatch run: q5_counts, each batch ranked by q5_hot_items.
HOT_ITEMS = "q5_counts ranked by q5_hot_items"

Row = tuple[Any, ...]


@dataclass(frozen=True)
class Runs:
    """The twin's events of one configuration, and what each query wrote of them."""

    events: list[NexmarkEvent]
    rows: dict[str, list[Row]]
    progress: dict[str, list[dict[str, Any]]]

    def check(self, name: str) -> None:
        """Spark's rows of ``name`` are the oracle's, exactly (and there are some)."""
        expected = sorted(ANSWERS[name](self.events), key=repr)
        assert expected, f"{name}: the oracle has no rows, so the comparison pins nothing down"
        assert len(self.rows[name]) == len(expected)
        assert sorted(self.rows[name], key=repr) == expected


def twin_events(options: NexmarkKeywords) -> list[NexmarkEvent]:
    """The twin's events of the stream that ``read_nexmark(**options)`` reads."""
    beam = {row.name: options[row.keyword] for row in NEXMARK_OPTIONS.rows if row.keyword in options}  # type: ignore[literal-required]
    del beam["numPartitions"]  # how Spark reads the events, not what they are
    config = NexmarkConfig.from_beam_options(beam)
    return list(nexmark_events(config, 0, config.num_events))


def millis(df: DataFrame) -> DataFrame:
    """``df`` with each timestamp column as epoch milliseconds, the oracle's times."""
    return df.select(
        *(
            f.unix_millis(f.col(field.name)).alias(field.name)
            if isinstance(field.dataType, TimestampType)
            else f.col(field.name)
            for field in df.schema.fields
        )
    )


_names = itertools.count()


def run_all(spark: SparkSession, options: NexmarkKeywords, names: Sequence[str], checkpoints: Path) -> Runs:
    """Start each query at once under Trigger.AvailableNow, into a memory sink (and q5_counts
    into foreachBatch with q5_hot_items), and wait for them all to end."""
    events = read_nexmark(spark, **options)
    hot_items: list[Row] = []

    def rank(batch: DataFrame, batch_id: int) -> None:
        hot_items.extend(tuple(row) for row in millis(q5_hot_items(batch)).collect())

    queries: dict[str, tuple[str, StreamingQuery]] = {}

    def start(name: str, df: DataFrame, sink: Callable[[Any], Any]) -> None:
        table = f"nexmark_{name}_{next(_names)}"
        writer = df.writeStream.trigger(availableNow=True).option(
            "checkpointLocation", str(checkpoints / table)
        )
        queries[name] = (table, sink(writer.queryName(table)).start())

    for name in names:
        start(name, millis(QUERIES[name](events)), lambda writer: writer.format("memory"))
    if "q5_counts" in names:
        start(HOT_ITEMS, q5_counts(events), lambda writer: writer.foreachBatch(rank))
    rows: dict[str, list[Row]] = {}
    progress = {}
    for name, (table, query) in queries.items():
        query.awaitTermination(240)
        assert not query.isActive and query.exception() is None, f"{name}: {query.exception()}"
        progress[name] = [dict(p) for p in query.recentProgress]
        if name != HOT_ITEMS:
            rows[name] = [tuple(row) for row in spark.table(table).collect()]
    rows[HOT_ITEMS] = hot_items
    return Runs(twin_events(options), rows, progress)


@pytest.fixture(scope="module")
def minute(spark: SparkSession, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    yield run_all(spark, MINUTE, MINUTE_QUERIES, tmp_path_factory.mktemp("minute"))


@pytest.fixture(scope="module")
def at_a_windows_end(spark: SparkSession, tmp_path_factory: pytest.TempPathFactory) -> Runs:
    return run_all(spark, AT_A_WINDOWS_END, WINDOW_QUERIES, tmp_path_factory.mktemp("at_end"))


@pytest.fixture(scope="module")
def small(spark: SparkSession, tmp_path_factory: pytest.TempPathFactory) -> Runs:
    return run_all(spark, SMALL, ["q23"], tmp_path_factory.mktemp("small"))


def test_available_now_reads_every_event_in_one_batch_then_closes_windows_in_a_batch_without_data(
    minute: Runs,
) -> None:
    watermark = final_watermark_ms(minute.events, [BID])
    assert watermark == max(e.date_time_ms for e in minute.events if e.bid) - WATERMARK_DELAY_MS
    batches = [(p["numInputRows"], p["eventTime"]["watermark"]) for p in minute.progress["q11"]]
    assert batches == [(60_000, "1970-01-01T00:00:00.000Z"), (0, "2015-07-15T00:00:55.999Z")]
    assert watermark == 1436918400000 + 55_999


def test_q0_passes_every_bid_through(minute: Runs) -> None:
    minute.check("q0")


def test_q1_gives_each_bids_price_in_euros_as_flinks_decimal_23_3(minute: Runs) -> None:
    minute.check("q1")


def test_q2_keeps_the_bids_on_every_123rd_auction(minute: Runs) -> None:
    minute.check("q2")


def test_q3_joins_every_category_10_auction_to_its_seller_in_or_id_or_ca(minute: Runs) -> None:
    minute.check("q3")


def test_q5_writes_each_closed_sliding_windows_auctions_with_the_most_bids_ties_included(
    minute: Runs,
) -> None:
    minute.check("q5")
    windows = {row[2:] for row in minute.rows["q5"]}
    assert len(minute.rows["q5"]) > len(windows), "some window has a tie, which q5 keeps"


def test_q5_counts_write_every_closed_sliding_windows_count_per_auction(minute: Runs) -> None:
    minute.check("q5_counts")


def test_q5_hot_items_ranking_each_batch_of_q5_counts_gives_q5s_rows(minute: Runs) -> None:
    assert sorted(minute.rows[HOT_ITEMS]) == sorted(ANSWERS["q5"](minute.events))


def test_q7_writes_the_bids_at_each_closed_tumbling_windows_highest_price(minute: Runs) -> None:
    minute.check("q7")


def test_q8_writes_the_people_who_opened_an_auction_in_the_window_they_joined_in(minute: Runs) -> None:
    minute.check("q8")


def test_q10_gives_each_bid_its_utc_day_and_minute(minute: Runs) -> None:
    minute.check("q10")


def test_q11_writes_each_bidders_closed_sessions_of_10_s_gaps(minute: Runs) -> None:
    minute.check("q11")


def test_q14_keeps_the_bids_within_flinks_euro_bounds_with_time_type_and_count_of_c(minute: Runs) -> None:
    minute.check("q14")


def test_q20_joins_every_bid_to_its_category_10_auction(minute: Runs) -> None:
    minute.check("q20")


def test_q21_gives_the_hot_channels_ids_and_the_urls_channel_id_else_drops_the_bid(minute: Runs) -> None:
    minute.check("q21")
    assert {row[4] for row in minute.rows["q21"]} >= {"0", "1", "2", "3"}


def test_q22_splits_each_url_into_its_first_three_directories(minute: Runs) -> None:
    minute.check("q22")


def test_q23_joins_every_bid_to_its_bidder_and_each_auction_the_bidder_sells(small: Runs) -> None:
    small.check("q23")


@pytest.mark.parametrize("name", WINDOW_QUERIES)
def test_a_window_ending_exactly_at_the_final_watermark_is_written(at_a_windows_end: Runs, name: str) -> None:
    watermark = final_watermark_ms(at_a_windows_end.events, [BID])
    assert watermark % 10_000 == 0, "the final watermark is a tumbling window's end"
    at_a_windows_end.check(name)
    rows = at_a_windows_end.rows[name]
    if name == "q5":
        assert max(row[3] for row in rows) == watermark
    if name == "q7":
        assert max(row[3] for row in rows) in range(watermark - 10_000, watermark + 1)
