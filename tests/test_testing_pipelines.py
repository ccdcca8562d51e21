"""The recipes of docs/testing-pipelines.md: each example's pipeline, run in this session, gives
exactly what the same seeded stream, read here row by row, says it must."""

from __future__ import annotations

import ast
import importlib.util
import json
import re
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

from pyspark.sql import SparkSession

from helpers.support import EXAMPLES, run_available_now
from spark_random_strings import read_random_strings

Row4 = tuple[str, int, int, int]

#: The recipes, in the guide's order.
RECIPES = ["watermark_drops_late_rows", "drop_duplicates_within_watermark", "hot_keys_state"]


def _example(name: str) -> ModuleType:
    """The example file as a module: its pipeline function and its STREAM."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _raw(spark: SparkSession, stream: dict[str, Any], name: str, checkpoint: Path) -> tuple[list[Row4], int]:
    """Every row of the stream, by offset, and the start time its checkpoint stored."""
    rows, _ = run_available_now(read_random_strings(spark, **stream), name, checkpoint)
    assert [offset for _, _, offset, _ in rows] == list(range(stream["total_rows"]))
    definition = json.loads((checkpoint / "sources/0/random-strings-source.json").read_text())
    return rows, definition["startTimeMs"]


def test_a_watermarked_windowed_count_counts_every_out_of_order_row_and_drops_exactly_the_late_ones(
    spark: SparkSession, tmp_path: Path
) -> None:
    recipe = _example("watermark_drops_late_rows")
    stream = recipe.STREAM
    rows, start = _raw(spark, stream, "recipe_late_raw", tmp_path / "raw")
    # 1,000 rows/s: row o's in-order time is start + o ms; a late row is 60 s behind it, on top.
    # How far behind a row is does not depend on when its stream started.
    behind = {offset: start + offset - ts for _, ts, offset, _ in rows}
    late = {o for o, ms in behind.items() if ms > stream["max_out_of_order_ms"]}
    assert all(0 <= ms <= 2000 or 60000 <= ms <= 62000 for ms in behind.values())
    assert len(late) == 47
    assert min(late) >= 2 * stream["max_rows_per_trigger"], "no late row in the first two batches"

    result = recipe.windowed_counts(spark, str(tmp_path / "pipeline"))

    # The pipeline's own stream started at its own time: place each row counted in its window.
    pipeline_start = json.loads((tmp_path / "pipeline/sources/0/random-strings-source.json").read_text())
    windows = Counter(
        (pipeline_start["startTimeMs"] + o - ms) // 10000 * 10000 for o, ms in behind.items() if o not in late
    )
    assert result == {
        "read": 6000,
        "counted": 6000 - len(late),
        "windows": {str(start): windows[start] for start in sorted(windows)},
    }


def test_drop_duplicates_within_watermark_keeps_exactly_the_first_of_each_repeated_row(
    spark: SparkSession, tmp_path: Path
) -> None:
    recipe = _example("drop_duplicates_within_watermark")
    rows, _ = _raw(spark, recipe.STREAM, "recipe_duplicates_raw", tmp_path / "raw")
    first: dict[tuple[str, int], int] = {}
    for value, ts, offset, _ in rows:
        first.setdefault((value, ts), offset)
    originals = sorted(first.values())
    assert len({value for value, *_ in rows}) == len(first), "equal values are exact repeats"
    assert len(rows) - len(originals) == 103

    result = recipe.deduplicated(spark, str(tmp_path / "pipeline"))

    assert result == {"read": 6000, "kept": originals}


def test_a_stateful_count_over_zipf_keys_gives_the_hottest_counts_and_one_state_row_per_value_seen(
    spark: SparkSession, tmp_path: Path
) -> None:
    recipe = _example("hot_keys_state")
    rows, _ = _raw(spark, recipe.STREAM, "recipe_zipf_raw", tmp_path / "raw")
    counts = Counter(value for value, *_ in rows)
    hottest = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    assert len(counts) <= 1000

    result = recipe.hot_keys(spark, str(tmp_path / "pipeline"), "recipe_hot_keys")

    assert result == {"hottest": [list(kv) for kv in hottest], "state_rows": len(counts)}


def test_the_guide_shows_each_recipe_with_the_stream_its_example_runs() -> None:
    guide = (EXAMPLES.parent / "docs" / "testing-pipelines.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", guide, re.S)
    calls = [
        node
        for block in blocks
        for node in ast.walk(ast.parse(block))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "read_random_strings"
    ]
    shown = [{k.arg: ast.literal_eval(k.value) for k in call.keywords} for call in calls]
    assert shown == [_example(name).STREAM for name in RECIPES]
