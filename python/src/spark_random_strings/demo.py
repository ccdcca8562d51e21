"""A live demo: random strings streamed through a local Spark, counted by length.

Run it with ``python -m spark_random_strings.demo`` (``make demo`` does). It starts a local
session with the bundled jar, streams random strings at a visible rate, prints the count of
strings per length after every batch (the console sink), and ends with a one-line summary.
"""

from __future__ import annotations

import argparse
import time

from spark_random_strings import read_random_strings
from spark_random_strings._local import local_session, stop_between_batches


def main(argv: list[str] | None = None) -> int:
    """Run the demo; return the process exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m spark_random_strings.demo",
        description="Stream random strings through local Spark and count them by length.",
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to run (default 20)")
    parser.add_argument("--rows-per-second", type=int, default=50, help="the source's rate (default 50)")
    args = parser.parse_args(argv)

    spark = local_session("spark-random-strings demo")
    try:
        strings = read_random_strings(spark, rows_per_second=args.rows_per_second, min_length=1, max_length=8)
        by_length = strings.groupBy("length").count().orderBy("length")
        started = time.monotonic()
        query = (
            by_length.writeStream.outputMode("complete")
            .format("console")
            .trigger(processingTime="2 seconds")
            .start()
        )
        query.awaitTermination(args.seconds)
        stop_between_batches(query)
        elapsed = time.monotonic() - started
        # Idle triggers report progress too; only batches that ran have an addBatch time. The
        # reports are read by key, which works on every pyspark (see _progress).
        progress = query.recentProgress
        batches = {p["batchId"]: p["numInputRows"] for p in progress if "addBatch" in p["durationMs"]}
        rows = sum(batches.values())
        source = progress[-1]["sources"][0]["description"] if progress else "no progress reported"
        print(
            f"spark-random-strings demo: {rows} rows in {len(batches)} batches over "
            f"{elapsed:.1f} s = {rows / elapsed:.1f} rows/s (source: {source})"
        )
        return 0 if rows > 0 else 1
    finally:
        spark.stop()


if __name__ == "__main__":
    raise SystemExit(main())
