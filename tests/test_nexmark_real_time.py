"""The stateless Nexmark queries in Spark's real-time mode (4.2+ from Python): with one partition,
what reaches a ``foreach`` sink is exactly the query's answer over a prefix of the events, in
order, each event handed on once it exists."""

from __future__ import annotations

import json
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import pytest
from pyspark import cloudpickle
from pyspark.sql import DataFrame, SparkSession

from spark_random_strings import _nexmark_answers, nexmark_queries, read_nexmark
from spark_random_strings._nexmark_generator import BID, NexmarkConfig, nexmark_events
from spark_random_strings._reader import pyspark_line

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
        self.file.write(json.dumps(list(row)) + "\n")
        self.file.flush()

    def close(self, error: BaseException | None) -> None:
        if self.file is not None:
            self.file.close()


def sink_rows(folder: Path) -> list[list[Any]]:
    """The rows the sink got, in the order it got them (one partition: files by epoch)."""
    files = sorted(folder.glob("*.jsonl"), key=lambda p: int(p.name.split("-")[0]))
    return [json.loads(line) for path in files for line in path.read_text().splitlines()]


@pytest.mark.parametrize(
    ("name", "timed"),
    [
        ("q0", lambda df: df.selectExpr("auction", "bidder", "price", "unix_millis(dateTime)", "extra")),
        ("q22", lambda df: df),
    ],
)
def test_a_stateless_query_in_real_time_mode_hands_on_its_answer_over_a_prefix_of_the_events_in_order(
    spark: SparkSession, tmp_path: Path, name: str, timed: Callable[[DataFrame], DataFrame]
) -> None:
    output = tmp_path / "rows"
    output.mkdir()
    spark.conf.set("spark.sql.streaming.realTimeMode.minBatchDuration", "1s")
    events = read_nexmark(
        spark, real_time=True, num_events=0, num_partitions=1, first_event_rate=RATE, next_event_rate=RATE
    )
    query = (
        timed(getattr(nexmark_queries, name)(events))
        .writeStream.foreach(JsonLinesSink(str(output)))
        .outputMode("update")
        .trigger(realTime="1 second")  # type: ignore[call-overload]  # pyspark's stubs lack it
        .option("checkpointLocation", str(tmp_path / "checkpoint"))
        .start()
    )
    try:
        deadline = time.monotonic() + 90
        while len(sink_rows(output)) < ROWS and query.isActive and time.monotonic() < deadline:
            time.sleep(0.2)
        assert query.exception() is None
    finally:
        query.stop()
    got = sink_rows(output)
    assert len(got) >= ROWS
    # The prefix of the events that holds the bids the sink got, and the query's answer over it.
    config = NexmarkConfig(first_event_rate=RATE, next_event_rate=RATE)
    prefix, bids = [], 0
    for event in nexmark_events(config, 0, 10 * len(got)):
        prefix.append(event)
        bids += event.event_type == BID
        if bids == len(got):
            break
    expected = [list(row) for row in getattr(_nexmark_answers, name)(prefix)]
    assert got == expected
