"""Recipe 3 of docs/testing-pipelines.md: a stateful count over skewed keys.

    python examples/hot_keys_state.py

The stream picks its values from a pool of 1,000 distinct strings by Zipf's law (exponent 1.1),
so a few keys are hot and many are rare. A running `groupBy("value").count()` must give the hot
keys their exact counts, and its state store must hold one row per distinct value seen. Prints
one JSON object: the five hottest keys with their counts, and the state store's row count.
"""

from __future__ import annotations

import json
import tempfile
from typing import Any

from pyspark.sql import SparkSession

from spark_random_strings import configure_spark_with_random_strings, read_random_strings

STREAM: dict[str, Any] = dict(
    seed=11,
    rows_per_second=1000,
    total_rows=20000,
    max_rows_per_trigger=5000,
    min_length=6,
    max_length=10,
    distinct_values=1000,
    value_distribution="zipf",
    zipf_exponent=1.1,
)


def hot_keys(spark: SparkSession, checkpoint: str, table: str = "hot_keys") -> dict[str, Any]:
    """Runs the pipeline over the whole stream; returns the five hottest keys and the state size."""
    counts = read_random_strings(spark, **STREAM).groupBy("value").count()
    query = (
        counts.writeStream.outputMode("complete")
        .format("memory")
        .queryName(table)
        .trigger(availableNow=True)
        .option("checkpointLocation", checkpoint)
        .start()
    )
    query.awaitTermination()
    hottest = spark.sql(
        f"SELECT value, count FROM {table} ORDER BY count DESC, value LIMIT 5"
    ).collect()
    last = query.lastProgress
    return {
        "hottest": [[row.value, row["count"]] for row in hottest],
        "state_rows": last["stateOperators"][0]["numRowsTotal"],
    }


if __name__ == "__main__":
    builder = SparkSession.builder.master("local[2]").config(
        "spark.sql.shuffle.partitions", "2"
    )
    spark = configure_spark_with_random_strings(builder).getOrCreate()
    with tempfile.TemporaryDirectory() as checkpoint:
        print(json.dumps(hot_keys(spark, checkpoint)))
    spark.stop()
