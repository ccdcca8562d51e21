"""A stateful query in real-time mode: dropDuplicates with a watermark, row by row (Spark 4.3).

    python examples/real_time_deduplicate.py [SECONDS] [OUTPUT]

The stream makes 500 rows a second, 20% of them exact repeats (value and ts) of a row up to 50
offsets before; its event times start at 2025-01-01 00:00:00 UTC and come as a TIMESTAMP
column. In real-time mode each row goes through the deduplication (state in RocksDB, across
one shuffle) as it comes to exist, and each original reaches the sink at once; its repeats
never do. The sink, a Python `foreach`, appends each row it gets to a JSON-lines file under
OUTPUT (default: a temporary folder), whose _checkpoint folder is the query's. After SECONDS
(default 20), and once a batch has committed, the query stops and the example prints one JSON
object: the rows kept and where the last committed batch ended.

Real-time mode runs stateful queries from Spark 4.3 on. One long-running task reads the
stream and two run the shuffle's partitions, so the session has four local cores.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import IO, Any

from pyspark.sql import SparkSession

from spark_random_strings import configure_spark_with_random_strings, read_random_strings

STREAM: dict[str, Any] = dict(
    seed=9,
    rows_per_second=500,
    num_partitions=1,
    duplicate_fraction=0.2,
    max_duplicate_distance=50,
    timestamp_column=True,
    start_timestamp=1_735_689_600_000,
)


class JsonLines:
    """A foreach sink: each row as a JSON line in a file of the task's own."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.file: IO[str] | None = None

    def open(self, partition_id: int, epoch_id: int) -> bool:
        name = f"{epoch_id}-{partition_id}-{uuid.uuid4().hex}.jsonl"
        self.file = (Path(self.folder) / name).open("w", encoding="utf-8")
        return True

    def process(self, row: Any) -> None:
        assert self.file is not None
        fields = row.asDict()
        fields["timestamp"] = fields["timestamp"].isoformat()
        self.file.write(json.dumps(fields) + "\n")

    def close(self, error: BaseException | None) -> None:
        if self.file is not None:
            self.file.close()


def run(spark: SparkSession, output: Path, seconds: float) -> dict[str, Any]:
    """Deduplicates the stream in real-time mode for ``seconds``; returns what the sink kept."""
    rows = output / "rows"
    rows.mkdir(parents=True, exist_ok=True)
    events = read_random_strings(spark, real_time=True, **STREAM)
    unique = events.withWatermark("timestamp", "10 seconds").dropDuplicates(
        ["value", "timestamp"]
    )
    checkpoint = output / "_checkpoint"
    query = (
        unique.writeStream.foreach(JsonLines(str(rows)))
        .outputMode("update")
        .trigger(realTime="5 seconds")  # type: ignore[call-overload]  # pyspark's stubs lack it
        .option("checkpointLocation", str(checkpoint))
        .start()
    )
    time.sleep(seconds)
    # A batch commits at its end; on a busy machine the first one may end later than SECONDS.
    commits = checkpoint / "commits"
    deadline = time.monotonic() + 60
    while query.isActive and not any(commits.glob("[0-9]*")) and time.monotonic() < deadline:
        time.sleep(0.2)
    query.stop()
    kept = [
        json.loads(line) for f in rows.glob("*.jsonl") for line in f.read_text().splitlines()
    ]
    commits = [int(f.name) for f in (checkpoint / "commits").glob("[0-9]*")]
    ended_at = None
    if commits:
        log = (checkpoint / "offsets" / str(max(commits))).read_text().splitlines()
        ended_at = json.loads(log[-1])["next"][0]
    return {"kept": sorted(row["offset"] for row in kept), "committed_until": ended_at}


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
    output = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(tempfile.mkdtemp())
    spark = (
        configure_spark_with_random_strings(SparkSession.builder.master("local[4]"))
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    print(json.dumps(run(spark, output, seconds)))
    spark.stop()


if __name__ == "__main__":
    main()
