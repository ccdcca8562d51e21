"""The Nexmark queries that keep state per key beyond a window (q6, q15 to q19) on Spark: each one,
run to the end of a bounded ``nexmark`` stream under ``Trigger.AvailableNow``, writes exactly what
``nexmark_answers`` computes from the twin's events.

Fifteen seconds of events are read in three batches (``maxEventsPerTrigger``), so that the state
of each key spans batches: q6 in append mode, q12, q18 and q19 in update mode, whose rows, applied
in the order of their batches as upserts of each query's key, leave the oracle's table (q15 to q17
in update mode: test_nexmark_real_time, and here on the other lines). Days of events (one every
6 s) close a day, which q15 to q17 write in append mode.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import DataFrame, SparkSession

from helpers.nexmark import HALF_MINUTE, millis, twin_events
from helpers.spark_lines import on_default_line
from spark_random_strings import nexmark_answers, read_nexmark
from spark_random_strings.engine.choice import pyspark_line
from spark_random_strings.engine.session import session_setting
from spark_random_strings.nexmark import NexmarkKeywords
from spark_random_strings.nexmark.generator import NexmarkEvent
from spark_random_strings.nexmark.queries import (
    QUERIES,
    ROCKSDB_PROVIDER,
    STATE_STORE_PROVIDER,
    q6,
    q17,
    q19,
    ranking,
)
from spark_random_strings.nexmark.queries.ranking import _q19_in_python

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("nexmark_stateful_queries")]

Row = tuple[Any, ...]

#: Fifteen seconds of events in batches of at most 5,000: three with data.
BATCHED: NexmarkKeywords = {**HALF_MINUTE, "num_events": 15_000, "max_events_per_trigger": 5_000}
#: 15,000 events 6 s apart (10 a minute): 25 hours, whose first day (2015-07-15, UTC) closes.
DAYS: NexmarkKeywords = {
    **HALF_MINUTE,
    "num_events": 15_000,
    "first_event_rate": 10,
    "next_event_rate": 10,
    "rate_unit": "PER_MINUTE",
}
#: The queries written in update mode, and the columns of the key each row upserts.
UPDATE_KEYS: dict[str, Callable[[Row], Row]] = {
    "q12": lambda row: (row[0], row[2]),
    "q15": lambda row: row[:1],
    "q16": lambda row: row[:2],
    "q17": lambda row: row[:2],
    "q18": lambda row: row[:2],
    "q19": lambda row: (row[0], row[7]),
    "q19 in python": lambda row: (row[0], row[7]),
}
DAILY = ("q15", "q16", "q17")
#: Spark's default state store, which transformWithState refuses.
HDFS_PROVIDER = "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider"

_names = itertools.count()


@dataclass(frozen=True)
class Run:
    """The twin's events of one configuration, and each query's batches: (batch id, rows)."""

    events: list[NexmarkEvent]
    batches: dict[str, list[tuple[int, list[Row]]]]
    checkpoints: dict[str, Path]

    def appended(self, name: str) -> list[Row]:
        """Every row the query wrote."""
        return [row for _, rows in sorted(self.batches[name]) for row in rows]

    def upserted(self, name: str) -> list[Row]:
        """The table the query's rows leave, applied in the order of their batches as upserts of
        its key."""
        table: dict[Row, Row] = {}
        for row in self.appended(name):
            table[UPDATE_KEYS[name](row)] = row
        return list(table.values())


#: Runs that are not a query of QUERIES by its name: q17 with the time of each row's newest bid, and
#: q19 with its processor in Python, as on Spark Connect (this session's driver has the jar).
VARIANTS: dict[str, Callable[[DataFrame], DataFrame]] = {
    "q17 latest": functools.partial(q17, latest=True),
    "q19 in python": _q19_in_python,
}


def run(spark: SparkSession, options: NexmarkKeywords, modes: dict[str, str], checkpoints: Path) -> Run:
    """Start each query (of QUERIES or VARIANTS) at once under Trigger.AvailableNow in its output
    mode, its batches kept by ``foreachBatch``, and wait for them all to end."""
    events = read_nexmark(spark, **options)
    batches: dict[str, list[tuple[int, list[Row]]]] = {name: [] for name in modes}
    queries = []
    checkpoint_of: dict[str, Path] = {}
    for name, mode in modes.items():

        def keep(batch: DataFrame, batch_id: int, name: str = name) -> None:
            batches[name].append((batch_id, [tuple(row) for row in batch.collect()]))

        table = f"nexmark_{name.replace(' ', '_')}_{next(_names)}"
        writer = millis({**QUERIES, **VARIANTS}[name](events)).writeStream.outputMode(mode).foreachBatch(keep)
        checkpoint_of[name] = checkpoints / table
        query = (
            writer.trigger(availableNow=True).option("checkpointLocation", str(checkpoint_of[name])).start()
        )
        queries.append((name, query))
    for name, query in queries:
        query.awaitTermination(240)
        assert not query.isActive and query.exception() is None, f"{name}: {query.exception()}"
    return Run(twin_events(options), batches, checkpoint_of)


@pytest.fixture(scope="module")
def rocksdb(spark: SparkSession) -> Iterator[None]:
    """The session with the RocksDB state store, which transformWithState needs, then as before."""
    with session_setting(spark, STATE_STORE_PROVIDER, ROCKSDB_PROVIDER):
        yield


@pytest.fixture(scope="module")
def batched(spark: SparkSession, rocksdb: None, tmp_path_factory: pytest.TempPathFactory) -> Run:
    modes = {"q6": "append", **dict.fromkeys(("q12", "q18", "q19", "q19 in python"), "update")}
    return run(spark, BATCHED, modes, tmp_path_factory.mktemp("batched"))


@pytest.fixture(scope="module")
def days(spark: SparkSession, tmp_path_factory: pytest.TempPathFactory) -> Run:
    return run(spark, DAYS, dict.fromkeys((*DAILY, "q17 latest"), "append"), tmp_path_factory.mktemp("days"))


def answer(run: Run, name: str) -> list[Row]:
    expected = nexmark_answers(run.events, [name])[name]
    assert expected, f"{name}: the oracle has no rows, so the comparison pins nothing down"
    return sorted(expected, key=repr)


def updated(run: Run, name: str) -> list[Row]:
    """The oracle's table for ``name`` written in update mode."""
    return sorted(nexmark_answers(run.events, [name], output_mode="update")[name], key=repr)


