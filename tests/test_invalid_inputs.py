"""Invalid inputs of the shared table (tests/vectors/invalid_inputs.json), from Python.

The Scala suite InvalidInputSuite runs the whole table on every Spark line: each input fails
with a message naming the option or the file, at load() or when the query starts. What Python
adds is the way back through Py4J, so these tests run one case of each way a failure takes:
a bad value, an unknown option and a schema fail in load() as an IllegalArgumentException; a
damaged checkpoint and a contradicting restart fail the started query as a
StreamingQueryException. Each keeps its whole message, without a JVM stack trace; nothing
hangs, no query is left running, and the same session then runs a valid query.
(test_examples.py sends errors through Spark Connect.)
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from pyspark.errors import IllegalArgumentException, StreamingQueryException
from pyspark.sql import SparkSession

from helpers.support import REPO, run_available_now
from spark_random_strings import FORMAT

TABLE: dict[str, Any] = json.loads((REPO / "tests" / "vectors" / "invalid_inputs.json").read_text())
#: One case of each way a failure comes back to Python.
FROM_PYTHON = [
    "rowsPerSecond is zero",
    "an unknown option close to rowsPerSecond",
    "a declared schema with a type no generator makes",
    "the source metadata file is empty",
    "a restart with another seed than the stored one",
    "values on an ARRAY column, whose kind they imply",
]
CASES: list[dict[str, Any]] = [case for case in TABLE["cases"] if case["name"] in FROM_PYTHON]

pytestmark = [pytest.mark.every_line, pytest.mark.xdist_group("prepared_checkpoint")]


@pytest.fixture(scope="module")
def prepared_checkpoint(spark: SparkSession, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished query's checkpoint, which each checkpoint case changes a copy of."""
    checkpoint = tmp_path_factory.mktemp("prepared") / "checkpoint"
    query = (
        spark.readStream.format(FORMAT)
        .options(**TABLE["checkpointRun"])
        .load()
        .writeStream.format("noop")
        .trigger(availableNow=True)
        .option("checkpointLocation", str(checkpoint))
        .start()
    )
    assert query.awaitTermination(60) and query.exception() is None
    return checkpoint


def change_checkpoint(checkpoint: Path, change: dict[str, Any]) -> None:
    """Apply a case's "checkpoint" changes (the table's "about" says what each field does)."""

    def drop_checksum(relative: str) -> None:
        if not change.get("keepChecksum"):
            file = checkpoint / relative
            (file.parent / f".{file.name}.crc").unlink(missing_ok=True)

    for relative, content in change.get("write", {}).items():
        (checkpoint / relative).write_text(content)
        drop_checksum(relative)
    for relative, line in change.get("lastLine", {}).items():
        lines = (checkpoint / relative).read_text().splitlines()
        (checkpoint / relative).write_text("\n".join([*lines[:-1], line]))
        drop_checksum(relative)
    for relative in change.get("remove", []):
        (checkpoint / relative).unlink()
        drop_checksum(relative)


def load_error(spark: SparkSession, case: dict[str, Any]) -> str:
    reader = spark.readStream.format(FORMAT).options(**case.get("options", {}))
    if "schema" in case:
        reader = reader.schema(case["schema"])
    with pytest.raises(IllegalArgumentException) as raised:
        reader.load()
    return str(raised.value)


def start_error(spark: SparkSession, case: dict[str, Any], prepared: Path, tmp_path: Path) -> str:
    checkpoint = Path(shutil.copytree(prepared, tmp_path / "checkpoint"))
    change_checkpoint(checkpoint, case["checkpoint"])
    query = (
        spark.readStream.format(FORMAT)
        .options(**case.get("options", TABLE["checkpointRun"]))
        .load()
        .writeStream.format("noop")
        .trigger(availableNow=True)
        .option("checkpointLocation", str(checkpoint))
        .start()
    )
    try:
        with pytest.raises(StreamingQueryException) as raised:
            query.awaitTermination(60)  # returns False, failing the test, if the query hangs
    finally:
        query.stop()
    return str(raised.value)


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_an_invalid_input_fails_naming_what_is_wrong(
    spark: SparkSession, case: dict[str, Any], prepared_checkpoint: Path, tmp_path: Path
) -> None:
    if "checkpoint" in case:
        message = start_error(spark, case, prepared_checkpoint, tmp_path)
    else:
        message = load_error(spark, case)
    for word in case["expect"]:
        assert word in message
    assert "\tat " not in message, "no JVM stack trace in the message"
    assert not spark.streams.active, "no query is left running"


def test_the_table_holds_at_least_40_invalid_inputs_and_every_case_python_runs() -> None:
    assert len(TABLE["cases"]) >= 40
    assert [case["name"] for case in CASES] == FROM_PYTHON
    assert {"checkpoint" in case for case in CASES} == {True, False}


def test_after_every_invalid_input_the_same_session_runs_a_valid_query(
    spark: SparkSession, query_name: str, tmp_path: Path
) -> None:
    df = spark.readStream.format(FORMAT).option("totalRows", 25).option("seed", 3).load()
    rows, _ = run_available_now(df, query_name, tmp_path / "checkpoint")
    assert [offset for _, _, offset, _ in rows] == list(range(25))
