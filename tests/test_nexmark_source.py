"""The ``nexmark`` source from Python: ``read_nexmark``'s rows are the twin's events, Beam's fields
and Flink's channel and url; ``nexmark_views`` gives Flink's three views; bad keywords fail before
Spark or at ``load()`` with the keyword's name; and the ``nexmark`` command shows and writes them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pyspark.errors import IllegalArgumentException
from pyspark.sql import DataFrame, SparkSession

from helpers.support import CLI, RunInProcess, available_now, run_child
from spark_random_strings import read_nexmark
from spark_random_strings.engine.choice import pyspark_line
from spark_random_strings.nexmark import NEXMARK_OPTIONS, nexmark_views
from spark_random_strings.nexmark.config import NexmarkConfig
from spark_random_strings.nexmark.generator import nexmark_events

PERSON = ("id", "name", "emailAddress", "creditCard", "city", "state", "dateTime", "extra")
AUCTION = (
    "id",
    "itemName",
    "description",
    "initialBid",
    "reserve",
    "dateTime",
    "expires",
    "seller",
    "category",
    "extra",
)
BID = ("auction", "bidder", "price", "channel", "url", "dateTime", "extra")
TIMES = {"dateTime", "expires"}


def flat(df: DataFrame) -> DataFrame:
    """One tuple per event: its type, its time (epoch ms) and each struct's fields (times in ms)."""

    def column(struct: str, name: str) -> str:
        return f"unix_millis({struct}.{name})" if name in TIMES else f"{struct}.{name}"

    columns = [
        column(struct, name)
        for struct, names in (("person", PERSON), ("auction", AUCTION), ("bid", BID))
        for name in names
    ]
    return df.selectExpr("event_type", "unix_millis(dateTime)", *columns)


def twin_rows(options: dict[str, Any], count: int) -> list[tuple[Any, ...]]:
    """The twin's first ``count`` events as ``flat`` makes Spark's rows."""
    config = NexmarkConfig.from_beam_options(options)
    rows = []
    for event in nexmark_events(config, 0, count):
        values: list[Any] = [event.event_type, event.date_time_ms]
        for fields, names in ((event.person, PERSON), (event.auction, AUCTION), (event.bid, BID)):
            values += [None] * len(names) if fields is None else [fields[name] for name in names]
        rows.append(tuple(values))
    return rows


CONFIGURATIONS = {
    "defaults": {},
    "a square wave, shuffled groups and small sizes": {
        "firstEventRate": 100,
        "nextEventRate": 5000,
        "rateShape": "SQUARE",
        "ratePeriodSec": 4,
        "outOfOrderGroupSize": 10,
        "avgPersonByteSize": 40,
        "avgAuctionByteSize": 60,
        "avgBidByteSize": 30,
        "hotAuctionRatio": 1,
    },
}


@pytest.mark.parametrize("options", CONFIGURATIONS.values(), ids=CONFIGURATIONS.keys())
def test_read_nexmark_reads_the_twins_events_every_field_channel_and_url_included(
    spark: SparkSession, tmp_path: Path, query_name: str, options: dict[str, Any]
) -> None:
    keywords = {
        row.keyword: value
        for name, value in options.items()
        for row in NEXMARK_OPTIONS.rows
        if row.name == name
    }
    events = read_nexmark(spark, num_events=3000, num_partitions=3, max_events_per_trigger=1100, **keywords)
    available_now(flat(events), query_name, tmp_path / "checkpoint")
    rows = [tuple(row) for row in spark.table(query_name).collect()]
    assert len(rows) == 3000
    assert sorted(rows, key=repr) == sorted(twin_rows(options, 3000), key=repr)


def test_nexmark_views_are_flinks_three_views_each_with_the_4_s_watermark(spark: SparkSession) -> None:
    person, auction, bid = nexmark_views(read_nexmark(spark))
    assert (person.columns, auction.columns, bid.columns) == (list(PERSON), list(AUCTION), list(BID))
    for view in (person, auction, bid):
        plan = view._jdf.queryExecution().logical().toString()
        assert "EventTimeWatermark" in plan and "4 seconds" in plan


