"""The stateless Nexmark queries (q0, q1, q2, q10, q14, q21, q22) in Spark's real-time mode (4.2+
from Python): with one partition, what reaches a ``foreach`` sink is exactly the query's answer
over a prefix of the events, in order, each event handed on once it exists."""

from __future__ import annotations

import json
import sys
import time
import uuid
from pathlib import Path
from typing import IO, Any

import pytest
from pyspark import cloudpickle
from pyspark.sql import DataFrame, SparkSession

from spark_random_strings import read_nexmark
from spark_random_strings.engine.choice import pyspark_line
from spark_random_strings.nexmark import answers as _nexmark_answers
from spark_random_strings.nexmark.config import NexmarkConfig
from spark_random_strings.nexmark.generator import nexmark_events
from spark_random_strings.nexmark.queries import QUERIES

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
    """The rows the sink got, in the order it got them (one partition: files by epoch)."""
    files = sorted(folder.glob("*.jsonl"), key=lambda p: int(p.name.split("-")[0]))
    return [json.loads(line) for path in files for line in path.read_text().splitlines()]


#: The stateless queries, which real-time mode runs (nexmark_queries' docstring).
STATELESS = ("q0", "q1", "q2", "q10", "q14", "q21", "q22")
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
    query = (
        plain(QUERIES[name](events))
        .writeStream.foreach(JsonLinesSink(str(output)))
        .outputMode("update")
        .trigger(realTime="1 second")  # type: ignore[call-overload]  # pyspark's stubs lack it
        .option("checkpointLocation", str(tmp_path / "checkpoint"))
        .start()
    )
    try:
        deadline = time.monotonic() + 90
        while len(sink_rows(output)) < wanted and query.isActive and time.monotonic() < deadline:
            time.sleep(0.2)
        assert query.exception() is None
    finally:
        query.stop()
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
