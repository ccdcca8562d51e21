"""The Nexmark queries in Spark's real-time mode (4.2+ from Python). The stateless ones (q0, q1, q2,
q10, q13, q14, q21, q22): with one partition, what reaches a ``foreach`` sink is exactly the
query's answer over a prefix of the events, in order, each event handed on once it exists. The
stateful ones that Spark 4.3 runs there (q5_counts, q12, q15 to q19), in update mode: the sink's
rows, applied as upserts of each query's key, leave the query's update-mode answer over the
events of a bounded stream."""

from __future__ import annotations

import json
import sys
import time
import uuid
import warnings
from collections import Counter
from pathlib import Path
from typing import IO, Any

import pytest
from pyspark import cloudpickle
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.streaming.query import StreamingQuery

from helpers.support import await_free_slots, task_threads
from spark_random_strings import nexmark_answers, read_nexmark
from spark_random_strings.engine.choice import pyspark_line
from spark_random_strings.engine.session import session_setting
from spark_random_strings.nexmark import answers as _nexmark_answers
from spark_random_strings.nexmark.config import NexmarkConfig
from spark_random_strings.nexmark.generator import nexmark_events
from spark_random_strings.nexmark.queries import QUERIES, ROCKSDB_PROVIDER, STATE_STORE_PROVIDER

pytestmark = [
    pytest.mark.skipif(pyspark_line() < (4, 2), reason="PySpark's real-time trigger arrived in Spark 4.2"),
    pytest.mark.xdist_group("nexmark_real_time"),
]
# The sink is pickled by value: Spark's Python workers need nothing of the tests.
cloudpickle.register_pickle_by_value(sys.modules[__name__])  # type: ignore[no-untyped-call]

RATE = 1000
ROWS = 300


class JsonLinesSink:
    """Each row as a JSON line in a file of the task's own, flushed row by row."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.file: IO[str] | None = None

    def open(self, partition_id: int, epoch_id: int) -> bool:
        self.file = (Path(self.folder) / f"{epoch_id}-{partition_id}-{uuid.uuid4().hex}.jsonl").open("a")
        return True

    def process(self, row: Any) -> None:
        assert self.file is not None
        self.file.write(json.dumps(list(row), default=str) + "\n")
        self.file.flush()

    def close(self, error: BaseException | None) -> None:
        if self.file is not None:
            self.file.close()


def sink_rows(folder: Path) -> list[list[Any]]:
    """The rows the sink got, in the order it got them (one partition: files by epoch). A file read
    while its task writes may end in part of a line: a row still coming, which a later read gets."""
    files = sorted(folder.glob("*.jsonl"), key=lambda p: int(p.name.split("-")[0]))
    rows = []
    for path in files:
        text = path.read_text()
        rows += [json.loads(line) for line in text[: text.rfind("\n") + 1].splitlines()]
    return rows


#: The stateless queries, which real-time mode runs (nexmark_queries' docstring).
STATELESS = ("q0", "q1", "q2", "q10", "q13", "q14", "q21", "q22")
#: How many rows each waits for: q2 passes about one bid in 230 (4 rows a second at this rate).
WANTED = {"q2": 10}


def plain(df: DataFrame) -> DataFrame:
    """The query's columns with each timestamp as epoch ms, as the answers hold it."""
    from pyspark.sql import functions as f
    from pyspark.sql.types import TimestampType

    return df.select(
        *(
            f.unix_millis(f.col(field.name)).alias(field.name)
            if isinstance(field.dataType, TimestampType)
            else field.name
            for field in df.schema.fields
        )
    )


def start_real_time(df: DataFrame, output: Path, checkpoint: Path, batch: str) -> StreamingQuery:
    """``df``, its times as epoch ms, in real-time mode with batches of ``batch``, in update mode,
    into the JSON-lines sink writing to ``output``, once no task holds a slot: the source's task
    and a shuffle's readers run at once, in local[2]'s two."""
    await_free_slots(df.sparkSession)
    query: StreamingQuery = (
        plain(df)
        .writeStream.foreach(JsonLinesSink(str(output)))
        .outputMode("update")
        .trigger(realTime=batch)  # type: ignore[call-overload]  # pyspark's stubs lack it
        .option("checkpointLocation", str(checkpoint))
        .start()
    )
    return query


def as_json(row: Any) -> list[Any]:
    """A row as the sink writes it: a JSON list, a Decimal as its text."""
    shown: list[Any] = json.loads(json.dumps(list(row), default=str))
    return shown


@pytest.mark.parametrize("name", STATELESS)
def test_a_stateless_query_in_real_time_mode_hands_on_its_answer_over_a_prefix_of_the_events_in_order(
    spark: SparkSession, tmp_path: Path, name: str
) -> None:
    output = tmp_path / "rows"
    output.mkdir()
    wanted = WANTED.get(name, ROWS)
    spark.conf.set("spark.sql.streaming.realTimeMode.minBatchDuration", "1s")
    events = read_nexmark(
        spark, real_time=True, num_events=0, num_partitions=1, first_event_rate=RATE, next_event_rate=RATE
    )
    query = start_real_time(QUERIES[name](events), output, tmp_path / "checkpoint", "1 second")
    try:
        deadline = time.monotonic() + 90
        while len(sink_rows(output)) < wanted and query.isActive and time.monotonic() < deadline:
            time.sleep(0.2)
        assert query.exception() is None
    finally:
        query.stop()
        await_free_slots(spark)
    got = sink_rows(output)
    assert len(got) >= wanted
    # One partition hands on the events in order, and a stateless query keeps that order: the sink
    # got the first rows of the query's answer over the whole stream.
    config = NexmarkConfig(first_event_rate=RATE, next_event_rate=RATE)
    answer = getattr(_nexmark_answers, name)
    count = 1000
    while len(expected := answer(list(nexmark_events(config, 0, count)))) < len(got):
        count *= 2
    assert got == [as_json(row) for row in expected[: len(got)]]


