"""The source on a real Spark standalone cluster: a master and two one-core workers on
127.0.0.1, started with pyspark's own spark-class. Rows are made by the executors, and
everything they need travels to them: the jar through spark.jars, the batch's plan serialized.
"""

from __future__ import annotations

import json
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from pyspark.sql import SparkSession

from helpers import cluster_app
from helpers.support import REPO, free_port, pyspark_bin, rows_as_dict, seeded_rows, start_child, stop_group

DAEMON = {"SPARK_DAEMON_MEMORY": "512m", "SPARK_MASTER_OPTS": "-Dspark.master.rest.enabled=false"}


def alive_workers(web_ui_port: int) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{web_ui_port}/json/", timeout=5) as response:
            return int(json.load(response)["aliveworkers"])
    except OSError:
        return 0


@pytest.fixture
def standalone_cluster(tmp_path: Path) -> Iterator[str]:
    """A master and two workers of one core each, all on 127.0.0.1; always torn down."""
    spark_class = str(pyspark_bin("spark-class"))
    port, web_ui = free_port(), free_port()
    master_url = f"spark://127.0.0.1:{port}"
    processes = []
    try:
        processes.append(
            start_child(
                [
                    spark_class,
                    "org.apache.spark.deploy.master.Master",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "--webui-port",
                    str(web_ui),
                ],
                tmp_path / "master.log",
                env=DAEMON,
            )
        )
        for i in range(2):
            processes.append(
                start_child(
                    [
                        spark_class,
                        "org.apache.spark.deploy.worker.Worker",
                        "--host",
                        "127.0.0.1",
                        "--cores",
                        "1",
                        "--memory",
                        "1g",
                        "--webui-port",
                        str(free_port()),
                        "--work-dir",
                        str(tmp_path / f"worker-{i}"),
                        master_url,
                    ],
                    tmp_path / f"worker-{i}.log",
                    env=DAEMON,
                )
            )
        deadline = time.monotonic() + 120
        while alive_workers(web_ui) < 2:
            for process, log in zip(processes, ["master.log", "worker-0.log", "worker-1.log"], strict=False):
                assert process.poll() is None, (tmp_path / log).read_text()[-3000:]
            assert time.monotonic() < deadline, "two workers did not register in 120 s"
            time.sleep(0.5)
        yield master_url
    finally:
        for process in reversed(processes):
            stop_group(process)


@pytest.mark.slow
@pytest.mark.processes
def test_both_executors_of_a_two_worker_cluster_make_rows_and_the_output_is_exact(
    standalone_cluster: str, spark: SparkSession, tmp_path: Path
) -> None:
    output, result = tmp_path / "strings", tmp_path / "result.json"
    driver = start_child(
        [
            sys.executable,
            str(REPO / "tests" / "helpers" / "cluster_app.py"),
            standalone_cluster,
            str(output),
            str(result),
        ],
        tmp_path / "driver.log",
    )
    try:
        assert driver.wait(timeout=600) == 0, (tmp_path / "driver.log").read_text()[-5000:]
    finally:
        stop_group(driver)

    found = json.loads(result.read_text())
    executor_ids: list[str] = sorted(e["id"] for e in found["executors"])
    assert len(executor_ids) == 2 and all(e["totalCores"] == 1 for e in found["executors"])
    batches = cluster_app.TOTAL_ROWS // cluster_app.ROWS_PER_TRIGGER
    assert found["batches"] == batches
    # One stage of four tasks (numPartitions 4) per batch, every task on one of the two executors.
    assert found["stages"] == batches
    assert sum(found["tasksByExecutor"].values()) == 4 * batches
    assert sorted(found["tasksByExecutor"]) == executor_ids, "both executors ran generating tasks"

    written = spark.read.parquet(str(output))
    assert rows_as_dict(written) == seeded_rows(cluster_app.TOTAL_ROWS, seed=cluster_app.SEED)
