"""``spark-random-strings demo``: random strings counted by length, live, on a local Spark."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from spark_random_strings._progress import source_description
from spark_random_strings._stream import run_until_done

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

    from spark_random_strings._local import StopRequest

#: How often the counts are printed.
TRIGGER_INTERVAL = "2 seconds"


def count_by_length(strings: DataFrame, *, duration_s: float, stop: StopRequest) -> tuple[int, str]:
    """Print the count of strings per length after every batch (Spark's console sink) until
    ``duration_s`` passes or ``stop`` is set.

    Returns the rows read and the one-line summary. Raises the query's exception if it failed.
    """
    by_length = strings.groupBy("length").count().orderBy("length")
    started = time.monotonic()
    query = (
        by_length.writeStream.outputMode("complete")
        .format("console")
        .trigger(processingTime=TRIGGER_INTERVAL)
        .start()
    )
    elapsed = run_until_done(query, started=started, duration_s=duration_s, stop=stop)
    # Idle triggers report progress too; only batches that ran have an addBatch time. The
    # reports are read by key, which works on every pyspark (see _progress).
    progress = query.recentProgress
    batches = {p["batchId"]: p["numInputRows"] for p in progress if "addBatch" in p["durationMs"]}
    rows = sum(batches.values())
    source = source_description(progress[-1]) if progress else "no progress reported"
    return rows, (
        f"spark-random-strings demo: {rows} rows in {len(batches)} batches over "
        f"{elapsed:.1f} s = {rows / elapsed:.1f} rows/s (source: {source})"
    )
