"""Recipe 1 of docs/testing-pipelines.md: a windowed count with a watermark drops the late rows.

    python examples/watermark_drops_late_rows.py

The stream has 6,000 rows at 1,000 rows/s (1 ms apart), each up to 2 s out of order, and 1% of
them a minute late. Its event times start at 2025-01-01 00:00:00 UTC, whenever it runs, and come
as a TIMESTAMP column too. A 10-second windowed count with a 5-second watermark must count every
row that is only out of order and drop every late one. Prints one JSON object: how many rows were
read and counted, and each window's final count by its start (epoch ms).
"""

from __future__ import annotations

import json
import tempfile
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from spark_random_strings import configure_spark_with_random_strings, read_random_strings

#: The stream, in batches of 300 rows. Spark judges a batch's rows against the watermark that the
#: batch before it set, and there is none until the first batch ends: a late row in the first two
#: batches would still count. This seed has none there (the test checks it).
STREAM: dict[str, Any] = dict(
    seed=292,
    rows_per_second=1000,
    total_rows=6000,
    max_rows_per_trigger=300,
    max_out_of_order_ms=2000,
    late_row_fraction=0.01,
    late_by_ms=60000,
    timestamp_column=True,
    start_timestamp=1_735_689_600_000,
)


def windowed_counts(spark: SparkSession, checkpoint: str) -> dict[str, Any]:
    """Runs the pipeline over the whole stream; returns rows read and counted, and the counts."""
    events = read_random_strings(spark, **STREAM)
    counts = (
        events.withWatermark("timestamp", "5 seconds")
        .groupBy(F.window("timestamp", "10 seconds"))
        .count()
    )
    final: dict[int, int] = {}

    def keep(batch: DataFrame, _: int) -> None:
        # Update mode: each batch brings the windows it changed, with their counts so far.
        rows = batch.select(
            F.expr("unix_millis(window.start)").alias("start"), "count"
        ).collect()
        final.update({row.start: row["count"] for row in rows})

    query = (
        counts.writeStream.outputMode("update")
        .foreachBatch(keep)
        .trigger(availableNow=True)
        .option("checkpointLocation", checkpoint)
        .start()
    )
    query.awaitTermination()
    return {
        "read": sum(p["numInputRows"] for p in query.recentProgress),
        "counted": sum(final.values()),
        "windows": {str(start): final[start] for start in sorted(final)},
    }


if __name__ == "__main__":
    builder = SparkSession.builder.master("local[2]").config(
        "spark.sql.shuffle.partitions", "2"
    )
    spark = configure_spark_with_random_strings(builder).getOrCreate()
    with tempfile.TemporaryDirectory() as checkpoint:
        print(json.dumps(windowed_counts(spark, checkpoint)))
    spark.stop()
