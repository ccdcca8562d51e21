"""The latest image of every key, kept in state by a real-time query (Spark 4.3).

    python examples/changes_latest_image_real_time.py [OUTPUT]

A change stream of 200 keys (inserts, updates and deletes, 400 a second, 2,000 in all) is read in
real-time mode: each change goes through a streaming aggregation as it comes to exist, which
keeps per key the change with the greatest `_seq` (`max_by`, state across one shuffle), and the
key's new latest change reaches the sink at once. The sink, a Python `foreach`, appends each row
it gets to a JSON-lines file under OUTPUT (default: a temporary folder), whose _checkpoint
folder is the query's. Once a batch that read every change has committed, the query stops and
the example prints one JSON object: each key's latest change, as the sink last got it, and how
many changes the committed batches read. The keys whose latest change is not a delete are the
table: `expected_table` of the same options.

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
from pyspark.sql import functions as F

from spark_random_strings import configure_spark_with_random_strings, read_changes

SCHEMA = "id INT NOT NULL, name STRING, balance DECIMAL(12,2)"
FIELDS = {"name": {"maxLength": "8"}, "balance": {"min": "0", "max": "1000"}}
STREAM: dict[str, Any] = dict(
    seed=21,
    key="id",
    keys=200,
    delete_fraction=0.2,
    rows_per_second=400,
    total_rows=2000,
    num_partitions=1,
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
        last = row["last"].asDict()
        last["balance"] = None if last["balance"] is None else str(last["balance"])
        self.file.write(json.dumps({"id": row["id"], **last}) + "\n")

    def close(self, error: BaseException | None) -> None:
        if self.file is not None:
            self.file.close()


def latest_images(spark: SparkSession) -> Any:
    """Each key's latest change: the one with the greatest ``_seq`` (its image, or its delete)."""
    changes = read_changes(spark, schema=SCHEMA, fields=FIELDS, real_time=True, **STREAM)
    last = F.max_by(F.struct("_seq", "_op", "name", "balance"), "_seq")
    return changes.groupBy("id").agg(last.alias("last"))


def committed_changes(checkpoint: Path) -> int:
    """How many changes the committed batches read: the stream's offset after the last of them."""
    commits = [int(f.name) for f in (checkpoint / "commits").glob("[0-9]*")]
    if not commits:
        return 0
    log = (checkpoint / "offsets" / str(max(commits))).read_text().splitlines()
    return int(json.loads(log[-1])["next"][0])


def run(spark: SparkSession, output: Path) -> dict[str, Any]:
    """Keeps each key's latest change in real-time mode until every change is committed; returns
    each key's latest change as the sink last got it."""
    rows = output / "rows"
    rows.mkdir(parents=True, exist_ok=True)
    checkpoint = output / "_checkpoint"
    query = (
        latest_images(spark)
        .writeStream.foreach(JsonLines(str(rows)))
        .outputMode("update")
        .trigger(realTime="5 seconds")  # type: ignore[call-overload]  # pyspark's stubs lack it
        .option("checkpointLocation", str(checkpoint))
        .start()
    )
    deadline = time.monotonic() + 120
    while (
        query.isActive
        and committed_changes(checkpoint) < STREAM["total_rows"]
        and time.monotonic() < deadline
    ):
        time.sleep(0.2)
    query.stop()
    latest: dict[int, dict[str, Any]] = {}
    for file in rows.glob("*.jsonl"):
        for line in file.read_text().splitlines():
            row = json.loads(line)
            if row["id"] not in latest or latest[row["id"]]["_seq"] < row["_seq"]:
                latest[row["id"]] = row
    return {
        "latest": sorted(latest.values(), key=lambda r: r["id"]),
        "committed": committed_changes(checkpoint),
    }


def main() -> None:
    output = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    spark = (
        configure_spark_with_random_strings(SparkSession.builder.master("local[4]"))
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    print(json.dumps(run(spark, output)))
    spark.stop()


if __name__ == "__main__":
    main()
