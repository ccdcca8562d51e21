"""A checkpointed write through the command-line tool, killed and restarted: the helpers that
the crash-recovery and checkpoint-upgrade tests share.

The write is ``spark-random-strings write``: the parquet file sink with its checkpoint in
``<output>/_checkpoint``, under Trigger.AvailableNow, in batches of ``ROWS_PER_TRIGGER`` rows.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

from pyspark.sql import SparkSession

from helpers.support import (
    group_gone,
    rows_as_dict,
    run_child,
    seeded_rows,
    start_child,
    stop_group,
    wait_for,
)

TOTAL_ROWS = 60_000
ROWS_PER_TRIGGER = 5_000  # 12 batches: few enough to keep the test short, enough for three kills
MAX_LENGTH = 12


def write_command(
    output: Path, seed: int | None, python: str = sys.executable, engine: str = "auto"
) -> list[str]:
    """The write of TOTAL_ROWS rows into ``output``, run by ``python`` (its pyspark, its Spark),
    with the source of ``engine``."""
    return [
        python,
        "-m",
        "spark_random_strings",
        "write",
        "--total-rows",
        str(TOTAL_ROWS),
        "--max-rows-per-trigger",
        str(ROWS_PER_TRIGGER),
        "--max-length",
        str(MAX_LENGTH),
        "--output",
        str(output),
        "--engine",
        engine,
        *(["--seed", str(seed)] if seed is not None else []),
    ]


def log_entries(output: Path, log: str) -> int:
    """How many batches the query's checkpoint has in a log: "offsets" (planned) or "commits"."""
    folder = output / "_checkpoint" / log
    return sum(1 for f in folder.iterdir() if f.name.isdigit()) if folder.exists() else 0


def committed_batches(output: Path) -> int:
    """How many batches the query has committed (files in its checkpoint's commit log)."""
    return log_entries(output, "commits")


def kill_when(
    command: list[str], ready: Callable[[], bool], what: str, delay_s: float, log: Path, poll_s: float = 0.2
) -> None:
    """Run the write (with its own Python, ``command[0]``) until ``ready()`` (asked every
    ``poll_s``), wait ``delay_s`` and kill it and its JVM with SIGKILL."""
    process = start_child(command, log, python=command[0])
    try:
        wait_for(lambda: ready() or process.poll() is not None, what, poll_s=poll_s)
        time.sleep(delay_s)
        assert process.poll() is None, f"the write ended before it was killed: {log.read_text()[-2000:]}"
        os.killpg(process.pid, signal.SIGKILL)
        assert process.wait(timeout=30) == -signal.SIGKILL
        assert group_gone(process, 30), "a process of the killed write (its JVM) survived SIGKILL"
    finally:
        stop_group(process)


def stored_definition(output: Path) -> dict[str, int]:
    """The stream's definition as the source keeps it in the checkpoint."""
    path = output / "_checkpoint" / "sources" / "0" / "random-strings-source.json"
    stored: dict[str, int] = json.loads(path.read_text())
    return stored


def finish(output: Path, seed: int | None, engine: str = "auto") -> None:
    """Run the write to its end with this test run's Python and Spark."""
    done = run_child(write_command(output, seed, engine=engine))
    assert done.returncode == 0, done.stderr[-3000:]
    assert (
        done.stdout.strip().splitlines()[-1].startswith(f"wrote {TOTAL_ROWS:,} rows to {output} as parquet (")
    )


def assert_exactly_once_as_uninterrupted(spark: SparkSession, output: Path, seed: int) -> None:
    """The output holds offsets 0..TOTAL_ROWS-1 once each, with the values and event times of
    one uninterrupted run with ``seed``."""
    written = spark.read.parquet(str(output))  # through the file sink's log: committed files only
    assert rows_as_dict(written) == seeded_rows(TOTAL_ROWS, seed=seed, max_length=MAX_LENGTH)
    start_ms = stored_definition(output)["startTimeMs"]
    times = written.selectExpr(f"count_if(ts != {start_ms} + offset * 100) AS wrong").first()
    assert times is not None and times.wrong == 0, "ts is start time + offset * 1000 / rowsPerSecond"