#: The stateful queries that real-time mode runs on Spark 4.3 (update mode), each with the columns
#: of the key its rows upsert; q12's are checked apart, as its windows are the clock's. q19 runs
#: its processor in the JVM (the session's driver has the jar), with the RocksDB state store.
REAL_TIME_STATEFUL = {
    "q5_counts": (0, 2),
    "q15": (0,),
    "q16": (0, 1),
    "q17": (0, 1),
    "q18": (0, 1),
    "q19": (0, 7),
}
#: Two seconds of events: a bounded stream, which each query reads whole.
STATEFUL_EVENTS = 2_000


def real_time_upserts(spark: SparkSession, tmp_path: Path, name: str, done: Any) -> list[list[Any]]:
    """Run ``name`` in real-time mode over the bounded stream, one source partition and one
    shuffle partition (a stage group's tasks all run at once, and local[2] has two slots), until
    ``done(sink rows)`` or 60 s; the rows the sink got, in order.

    A run whose sink got no row at all in 60 s stalled in Spark's streaming shuffle (its writer
    waits for acknowledgements from a reader that never connected), not in the query: it is
    reported as a warning with where each task was, and the query runs once more from a fresh
    checkpoint. Rows that came and were wrong are never run again."""
    rows, stalled = _run_real_time(spark, tmp_path / "first", name, done)
    if not stalled:
        return rows
    warnings.warn(f"{name}: no row reached the sink in 60 s; the tasks were:\n{stalled}", stacklevel=2)
    return _run_real_time(spark, tmp_path / "again", name, done)[0]


def _run_real_time(spark: SparkSession, folder: Path, name: str, done: Any) -> tuple[list[list[Any]], str]:
    """One run of :func:`real_time_upserts`: the sink's rows, and if it got none in 60 s, where
    the tasks were before the query stopped."""
    output = folder / "rows"
    output.mkdir(parents=True)
    spark.conf.set("spark.sql.streaming.realTimeMode.minBatchDuration", "1s")
    # Spark 4.3 keeps a real-time query's state in RocksDB, and sets it where the session does not;
    # q19's function asks for the setting itself, as it does in micro-batch.
    with (
        session_setting(spark, "spark.sql.shuffle.partitions", "1"),
        session_setting(spark, STATE_STORE_PROVIDER, ROCKSDB_PROVIDER),
    ):
        events = read_nexmark(
            spark,
            real_time=True,
            num_events=STATEFUL_EVENTS,
            num_partitions=1,
            first_event_rate=RATE,
            next_event_rate=RATE,
        )
        query = start_real_time(QUERIES[name](events), output, folder / "checkpoint", "5 seconds")
    stalled = ""
    try:
        deadline = time.monotonic() + 60
        while not done(sink_rows(output)) and query.isActive and time.monotonic() < deadline:
            time.sleep(0.5)
        assert query.exception() is None
        if not sink_rows(output):
            stalled = task_threads(spark)
    finally:
        query.stop()
        # A stopped real-time query's tasks end after stop() returns: every one must, else it
        # holds a slot that the next query's stages need at once.
        await_free_slots(spark)
    return sink_rows(output), stalled


def upserted(rows: list[list[Any]], key: tuple[int, ...]) -> list[list[Any]]:
    """The table the rows leave, applied in order as upserts of the key's columns."""
    table = {tuple(row[i] for i in key): row for row in rows}
    return sorted(table.values(), key=repr)


@pytest.mark.skipif(
    pyspark_line() < (4, 3), reason="real-time mode's stateful operators arrived in Spark 4.3"
)
@pytest.mark.parametrize("name", REAL_TIME_STATEFUL)
def test_a_stateful_query_in_real_time_mode_upserts_its_update_mode_answer_over_the_events(
    spark: SparkSession, tmp_path: Path, name: str
) -> None:
    config = NexmarkConfig(first_event_rate=RATE, next_event_rate=RATE)
    events = list(nexmark_events(config, 0, STATEFUL_EVENTS))
    answer = nexmark_answers(events, [name], output_mode="update")[name]
    expected = sorted((as_json(row) for row in answer), key=repr)
    key = REAL_TIME_STATEFUL[name]
    got = real_time_upserts(spark, tmp_path, name, lambda rows: upserted(rows, key) == expected)
    assert upserted(got, key) == expected
    assert len(got) > len(expected), "rows were updated as the events came"


@pytest.mark.skipif(
    pyspark_line() < (4, 3), reason="real-time mode's stateful operators arrived in Spark 4.3"
)
def test_q12_in_real_time_mode_counts_every_bid_once_in_windows_of_the_clock(
    spark: SparkSession, tmp_path: Path
) -> None:
    config = NexmarkConfig(first_event_rate=RATE, next_event_rate=RATE)
    bids = Counter(e.bid["bidder"] for e in nexmark_events(config, 0, STATEFUL_EVENTS) if e.bid is not None)

    def counts(rows: list[list[Any]]) -> Counter[Any]:
        per_bidder: Counter[Any] = Counter()
        for bidder, count, _, _ in upserted(rows, (0, 2)):
            per_bidder[bidder] += count
        return per_bidder

    got = real_time_upserts(spark, tmp_path, "q12", lambda rows: counts(rows) == bids)
    assert counts(got) == bids, "every bid counted once, whatever the clock did"
    assert all(end - start == 10_000 and start % 10_000 == 0 for _, _, start, end in got)
