"""The recipes of docs/change-streams.md that apply a change feed to Delta Lake tables, with MERGE.

    python examples/changes_merge_into_delta.py

A change stream of 50 keys (inserts, updates and deletes, a share of them on three hot keys) is
read in batches of at most 200 changes, and each batch is applied in `foreachBatch` to two Delta
tables: the table itself (an upsert: each key's last change in the batch, MERGEd), and its history
as a slowly changing dimension of type 2 (the versions the batch ends are closed with a MERGE, the
ones it begins are appended). After every batch the table equals `expected_table` and the history
`expected_history` at the batch's last change, exactly: tests/test_change_recipes.py checks both.
Prints one JSON object: each batch's number of changes applied and how many rows each table then
holds.

Needs Delta Lake's jar for the Spark line in use (`DELTA_PACKAGES`: no Delta release runs on Spark
4.3 yet), which Spark fetches from Maven Central at the session's start.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from typing import Any

import pyspark
from pyspark.sql import DataFrame, SparkSession, Window
from pyspark.sql import functions as F

from spark_random_strings import configure_spark_with_random_strings, read_changes

#: The Delta Lake release each Spark line runs with, as Maven coordinates for spark.jars.packages.
DELTA_PACKAGES = {
    "3.5": "io.delta:delta-spark_2.12:3.3.3",
    "4.0": "io.delta:delta-spark_4.0_2.13:4.4.0",
    "4.1": "io.delta:delta-spark_4.1_2.13:4.4.0",
    "4.2": "io.delta:delta-spark_4.2_2.13:4.4.0",
}

SCHEMA = "id BIGINT NOT NULL, name STRING, balance DECIMAL(12,2), tier STRING"
FIELDS: dict[str, dict[str, object]] = {
    "name": {"minLength": 3, "maxLength": 8, "charset": "letters"},
    "balance": {"min": "0", "max": "100000"},
    "tier": {"values": '["free", "pro", "team"]', "weights": "[7, 2, 1]", "nullRate": 0.1},
}
STREAM: dict[str, Any] = dict(
    seed=7,
    key="id",
    keys=50,
    delete_fraction=0.2,
    hot_keys=3,
    hot_key_fraction=0.3,
    rows_per_second=1000,
    start_timestamp=1_735_689_600_000,
    total_rows=600,
    max_rows_per_trigger=200,
)
#: The declared columns but the key, which an update sets.
VALUES = ["name", "balance", "tier"]
#: The columns the history adds to the declared ones.
VALIDITY = "valid_from_seq BIGINT NOT NULL, valid_to_seq BIGINT, valid_from TIMESTAMP NOT NULL, valid_to TIMESTAMP"


def delta_session(builder: SparkSession.Builder) -> SparkSession:
    """A session with Delta Lake's SQL extension and catalog, and the package's jar."""
    line = ".".join(pyspark.__version__.split(".")[:2])
    if line not in DELTA_PACKAGES:
        raise RuntimeError(
            f"No Delta Lake release is listed for Spark {line}: {sorted(DELTA_PACKAGES)} are."
        )
    builder = (
        builder.config("spark.jars.packages", DELTA_PACKAGES[line])
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config(
            "spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog"
        )
    )
    return configure_spark_with_random_strings(builder).getOrCreate()


def create_tables(spark: SparkSession, table: str, history: str) -> None:
    """The two Delta tables, empty: the declared columns, and the history's with its validity."""
    spark.createDataFrame([], SCHEMA).write.format("delta").save(table)
    spark.createDataFrame([], f"{SCHEMA}, {VALIDITY}").write.format("delta").save(history)


def upsert(batch: DataFrame, table: str) -> None:
    """The table recipe: each key's last change in the batch, by `_seq`, MERGEd. A delete removes
    the key's row; an insert or an update puts its image (an insert may find the key's row from an
    earlier batch, which a delete in this one removed)."""
    last = batch.withColumn(
        "_last", F.row_number().over(Window.partitionBy("id").orderBy(F.desc("_seq")))
    )
    last.where("_last = 1").createOrReplaceTempView("last_changes")
    sets = ", ".join(f"{column} = s.{column}" for column in VALUES)
    columns = ["id", *VALUES]
    batch.sparkSession.sql(f"""
        MERGE INTO delta.`{table}` t USING last_changes s ON t.id = s.id
        WHEN MATCHED AND s._op = 'delete' THEN DELETE
        WHEN MATCHED THEN UPDATE SET {sets}
        WHEN NOT MATCHED AND s._op != 'delete'
            THEN INSERT ({", ".join(columns)}) VALUES ({", ".join(f"s.{c}" for c in columns)})
    """)


def scd2(batch: DataFrame, history: str) -> None:
    """The history recipe (SCD type 2): each insert or update begins a version that the key's next
    change ends. A key's first change in the batch ends its open version from an earlier batch (a
    MERGE); the batch's own versions, ended by the key's next change in the batch or still open,
    are appended."""
    by_key = Window.partitionBy("id").orderBy("_seq")
    changes = batch.select(
        "*",
        F.row_number().over(by_key).alias("_nth"),
        F.lead("_seq").over(by_key).alias("_next_seq"),
        F.lead("_ts").over(by_key).alias("_next_ts"),
    )
    changes.where("_nth = 1").createOrReplaceTempView("first_changes")
    batch.sparkSession.sql(f"""
        MERGE INTO delta.`{history}` h USING first_changes f ON h.id = f.id AND h.valid_to_seq IS NULL
        WHEN MATCHED THEN UPDATE SET valid_to_seq = f._seq, valid_to = f._ts
    """)
    versions = changes.where("_op != 'delete'").select(
        "id",
        *VALUES,
        F.col("_seq").alias("valid_from_seq"),
        F.col("_next_seq").alias("valid_to_seq"),
        F.col("_ts").alias("valid_from"),
        F.col("_next_ts").alias("valid_to"),
    )
    versions.write.format("delta").mode("append").save(history)


def apply_changes(
    spark: SparkSession,
    checkpoint: str,
    table: str,
    history: str,
    after_batch: Callable[[int], None] = lambda end: None,
) -> None:
    """Runs the pipeline over the whole stream: each batch MERGEd into `table` and `history`, then
    `after_batch` called with the number of changes applied so far (the batch's last `_seq` + 1)."""
    create_tables(spark, table, history)

    def each_batch(batch: DataFrame, batch_id: int) -> None:
        last = batch.agg(F.max("_seq")).first()
        if last is None or last[0] is None:
            return
        upsert(batch, table)
        scd2(batch, history)
        after_batch(last[0] + 1)

    changes = read_changes(spark, schema=SCHEMA, fields=FIELDS, **STREAM)
    query = (
        changes.writeStream.foreachBatch(each_batch)
        .trigger(availableNow=True)
        .option("checkpointLocation", checkpoint)
        .start()
    )
    query.awaitTermination()


if __name__ == "__main__":
    builder = (
        SparkSession.builder.master("local[2]")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
    )
    spark = delta_session(builder)
    batches: list[dict[str, int]] = []
    with tempfile.TemporaryDirectory() as folder:

        def count(end: int) -> None:
            rows = spark.read.format("delta").load(f"{folder}/table").count()
            versions = spark.read.format("delta").load(f"{folder}/history").count()
            batches.append({"end": end, "table_rows": rows, "history_rows": versions})

        apply_changes(
            spark, f"{folder}/checkpoint", f"{folder}/table", f"{folder}/history", count
        )
    print(json.dumps({"batches": batches}))
    spark.stop()
