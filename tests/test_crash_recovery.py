"""Exactly-once through crashes: a write killed with SIGKILL mid-stream, again and again, then
finished, holds every row exactly once, identical to an uninterrupted run.

The child is the command-line tool's ``write`` (a checkpointed query into the parquet file
sink); SIGKILL goes to its whole process group, so its Spark JVM dies with it, at a random
moment in a random batch. The kill points come from a seeded random generator; its seed is in
the test's output, so a failure can be replayed with SPARK_RANDOM_STRINGS_KILL_SEED.
"""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path
from typing import Dict, List, Optional

from pyspark.sql import SparkSession

from support import (
    CLI, group_gone, rows_as_dict, run_child, seeded_rows, start_child, stop_group, wait_for,
)

TOTAL_ROWS = 120_000
ROWS_PER_TRIGGER = 4_000  # 30 batches
KILLS = 3
MAX_LENGTH = 12


def write_command(output: Path, seed: Optional[int]) -> List[str]:
    return [
        *CLI, "write", "--total-rows", str(TOTAL_ROWS), "--max-rows-per-trigger",
        str(ROWS_PER_TRIGGER), "--max-length", str(MAX_LENGTH), "--output", str(output),
        *(["--seed", str(seed)] if seed is not None else []),
    ]


def committed_batches(output: Path) -> int:
    """How many batches the query has committed (files in its checkpoint's commit log)."""
    commits = output / "_checkpoint" / "commits"
    return sum(1 for f in commits.iterdir() if f.name.isdigit()) if commits.exists() else 0


def kill_mid_stream(command: List[str], output: Path, rng: random.Random, log: Path) -> str:
    """Run the write until a random batch, kill it and its JVM at a random moment; describe it."""
    target = committed_batches(output) + rng.randint(1, 5)
    delay_s = rng.uniform(0.0, 0.6)
    process = start_child(command, log)
    try:
        wait_for(lambda: committed_batches(output) >= target or process.poll() is not None,
                 f"batch {target} to commit")
        time.sleep(delay_s)
        assert process.poll() is None, f"the write ended before it was killed: {log.read_text()[-2000:]}"
        os.killpg(process.pid, signal.SIGKILL)
        assert process.wait(timeout=30) == -signal.SIGKILL
        assert group_gone(process, 30), "a process of the killed write (its JVM) survived SIGKILL"
    finally:
        stop_group(process)
    return (f"killed {delay_s:.2f} s after the commit of batch {target - 1}, with "
            f"{committed_batches(output)} batches committed")


def stored_definition(output: Path) -> Dict[str, int]:
    """The stream's definition as the source keeps it in the checkpoint."""
    stored: Dict[str, int] = json.loads((output / "_checkpoint" / "sources" / "0" / "random-strings-source.json").read_text())
    return stored


def tree(folder: Path) -> Dict[str, int]:
    """Every file under folder, with its size."""
    return {str(f.relative_to(folder)): f.stat().st_size for f in folder.rglob("*") if f.is_file()}


def kill_repeatedly(output: Path, seed: Optional[int], tmp_path: Path) -> None:
    kill_seed = int(os.environ.get("SPARK_RANDOM_STRINGS_KILL_SEED", time.time_ns() % 2**32))
    print(f"kill points drawn with SPARK_RANDOM_STRINGS_KILL_SEED={kill_seed}")
    rng = random.Random(kill_seed)
    command = write_command(output, seed)
    kills = [kill_mid_stream(command, output, rng, tmp_path / f"killed-{i}.log") for i in range(KILLS)]
    print("\n".join(kills))
    assert committed_batches(output) < TOTAL_ROWS // ROWS_PER_TRIGGER, "every kill was mid-stream"


def finish(output: Path, seed: Optional[int]) -> None:
    done = run_child(write_command(output, seed))
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1].startswith(f"wrote {TOTAL_ROWS:,} rows to {output} as parquet (")


def assert_exactly_once_as_uninterrupted(spark: SparkSession, output: Path, seed: int) -> None:
    written = spark.read.parquet(str(output))  # through the file sink's log: committed files only
    assert rows_as_dict(written) == seeded_rows(spark, TOTAL_ROWS, seed=seed, max_length=MAX_LENGTH)
    start_ms = stored_definition(output)["startTimeMs"]
    times = written.selectExpr(f"count_if(ts != {start_ms} + offset * 100) AS wrong").first()
    assert times is not None and times.wrong == 0, "ts is start time + offset * 1000 / rowsPerSecond"


def test_a_seeded_write_killed_three_times_holds_every_row_exactly_once(
    spark: SparkSession, tmp_path: Path
) -> None:
    output = tmp_path / "strings"
    kill_repeatedly(output, 11, tmp_path)
    finish(output, 11)
    assert stored_definition(output)["seed"] == 11
    assert_exactly_once_as_uninterrupted(spark, output, seed=11)


def test_an_unseeded_write_killed_three_times_keeps_its_stored_seed_and_refuses_another(
    spark: SparkSession, tmp_path: Path
) -> None:
    output = tmp_path / "strings"
    kill_repeatedly(output, None, tmp_path)
    stored_seed = stored_definition(output)["seed"]

    # A restart with an explicit seed other than the stored one fails and writes nothing.
    before = tree(output)
    other = stored_seed + 1 if stored_seed < 2**63 - 1 else stored_seed - 1
    refused = run_child(write_command(output, other))
    assert refused.returncode == 1
    assert len(refused.stderr.splitlines()) == 1
    assert f"seed: the checkpoint has {stored_seed}, the query sets {other}" in refused.stderr
    assert tree(output) == before

    finish(output, None)
    assert stored_definition(output)["seed"] == stored_seed
    assert_exactly_once_as_uninterrupted(spark, output, seed=stored_seed)
