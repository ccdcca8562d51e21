"""Change streams under definitions that Hypothesis draws (issue 53, item 5): the jar and the Python
twin agree exactly.

Each drawn stream (a key column of any key type, a few declared columns, the keyspace and the
lifecycle, an envelope, a rate or a profile, and untidy delivery or none, read to its end in
batches and partitions also drawn) is read by the jar's source under AvailableNow, and its rows,
in the order its offsets read them, are the ones the Python twin makes for those offsets
(``changes.delivery`` and ``changes.rows``); and the jar's batch read ``asOf`` = n is
``expected_table(end=n)``. Spark is slow per query, so the examples are few and small: a fixed,
derandomized set of them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pyspark.sql import SparkSession

from helpers.support import available_now
from helpers.typed_rows import canonical, differences, from_json_cell, json_row
from spark_random_strings import expected_table, read_changes
from spark_random_strings.changes.keywords import CHANGE_OPTIONS, CHANGES_FORMAT
from spark_random_strings.changes.options import parse_stream_options
from spark_random_strings.changes.rows import ChangeRows, ChangeStream
from spark_random_strings.typed.fields.options import flattened

#: How many streams Hypothesis draws: about 1 s of Spark each.
EXAMPLES = 12

SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
#: Key types, each with the most keys drawn for it.
KEY_TYPES = [("TINYINT", 128), ("SMALLINT", 300), ("INT", 300), ("BIGINT", 10**12), ("STRING", 300)]
#: Columns besides the key, each with its ``fields.`` properties.
COLUMNS: list[tuple[str, dict[str, object]]] = [
    ("name STRING", {"maxLength": 6, "charset": "letters", "nullRate": 0.2}),
    ("balance DECIMAL(12,2)", {"min": "0", "max": "1000"}),
    ("tier STRING NOT NULL", {"values": '["free", "pro", "team"]', "weights": "[7, 2, 1]"}),
    ("seen TIMESTAMP NOT NULL", {"kind": "eventTime"}),
    ("n BIGINT", {"kind": "offset"}),
]
PROFILES = ["1s@50, 1s@400..20, repeat", "500ms@1000, 250ms@10"]


@st.composite
def streams(draw: st.DrawFn) -> dict[str, Any]:
    """A change stream's ``read_changes`` keywords, its schema and fields among them."""
    key_type, most = draw(st.sampled_from(KEY_TYPES))
    keys = draw(st.integers(1, most))
    chosen = draw(st.lists(st.sampled_from(range(len(COLUMNS))), max_size=3, unique=True))
    schema = ", ".join([f"k {key_type} NOT NULL", *(COLUMNS[i][0] for i in chosen)])
    fields = {COLUMNS[i][0].split()[0]: COLUMNS[i][1] for i in chosen}
    keywords: dict[str, Any] = {
        "schema": schema,
        "fields": fields,
        "key": "k",
        "keys": keys,
        "seed": draw(st.integers(-(2**63), 2**63 - 1)),
        "delete_fraction": draw(st.sampled_from([0.0, 0.1, 0.5, 0.9])),
        "snapshot": draw(st.booleans()) and keys <= 300,
        "envelope": draw(st.sampled_from(["flat", "debezium", "delta", "flink"])),
        "start_timestamp": draw(st.integers(0, 2**41)),
    }
    if keys > 1 and draw(st.booleans()):
        keywords["hot_keys"] = draw(st.integers(1, min(5, keys - 1)))
        keywords["hot_key_fraction"] = draw(st.sampled_from([0.05, 0.3, 0.7]))
    if draw(st.booleans()):
        keywords["rows_per_second"] = draw(st.sampled_from([1, 37, 1000, 100_000]))
    else:
        keywords["rate_profile"] = draw(st.sampled_from(PROFILES))
    delivery = draw(st.sampled_from(["all", "late", "copies", "out-of-order", "tidy"]))
    event(f"delivery: {delivery}")
    if delivery in ("out-of-order", "all"):
        keywords["max_out_of_order_ms"] = draw(st.sampled_from([1, 40, 700]))
    if delivery in ("copies", "all"):
        keywords["duplicate_fraction"] = draw(st.sampled_from([0.01, 0.2, 0.9]))
    if delivery in ("late", "all"):
        keywords["late_row_fraction"] = draw(st.sampled_from([0.05, 0.5, 1.0]))
        keywords["late_by_ms"] = draw(st.sampled_from([1, 300, 5000]))
    keywords["total_rows"] = draw(st.integers(0, 250))
    if draw(st.booleans()):
        keywords["max_rows_per_trigger"] = draw(st.integers(1, 300))
    keywords["num_partitions"] = draw(st.integers(1, 3))
    return keywords


def _twin_rows(keywords: dict[str, Any], schema: Any) -> list[str]:
    """The rows the Python twin makes for every offset of the stream, in offset order."""
    names = {k: v for k, v in keywords.items() if k not in ("schema", "fields")}
    options = {**CHANGE_OPTIONS.options(names, "test"), **flattened(keywords["fields"])}
    parsed = parse_stream_options(options, keywords["schema"])
    stream = ChangeStream(parsed.definition(keywords["seed"], 0), parsed.spec)
    rows = ChangeRows(stream)
    positions = parsed.positions
    assert positions is not None
    return [repr(canonical(row, schema)) for batch in rows.batches(0, positions) for row in batch.to_pylist()]


@SETTINGS
@given(keywords=streams())
def test_a_drawn_change_stream_reads_the_twins_rows_in_offset_order_and_its_table_is_expected_table(
    spark: SparkSession, tmp_path_factory: Any, keywords: dict[str, Any]
) -> None:
    checkpoint: Path = tmp_path_factory.mktemp("changes")
    name = f"drawn_{checkpoint.name.replace('-', '_')}"
    df = read_changes(spark, **keywords)
    available_now(df.select(json_row(df).alias("row")), name, checkpoint)
    # The memory sink keeps batches in order, a batch's partitions in order, and a partition's
    # offsets in order: its rows are in offset order.
    got = [
        repr(from_json_cell(json.loads(r.row, parse_float=str), df.schema))
        for r in spark.table(name).collect()
    ]
    want = _twin_rows(keywords, df.schema)
    assert got == want, differences(got, want)
    spark.catalog.dropTempView(name)

    n = keywords["total_rows"]
    table_keywords = {
        k: v
        for k, v in keywords.items()
        if k
        not in (
            "schema",
            "fields",
            "total_rows",
            "max_rows_per_trigger",
            "num_partitions",
            "max_out_of_order_ms",
            "duplicate_fraction",
            "late_row_fraction",
            "late_by_ms",
        )
    }
    options = {**CHANGE_OPTIONS.options(table_keywords, "test"), **flattened(keywords["fields"])}
    batch = (
        spark.read.format(CHANGES_FORMAT).schema(keywords["schema"]).options(**options, asOf=str(n)).load()
    )
    expected = expected_table(end=n, schema=keywords["schema"], fields=keywords["fields"], **table_keywords)
    table = sorted(
        repr(from_json_cell(json.loads(r.row, parse_float=str), batch.schema))
        for r in batch.select(json_row(batch).alias("row")).collect()
    )
    assert table == sorted(repr(canonical(row, batch.schema)) for row in expected.to_pylist())