def test_the_batched_run_reads_its_events_in_three_batches_then_one_without_data(batched: Run) -> None:
    assert [batch_id for batch_id, _ in sorted(batched.batches["q18"])] == [0, 1, 2, 3]
    assert sum(len(rows) for _, rows in batched.batches["q18"]) > len(batched.upserted("q18")), (
        "a bidder's latest bid on an auction changed across batches, which the upserts replace"
    )
    assert len(batched.events) == 15_000


def test_q6_writes_each_closed_auctions_sellers_average_over_its_last_10_closed_auctions(
    batched: Run,
) -> None:
    rows = batched.appended("q6")
    assert sorted(rows, key=repr) == answer(batched, "q6")
    most = max(Counter(seller for seller, _ in rows).values())
    assert most > 10, "some seller closed more than 10 auctions: the average slides"
    closing_batches = [batch_id for batch_id, rows in batched.batches["q6"] if rows]
    assert len(closing_batches) > 1, "auctions closed in more than one batch: the state spans them"


def test_q15_counts_distinct_bidders_and_auctions_per_day_and_price_band_exactly(days: Run) -> None:
    rows = days.appended("q15")
    assert sorted(rows, key=repr) == answer(days, "q15")
    assert [row[0] for row in rows] == ["2015-07-15"], "the first day closed; the second is open"
    _, bids, *counts = rows[0]
    assert bids == sum(counts[:3]) == 13_248 and 0 < counts[4] < counts[3]


@pytest.mark.parametrize("name", ["q16", "q17"])
def test_q16_and_q17_write_each_closed_days_statistics_per_channel_and_per_auction(
    days: Run, name: str
) -> None:
    assert sorted(days.appended(name), key=repr) == answer(days, name)