def test_read_nexmark_refuses_an_unknown_keyword_before_spark_and_a_bad_value_naming_the_keyword(
    spark: SparkSession,
) -> None:
    with pytest.raises(
        TypeError, match=r"unexpected keyword argument 'first_event_rte'\. Did you mean 'first_event_rate'\?"
    ):
        read_nexmark(spark, first_event_rte=5)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"read_nexmark: rate_shape must be str or None, got int 3"):
        read_nexmark(spark, rate_shape=3)  # type: ignore[arg-type]
    with pytest.raises(IllegalArgumentException) as refused:
        read_nexmark(spark, hot_bidders_ratio=0)
    assert str(refused.value).startswith(
        "Invalid value '0' for hot_bidders_ratio: out of range. Allowed: a whole number from 1 to 2147483647."
    )


@pytest.mark.processes
def test_the_nexmark_command_writes_exactly_num_events_and_a_second_run_resumes_with_none_more(
    tmp_path: Path,
) -> None:
    output = tmp_path / "events"
    args = ["nexmark", "--num-events", "12000", "--first-event-rate", "100000", "--output", str(output)]
    done = run_child([*CLI, *args])
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout.strip()
        .splitlines()[-1]
        .startswith(f"wrote 12,000 events to {output} as parquet (12,000 in this run, ")
    )
    import pyarrow.parquet as pq

    table = pq.read_table(sorted(str(p) for p in output.glob("*.parquet")))
    assert table.num_rows == 12000
    assert sorted(table.column("event_type").to_pylist()) == [0] * 240 + [1] * 720 + [2] * 11040
    again = run_child([*CLI, *args])
    assert again.returncode == 0, again.stderr
    assert "(0 in this run, " in again.stdout


@pytest.mark.extended
@pytest.mark.skipif(pyspark_line() < (4, 2), reason="write runs the Python source under AvailableNow, 4.2+")
@pytest.mark.processes
def test_write_nexmark_through_the_python_engine_writes_exactly_the_twins_events(tmp_path: Path) -> None:
    output = tmp_path / "events"
    args = ["write", "--nexmark", "--engine", "python", "--num-events", "900", "--first-event-rate", "100000"]
    done = run_child([*CLI, *args, "--output", str(output), "--format", "json", "--num-partitions", "2"])
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout.strip()
        .splitlines()[-1]
        .startswith(f"wrote 900 events to {output} as json (900 in this run, ")
    )
    written = [json.loads(line) for path in output.glob("*.json") for line in path.read_text().splitlines()]
    twin = nexmark_events(NexmarkConfig(first_event_rate=100_000), 0, 900)
    # Spark's JSON leaves out the null structs.
    assert sorted((e["event_type"], e["bid"]["price"] if "bid" in e else None) for e in written) == sorted(
        (e.event_type, e.bid and e.bid["price"]) for e in twin
    )


def test_write_nexmark_without_output_is_refused_naming_output(in_process: RunInProcess) -> None:
    done = in_process("write", "--nexmark", "--num-events", "10")
    assert done.returncode == 2
    assert "error: the following arguments are required with write --nexmark: --output" in done.stderr


@pytest.mark.processes
def test_the_nexmark_command_shows_every_event_by_kind_until_the_streams_last(tmp_path: Path) -> None:
    done = run_child([*CLI, "nexmark", "--num-events", "5000", "--first-event-rate", "1000000"])
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout.strip()
        .splitlines()[-1]
        .startswith("spark-random-strings nexmark: 5,000 events (100 persons, 300 auctions, 4,600 bids) in ")
    )


def test_the_nexmark_command_refuses_a_bad_flag_naming_it(in_process: RunInProcess) -> None:
    done = in_process("nexmark", "--rate-unit", "PER_HOUR")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "spark-random-strings nexmark: error: argument --rate-unit: invalid value 'PER_HOUR'. Allowed: "
        "PER_SECOND or PER_MINUTE (case-insensitive). (see spark-random-strings nexmark --help)"
    )


def test_the_nexmark_guides_option_table_lists_each_option_with_its_default_and_help() -> None:
    guide = (Path(__file__).parent.parent / "docs" / "nexmark.md").read_text()
    options = guide.split("## Options")[1].split("\n## ")[0]
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \| ([^|]+) \|$", options, re.M)
    assert [(name, default.strip(), help.strip()) for name, default, help in rows] == [
        (row.name, row.option.default, row.option.help) for row in NEXMARK_OPTIONS.rows
    ]
