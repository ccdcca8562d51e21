"""Time as pipelines use it: the ``timestamp`` column, a fixed event-time start and a rate profile,
through the jar's source and the Python data source.

Each engine's rows equal ``expected_rows`` of the same options, with no checkpoint needed when
the event times start at ``start_timestamp``, and two runs that start at different times read
the same rows; under a trigger, on a clock the test steps, a profiled stream's next batch holds
exactly the rows the profile made by each step, none before it makes them; and a restart that
changes any of the three options is refused, naming it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pyarrow as pa
import pytest
from pyspark.errors import StreamingQueryException
from pyspark.sql import SparkSession
from pyspark.sql.types import TimestampType

from helpers.stepped import START_MS, Batches, SteppedClock, start_stepped, stepped_stream
from helpers.support import run_available_now
from spark_random_strings import Engine, expected_rows, read_random_strings, stream_definition
from spark_random_strings.engine.choice import pyspark_line
from spark_random_strings.time.rate_profile import parse_rate_profile

PYSPARK = pyspark_line()
#: The engines under test: the Python data source reads limits and AvailableNow from 4.2 on.
ENGINES: list[Engine] = ["jvm", "python"] if PYSPARK >= (4, 2) else ["jvm"]
#: A stream with all three options, and shaping that moves event times.
TIMED: dict[str, Any] = {
    "seed": 20261125,
    "max_length": 6,
    "timestamp_column": True,
    "start_timestamp": 1_767_225_600_000,  # 2026-01-01T00:00:00Z
    "rate_profile": "1500ms@40, 2s@10..4000, 700ms@0, repeat",
    "max_out_of_order_ms": 30,
    "duplicate_fraction": 0.1,
}


def table_rows(spark: SparkSession, name: str) -> list[dict[str, Any]]:
    return cast(list[dict[str, Any]], [row.asDict() for row in spark.table(name).orderBy("offset").collect()])


def as_dicts(table: pa.Table) -> list[dict[str, Any]]:
    """expected_rows as Spark collects them: a TIMESTAMP as a naive local datetime."""
    rows: list[dict[str, Any]] = table.to_pylist()
    for row in rows:
        if "timestamp" in row:
            row["timestamp"] = row["timestamp"].astimezone().replace(tzinfo=None)
    return rows


@pytest.mark.parametrize("engine", ENGINES)
def test_a_timed_stream_reads_whole_under_available_now_with_the_profiles_event_times(
    spark: SparkSession, tmp_path: Path, query_name: str, engine: Engine
) -> None:
    df = read_random_strings(spark, engine=engine, total_rows=3_000, max_rows_per_trigger=1_000, **TIMED)
    assert df.schema.fieldNames() == ["value", "ts", "offset", "length", "timestamp"]
    assert isinstance(df.schema["timestamp"].dataType, TimestampType)
    assert not df.schema["timestamp"].nullable
    run_available_now(df, query_name, tmp_path)
    rows = table_rows(spark, query_name)
    # Nothing from the checkpoint: the event times start at start_timestamp.
    assert rows == as_dicts(expected_rows(start=0, end=3_000, **TIMED))
    assert {k: v for k, v in stream_definition(tmp_path).items() if k != "start_time_ms"} == {
        **{k: v for k, v in TIMED.items() if k != "rate_profile"},
        "rate_profile": "1500ms@40,2s@10..4000,700ms@0,repeat",
        "min_length": 0,
        "charset": "alphanumeric",
        "max_duplicate_distance": 1000,
    }


def test_two_fresh_runs_with_a_start_timestamp_give_identical_rows_ts_included(
    spark: SparkSession, tmp_path: Path
) -> None:
    options: dict[str, Any] = {
        "seed": 5,
        "total_rows": 200,
        "rows_per_second": 1_000_000,
        "start_timestamp": 0,
    }
    runs = []
    # The second run starts a day after the first, by the clocks the streams read.
    for run, start_ms in enumerate([START_MS, START_MS + 86_400_000], 1):
        with SteppedClock(spark, start_ms) as clock:
            rows, _ = run_available_now(
                stepped_stream(spark, clock, **options), f"fixed_start_{run}", tmp_path / str(run)
            )
        assert stream_definition(tmp_path / str(run))["start_time_ms"] == start_ms
        runs.append(rows)
    first, second = runs
    assert len(first) == 200
    assert first == second
    assert [ts for _, ts, _, _ in first] == [o // 1000 for o in range(200)]  # 1000 o / 10^6 ms


#: The profile the trigger test reads, and where it steps the clock (ms after the stream
#: started): before and at its first row, the first phase's end, into the burst and to its end,
#: into the pause (no row, so no batch), and on into the repeat and its burst.
PROFILE = "1s@200, 1s@3000, 500ms@0, repeat"
STEPS = [4, 5, 999, 1000, 1001, 1999, 2000, 2300, 2505, 3500, 4100]


@pytest.mark.parametrize("engine", ENGINES)
def test_under_a_trigger_a_profiled_stream_hands_on_exactly_the_rows_the_profile_makes_by_each_step(
    spark: SparkSession, tmp_path: Path, engine: Engine
) -> None:
    profile = parse_rate_profile(PROFILE)
    with SteppedClock(spark) as clock:
        batches = Batches(clock)
        df = stepped_stream(spark, clock, engine, seed=1, rate_profile=PROFILE)
        query = start_stepped(df, tmp_path, batches)
        made = []
        try:
            # The stream started at the clock's time, when no row exists: the jar's source plans
            # no batch, and the Python source's first offset makes one empty batch.
            assert batches.offsets() == ([] if engine == "jvm" else [[]])
            for at in STEPS:
                before = len(batches.kept)
                clock.advance_to(at)
                query.processAllAvailable()
                made.append(batches.offsets()[before:])
        finally:
            query.stop()
        assert query.exception() is None
    assert stream_definition(tmp_path)["start_time_ms"] == clock.start_ms
    ends = [profile.rows_available(at) for at in STEPS]
    assert ends == [0, 1, 199, 200, 203, 3197, 3200, 3200, 3201, 3400, 5200]
    # The query's next trigger reads, in one batch, every row the step made and no other; a step
    # that makes no row makes no batch.
    steps = zip([0, *ends[:-1]], ends, strict=True)
    assert made == [[list(range(last, end))] if end > last else [] for last, end in steps]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("changed", "said"),
    [
        # How a restart reads its stored stream can differ by line; which option it names cannot:
        # one change on every line, the others on the default line.
        pytest.param(
            {"timestamp_column": True},
            "timestampColumn: the checkpoint has false, the query sets true",
            marks=pytest.mark.every_line,
        ),
        ({"start_timestamp": 7}, "startTimestamp: the checkpoint has none, the query sets 7"),
        ({"rate_profile": "1s@5"}, "rateProfile: the checkpoint has none, the query sets 1s@5"),
    ],
)
def test_a_restart_that_changes_a_time_option_is_refused_naming_it(
    spark: SparkSession, tmp_path: Path, engine: Engine, changed: dict[str, Any], said: str
) -> None:
    base: dict[str, Any] = {"seed": 3, "total_rows": 10, "max_length": 3}
    run_available_now(read_random_strings(spark, engine=engine, **base), f"time_restart_{engine}", tmp_path)
    options = {**base, **changed}
    if "rate_profile" in changed:
        options["total_rows"] = 20
    df = read_random_strings(spark, engine=engine, **options)
    query = df.writeStream.format("noop").option("checkpointLocation", str(tmp_path)).start()
    try:
        with pytest.raises(StreamingQueryException) as error:
            query.awaitTermination(60)
    finally:
        query.stop()
    assert said in str(error.value)
    assert "(distinctValues to rateProfile)" in str(error.value)
