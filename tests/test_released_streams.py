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

import functools
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.functions import lit

from helpers.support import CLI, REPO, available_now, run_child
from helpers.typed_rows import json_row

FIXTURES = REPO / "tests" / "fixtures"
RELEASES = sorted(path for path in FIXTURES.iterdir() if (path / "streams.json").is_file())
#: The file of a stream's definition in its source's folder of a checkpoint.
DEFINITION_FILE = "random-strings-source.json"


def released_streams() -> list[dict[str, Any]]:
    """Every stream of every release's fixtures, each with its name prefixed by its release's."""
    return [
        {**stream, "name": f"{release.name}-{stream['name']}"}
        for release in RELEASES
        for stream in json.loads((release / "streams.json").read_text())["streams"]
    ]


def test_there_are_fixtures_of_the_first_release() -> None:
    assert [release.name for release in RELEASES][:1] == ["0.1.0"]


def kind(stream: dict[str, Any]) -> str:
    """What a fixture's stream is: a ``nexmark`` one (0.6.0 on), a ``changes`` one (0.7.0 on), a
    random strings one of a declared schema (``typed``, 0.5.0 on) or of the plain columns."""
    if "format" in stream:
        return str(stream["format"])
    return "typed" if "schema" in stream else "plain"


def stored_files(stream: dict[str, Any]) -> dict[str, str]:
    """The files the release's checkpoint held in a stream's source folder, by name: the
    definition (a ``nexmark`` stream's events), and a ``changes`` stream's change options beside it."""
    if kind(stream) == "nexmark":
        return {"nexmark-source.json": stream["definition"]}
    files = {DEFINITION_FILE: stream["definition"]}
    if kind(stream) == "changes":
        files["changes-source.json"] = stream["changes"]
    return files


def released_read(spark: SparkSession, stream: dict[str, Any]) -> DataFrame:
    """The stream as the release's fixture read it: its options, its schema, its rows' count."""
    if kind(stream) == "nexmark":
        reader = spark.readStream.format("nexmark").options(**stream["options"])
        return reader.option("numEvents", len(stream["rows"])).load()
    if kind(stream) == "changes":  # its options hold totalRows and numPartitions = 1
        return spark.readStream.format("changes").schema(stream["schema"]).options(**stream["options"]).load()
    reader = spark.readStream.format("InMemoryRandomStrings")
    if kind(stream) == "typed":
        reader = reader.schema(stream["schema"])
    return reader.options(**stream["options"], totalRows=str(len(stream["rows"]))).load()


def as_released(stream: dict[str, Any], rows: list[str]) -> list[Any]:
    """A stream's rows (Spark's JSON of each) as its release's fixture keeps them: a plain
    stream's as its value, ts, offset and length; any other's as that JSON."""
    if kind(stream) != "plain":
        return rows
    return [list(json.loads(row).values())[:4] for row in rows]


def in_order(stream: dict[str, Any], rows: list[Any]) -> list[Any]:
    """Rows in the order a comparison takes them: a ``changes`` stream's as read (its fixture's
    order); a plain stream's by offset; any other's sorted (a fixture of a declared schema is
    ordered by its first column, of the ``nexmark`` source by its JSON)."""
    if kind(stream) == "changes":
        return rows
    if kind(stream) == "plain":
        return sorted(rows, key=lambda row: row[2])
    return sorted(rows)


# A definition file of each release reads on every Spark line and gives the same rows: every
# stream of every release in one query, each source finding its release's files in its folder of
# the checkpoint (sources/<i>, numbered in the order the union names them).
@pytest.mark.every_line
def test_every_released_definition_replays_exactly_the_rows_its_release_made(
    spark: SparkSession, query_name: str, tmp_path: Path
) -> None:
    streams = released_streams()
    checkpoint = tmp_path / "checkpoint"
    reads = []
    for i, stream in enumerate(streams):
        for name, text in stored_files(stream).items():
            (checkpoint / "sources" / str(i)).mkdir(parents=True, exist_ok=True)
            (checkpoint / "sources" / str(i) / name).write_text(text)
        df = released_read(spark, stream)
        reads.append(df.select(lit(i).alias("stream"), json_row(df).alias("row")))
    available_now(functools.reduce(DataFrame.union, reads), query_name, checkpoint)
    made: list[list[str]] = [[] for _ in streams]
    # The memory sink keeps each batch's rows in its partitions' order: a changes stream's one
    # partition in its read order.
    for row in spark.table(query_name).collect():
        made[row.stream].append(row.row)
    differing = [
        stream["name"]
        for stream, rows in zip(streams, made, strict=True)
        if in_order(stream, as_released(stream, rows)) != in_order(stream, stream["rows"])
    ]
    assert differing == [], "these released streams replay other rows"
    for i, stream in enumerate(streams):
        for name, text in stored_files(stream).items():
            assert (checkpoint / "sources" / str(i) / name).read_text() == text, (
                f"{stream['name']}: {name} is kept"
            )


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
