"""The Nexmark queries of ``nexmark_queries`` on Spark: each one, run to the end of a bounded
``nexmark`` stream under ``Trigger.AvailableNow``, writes exactly the rows that
``nexmark.answers`` computes from the twin's events, window by window, match by match.

The queries of one configuration run at once, in one module-scoped fixture that the tests share.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.streaming.query import StreamingQuery
from pyspark.sql.types import LongType, StructType

from helpers.nexmark import HALF_MINUTE, HALF_MINUTE_EVENTS, millis, twin_events
from helpers.support import example_module, recipe_of_example
from spark_random_strings import read_nexmark
from spark_random_strings.nexmark import NexmarkKeywords
from spark_random_strings.nexmark.answer_basics import (
    WATERMARK_DELAY_MS,
    closing_watermark_ms,
    final_watermark_ms,
)
from spark_random_strings.nexmark.answers import ANSWERS
from spark_random_strings.nexmark.generator import (
    BID,
    EventFields,
    NexmarkEvent,
)
from spark_random_strings.nexmark.queries import (
    QUERIES,
    nexmark_side_input,
    q4_average,
    q5_counts,
    q5_hot_items,
    q9,
)

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("nexmark_queries")]

#: Events 977 µs apart, whose last bid (number 55,272) is at 54.000 s: the final watermark,
#: 50.000 s, is exactly the end of a tumbling window and of a sliding one.
AT_A_WINDOWS_END: NexmarkKeywords = {
    **HALF_MINUTE,
    "num_events": 55_273,
    "first_event_rate": 1024,
    "next_event_rate": 1024,
}
#: 11,989 events, whose final watermark for q4 and q9 (7.988 s, the last bid's time less 4 s) is
#: exactly the expiry of auction 1338, which has bids.
AT_AN_AUCTIONS_CLOSE: NexmarkKeywords = {**HALF_MINUTE, "num_events": 11_989}
#: The queries that run on each configuration (q23's rows on half a minute would take long; q6 and
#: q12 and q15 to q19 run in test_nexmark_stateful_queries, with the state store, days and
#: output mode they need).
STATEFUL_QUERIES = ("q6", "q12", "q15", "q16", "q17", "q18", "q19")
HALF_MINUTE_QUERIES = [name for name in QUERIES if name not in ("q23", *STATEFUL_QUERIES)]
WINDOW_QUERIES = ["q5", "q7", "q11"]
CLOSING_QUERIES = ["q4_closing_prices", "q9"]
SMALL: NexmarkKeywords = {**HALF_MINUTE, "num_events": 12_000}
#: The foreachBatch run: q5_counts, each batch ranked by q5_hot_items.
HOT_ITEMS = "q5_counts ranked by q5_hot_items"
#: q4 as q4_average makes it of q4_closing_prices's rows: once the query has ended, a batch read
#: of its sink's files ("q4"), and a second streaming query reading the files in complete mode.
Q4_STREAMED = "q4_average_streamed"

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

    # q4_closing_prices goes to Parquet files (the file sink), which q4_average then reads.
    closing_files = str(checkpoints / "q4_closing_prices")

    def memory(writer: Any) -> Any:
        return writer.format("memory")

    def files(writer: Any) -> Any:
        return writer.format("parquet").option("path", closing_files)

    for name in names:
        start(name, millis(QUERIES[name](events)), files if name == "q4_closing_prices" else memory)
    if "q5_counts" in names:
        start(HOT_ITEMS, q5_counts(events), lambda writer: writer.foreachBatch(rank))
    rows: dict[str, list[Row]] = {}
    progress = {}

    def wait(name: str, table: str, query: StreamingQuery) -> None:
        query.awaitTermination(240)
        assert not query.isActive and query.exception() is None, f"{name}: {query.exception()}"
        progress[name] = [dict(p) for p in query.recentProgress]
        if name not in (HOT_ITEMS, "q4_closing_prices"):
            rows[name] = [tuple(row) for row in spark.table(table).collect()]

    for name, (table, query) in list(queries.items()):
        wait(name, table, query)
    rows[HOT_ITEMS] = hot_items
    if "q4_closing_prices" in names:
        closing = spark.read.parquet(closing_files)
        rows["q4_closing_prices"] = [tuple(row) for row in closing.collect()]
        rows["q4"] = [tuple(row) for row in q4_average(closing).collect()]
        stream = spark.readStream.schema(closing.schema).parquet(closing_files)
        start(Q4_STREAMED, q4_average(stream), lambda writer: memory(writer).outputMode("complete"))
        wait(Q4_STREAMED, *queries[Q4_STREAMED])
    return Runs(twin_events(options), rows, progress)


@pytest.fixture(scope="module")
def half_minute(spark: SparkSession, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    yield run_all(spark, HALF_MINUTE, HALF_MINUTE_QUERIES, tmp_path_factory.mktemp("half_minute"))


@pytest.fixture(scope="module")
def at_a_windows_end(spark: SparkSession, tmp_path_factory: pytest.TempPathFactory) -> Runs:
    return run_all(spark, AT_A_WINDOWS_END, WINDOW_QUERIES, tmp_path_factory.mktemp("at_end"))


@pytest.fixture(scope="module")
def at_an_auctions_close(spark: SparkSession, tmp_path_factory: pytest.TempPathFactory) -> Runs:
    return run_all(spark, AT_AN_AUCTIONS_CLOSE, CLOSING_QUERIES, tmp_path_factory.mktemp("at_close"))


@pytest.fixture(scope="module")
def small(spark: SparkSession, tmp_path_factory: pytest.TempPathFactory) -> Runs:
    return run_all(spark, SMALL, ["q23"], tmp_path_factory.mktemp("small"))


def test_available_now_reads_every_event_in_one_batch_then_closes_windows_in_a_batch_without_data(
    half_minute: Runs,
) -> None:
    watermark = final_watermark_ms(half_minute.events, [BID])
    assert watermark == max(e.date_time_ms for e in half_minute.events if e.bid) - WATERMARK_DELAY_MS
    batches = [(p["numInputRows"], p["eventTime"]["watermark"]) for p in half_minute.progress["q11"]]
    assert batches == [
        (HALF_MINUTE_EVENTS, "1970-01-01T00:00:00.000Z"),
        (0, "2015-07-15T00:00:25.999Z"),
    ]
    assert watermark == 1436918400000 + 25_999


def test_q0_passes_every_bid_through(half_minute: Runs) -> None:
    half_minute.check("q0")


def test_q1_gives_each_bids_price_in_euros_as_flinks_decimal_23_3(half_minute: Runs) -> None:
    half_minute.check("q1")


def test_q2_keeps_the_bids_on_every_123rd_auction(half_minute: Runs) -> None:
    half_minute.check("q2")


def test_q3_joins_every_category_10_auction_to_its_seller_in_or_id_or_ca(half_minute: Runs) -> None:
    half_minute.check("q3")


def test_q5_writes_each_closed_sliding_windows_auctions_with_the_most_bids_ties_included(
    half_minute: Runs,
) -> None:
    half_minute.check("q5")
    windows = {row[2:] for row in half_minute.rows["q5"]}
    assert len(half_minute.rows["q5"]) > len(windows), "some window has a tie, which q5 keeps"


def test_q5_counts_write_every_closed_sliding_windows_count_per_auction(half_minute: Runs) -> None:
    half_minute.check("q5_counts")


def test_q5_hot_items_ranking_each_batch_of_q5_counts_gives_q5s_rows(half_minute: Runs) -> None:
    assert sorted(half_minute.rows[HOT_ITEMS]) == sorted(ANSWERS["q5"](half_minute.events))


def test_q7_writes_the_bids_at_each_closed_tumbling_windows_highest_price(half_minute: Runs) -> None:
    half_minute.check("q7")


def test_q8_writes_the_people_who_opened_an_auction_in_the_window_they_joined_in(half_minute: Runs) -> None:
    half_minute.check("q8")


def test_q9_writes_each_closed_auction_with_its_winning_bid(half_minute: Runs) -> None:
    half_minute.check("q9")


def test_q4_closing_prices_are_each_closed_auctions_highest_bid_q9s_price(half_minute: Runs) -> None:
    half_minute.check("q4_closing_prices")
    winners = sorted((row[0], row[8], row[12]) for row in half_minute.rows["q9"])
    assert sorted(half_minute.rows["q4_closing_prices"]) == winners


def test_q4_average_of_the_closing_prices_files_read_once_or_streamed_in_complete_mode_is_q4(
    half_minute: Runs,
) -> None:
    half_minute.check("q4")
    assert sorted(half_minute.rows[Q4_STREAMED]) == sorted(ANSWERS["q4"](half_minute.events))
    assert len(half_minute.rows["q4"]) == 5, "one row for each of Nexmark's 5 categories"


def test_q4_average_is_a_bigint_that_drops_the_remainder_as_flinks_avg_of_a_bigint(
    spark: SparkSession,
) -> None:
    closing = spark.createDataFrame(
        [(1, 10, 3), (2, 10, 4), (3, 11, 5), (4, 12, 99), (5, 12, 100)],
        "id bigint, category bigint, final bigint",
    )
    averages = q4_average(closing)
    assert averages.schema["final"].dataType == LongType()
    assert sorted(tuple(row) for row in averages.collect()) == [(10, 3), (11, 5), (12, 99)]


def iso_millis(ms: int) -> str:
    """An epoch-ms time as a streaming query's progress writes a watermark."""
    return (EPOCH + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def test_q4_and_q9_close_auctions_by_a_watermark_on_expires_and_the_bids(half_minute: Runs) -> None:
    watermark = closing_watermark_ms(half_minute.events)
    latest_bid = max(e.date_time_ms for e in half_minute.events if e.bid)
    assert watermark == latest_bid - WATERMARK_DELAY_MS, "the bids hold the watermark here"
    for name in CLOSING_QUERIES:
        batches = [(p["numInputRows"], p["eventTime"]["watermark"]) for p in half_minute.progress[name]]
        # Each query reads the stream twice: once for the auctions, once for the bids.
        assert batches == [
            (2 * HALF_MINUTE_EVENTS, "1970-01-01T00:00:00.000Z"),
            (0, iso_millis(watermark)),
        ]


def bids_within(events: Sequence[NexmarkEvent], auction: EventFields) -> list[int]:
    """The numbers of the bids on ``auction`` from its start to its expiry, both included."""
    start, expires = int(auction["dateTime"]), int(auction["expires"])
    return [
        number
        for number, e in enumerate(events)
        if e.bid is not None
        and e.bid["auction"] == auction["id"]
        and start <= int(e.bid["dateTime"]) <= expires
    ]


def test_an_auction_expiring_exactly_at_the_final_watermark_is_not_written(
    at_an_auctions_close: Runs,
) -> None:
    runs = at_an_auctions_close
    watermark = closing_watermark_ms(runs.events)
    assert runs.progress["q9"][-1]["eventTime"]["watermark"] == iso_millis(watermark)
    auctions = [e.auction for e in runs.events if e.auction is not None]
    at_the_watermark = {
        a["id"] for a in auctions if a["expires"] == watermark and bids_within(runs.events, a)
    }
    assert at_the_watermark == {1338}, "the configuration puts an auction with bids at the boundary"
    for name in CLOSING_QUERIES:
        runs.check(name)
        assert not at_the_watermark & {row[0] for row in runs.rows[name]}
    assert max(row[6] for row in runs.rows["q9"]) < watermark


def plant_ties(events: list[NexmarkEvent]) -> tuple[list[NexmarkEvent], dict[object, Row]]:
    """``events`` with two bids of three closed auctions raised to a new top price, tied: the
    first auction's at different times, the second's at one time by two bidders, the third's at
    one time by one bidder; and the winner that the tie rule gives each (bidder, price, time,
    extra)."""
    watermark = closing_watermark_ms(events)
    bids = {number: e.bid for number, e in enumerate(events) if e.bid is not None}
    pairs: list[tuple[int, int, int]] = []
    for e in events:
        if e.auction is None or int(e.auction["expires"]) >= watermark:
            continue
        numbers = bids_within(events, e.auction)
        if len(numbers) >= 2:
            a, b = bids[numbers[0]], bids[numbers[1]]
            if a["bidder"] != b["bidder"] and int(a["dateTime"]) < int(b["dateTime"]):
                pairs.append((numbers[0], numbers[1], max(int(bids[n]["price"]) for n in numbers) + 1))
    tied, winners = list(events), dict[object, Row]()
    for kind, (first, second, top) in zip(("time", "bidder", "extra"), pairs, strict=False):
        bid_a = {**bids[first], "price": top}
        bid_b = {**bids[second], "price": top}
        if kind != "time":
            bid_b["dateTime"] = bid_a["dateTime"]
        if kind == "extra":
            bid_b["bidder"] = bid_a["bidder"]
            assert bid_a["extra"] != bid_b["extra"]
        tied[first] = dataclasses.replace(events[first], bid=bid_a)
        tied[second] = dataclasses.replace(events[second], bid=bid_b, date_time_ms=int(bid_b["dateTime"]))
        won = {
            "time": bid_a,
            "bidder": min(bid_a, bid_b, key=lambda bid: int(bid["bidder"])),
            "extra": max(bid_a, bid_b, key=lambda bid: str(bid["extra"])),
        }[kind]
        winners[bid_a["auction"]] = (won["bidder"], top, won["dateTime"], won["extra"])
    assert len(winners) == 3
    return tied, winners


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def event_row(event: NexmarkEvent) -> tuple[Any, ...]:
    """An event as a row of the nexmark source's schema."""

    def struct(fields: EventFields | None) -> dict[str, Any] | None:
        if fields is None:
            return None
        times = ("dateTime", "expires")
        return {k: EPOCH + timedelta(milliseconds=int(v)) if k in times else v for k, v in fields.items()}

    time = EPOCH + timedelta(milliseconds=event.date_time_ms)
    return (event.event_type, struct(event.person), struct(event.auction), struct(event.bid), time)


def test_q9_breaks_a_tie_by_the_earliest_bid_then_the_lowest_bidder_then_the_greatest_extra(
    spark: SparkSession, tmp_path: Path
) -> None:
    tied, winners = plant_ties(twin_events(AT_AN_AUCTIONS_CLOSE))
    schema: StructType = read_nexmark(spark, **AT_AN_AUCTIONS_CLOSE).schema
    spark.createDataFrame([event_row(e) for e in tied], schema).write.parquet(str(tmp_path / "events"))
    events = spark.readStream.schema(schema).parquet(str(tmp_path / "events"))
    query = (
        millis(q9(events))
        .writeStream.format("memory")
        .queryName("nexmark_q9_ties")
        .trigger(availableNow=True)
        .option("checkpointLocation", str(tmp_path / "checkpoint"))
        .start()
    )
    query.awaitTermination(240)
    assert query.exception() is None
    rows = [tuple(row) for row in spark.table("nexmark_q9_ties").collect()]
    assert sorted(rows, key=repr) == sorted(ANSWERS["q9"](tied), key=repr)
    assert {row[0]: row[11:] for row in rows if row[0] in winners} == winners


def test_q10_gives_each_bid_its_utc_day_and_minute(half_minute: Runs) -> None:
    half_minute.check("q10")


def test_q11_writes_each_bidders_closed_sessions_of_10_s_gaps(half_minute: Runs) -> None:
    half_minute.check("q11")


def test_q13_joins_every_bid_to_the_side_inputs_value_for_its_auction_mod_10000(half_minute: Runs) -> None:
    half_minute.check("q13")
    assert len({row[4] for row in half_minute.rows["q13"]}) > 1000, "the bids meet many keys"


def test_the_side_input_is_flinks_generated_file_as_a_table_key_i_value_i_for_10000_keys(
    spark: SparkSession,
) -> None:
    table = nexmark_side_input(spark)
    assert table.schema.simpleString() == "struct<key:bigint,value:string>"
    rows = sorted(tuple(row) for row in table.collect())
    assert rows == [(i, str(i)) for i in range(10_000)]
    with pytest.raises(ValueError, match=r"rows is 0; give a whole number of at least 1 \(Flink's: 10000\)"):
        nexmark_side_input(spark, 0)


def test_the_guides_check_of_an_engine_runs_the_examples_code_and_finds_q5_and_q18_the_oracles(
    spark: SparkSession, tmp_path: Path
) -> None:
    recipe_of_example("nexmark.md", "## Checking an implementation", "nexmark_check_an_engine.py", blocks=1)
    example = example_module("nexmark_check_an_engine")
    checked = example.check(example.engine_rows(spark, str(tmp_path)))
    assert checked == {"q5": {"rows": 11, "equal": True}, "q18": {"rows": 4762, "equal": True}}


def test_q14_keeps_the_bids_within_flinks_euro_bounds_with_time_type_and_count_of_c(
    half_minute: Runs,
) -> None:
    half_minute.check("q14")


def test_q20_joins_every_bid_to_its_category_10_auction(half_minute: Runs) -> None:
    half_minute.check("q20")


def test_q21_gives_the_hot_channels_ids_and_the_urls_channel_id_else_drops_the_bid(half_minute: Runs) -> None:
    half_minute.check("q21")
    assert {row[4] for row in half_minute.rows["q21"]} >= {"0", "1", "2", "3"}


def test_q22_splits_each_url_into_its_first_three_directories(half_minute: Runs) -> None:
    half_minute.check("q22")


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
