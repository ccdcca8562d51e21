"""A change feed delivered untidily, applied two ways: in the order it arrives (wrong), and by `_seq`
(right).

    python examples/changes_untidy_delivery.py

A change stream of 40 keys (inserts, updates and deletes, 1,000 a second, 3,000 in all) is read as
a real feed arrives: a change may be read after later changes (`max_out_of_order_ms`), a share of
them twice (`duplicate_fraction`), a few held back 1.5 s (`late_row_fraction`, `late_by_ms`). Each
micro-batch is applied in `foreachBatch` to two tables, each kept as one row per key that has had a
change, a delete kept as a tombstone:

- in arrival order: a key's last change as read overwrites its row;
- by `_seq`: a key's row is its change with the greatest `_seq`, among those read so far.

Once every change is read, the second table, less its tombstones, is `expected_table` after 3,000
changes, exactly; the first is not (tests/test_change_recipes.py checks both). Prints one JSON
object: how many keys each table holds, and how many of them differ from each other.
"""

from __future__ import annotations

import json
import tempfile
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from spark_random_strings import configure_spark_with_random_strings, read_changes

SCHEMA = "id INT NOT NULL, name STRING, balance DECIMAL(12,2)"
FIELDS = {"name": {"maxLength": "8"}, "balance": {"min": "0", "max": "1000"}}
STREAM: dict[str, Any] = dict(
    seed=3,
    key="id",
    keys=40,
    delete_fraction=0.2,
    rows_per_second=1000,
    start_timestamp=1_735_689_600_000,
    max_out_of_order_ms=500,
    duplicate_fraction=0.05,
    late_row_fraction=0.02,
    late_by_ms=1500,
    total_rows=3000,
    max_rows_per_trigger=800,
    num_partitions=1,
)
#: The columns a table keeps per key: the declared ones, what the change did and its number.
COLUMNS = ["id", "name", "balance", "_op", "_seq"]


def latest_as_read(table: DataFrame, batch: DataFrame) -> DataFrame:
    """Wrong: each key's last change in the order the batch read them replaces its row."""
    arrived = batch.select(*COLUMNS, F.monotonically_increasing_id().alias("_read"))
    last = (
        arrived.groupBy("id")
        .agg(F.max_by(F.struct(*COLUMNS), "_read").alias("c"))
        .select("c.*")
    )
    return table.join(last, "id", "left_anti").unionByName(last)


def latest_by_seq(table: DataFrame, batch: DataFrame) -> DataFrame:
    """Right: each key's change with the greatest `_seq`, the table's own among them. A copy, a
    change read after a later one and a late one all lose to the later change."""
    both = table.unionByName(batch.select(*COLUMNS))
    return both.groupBy("id").agg(F.max_by(F.struct(*COLUMNS), "_seq").alias("c")).select("c.*")


def present(table: DataFrame) -> DataFrame:
    """The table users query: the keys whose latest change is not a delete, declared columns only."""
    return table.where("_op != 'delete'").select("id", "name", "balance")


def apply_changes(spark: SparkSession, checkpoint: str) -> tuple[DataFrame, DataFrame]:
    """Runs the pipeline over the whole stream; returns both tables (tombstones dropped)."""
    empty = spark.createDataFrame([], f"{SCHEMA}, _op STRING, _seq BIGINT")
    tables = {"as_read": empty, "by_seq": empty}

    def each_batch(batch: DataFrame, batch_id: int) -> None:
        # localCheckpoint keeps each table's plan one batch deep.
        tables["as_read"] = latest_as_read(tables["as_read"], batch).localCheckpoint()
        tables["by_seq"] = latest_by_seq(tables["by_seq"], batch).localCheckpoint()

    changes = read_changes(spark, schema=SCHEMA, fields=FIELDS, **STREAM)
    query = (
        changes.writeStream.foreachBatch(each_batch)
        .trigger(availableNow=True)
        .option("checkpointLocation", checkpoint)
        .start()
    )
    query.awaitTermination()
    return present(tables["as_read"]), present(tables["by_seq"])


if __name__ == "__main__":
    builder = (
        SparkSession.builder.master("local[2]")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
    )
    spark = configure_spark_with_random_strings(builder).getOrCreate()
    with tempfile.TemporaryDirectory() as folder:
        as_read, by_seq = apply_changes(spark, f"{folder}/checkpoint")
        differ = as_read.exceptAll(by_seq).count() + by_seq.exceptAll(as_read).count()
        print(
            json.dumps(
                {"as_read": as_read.count(), "by_seq": by_seq.count(), "rows_differing": differ}
            )
        )
    spark.stop()
