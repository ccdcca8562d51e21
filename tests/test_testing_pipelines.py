"""The recipes of docs/testing-pipelines.md: each example's pipeline, run in this session, gives
exactly what its stream, computed here row by row from its keywords alone (``expected_rows``: no
Spark run, no checkpoint), says it must. The burst recipe's pipeline runs on a clock the test
steps a trigger interval at a time (``helpers.stepped``), so that its batches are exact too."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from pyspark.sql import SparkSession

from helpers.stepped import Batches, SteppedClock, start_stepped, stepped_stream
from helpers.support import EXAMPLES, example_module
from spark_random_strings import expected_rows
from spark_random_strings.time.rate_profile import parse_rate_profile

#: The recipes, in the guide's order.
RECIPES = [
    "watermark_drops_late_rows",
    "drop_duplicates_within_watermark",
    "hot_keys_state",
    "burst_catches_up",
]
#: Keywords of a recipe's stream that say how it is read, not what it holds.
DELIVERY = ("total_rows", "max_rows_per_trigger", "num_partitions")


def _rows(stream: dict[str, Any]) -> pa.Table:
    """Every row of a recipe's stream, from its keywords alone."""
    shaping = {keyword: value for keyword, value in stream.items() if keyword not in DELIVERY}
    return expected_rows(start=0, end=stream["total_rows"], **shaping)


