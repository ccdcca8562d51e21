"""The driver that test_cluster.py runs against a standalone Spark cluster.

usage: python cluster_app.py MASTER_URL OUTPUT_DIR RESULT_JSON

Waits until the cluster has given it two executors, writes the seeded stream (numPartitions 4)
into OUTPUT_DIR as parquet under Trigger.AvailableNow, then asks the application's REST API
(on loopback) which executor ran each task of the query's batches, and writes that to
RESULT_JSON.
"""

from __future__ import annotations

import json
import sys
import time
import urllib.request
from collections import Counter
from typing import Any

from pyspark.sql import SparkSession

from spark_random_strings import configure_spark_with_random_strings, read_random_strings

TOTAL_ROWS = 200_000
ROWS_PER_TRIGGER = 50_000
SEED = 5
EXECUTORS = 2


def rest(spark: SparkSession, path: str) -> Any:
    """GET one endpoint of the application's REST API."""
    url = f"{spark.sparkContext.uiWebUrl}/api/v1/applications/{spark.sparkContext.applicationId}{path}"
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


def executors(spark: SparkSession) -> list[dict[str, Any]]:
    return [e for e in rest(spark, "/executors") if e["id"] != "driver"]


def main(master: str, output: str, result: str) -> None:
    builder = (
        SparkSession.builder.master(master)
        .appName("spark-random-strings on a standalone cluster")
        .config("spark.executor.memory", "512m")
        .config("spark.executor.cores", "1")
        .config("spark.cores.max", str(EXECUTORS))
        .config("spark.ui.port", "0")  # a free port, on SPARK_LOCAL_IP (127.0.0.1)
    )
    spark = configure_spark_with_random_strings(builder).getOrCreate()
    try:
        deadline = time.monotonic() + 120
        while len(executors(spark)) < EXECUTORS:
            assert time.monotonic() < deadline, "the cluster gave no two executors in 120 s"
            time.sleep(0.5)
        df = read_random_strings(
            spark, seed=SEED, total_rows=TOTAL_ROWS, max_rows_per_trigger=ROWS_PER_TRIGGER, num_partitions=4
        )
        query = (
            df.writeStream.format("parquet")
            .option("path", output)
            .option("checkpointLocation", f"{output}/_checkpoint")
            .trigger(availableNow=True)
            .start()
        )
        assert query.awaitTermination(300), "the query did not end in 300 s"
        assert query.exception() is None, query.exception()

        # Streaming batches run as jobs in the query run's job group.
        tasks_by_executor: Counter[str] = Counter()
        stages = 0
        for job in rest(spark, "/jobs"):
            if job.get("jobGroup") != str(query.runId):
                continue
            for stage_id in job["stageIds"]:
                for attempt in rest(spark, f"/stages/{stage_id}"):
                    stages += 1
                    tasks = rest(spark, f"/stages/{stage_id}/{attempt['attemptId']}/taskList?length=1000")
                    tasks_by_executor.update(t["executorId"] for t in tasks if t["status"] == "SUCCESS")
        with open(result, "w") as out:
            json.dump(
                {
                    "executors": [
                        {"id": e["id"], "hostPort": e["hostPort"], "totalCores": e["totalCores"]}
                        for e in executors(spark)
                    ],
                    "stages": stages,
                    "tasksByExecutor": dict(tasks_by_executor),
                    "batches": sum(1 for p in query.recentProgress if p["numInputRows"] > 0),
                },
                out,
            )
    finally:
        spark.stop()


if __name__ == "__main__":
    main(*sys.argv[1:])
