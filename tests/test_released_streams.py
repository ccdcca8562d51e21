"""What a released version made, this one makes too: its streams' rows, from the definition it
stored, and the rest of a write it left unfinished, exactly once.

The fixtures in tests/fixtures/<version>/ were made by that release itself
(tests/fixtures/make_released_fixtures.py). A new version may add options; with none of them
set, every row must stay the same value, event time, offset and length; a stream of a declared
schema (0.5.0 on), the same cells, compared as Spark's JSON of each row; a stream of the
``nexmark`` source (0.6.0 on), the same events; a stream of the ``changes`` source (0.7.0 on), the
same rows in the same order, from both of its checkpoint files.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import SparkSession

from helpers.support import CLI, REPO, available_now, run_available_now, run_child
from helpers.typed_rows import json_row, json_rows

FIXTURES = REPO / "tests" / "fixtures"
RELEASES = sorted(path for path in FIXTURES.iterdir() if (path / "streams.json").is_file())
DEFINITION_FILE = Path("sources") / "0" / "random-strings-source.json"


def released_streams() -> list[Any]:
    return [
        pytest.param(stream, id=f"{release.name}-{stream['name']}")
        for release in RELEASES
        for stream in json.loads((release / "streams.json").read_text())["streams"]
    ]


def test_there_are_fixtures_of_the_first_release() -> None:
    assert [release.name for release in RELEASES][:1] == ["0.1.0"]


# A definition file of each release reads on every Spark line and gives the same rows.
@pytest.mark.every_line
@pytest.mark.parametrize("stream", released_streams())
def test_a_released_definition_replays_exactly_the_rows_that_release_made(
    spark: SparkSession, stream: dict[str, Any], query_name: str, tmp_path: Path
) -> None:
    checkpoint = tmp_path / "checkpoint"
    if stream.get("format") == "nexmark":  # the nexmark source's events (0.6.0 on)
        stored = Path("sources") / "0" / "nexmark-source.json"
        (checkpoint / stored).parent.mkdir(parents=True)
        (checkpoint / stored).write_text(stream["definition"])
        events = spark.readStream.format("nexmark").options(**stream["options"])
        df = events.option("numEvents", len(stream["rows"])).load()
        available_now(df, query_name, checkpoint)
        table = spark.table(query_name)
        assert sorted(row[0] for row in table.select(json_row(table)).collect()) == stream["rows"]
        assert (checkpoint / stored).read_text() == stream["definition"], "the stored file is kept"
        return
    (checkpoint / DEFINITION_FILE).parent.mkdir(parents=True)
    (checkpoint / DEFINITION_FILE).write_text(stream["definition"])
    if stream.get("format") == "changes":  # the changes source's rows, in read order (0.7.0 on)
        changes = Path("sources") / "0" / "changes-source.json"
        (checkpoint / changes).write_text(stream["changes"])
        reader = spark.readStream.format("changes").schema(stream["schema"]).options(**stream["options"])
        df = reader.load()  # its options hold totalRows and numPartitions = 1: the rows in read order
        available_now(df, query_name, checkpoint)
        table = spark.table(query_name)
        assert [row[0] for row in table.select(json_row(table)).collect()] == stream["rows"]
        assert (checkpoint / changes).read_text() == stream["changes"], "the stored file is kept"
        assert (checkpoint / DEFINITION_FILE).read_text() == stream["definition"], "the stored file is kept"
        return
    released = stream["rows"]
    reader = spark.readStream.format("InMemoryRandomStrings")
    if "schema" in stream:  # a declared schema's rows: Spark's JSON of each row (0.5.0 on)
        reader = reader.schema(stream["schema"])
    df = reader.options(**stream["options"], totalRows=str(len(released))).load()
    if "schema" in stream:
        available_now(df, query_name, checkpoint)
        assert json_rows(spark.table(query_name), df.columns[0]) == released
    else:
        rows, _ = run_available_now(df, query_name, checkpoint)
        assert [list(row) for row in rows] == released
    assert (checkpoint / DEFINITION_FILE).read_text() == stream["definition"], "the stored file is kept"


@pytest.mark.slow
@pytest.mark.parametrize(
    "release", [r for r in RELEASES if (r / "write.json").is_file()], ids=lambda path: path.name
)
@pytest.mark.processes
def test_a_write_a_release_left_unfinished_finishes_exactly_once_with_its_rows(
    spark: SparkSession, release: Path, tmp_path: Path
) -> None:
    made = json.loads((release / "write.json").read_text())
    output = tmp_path / "write"
    shutil.copytree(release / "write", output)
    # The file sink's log names its files by absolute path: move them with the folder. The
    # rewritten entries' checksum files no longer match, so they go (Hadoop checks none then).
    log = output / "_spark_metadata"
    for entry in log.iterdir():
        if entry.name.isdigit():
            entry.write_text(entry.read_text().replace(made["folder"], str(output)))
        elif entry.name.endswith(".crc"):
            entry.unlink()
    committed = len([f for f in (output / "_checkpoint" / "commits").iterdir() if f.name.isdigit()])
    total = len(made["rows"])
    assert 0 < committed < total // made["batch_rows"], "the release stopped mid-stream"

    done = run_child([*CLI, *made["command"], str(output)])
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1].startswith(f"wrote {total:,} rows to {output} as parquet (")
    written = spark.read.parquet(str(output)).orderBy("offset").collect()
    assert [list(row) for row in written] == made["rows"]