@pytest.mark.slow
def test_a_watermarked_windowed_count_counts_every_out_of_order_row_and_drops_exactly_the_late_ones(
    spark: SparkSession, tmp_path: Path
) -> None:
    recipe = example_module("watermark_drops_late_rows")
    stream = recipe.STREAM
    ts = _rows(stream).column("ts").to_pylist()
    # 1,000 rows/s: row o's in-order time is startTimestamp + o ms; a late row is 60 s behind it,
    # on top.
    behind = {offset: stream["start_timestamp"] + offset - t for offset, t in enumerate(ts)}
    late = {o for o, ms in behind.items() if ms > stream["max_out_of_order_ms"]}
    assert len(behind) == 6000
    assert all(0 <= ms <= 2000 or 60000 <= ms <= 62000 for ms in behind.values())
    assert len(late) == 47
    assert min(late) >= 2 * stream["max_rows_per_trigger"], "no late row in the first two batches"
    windows = Counter(t // 10000 * 10000 for o, t in enumerate(ts) if o not in late)

    result = recipe.windowed_counts(spark, str(tmp_path / "pipeline"))

    assert result == {
        "read": 6000,
        "counted": 6000 - len(late),
        "windows": {str(start): windows[start] for start in sorted(windows)},
    }


def test_drop_duplicates_within_watermark_keeps_exactly_the_first_of_each_repeated_row(
    spark: SparkSession, tmp_path: Path
) -> None:
    recipe = example_module("drop_duplicates_within_watermark")
    rows = _rows(recipe.STREAM)
    first: dict[tuple[str, int], int] = {}
    for row in rows.select(["value", "ts", "offset"]).to_pylist():
        first.setdefault((row["value"], row["ts"]), row["offset"])
    originals = sorted(first.values())
    assert len(set(rows.column("value").to_pylist())) == len(first), "equal values are exact repeats"
    assert len(rows) - len(originals) == 103

    result = recipe.deduplicated(spark, str(tmp_path / "pipeline"))

    assert result == {"read": 6000, "kept": originals}


def test_a_stateful_count_over_zipf_keys_gives_the_hottest_counts_and_one_state_row_per_value_seen(
    spark: SparkSession, tmp_path: Path
) -> None:
    recipe = example_module("hot_keys_state")
    counts = Counter(_rows(recipe.STREAM).column("value").to_pylist())
    hottest = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    # Zipf's law over a pool of 1,000: 20,000 rows show 938 of its values.
    assert (sum(counts.values()), len(counts)) == (20000, 938)

    result = recipe.hot_keys(spark, str(tmp_path / "pipeline"), "recipe_hot_keys")

    assert result == {"hottest": [list(kv) for kv in hottest], "state_rows": len(counts)}


#: The burst recipe's profile, phase by phase: (ms, rows per second).
BURST = [(3000, 100), (3000, 2000), (2000, 100)]


def test_a_burst_makes_exactly_its_rows_per_window_and_the_query_catches_up_when_max_rows_per_trigger_says(
    spark: SparkSession, tmp_path: Path
) -> None:
    recipe = example_module("burst_catches_up")
    stream = recipe.STREAM
    assert stream["rate_profile"] == ", ".join(f"{ms // 1000}s@{rate}" for ms, rate in BURST)
    # The profile's arithmetic: a whole second at the steady rate r makes r rows, whose event
    # times fall in that second.
    by_profile = [rate for ms, rate in BURST for _ in range(ms // 1000)]
    windows = {str(stream["start_timestamp"] + 1000 * second): n for second, n in enumerate(by_profile)}
    total = sum(by_profile)
    assert total == stream["total_rows"] == 6500
    ts = _rows(stream).column("ts").to_pylist()
    assert {str(s): n for s, n in sorted(Counter(t // 1000 * 1000 for t in ts).items())} == windows

    most, interval = stream["max_rows_per_trigger"], recipe.TRIGGER_MS

    # The recipe's pipeline, one trigger a second by the stream's clock: each batch steps the
    # clock a trigger interval on as it ends, so the next batch is planned one interval later.
    with SteppedClock(spark) as clock:
        triggers = Batches(clock, ["unix_millis(window.start) AS start", "count"], step_ms=interval)
        counts = recipe.windowed_counts(stepped_stream(spark, clock, **stream))
        query = start_stepped(counts, tmp_path / "pipeline", triggers, output_mode="complete")
        try:
            assert triggers.kept == [], "no row exists when the stream starts"
            clock.advance(interval)  # the first trigger
            query.processAllAvailable()  # trigger after trigger, until one has read the last row
        finally:
            query.stop()
        assert query.exception() is None
    progress = {p["batchId"]: p for p in query.recentProgress if p["numInputRows"]}
    batches = [
        {
            "at_ms": batch.at_ms,
            "rows": progress[batch.batch_id]["numInputRows"],
            # The source's metric, reported as the batch ends: by then the clock is at the next
            # trigger.
            "rows_behind": int(progress[batch.batch_id]["sources"][0]["metrics"]["rowsBehind"]),
        }
        for batch in triggers.kept
    ]
    # Complete mode: the last batch writes every window's final count.
    assert {str(row["start"]): row["count"] for row in triggers.kept[-1].rows} == windows

    # From the burst on, rows come faster than a trigger reads them (2,000 a second against 800 a
    # trigger), so the query reads maxRowsPerTrigger rows a trigger until it has read every row.
    # The rows left when the burst starts, read 800 a trigger, one trigger a second, predict
    # when, within one trigger interval (a trigger comes up to one interval after the rows it
    # reads exist). That is after the profile's end, so no row comes while it catches up.
    burst_at = BURST[0][0]
    before = BURST[0][1] * burst_at // 1000
    predicted = burst_at + (total - before) * interval / most
    assert predicted == 10750 and predicted - interval >= sum(ms for ms, _ in BURST)
    # Trigger by trigger, a second apart: each reads at most 800 of the rows that exist by then
    # (by the profile, up to totalRows) and were not read yet, and leaves behind those that exist
    # as it ends, when the clock is at the next trigger.
    profile = parse_rate_profile(stream["rate_profile"])

    def exist(at_ms: int) -> int:
        return min(profile.rows_available(at_ms), total)

    expected: list[dict[str, int]] = []
    read = 0
    while read < total:
        at_ms = (len(expected) + 1) * interval
        rows = min(exist(at_ms) - read, most)
        assert rows > 0, "every trigger has new rows: each makes a batch"
        read += rows
        expected.append({"at_ms": at_ms, "rows": rows, "rows_behind": exist(at_ms + interval) - read})
    assert batches == expected
    assert [b["rows"] for b in batches] == [100, 100, 100, 800, 800, 800, 800, 800, 800, 800, 600]
    assert sum(b["rows"] for b in batches) == total
    caught_up = [b for b in batches if b["at_ms"] >= burst_at and b["rows_behind"] == 0]
    assert caught_up == batches[-1:], batches
    assert predicted - interval <= caught_up[0]["at_ms"] <= predicted + interval, batches
    behind = [b for b in batches[:-1] if b["at_ms"] >= burst_at + interval]
    assert len(behind) == 7, batches
    assert [(b["rows"], b["rows_behind"] > 0) for b in behind] == [(most, True)] * 7, batches


def _calls(function: str) -> list[dict[str, Any]]:
    """The keywords of each call of ``function`` in the guide's Python blocks, in order."""
    guide = (EXAMPLES.parent / "docs" / "testing-pipelines.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", guide, re.S)
    calls = [
        node
        for block in blocks
        for node in ast.walk(ast.parse(block))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == function
    ]
    return [{str(k.arg): ast.literal_eval(k.value) for k in call.keywords} for call in calls]


def test_the_guide_shows_each_recipe_with_the_stream_its_example_runs() -> None:
    assert _calls("read_random_strings") == [example_module(name).STREAM for name in RECIPES]


def test_the_guide_computes_the_first_recipes_rows_from_its_keywords_alone() -> None:
    stream = example_module("watermark_drops_late_rows").STREAM
    shaping = {keyword: value for keyword, value in stream.items() if keyword not in DELIVERY}
    assert _calls("expected_rows") == [{"start": 0, "end": stream["total_rows"], **shaping}]
