"""Untidy delivery of a change stream (``maxOutOfOrderMs``, ``duplicateFraction``,
``lateRowFraction``): which change each offset reads, in the Python twin (``changes.delivery``) and
in the jar, and the guide's recipe that applies such a feed in arrival order (wrong) and by ``_seq``
(right, ``expected_table`` exactly).

Without Spark: a bounded stream reads every change before ``totalRows`` once, plus floor(f * n)
copies, and none after; reads exist after their change, in order; the values the jar's
``ChangeDeliverySuite`` pins. Through Spark: the jar's reads in offset order are the twin's, and the
Python engine's rows are the jar's.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pyspark.errors import IllegalArgumentException
from pyspark.sql import SparkSession

from helpers.support import available_now, example_module, recipe_of_example
from spark_random_strings import expected_changes, expected_table, read_changes
from spark_random_strings.changes.lifecycle import ChangeLifecycle
from spark_random_strings.changes.options import parse_stream_options
from spark_random_strings.changes.rows import ChangeStream
from spark_random_strings.changes.store import check_restart, spec_from_json, spec_to_json
from spark_random_strings.engine.choice import pyspark_line

START_MS = 1_000_000
#: Option sets of untidy delivery, each at 100 changes a second unless a profile says otherwise.
UNTIDY: list[dict[str, str]] = [
    {"maxOutOfOrderMs": "200"},
    {"duplicateFraction": "0.1"},
    {"lateRowFraction": "0.05", "lateByMs": "450"},
    {"maxOutOfOrderMs": "200", "duplicateFraction": "0.1", "lateRowFraction": "0.05", "lateByMs": "450"},
    {"maxOutOfOrderMs": "1000", "rateProfile": "2s@100, 1s@10, 2s@50..400, repeat"},
]


def _stream(options: dict[str, str]) -> ChangeStream:
    rate = {} if "rateProfile" in options else {"rowsPerSecond": "100"}
    parsed = parse_stream_options({"seed": "7", "keys": "50", **rate, **options})
    return ChangeStream(parsed.definition(7, START_MS), parsed.spec)


@pytest.mark.parametrize("options", UNTIDY, ids=lambda o: ",".join(o))
@pytest.mark.parametrize("total", [0, 1, 999, 1000])
def test_a_bounded_untidy_stream_reads_every_change_before_total_rows_once_and_floor_f_n_copies(
    options: dict[str, str], total: int
) -> None:
    rate = {} if "rateProfile" in options else {"rowsPerSecond": "100"}
    parsed = parse_stream_options({"seed": "7", "keys": "50", **rate, **options, "totalRows": str(total)})
    stream = ChangeStream(parsed.definition(7, START_MS), parsed.spec)
    copies = math.floor(parsed.rows.shape.duplicate_fraction * total)
    assert parsed.positions == total + copies
    delivery = stream.delivery()
    assert delivery is not None
    reads = delivery.changes_at(0, total + copies).tolist()
    assert sorted(set(reads)) == list(range(total))
    assert len(reads) - len(set(reads)) == copies
    assert stream.rows_available_at(2**62) == total + copies


def test_the_python_twin_reads_the_changes_the_jar_suite_pins() -> None:
    stream = _stream({"rowsPerSecond": "1000", "maxOutOfOrderMs": "500", "totalRows": "5000"})
    delivery = stream.delivery()
    assert delivery is not None
    assert delivery.changes_at(0, 10).tolist() == [367, 475, 474, 301, 179, 399, 15, 308, 375, 60]


@pytest.mark.parametrize("options", UNTIDY, ids=lambda o: ",".join(o))
def test_reads_exist_after_their_change_in_position_order_and_any_range_reads_the_same(
    options: dict[str, str],
) -> None:
    stream = _stream(options)
    delivery = stream.delivery()
    assert delivery is not None
    reads = delivery.changes_at(0, 1500).tolist()
    for start, end in [(1, 40), (555, 1500), (1499, 1500)]:
        assert delivery.changes_at(start, end).tolist() == reads[start:end]
    # The greatest change among the reads before each position: all of them exist once it does.
    greatest = np.maximum.accumulate(np.array(reads, np.int64))
    counted = 0
    for now in range(START_MS, START_MS + 20_000, 7):
        available = stream.rows_available_at(now)
        assert available >= counted, "reads only come to exist"
        counted = available
        if 0 < available <= len(reads):
            assert stream.definition.rows_available_at(now) > greatest[available - 1], f"at {now}"
    assert counted > 1500


def test_without_delivery_options_offset_n_reads_change_n() -> None:
    stream = _stream({})
    assert stream.delivery() is None
    assert stream.rows_available_at(START_MS + 1234) == stream.definition.rows_available_at(START_MS + 1234)


def test_max_out_of_order_reads_changes_of_one_key_out_of_their_order() -> None:
    stream = _stream({"rowsPerSecond": "1000", "maxOutOfOrderMs": "500", "totalRows": "5000"})
    delivery = stream.delivery()
    assert delivery is not None
    reads = delivery.changes_at(0, 5000).tolist()
    lifecycle = ChangeLifecycle(7, stream.spec)
    keys = lifecycle.locate(np.array(reads, np.int64))[0].tolist()
    last_seq: dict[int, int] = {}
    behind = 0
    for key, seq in zip(keys, reads, strict=True):
        if seq < last_seq.get(key, -1):
            behind += 1
        last_seq[key] = max(seq, last_seq.get(key, -1))
    assert behind > 100


# Drawn streams check the jar's order in make test (test_change_properties): this one adds the
# Python engine, whose workers cost most of its 15 s, so it runs with the extended tests.
@pytest.mark.slow
@pytest.mark.extended
def test_the_jar_reads_the_twins_changes_in_offset_order_and_the_python_engine_the_same_rows(
    spark: SparkSession, tmp_path: Path, query_name: str
) -> None:
    options: dict[str, Any] = dict(
        seed=7,
        keys=50,
        rows_per_second=100,
        max_out_of_order_ms=200,
        duplicate_fraction=0.1,
        late_row_fraction=0.05,
        late_by_ms=450,
        total_rows=1000,
        max_rows_per_trigger=400,
        start_timestamp=0,
    )
    jar = read_changes(spark, num_partitions=1, **options)
    available_now(jar.select("id", "value", "_op", "_seq"), query_name, tmp_path / "jar")
    rows = [tuple(row) for row in spark.table(query_name).collect()]
    got = [row[3] for row in rows]
    # Each read is its change, as the oracle makes it: key, image and operation.
    oracle_keywords = {
        k: v for k, v in options.items() if k in ("seed", "keys", "rows_per_second", "start_timestamp")
    }
    changes = expected_changes(start=0, end=1000, **oracle_keywords).select(["id", "value", "_op", "_seq"])
    by_seq = [tuple(row.values()) for row in changes.to_pylist()]
    assert rows == [by_seq[seq] for seq in got]
    twin = parse_stream_options(
        {
            "seed": "7",
            "keys": "50",
            "rowsPerSecond": "100",
            "maxOutOfOrderMs": "200",
            "duplicateFraction": "0.1",
            "lateRowFraction": "0.05",
            "lateByMs": "450",
            "totalRows": "1000",
        }
    )
    delivery = ChangeStream(twin.definition(7, 0), twin.spec).delivery()
    assert delivery is not None
    assert got == delivery.changes_at(0, 1100).tolist()
    if pyspark_line() >= (4, 2):
        python = read_changes(spark, engine="python", num_partitions=2, **options)
        available_now(python.select("_seq", "_op"), f"{query_name}_python", tmp_path / "python")
        seqs = Counter(row._seq for row in spark.table(f"{query_name}_python").collect())
        assert seqs == Counter(got)


def test_a_batch_read_and_the_oracles_refuse_the_delivery_options(spark: SparkSession) -> None:
    with pytest.raises(
        IllegalArgumentException, match="Option 'maxOutOfOrderMs' says how a stream reads its changes"
    ):
        spark.read.format("changes").option("asOf", 10).option("seed", 1).option(
            "maxOutOfOrderMs", 100
        ).load()
    with pytest.raises(TypeError, match="'duplicate_fraction', which changes no row"):
        expected_table(end=10, seed=1, duplicate_fraction=0.1)  # type: ignore[call-arg]


@pytest.mark.slow
def test_the_recipe_applied_in_arrival_order_is_wrong_and_by_seq_is_expected_table(
    spark: SparkSession, tmp_path: Path
) -> None:
    example = example_module("changes_untidy_delivery")
    as_read, by_seq = example.apply_changes(spark, str(tmp_path / "checkpoint"))
    stream = {
        k: v
        for k, v in example.STREAM.items()
        if k
        not in (
            "max_out_of_order_ms",
            "duplicate_fraction",
            "late_row_fraction",
            "late_by_ms",
            "total_rows",
            "max_rows_per_trigger",
            "num_partitions",
        )
    }
    expected = expected_table(end=3000, schema=example.SCHEMA, fields=example.FIELDS, **stream).to_pylist()

    def rows(df: Any) -> list[dict[str, Any]]:
        return sorted((r.asDict() for r in df.collect()), key=lambda r: r["id"])

    assert rows(by_seq) == expected
    wrong = rows(as_read)
    assert wrong != expected
    assert sum(a != b for a, b in zip(wrong, expected, strict=False)) + abs(len(wrong) - len(expected)) >= 3


def test_the_guides_untidy_recipe_code_is_the_examples_own() -> None:
    recipe_of_example(
        "change-streams.md", "## Recipe: the untidy feed applied by `_seq`", "changes_untidy_delivery.py", 2
    )


def test_the_checkpoint_keeps_total_rows_only_with_untidy_delivery_and_refuses_another_on_restart() -> None:
    untidy = parse_stream_options({"maxOutOfOrderMs": "100", "totalRows": "10"})
    stored = spec_to_json(untidy.spec)
    assert stored["totalRows"] == 10
    assert spec_from_json(stored, "the test").end == 10
    tidy = parse_stream_options({"totalRows": "10"})
    assert "totalRows" not in spec_to_json(tidy.spec)
    assert spec_from_json(spec_to_json(tidy.spec), "the test").end is None
    stream = ChangeStream(untidy.definition(1, 0), untidy.spec)
    again = parse_stream_options({"maxOutOfOrderMs": "100", "totalRows": "20", "seed": "1"})
    with pytest.raises(ValueError, match="totalRows: the checkpoint has 10, the query sets 20"):
        check_restart(stream, again, "the test")
    unbounded = parse_stream_options({"maxOutOfOrderMs": "100", "seed": "1"})
    with pytest.raises(ValueError, match="totalRows: the checkpoint has 10, the query sets none"):
        check_restart(stream, unbounded, "the test")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"maxOutOfOrderMs": "31536000001"},
            "Invalid value '31536000001' for option 'maxOutOfOrderMs': out of range. Allowed: a whole number "
            "from 0 to 31536000000.",
        ),
        (
            {"lateRowFraction": "0.5", "lateByMs": "9223372036854775807"},
            "Invalid value '9223372036854775807' for option 'lateByMs': out of range. Allowed: a whole "
            "number from 1 to 31536000000.",
        ),
        (
            {"totalRows": "9000000000000000000", "duplicateFraction": "0.1"},
            "Options that do not fit together: 'totalRows' is 9000000000000000000 and 'duplicateFraction' is "
            "0.1: the stream would read 9000000000000000000 changes and 900000000000000000 copies, more than "
            "9223372036854775807 reads. Lower 'totalRows'.",
        ),
    ],
)
def test_windows_and_lateness_are_at_most_365_days_and_reads_fit_a_long_with_the_jars_message(
    options: dict[str, str], message: str
) -> None:
    with pytest.raises(ValueError) as raised:
        parse_stream_options(options)
    assert str(raised.value) == message
