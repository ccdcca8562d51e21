"""A real-time query of this source, run as its own process so that a test can kill it with
SIGKILL: ``python real_time_child.py CHECKPOINT OUTPUT``.

It reads ``realTime`` rows (seed 21, 400 rows/s, two partitions) in real-time mode with one-second
batches into a Python ``foreach`` sink that appends each row, as a JSON line, to a file of its
own per task (``OUTPUT/<partition>-<epoch>-<uuid>.jsonl``) and flushes it at once: what reached
the sink before a kill is on disk. It runs until it is killed or stopped (SIGTERM).

The sink's class is defined here, in ``__main__``, so that pyspark pickles it by value: Spark's
Python workers need nothing of the tests.
"""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path
from typing import IO, Any

from spark_random_strings import read_random_strings
from spark_random_strings.engine.local import local_session

SEED = 21
ROWS_PER_SECOND = 400
PARTITIONS = 2
MAX_LENGTH = 12


class JsonLinesSink:
    """Each row as a JSON line in a file of the task's own, flushed row by row."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.file: IO[str] | None = None

    def open(self, partition_id: int, epoch_id: int) -> bool:
        name = f"{partition_id}-{epoch_id}-{uuid.uuid4().hex}.jsonl"
        self.file = (Path(self.folder) / name).open("a", encoding="utf-8")
        return True

    def process(self, row: Any) -> None:
        assert self.file is not None
        self.file.write(json.dumps(row.asDict()) + "\n")
        self.file.flush()

    def close(self, error: BaseException | None) -> None:
        if self.file is not None:
            self.file.close()


def main(checkpoint: str, output: str) -> None:
    spark = local_session("real-time child", cores=PARTITIONS + 1, log_level="ERROR")
    spark.conf.set("spark.sql.streaming.realTimeMode.minBatchDuration", "1s")
    Path(output).mkdir(parents=True, exist_ok=True)
    df = read_random_strings(
        spark,
        real_time=True,
        seed=SEED,
        rows_per_second=ROWS_PER_SECOND,
        num_partitions=PARTITIONS,
        max_length=MAX_LENGTH,
        duplicate_fraction=0.1,
    )
    query = (
        df.writeStream.foreach(JsonLinesSink(output))
        .outputMode("update")
        .trigger(realTime="1 second")  # type: ignore[call-overload]  # pyspark's stubs lack it
        .option("checkpointLocation", checkpoint)
        .start()
    )
    print("started", flush=True)
    query.awaitTermination()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
