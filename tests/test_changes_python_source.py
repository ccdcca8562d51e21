"""The ``changes`` stream's Python data source (``engine="python"``, ``changesPython``): the jar's
changes without the jar.

The reader's contract, without Spark: changes exist by the clock from the first start; batches
follow ``maxRowsPerTrigger`` and ``totalRows`` and split into ``numPartitions`` slices, each the
oracle's rows in every envelope; every offset holds the stream (the rows' definition and the
change options, as the jar's checkpoint files hold them); a restart that changes a change option
is refused naming it, with the jar's message. Then through Spark: the Python engine's changes are
the jar's, in the same schema, and bad options are refused at ``load()`` naming the keyword.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from pyspark.errors import IllegalArgumentException
from pyspark.sql import SparkSession
from test_changes import HOT_SNAPSHOT, ROW0_MS, SPARK_FIELDS, SPARK_SCHEMA, _jar_rows

from spark_random_strings import expected_changes, read_changes
from spark_random_strings.changes.keywords import CHANGE_OPTIONS, DECLARED_SCHEMA
from spark_random_strings.changes.store import spec_from_json
from spark_random_strings.engine.choice import pyspark_line
from spark_random_strings.offsets.corrupt import CorruptDefinitionError
from spark_random_strings.typed.fields.options import flattened

PYSPARK = pyspark_line()
needs_4_2 = pytest.mark.skipif(
    PYSPARK < (4, 2), reason="read limits, start offsets and AvailableNow for Python readers came with 4.2"
)
ENVELOPES = ["flat", "debezium", "delta", "flink"]
#: A declared stream: its keywords for the oracles.
KEYWORDS: dict[str, Any] = {
    "seed": 7,
    "keys": 30,
    "delete_fraction": 0.3,
    "rows_per_second": 100,
    "start_timestamp": ROW0_MS,
    **HOT_SNAPSHOT,
}


def _options(**more: Any) -> dict[str, str]:
    """The source's options of ``KEYWORDS`` and ``more``, with the declared columns as the Python
    source takes them."""
    given = CHANGE_OPTIONS.options({**KEYWORDS, **more}, "test")
    return {**given, **flattened(SPARK_FIELDS), DECLARED_SCHEMA: SPARK_SCHEMA}


@needs_4_2
@pytest.mark.parametrize("envelope", ENVELOPES)
def test_the_reader_plans_capped_batches_of_existing_changes_in_slices_each_the_oracles_rows(
    envelope: str,
) -> None:
    from pyspark.sql.streaming.datasource import ReadAllAvailable, ReadMaxRows

    from spark_random_strings.changes.reader import checked_schema, stream_reader
    from spark_random_strings.offsets.reader import SlicePartition

    options = _options(envelope=envelope, total_rows=700, num_partitions=3)
    reader = stream_reader(options, checked_schema(options))
    now = [5_000_000]
    reader.now_ms = lambda: now[0]
    start = reader.initialOffset()
    assert start["offset"] == 0
    # 100 changes a second from the first start (startTimestamp moves their times, not when they
    # exist), as the jar's sources count them: none yet, 10 s later 1,000, capped at totalRows.
    assert reader.latestOffset(start, ReadAllAvailable())["offset"] == 0
    now[0] += 10_000
    assert reader.latestOffset(start, ReadAllAvailable())["offset"] == 700
    end = reader.latestOffset(start, ReadMaxRows(300))
    assert end["offset"] == 300
    slices = reader.partitions(start, end)
    assert [(s.start, s.end) for s in slices if isinstance(s, SlicePartition)] == [
        (0, 100),
        (100, 200),
        (200, 300),
    ]
    made = pa.Table.from_batches([batch for s in slices for batch in reader.read(s)])
    want = expected_changes(
        start=0, end=300, envelope=envelope, schema=SPARK_SCHEMA, fields=SPARK_FIELDS, **KEYWORDS
    )
    assert made.schema == want.schema
    assert made.equals(want)


@needs_4_2
def test_changes_exist_at_their_commit_times_counted_from_the_first_start() -> None:
    from pyspark.sql.streaming.datasource import ReadAllAvailable

    from spark_random_strings.changes.reader import checked_schema, stream_reader

    options = {name: value for name, value in _options().items() if name != "startTimestamp"}
    reader = stream_reader(options, checked_schema(options))
    now = [1_000_000]
    reader.now_ms = lambda: now[0]
    start = reader.initialOffset()
    # 100 changes a second from the first start, as the jar's sources count rows: a change every
    # 10 ms, the first once 10 ms have passed.
    for elapsed, count in ((0, 0), (9, 0), (10, 1), (999, 99), (1000, 100), (60_000, 6000)):
        now[0] = 1_000_000 + elapsed
        assert reader.latestOffset(start, ReadAllAvailable())["offset"] == count, elapsed


@needs_4_2
def test_every_offset_holds_the_stream_as_the_jars_files_and_a_changed_change_option_is_refused() -> None:
    from pyspark.sql.streaming.datasource import ReadAllAvailable

    from spark_random_strings.changes.reader import checked_schema, stream_reader

    options = _options()
    reader = stream_reader(options, checked_schema(options))
    stored = reader.initialOffset()["stream"]
    assert stored["changes"] == {
        "version": 1,
        "key": "id",
        "keys": 30,
        "deleteFraction": 0.3,
        "hotKeys": 3,
        "hotKeyFraction": 0.2,
        "snapshot": True,
        "envelope": "flat",
    }
    assert stored["definition"]["seed"] == 7 and stored["definition"]["version"] == 4
    other_options = _options(keys=31, snapshot=False)
    other = stream_reader(other_options, checked_schema(other_options))
    with pytest.raises(ValueError) as refused:
        other.latestOffset({"offset": 40, "stream": stored}, ReadAllAvailable())
    assert str(refused.value) == (
        "The options of this query contradict the change stream stored in its checkpoint (the offset log of "
        "its checkpoint): keys: the checkpoint has 30, the query sets 31; snapshot: the checkpoint has true, "
        "the query sets false. The options that say which changes the stream makes (key, keys, "
        "deleteFraction, hotKeys, hotKeyFraction, snapshot, envelope) are fixed when its query first starts, "
        "so that every batch can be replayed identically. Restart with the stored values, or use a new "
        "checkpoint location to start a different stream."
    )
    with pytest.raises(
        CorruptDefinitionError, match=r'^here is corrupt: its version is "1", and this source reads 1$'
    ):
        spec_from_json({**stored["changes"], "version": "1"}, "here")
    with pytest.raises(CorruptDefinitionError, match=r"^here is corrupt: the field 'envelope' is missing$"):
        spec_from_json({k: v for k, v in stored["changes"].items() if k != "envelope"}, "here")
    with pytest.raises(
        CorruptDefinitionError, match=r"^here is corrupt: Invalid value '0' for option 'keys': out of range"
    ):
        spec_from_json({**stored["changes"], "keys": 0}, "here")


@needs_4_2
@pytest.mark.slow
# Debezium's envelope (structs of the declared columns) is another format of the flat one's check.
@pytest.mark.parametrize("envelope", ["flat", pytest.param("debezium", marks=pytest.mark.extended)])
def test_the_python_engine_reads_the_jar_sources_changes_in_the_same_schema_and_checkpoint_json(
    spark: SparkSession, tmp_path: Path, query_name: str, envelope: str
) -> None:
    delivery: dict[str, Any] = {"total_rows": 600, "max_rows_per_trigger": 250, "num_partitions": 2}

    def read(engine: str) -> Any:
        return read_changes(
            spark,
            engine=engine,  # type: ignore[arg-type]
            schema=SPARK_SCHEMA,
            fields=SPARK_FIELDS,
            envelope=envelope,
            **KEYWORDS,
            **delivery,
        )

    python, jar = read("python"), read("jvm")
    assert python.schema == jar.schema
    got = _jar_rows(spark, python, query_name, tmp_path / "python")
    assert got == _jar_rows(spark, jar, f"{query_name}_jvm", tmp_path / "jvm")
    assert len(got) == 600
    # The Python engine's offsets hold what the jar's source stores in its two files.
    last_offset = json.loads((tmp_path / "python" / "offsets" / "2").read_text().splitlines()[-1])
    assert last_offset["offset"] == 600
    jar_changes = json.loads((tmp_path / "jvm" / "sources" / "0" / "changes-source.json").read_text())
    assert last_offset["stream"]["changes"] == jar_changes
    jar_definition = json.loads(
        (tmp_path / "jvm" / "sources" / "0" / "random-strings-source.json").read_text()
    )

    # Spark hands a Python data source its options' names in lower case: the fields' names differ
    # in case only.
    def comparable(definition: dict[str, Any]) -> dict[str, Any]:
        fields = {name.lower(): value for name, value in definition["fields"].items()}
        return {**definition, "startTimeMs": 0, "fields": fields}

    assert comparable(last_offset["stream"]["definition"]) == comparable(jar_definition)


def test_the_python_engine_refuses_bad_options_at_load_naming_the_keyword(spark: SparkSession) -> None:
    if PYSPARK < (4, 0):
        pytest.skip("Python streaming data sources came with Spark 4.0")
    with pytest.raises(IllegalArgumentException) as refused:
        read_changes(spark, engine="python", delete_fraction=1.0)
    assert str(refused.value).startswith("Invalid value '1.0' for delete_fraction: out of range.")
    with pytest.raises(IllegalArgumentException, match=r"^as_of is for a batch read, spark.read.format"):
        read_changes(spark, engine="python", as_of=10)
    with pytest.raises(IllegalArgumentException) as undeclared:
        read_changes(spark, engine="python", key="user", schema="id BIGINT NOT NULL, v STRING")
    assert str(undeclared.value).startswith(
        "key is 'user', which names no declared column. The declared columns: id, v. Set key to the column"
    )
    with pytest.raises(
        ValueError, match=r"read_changes: engine is 'rust'; allowed: 'auto', 'jvm' or 'python'"
    ):
        read_changes(spark, engine="rust")  # type: ignore[arg-type]
