"""Recipe 4 of docs/testing-pipelines.md: a burst falls behind maxRowsPerTrigger, and catches up.

    python examples/burst_catches_up.py

The stream runs at 100 rows/s for 3 s, at 2,000 rows/s (20 times the base rate) for 3 s, and at
100 rows/s again for 2 s: 6,500 rows, and then it ends. Its event times start at 2025-01-01
00:00:00 UTC and come as a TIMESTAMP column too. A 1-second windowed count reads it with one
trigger a second and at most 800 rows a trigger, so the burst leaves it behind, and it catches
up after the burst, 800 rows a trigger. Prints one JSON object: each window's count by its
start (epoch ms), and each batch's trigger time (ms after the stream first started), rows read
and rows behind.
"""

from __future__ import annotations

import json
import tempfile
import time
from datetime import datetime
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from spark_random_strings import (
    configure_spark_with_random_strings,
    read_random_strings,
    stream_definition,
)

#: The stream ends with its profile (totalRows), so that rows behind can reach 0: while rows
#: keep coming, every batch ends with the rows made while it ran behind it.
STREAM: dict[str, Any] = dict(
    seed=5,
    rate_profile="3s@100, 3s@2000, 2s@100",
    total_rows=6500,
    max_rows_per_trigger=800,
    timestamp_column=True,
    start_timestamp=1_735_689_600_000,
)
#: The processing-time trigger's interval.
TRIGGER_MS = 1000


def windowed_counts(events: DataFrame) -> DataFrame:
    """The pipeline: the rows of each 1-second event-time window."""
    return events.groupBy(F.window("timestamp", "1 second")).count()


def burst(spark: SparkSession, checkpoint: str, table: str = "burst_windows") -> dict[str, Any]:
    """Runs the pipeline until it has read every row; returns the windows and the batches."""
    counts = windowed_counts(read_random_strings(spark, **STREAM))
    query = (
        counts.writeStream.outputMode("complete")
        .format("memory")
        .queryName(table)
        .trigger(processingTime=f"{TRIGGER_MS} milliseconds")
        .option("checkpointLocation", checkpoint)
        .start()
    )
    try:
        deadline = time.monotonic() + 120
        while sum(p["numInputRows"] for p in query.recentProgress) < STREAM["total_rows"]:
            if query.exception() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the query failed or stalled: {query.exception()}")
            time.sleep(0.1)
    finally:
        query.stop()
    started = stream_definition(checkpoint)["start_time_ms"]
    batches = [
        {
            "at_ms": round(datetime.fromisoformat(p["timestamp"]).timestamp() * 1000) - started,
            "rows": p["numInputRows"],
            "rows_behind": int(p["sources"][0]["metrics"]["rowsBehind"]),
        }
        for p in query.recentProgress
        if p["numInputRows"] > 0
    ]
    windows = spark.sql(
        f"SELECT unix_millis(window.start) AS start, count FROM {table} ORDER BY start"
    ).collect()
    return {"windows": {str(row.start): row["count"] for row in windows}, "batches": batches}


if __name__ == "__main__":
    builder = SparkSession.builder.master("local[2]").config(
        "spark.sql.shuffle.partitions", "2"
    )
    spark = configure_spark_with_random_strings(builder).getOrCreate()
    with tempfile.TemporaryDirectory() as checkpoint:
        print(json.dumps(burst(spark, checkpoint)))
    spark.stop()