def test_q17_with_latest_adds_the_time_of_the_newest_bid_each_row_counts(days: Run) -> None:
    rows = days.appended("q17 latest")
    assert sorted(row[:-1] for row in rows) == sorted(days.appended("q17"))
    newest: dict[tuple[object, str], int] = {}
    for e in days.events:
        if e.bid is not None:
            key = (e.bid["auction"], datetime.fromtimestamp(e.date_time_ms // 1000, UTC).strftime("%Y-%m-%d"))
            newest[key] = max(newest.get(key, 0), e.date_time_ms)
    assert {(row[0], row[1]): row[-1] for row in rows} == {
        key: newest[key] for key in ((r[0], r[1]) for r in rows)
    }
    assert len(rows) > 100, "many auctions' closed day: the comparison pins each one down"


def test_q18_leaves_each_bidders_latest_bid_on_each_auction(batched: Run) -> None:
    assert sorted(batched.upserted("q18"), key=repr) == answer(batched, "q18")


@pytest.mark.parametrize("name", ["q19", "q19 in python"])
def test_q19_leaves_each_auctions_ten_highest_bids_numbered_from_1_in_the_jvm_and_in_python(
    batched: Run, name: str
) -> None:
    table = sorted(batched.upserted(name), key=repr)
    assert table == answer(batched, "q19")
    assert max(row[7] for row in table) == 10
    assert sum(len(rows) for _, rows in batched.batches[name]) > len(table), "ranks were replaced"


def test_q19s_processor_writes_the_same_rows_batch_by_batch_in_the_jvm_and_in_python(batched: Run) -> None:
    def by_batch(name: str) -> dict[int, list[Row]]:
        return {batch_id: sorted(rows, key=repr) for batch_id, rows in batched.batches[name]}

    assert by_batch("q19 in python") == by_batch("q19")
    assert len([rows for rows in by_batch("q19").values() if rows]) == 3


#: Bids on auction 7 in two batches, which tie on the price, then on the time, then on the bidder:
#: each tie-break decides a rank, across the state and the batch. Two ``extra``s that UTF-16 and
#: code points order apart: U+FFFF and U+1F600 (code points put the emoji first).
TIED_BIDS: tuple[tuple[tuple[int, int, int, str], ...], ...] = (
    # (price, second, bidder, extra)
    ((100, 2, 5, "b"), (100, 2, 5, "a"), (100, 3, 1, "z"), (90, 1, 8, "\uffff"), (90, 1, 8, "\U0001f600"),
     (80, 5, 2, "c"), (70, 6, 3, "d")),
    ((100, 2, 4, "a"), (100, 1, 9, "a"), (100, 2, 5, "b"), (90, 1, 8, "\U0001f601"), (60, 4, 4, "e"),
     (60, 4, 3, "e"), (50, 7, 7, "f"), (40, 8, 6, "g")),
)  # fmt: skip


def test_q19_breaks_ties_as_the_oracle_does_in_the_jvm_and_in_python(
    spark: SparkSession, rocksdb: None, tmp_path: Path
) -> None:
    import os

    from pyspark.sql import Row as SparkRow

    from spark_random_strings.nexmark.stream import nexmark_schema

    folder = tmp_path / "bids"
    folder.mkdir()
    start = datetime(2026, 11, 29, tzinfo=UTC)
    for number, batch in enumerate(TIED_BIDS):
        rows = []
        for price, second, bidder, extra in batch:
            time = start.replace(second=second)
            bid = SparkRow(
                auction=7, bidder=bidder, price=price, channel="c", url="u", dateTime=time, extra=extra
            )
            rows.append(SparkRow(event_type=2, person=None, auction=None, bid=bid, dateTime=time))
        staged = tmp_path / f"staged-{number}"
        spark.createDataFrame(rows, nexmark_schema()).coalesce(1).write.parquet(str(staged))
        (part,) = staged.glob("*.parquet")
        # One file a batch, which the file source reads in the order of their times.
        target = part.rename(folder / f"batch-{number}.parquet")
        os.utime(target, (1_000_000_000 + number, 1_000_000_000 + number))
    expected = sorted(nexmark_answers(spark.read.parquet(str(folder)).collect(), ["q19"])["q19"], key=repr)
    assert sorted(int(row[7]) for row in expected) == list(range(1, 11))  # type: ignore[call-overload]

    for query in (q19, _q19_in_python):
        events = (
            spark.readStream.schema(nexmark_schema()).option("maxFilesPerTrigger", 1).parquet(str(folder))
        )
        batches: list[tuple[int, list[Row]]] = []

        def keep(batch: DataFrame, batch_id: int, batches: list[tuple[int, list[Row]]] = batches) -> None:
            batches.append((batch_id, [tuple(row) for row in batch.collect()]))

        running = (
            millis(query(events))
            .writeStream.outputMode("update")
            .foreachBatch(keep)
            .trigger(availableNow=True)
            .option("checkpointLocation", str(tmp_path / query.__name__))
            .start()
        )
        running.awaitTermination(120)
        assert running.exception() is None
        assert len([rows for _, rows in batches if rows]) == 2, query.__name__
        table = {(row[0], row[7]): row for _, rows in sorted(batches) for row in rows}
        assert sorted(table.values(), key=repr) == expected, query.__name__


def test_q19_keeps_its_state_in_the_jars_processor_where_the_driver_has_the_jar(
    spark: SparkSession, rocksdb: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    events = read_nexmark(spark, num_events=10)

    def plan(query: DataFrame) -> str:
        return str(query._jdf.queryExecution().analyzed().toString())

    assert "io.github.sparkrandomstrings.nexmark.queries.TopBidsProcessor" in plan(q19(events))
    python_plan = plan(_q19_in_python(events))
    assert "TopBidsProcessor" not in python_plan and "TransformWithStateIn" in python_plan
    # Where the driver cannot load the jar's class (Spark Connect, or no jar), q19 runs Python's.
    monkeypatch.setattr(ranking, "driver_loads", lambda spark, name: False)
    fallback = plan(q19(events))
    assert "TopBidsProcessor" not in fallback and "TransformWithStateIn" in fallback


def batch_time_ms(checkpoint: Path, batch_id: int) -> int:
    """The time the checkpoint's offset log keeps for a batch: its ``current_timestamp()``."""
    metadata = (checkpoint / "offsets" / str(batch_id)).read_text().splitlines()[1]
    return int(json.loads(metadata)["batchTimestampMs"])


def test_q12_counts_every_bid_once_in_the_processing_time_window_of_its_batch(batched: Run) -> None:
    bids = Counter(e.bid["bidder"] for e in batched.events if e.bid is not None)
    table = batched.upserted("q12")
    per_bidder: Counter[object] = Counter()
    for bidder, count, start, end in table:
        per_bidder[bidder] += count
        assert end - start == 10_000 and start % 10_000 == 0, "a 10 s tumbling window"
    assert per_bidder == bids, "every bid counted once, whatever the clock did"
    assert sum(per_bidder.values()) == sum(bids.values()) == 13_800
    for batch_id, rows in batched.batches["q12"]:
        time = batch_time_ms(batched.checkpoints["q12"], batch_id)
        assert {(start, end) for _, _, start, end in rows} <= {
            (time - time % 10_000, time - time % 10_000 + 10_000)
        }


def test_q6_and_q19_refuse_a_session_without_the_rocksdb_state_store_naming_the_setting(
    spark: SparkSession,
) -> None:
    events = read_nexmark(spark, num_events=10)
    with session_setting(spark, STATE_STORE_PROVIDER, HDFS_PROVIDER):
        for query in (q6, q19):
            with pytest.raises(
                ValueError,
                match=rf"needs the RocksDB state store, but {STATE_STORE_PROVIDER} is '{HDFS_PROVIDER}'",
            ):
                query(events)


#: The other lines this test runs on: 3.5, which refuses q6 and q19 (no transformWithState), and
#: 4.0, the oldest with it, q19 with the jar's processor and with Python's; 4.1 and 4.2 change none
#: of the API the queries use, which the default line (4.3) runs in full above.
OTHER_LINES = ("3.5", "4.0")
#: 10,000 events in two batches: what the other lines run.
SHORT: NexmarkKeywords = {**HALF_MINUTE, "num_events": 10_000, "max_events_per_trigger": 5_000}


@pytest.mark.every_line
@pytest.mark.skipif(
    on_default_line() or ".".join(map(str, pyspark_line())) not in OTHER_LINES,
    reason="the default line runs each query in full above; of the others, 3.5 and 4.0 run this",
)
def test_on_this_line_q15_to_q18_write_the_oracles_rows_and_q6_and_q19_run_from_spark_4_0(
    spark: SparkSession, tmp_path: Path
) -> None:
    import pyspark

    modes = {**dict.fromkeys(DAILY, "update"), "q18": "update"}
    with_state = int(pyspark.__version__.split(".")[0]) >= 4
    if not with_state:
        events = read_nexmark(spark, num_events=10)
        for query in (q6, q19):
            with pytest.raises(RuntimeError, match=r"needs Spark 4\.0 or later: it keeps its state with "):
                query(events)
    provider = ROCKSDB_PROVIDER if with_state else str(spark.conf.get(STATE_STORE_PROVIDER))
    with session_setting(spark, STATE_STORE_PROVIDER, provider):
        short = run(
            spark,
            SHORT,
            {**modes, **({"q6": "append", "q19": "update", "q19 in python": "update"} if with_state else {})},
            tmp_path,
        )
    for name in DAILY:
        assert sorted(short.upserted(name), key=repr) == updated(short, name), name
    assert sorted(short.upserted("q18"), key=repr) == answer(short, "q18")
    if with_state:
        assert sorted(short.appended("q6"), key=repr) == answer(short, "q6")
        assert sorted(short.upserted("q19"), key=repr) == answer(short, "q19")
        assert sorted(short.upserted("q19 in python"), key=repr) == answer(short, "q19")
