"""Recipe 2 of docs/testing-pipelines.md: dropDuplicatesWithinWatermark removes the repeats.

    python examples/drop_duplicates_within_watermark.py

The stream has 6,000 rows, 2% of them exact repeats (value and ts) of a row up to 500 offsets
before. Values are 16 random letters, so no two originals share one. Its event times start at
2025-01-01 00:00:00 UTC and come as a TIMESTAMP column too. Deduplicating on `value` within a
10-second watermark must keep every original once and drop every repeat. Prints one JSON object:
the rows read and the offsets kept.

Needs Spark 3.5 or later (dropDuplicatesWithinWatermark).
"""

from __future__ import annotations

import json
import tempfile
from typing import Any

from pyspark.sql import DataFrame, SparkSession

from spark_random_strings import configure_spark_with_random_strings, read_random_strings

STREAM: dict[str, Any] = dict(
    seed=7,
    rows_per_second=1000,
    total_rows=6000,
    max_rows_per_trigger=1500,
    min_length=16,
    max_length=16,
    charset="letters",
    duplicate_fraction=0.02,
    max_duplicate_distance=500,
    timestamp_column=True,
    start_timestamp=1_735_689_600_000,
)


def deduplicated(spark: SparkSession, checkpoint: str) -> dict[str, Any]:
    """Runs the pipeline over the whole stream; returns rows read and the offsets kept."""
    events = read_random_strings(spark, **STREAM)
    unique = events.withWatermark("timestamp", "10 seconds").dropDuplicatesWithinWatermark(
        ["value"]
    )
    kept: list[int] = []

    def keep(batch: DataFrame, _: int) -> None:
        kept.extend(row.offset for row in batch.select("offset").collect())

    query = (
        unique.writeStream.foreachBatch(keep)
        .trigger(availableNow=True)
        .option("checkpointLocation", checkpoint)
        .start()
    )
    query.awaitTermination()
    return {"read": sum(p["numInputRows"] for p in query.recentProgress), "kept": sorted(kept)}


if __name__ == "__main__":
    builder = SparkSession.builder.master("local[2]").config(
        "spark.sql.shuffle.partitions", "2"
    )
    spark = configure_spark_with_random_strings(builder).getOrCreate()
    with tempfile.TemporaryDirectory() as checkpoint:
        result = deduplicated(spark, checkpoint)
    print(json.dumps({"read": result["read"], "kept": len(result["kept"])}))
    spark.stop()
