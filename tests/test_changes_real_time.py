"""A change stream with ``realTime=true`` through PySpark: the recipe of docs/change-streams.md that
keeps each key's latest change in state in real-time mode (Spark 4.3), exactly ``expected_table``,
and the Python engine's refusal. The Scala suites (ChangesRealTimeSuite, on every line from 4.1)
pin down the rest: each partition's changes in order, an update's two rows together, none before
it exists, the V1 source's rows under micro-batch triggers, and a batch read's refusal."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from pyspark.errors import IllegalArgumentException
from pyspark.sql import SparkSession

from helpers.support import EXAMPLES, example_module, recipe_of_example, run_child
from spark_random_strings import expected_table, read_changes
from spark_random_strings.engine.choice import pyspark_line

EXAMPLE_FILE = EXAMPLES / "changes_latest_image_real_time.py"


EXAMPLE = example_module(EXAMPLE_FILE.stem)


@pytest.mark.slow
@pytest.mark.skipif(pyspark_line() < (4, 3), reason="real-time mode runs stateful queries from Spark 4.3")
@pytest.mark.processes
def test_a_real_time_query_keeping_each_keys_latest_change_holds_expected_table_once_every_change_committed(
    tmp_path: Path,
) -> None:
    done = run_child([sys.executable, str(EXAMPLE_FILE), str(tmp_path)])
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    total = EXAMPLE.STREAM["total_rows"]
    assert result["committed"] == total, "the committed batches read every change"
    stream = {
        k: v
        for k, v in EXAMPLE.STREAM.items()
        if k not in ("total_rows", "num_partitions", "rows_per_second")
    }
    table = expected_table(end=total, schema=EXAMPLE.SCHEMA, fields=EXAMPLE.FIELDS, **stream).to_pylist()
    latest = result["latest"]
    # The stream deleted keys, and so did the state's latest changes: the table is the others.
    assert any(row["_op"] == "delete" for row in latest)
    kept = [
        {"id": row["id"], "name": row["name"], "balance": row["balance"]}
        for row in latest
        if row["_op"] != "delete"
    ]
    assert kept == [
        {**row, "balance": None if row["balance"] is None else str(row["balance"])} for row in table
    ]
    assert 0 < len(kept) < EXAMPLE.STREAM["keys"]


def test_the_guides_real_time_recipe_code_is_the_examples_own() -> None:
    recipe_of_example(
        "change-streams.md", "## Recipe: each key's latest image in real time", EXAMPLE_FILE.name, 1
    )


@pytest.mark.every_line
@pytest.mark.skipif(pyspark_line() < (4, 0), reason="Spark 3.5 has no Python data sources")
def test_real_time_changes_with_the_python_engine_fail_saying_python_sources_cannot_run_in_real_time_mode(
    spark: SparkSession,
) -> None:
    with pytest.raises(IllegalArgumentException) as raised:
        read_changes(spark, real_time=True, engine="python")
    assert str(raised.value).strip().splitlines()[0] == (
        "real_time is true, but the changesPython source is a Python data source, and Spark's Python "
        "data sources cannot run in real-time mode: it reads only JVM streams that implement its "
        "real-time interfaces. Read the jar's changes source (engine='jvm') with real_time, or remove "
        "real_time."
    )
