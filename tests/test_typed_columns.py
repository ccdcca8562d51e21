"""Typed columns end to end: a declared schema read through both engines gives exactly the rows
``expected_rows`` computes from the query's checkpoint (docs/typed-columns.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import SparkSession
from pyspark.sql.types import StructType

from spark_random_strings import expected_rows, read_random_strings, stream_definition
from spark_random_strings.engine.choice import pyspark_line

SCHEMA = (
    "order_id BIGINT NOT NULL, user_id INT NOT NULL, amount DECIMAL(10,2), status STRING NOT NULL, "
    "code STRING, tags ARRAY<STRING>, shipping STRUCT<city: STRING, zip: STRING>, "
    "event_time TIMESTAMP NOT NULL, score DOUBLE, day DATE, flag BOOLEAN NOT NULL, raw BINARY"
)

FIELDS: dict[str, dict[str, object]] = {
    "order_id": {"kind": "offset"},
    "user_id": {"min": 1, "max": 100000, "distribution": "zipf", "zipfExponent": 1.2},
    "amount": {"min": "0.50", "max": "999.99", "nullRate": 0.05},
    "status": {"kind": "values", "values": ["new", "paid", "shipped", "cancelled"], "weights": [2, 6, 1, 1]},
    "code": {"pattern": "ORD-[0-9]{4}-[A-Z]{3}"},
    "tags": {"maxSize": 3},
    "tags.element": {"kind": "values", "values": ["gift", "express", "fragile"]},
    "shipping.city": {"kind": "values", "values": ["Lyon", "Porto", "Turin"]},
    "shipping.zip": {"pattern": "[0-9]{5}"},
    "event_time": {"kind": "eventTime"},
    "score": {"distribution": "normal", "min": 0, "max": 10},
    "day": {"min": "2024-01-01", "max": "2024-01-31"},
    "raw": {"maxLength": 3},
}


def _read_all(spark: SparkSession, engine: str, checkpoint: Path, table: str) -> list[dict[str, Any]]:
    df = read_random_strings(
        spark,
        engine=engine,  # type: ignore[arg-type]
        schema=SCHEMA,
        fields=FIELDS,
        seed=7,
        total_rows=3000,
        max_rows_per_trigger=1000,
        num_partitions=3,
        duplicate_fraction=0.1,
        max_out_of_order_ms=300,
        start_timestamp=1700000000000,
    )
    query = (
        df.writeStream.format("memory")
        .queryName(table)
        .option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination()
    rows = sorted(spark.table(table).collect(), key=lambda row: row.order_id)
    return [
        {k: bytes(v) if isinstance(v, bytearray) else v for k, v in row.asDict(recursive=True).items()}
        for row in rows
    ]


@pytest.mark.parametrize("engine", ["jvm", "python"])
def test_a_declared_schema_streams_exactly_the_rows_expected_rows_computes(
    spark: SparkSession, tmp_path: Path, query_name: str, engine: str
) -> None:
    if engine == "python" and pyspark_line() < (4, 0):
        pytest.skip("Python streaming data sources need Spark 4.0")
    checkpoint = tmp_path / "checkpoint"
    got = _read_all(spark, engine, checkpoint, query_name)
    definition = stream_definition(checkpoint)
    assert definition["schema"].startswith("order_id BIGINT NOT NULL,user_id INT NOT NULL,")
    expected = expected_rows(**definition, start=0, end=3000).to_pylist()
    # Spark hands TIMESTAMP values back in the session's time zone, with no zone attached.
    zone = spark.conf.get("spark.sql.session.timeZone")
    for row in expected:
        row["event_time"] = row["event_time"].astimezone(_zone(zone)).replace(tzinfo=None)
    assert [row["order_id"] for row in got] == list(range(3000))
    assert got == expected
    assert {row["status"] for row in got} == {"new", "paid", "shipped", "cancelled"}
    assert 0 < sum(row["amount"] is None for row in got) < 300


def test_both_engines_keep_a_declared_schemas_comments_top_level_and_nested(spark: SparkSession) -> None:
    if pyspark_line() < (4, 0):
        pytest.skip("Python streaming data sources need Spark 4.0")
    ddl = (
        "id BIGINT NOT NULL COMMENT 'the row\\'s offset', "
        "shipping STRUCT<city: STRING COMMENT 'where it goes', zip: INT> COMMENT 'the address', "
        "tags ARRAY<STRUCT<name: STRING COMMENT 'a label'>> COMMENT 'labels'"
    )
    schemas = {
        engine: read_random_strings(
            spark,
            engine=engine,
            schema=ddl,
            fields={"id": {"kind": "offset"}},
            seed=1,
        ).schema
        for engine in ("jvm", "python")
    }
    assert schemas["jvm"] == schemas["python"] == StructType.fromDDL(ddl)
    assert [f.metadata for f in schemas["jvm"].fields] == [
        {"comment": "the row's offset"},
        {"comment": "the address"},
        {"comment": "labels"},
    ]


def _zone(name: str | None) -> Any:
    from zoneinfo import ZoneInfo

    return ZoneInfo(name or "UTC")
