"""The ``nexmark`` stream's Python data source (``engine="python"``, ``nexmarkPython``): the jar's
events without the jar.

The reader's contract, without Spark: events exist by the clock from the first start, as the
jar's ``NexmarkTimeline.eventsWithin`` counts them; batches follow ``maxEventsPerTrigger`` and
``numEvents`` and split into ``numPartitions`` slices; every offset holds the stream in the JSON
of the jar's checkpoint file; and each option of ``tests/vectors/nexmark_invalid_inputs.json`` is
refused with the jar's exact message. Then through Spark: the Python engine's events are the
jar's, a contradicting restart fails naming each option, and real-time mode is refused. The
Spark Connect server without the jar or the package is ``test_python_source``'s.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from pyspark.errors import IllegalArgumentException, StreamingQueryException
from pyspark.sql import SparkSession
from pyspark.sql.streaming.query import StreamingQuery
from test_nexmark_source import flat, twin_rows

from helpers.support import REPO, available_now
from spark_random_strings import read_nexmark
from spark_random_strings.engine.choice import pyspark_line
from spark_random_strings.nexmark.generator import nexmark_events
from spark_random_strings.nexmark.options import parse_nexmark_options
from spark_random_strings.nexmark.stream import (
    NexmarkStream,
    event_batches,
    nexmark_schema,
    stream_from_json,
)
from spark_random_strings.nexmark.timeline import nexmark_timeline

PYSPARK = pyspark_line()
needs_4_2 = pytest.mark.skipif(
    PYSPARK < (4, 2), reason="read limits, start offsets and AvailableNow for Python readers came with 4.2"
)
VECTORS: list[dict[str, Any]] = json.loads(
    (REPO / "tests" / "vectors" / "nexmark_invalid_inputs.json").read_text(encoding="utf-8")
)["cases"]
#: A rate that changes, shuffled groups and small sizes: every branch of the timeline.
SHAPED = {
    "firstEventRate": "100",
    "nextEventRate": "5000",
    "rateShape": "SQUARE",
    "ratePeriodSec": "4",
    "outOfOrderGroupSize": "10",
    "avgBidByteSize": "30",
}


@pytest.mark.parametrize("case", VECTORS, ids=[case["name"] for case in VECTORS])
def test_each_invalid_option_is_refused_with_the_jar_sources_exact_message(case: dict[str, Any]) -> None:
    with pytest.raises(ValueError) as refused:
        parse_nexmark_options(case["options"])
    assert str(refused.value) == case["message"]


@pytest.mark.parametrize(
    "options", [{}, SHAPED, {"firstEventRate": "7", "nextEventRate": "9", "rateUnit": "PER_MINUTE"}]
)
def test_events_exist_when_their_timestamps_come_counted_from_the_first_start(
    options: dict[str, str],
) -> None:
    config = parse_nexmark_options(options).config
    timeline = nexmark_timeline(config)
    stream = NexmarkStream(config, start_time_ms=1_000_000)
    assert stream.events_available_at(999_999) == 0
    for elapsed in (0, 1, 999, 4_321, 60_000, 86_400_000, 10**12):
        count = stream.events_available_at(1_000_000 + elapsed)
        # Every event before `count` exists, and the next one does not yet.
        assert timeline.timestamp_ms(count - 1) - timeline.base_time_ms <= elapsed
        assert timeline.timestamp_ms(count) - timeline.base_time_ms > elapsed


@needs_4_2
def test_the_reader_plans_capped_batches_of_existing_events_in_slices_each_the_twins_events() -> None:
    from pyspark.sql.streaming.datasource import ReadAllAvailable, ReadMaxRows

    from spark_random_strings.nexmark.reader import NexmarkStreamReader
    from spark_random_strings.offsets.reader import SlicePartition

    reader = NexmarkStreamReader(
        parse_nexmark_options(
            {**SHAPED, "numEvents": "700", "maxEventsPerTrigger": "300", "numPartitions": "3"}
        )
    )
    now = [5_000_000]
    reader.now_ms = lambda: now[0]
    start = reader.initialOffset()
    assert start["offset"] == 0 and start["stream"]["startTimeMs"] == 5_000_000
    # At the first start, the events whose timestamp is the first's: 100 a second, so 1.
    assert reader.latestOffset(start, ReadAllAvailable())["offset"] == 1
    now[0] += 3_000  # 3 s later: the 2 s at 100 a second, then 1 s at 5000 a second
    end = reader.latestOffset(start, ReadMaxRows(300))
    assert end["offset"] == 300
    assert reader.latestOffset(start, ReadAllAvailable())["offset"] == 700  # capped at numEvents
    slices = reader.partitions(start, end)
    assert [(s.start, s.end) for s in slices if isinstance(s, SlicePartition)] == [
        (0, 100),
        (100, 200),
        (200, 300),
    ]
    made = pa.Table.from_batches([b for s in slices for b in reader.read(s)])
    assert made.equals(pa.Table.from_batches(list(event_batches(reader.options.config, 0, 300))))
    twin = list(nexmark_events(reader.options.config, 0, 300))
    assert made.column("event_type").to_pylist() == [e.event_type for e in twin]
    assert [t.timestamp() * 1000 for t in made.column("dateTime").to_pylist()] == [
        e.date_time_ms for e in twin
    ]
    assert [b and b["price"] for b in made.column("bid").to_pylist()] == [
        b and b["price"] for b in (e.bid for e in twin)
    ]


@needs_4_2
def test_every_offset_holds_the_stream_as_the_jars_checkpoint_file_and_a_changed_one_is_refused() -> None:
    from pyspark.sql.streaming.datasource import ReadAllAvailable

    from spark_random_strings.nexmark.reader import NexmarkStreamReader

    reader = NexmarkStreamReader(parse_nexmark_options(SHAPED))
    stored = reader.initialOffset()["stream"]
    assert stored["version"] == 1 and stored["config"]["rateShape"] == "SQUARE"
    assert stored["config"]["outOfOrderGroupSize"] == "10" and len(stored["config"]) == 15
    assert stream_from_json(stored, "here") == reader.definition
    other = NexmarkStreamReader(
        parse_nexmark_options({**SHAPED, "avgBidByteSize": "31", "rateShape": "sine"})
    )
    with pytest.raises(ValueError) as refused:
        other.latestOffset({"offset": 40, "stream": stored}, ReadAllAvailable())
    assert str(refused.value).startswith(
        "The options of this query contradict the Nexmark stream stored in its checkpoint (the offset log of "
        "its checkpoint): rateShape: the checkpoint has SQUARE, the query sets SINE; avgBidByteSize: the "
        "checkpoint has 30, the query sets 31."
    )
    with pytest.raises(ValueError, match=r"here is corrupt: 'config' has no nextEventRate, rateUnit,"):
        stream_from_json({**stored, "config": {"firstEventRate": "1"}}, "here")


@needs_4_2
@pytest.mark.slow
def test_the_python_engine_reads_the_jar_sources_events_in_capped_batches_and_the_same_checkpoint_json(
    spark: SparkSession, tmp_path: Path, query_name: str
) -> None:
    keywords = {"num_events": 1200, "num_partitions": 2, "max_events_per_trigger": 500}
    shaped = {row: int(v) if v.isdigit() else v for row, v in SHAPED.items()}
    options = {
        "first_event_rate": 100,
        "next_event_rate": 5000,
        "rate_shape": "SQUARE",
        "rate_period_sec": 4,
        "out_of_order_group_size": 10,
        "avg_bid_byte_size": 30,
    }
    events = read_nexmark(spark, engine="python", **keywords, **options)  # type: ignore[arg-type]
    assert events.schema == nexmark_schema()
    query = available_now(flat(events), query_name, tmp_path / "python")
    rows = [tuple(row) for row in spark.table(query_name).collect()]
    assert sorted(rows, key=repr) == sorted(twin_rows(shaped, 1200), key=repr)
    assert [int(p["numInputRows"]) for p in query.recentProgress if int(p["numInputRows"])] == [500, 500, 200]
    # The jar's source reads the same events, and keeps the same stream in its own file.
    jar = read_nexmark(spark, engine="jvm", **keywords, **options)  # type: ignore[arg-type]
    available_now(flat(jar), f"{query_name}_jvm", tmp_path / "jvm")
    assert sorted(tuple(r) for r in spark.table(f"{query_name}_jvm").collect()) == sorted(rows)
    jar_file = json.loads((tmp_path / "jvm" / "sources" / "0" / "nexmark-source.json").read_text())
    last_offset = (tmp_path / "python" / "offsets" / "2").read_text().splitlines()[-1]
    python_stream = json.loads(last_offset)["stream"]
    assert {**python_stream, "startTimeMs": 0} == {**jar_file, "startTimeMs": 0}


@needs_4_2
def test_a_python_restart_that_changes_the_events_fails_naming_each_option_and_more_events_continue(
    spark: SparkSession, tmp_path: Path
) -> None:
    output, checkpoint = tmp_path / "events", tmp_path / "checkpoint"

    def run(**options: Any) -> StreamingQuery:
        events = read_nexmark(spark, engine="python", **options).select("event_type", "dateTime")
        writer = events.writeStream.format("parquet").option("checkpointLocation", str(checkpoint))
        return writer.trigger(availableNow=True).start(str(output))

    assert run(num_events=100).awaitTermination(120)
    query = run(num_events=100, first_event_rate=500, hot_bidders_ratio=3)
    try:
        with pytest.raises(StreamingQueryException) as raised:
            query.awaitTermination(60)
    finally:
        query.stop()
    assert (
        "firstEventRate: the checkpoint has 10000, the query sets 500; hotBiddersRatio: the checkpoint has 4"
        in (str(raised.value))
    )
    # numEvents may grow: the same events, more of them, each once.
    assert run(num_events=150).awaitTermination(120)
    written = spark.read.parquet(str(output)).selectExpr("event_type", "unix_millis(dateTime)").collect()
    twin = nexmark_events(parse_nexmark_options({}).config, 0, 150)
    assert sorted(tuple(row) for row in written) == sorted((e.event_type, e.date_time_ms) for e in twin)


def test_the_python_engine_refuses_a_bad_value_and_real_time_at_load_naming_the_keyword(
    spark: SparkSession,
) -> None:
    if PYSPARK < (4, 0):
        pytest.skip("Python streaming data sources came with Spark 4.0")
    with pytest.raises(IllegalArgumentException) as refused:
        read_nexmark(
            spark,
            engine="python",
            rate_period_sec=5,
            rate_unit="PER_MINUTE",
            first_event_rate=1,
            next_event_rate=2,
        )
    assert str(refused.value).startswith("Invalid value '5' for rate_period_sec: too short for these rates.")
    with pytest.raises(IllegalArgumentException, match=r"real_time is true, but the nexmarkPython source"):
        read_nexmark(spark, engine="python", real_time=True)
    with pytest.raises(
        ValueError, match=r"read_nexmark: engine is 'rust'; allowed: 'auto', 'jvm' or 'python'"
    ):
        read_nexmark(spark, engine="rust")  # type: ignore[arg-type]
