"""Exactly-once through crashes: a write killed with SIGKILL mid-stream, again and again, then
finished, holds every row exactly once, identical to an uninterrupted run.

The child is the command-line tool's ``write`` (a checkpointed query into the parquet file
sink); SIGKILL goes to its whole process group, so its Spark JVM dies with it, at a random
moment in a random batch. The kill points come from a seeded random generator; its seed is in
the test's output, so a failure can be replayed with SPARK_RANDOM_STRINGS_KILL_SEED.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest
from pyspark.sql import SparkSession

from helpers.checkpointed_writes import (
    ROWS_PER_TRIGGER,
    TOTAL_ROWS,
    assert_exactly_once_as_uninterrupted,
    committed_batches,
    finish,
    kill_when,
    stored_definition,
    write_command,
)
from helpers.spark_lines import on_default_line
from helpers.support import rows_as_dict, run_child
from spark_random_strings import expected_rows, stream_definition
from spark_random_strings.engine.choice import pyspark_line

#: How often the seeded write is killed: twice on the default line, where a restarted write is
#: killed again and finished by a third run; once on the other lines, which check their own
#: Spark's recovery.
KILLS = 2 if on_default_line() else 1


def kill_mid_stream(command: list[str], output: Path, rng: random.Random, log: Path) -> str:
    """Run the write until a random batch, kill it and its JVM at a random moment; describe it."""
    # The kills must all land before the 12th batch commits: each waits for one or two more
    # batches, then up to 0.3 s, in which a fast machine commits a batch or two more.
    target = committed_batches(output) + rng.randint(1, 2)
    delay_s = rng.uniform(0.0, 0.3)
    kill_when(command, lambda: committed_batches(output) >= target, f"batch {target} to commit", delay_s, log)
    return (
        f"killed {delay_s:.2f} s after the commit of batch {target - 1}, with "
        f"{committed_batches(output)} batches committed"
    )


def tree(folder: Path) -> dict[str, int]:
    """Every file under folder, with its size."""
    return {str(f.relative_to(folder)): f.stat().st_size for f in folder.rglob("*") if f.is_file()}


def kill_repeatedly(
    output: Path, seed: int | None, tmp_path: Path, engine: str = "auto", times: int = KILLS
) -> None:
    kill_seed = int(os.environ.get("SPARK_RANDOM_STRINGS_KILL_SEED", time.time_ns() % 2**32))
    print(f"kill points drawn with SPARK_RANDOM_STRINGS_KILL_SEED={kill_seed}")
    rng = random.Random(kill_seed)
    command = write_command(output, seed, engine=engine)
    kills = [kill_mid_stream(command, output, rng, tmp_path / f"killed-{i}.log") for i in range(times)]
    print("\n".join(kills))
    assert committed_batches(output) < TOTAL_ROWS // ROWS_PER_TRIGGER, "every kill was mid-stream"


@pytest.mark.slow
# The strings source's restart on every line and Java: a child killed mid-stream, its query resumed.
@pytest.mark.every_line
@pytest.mark.every_java
@pytest.mark.processes
def test_a_seeded_write_killed_mid_stream_holds_every_row_exactly_once(
    spark: SparkSession, tmp_path: Path
) -> None:
    output = tmp_path / "strings"
    kill_repeatedly(output, 11, tmp_path)
    finish(output, 11)
    assert stored_definition(output)["seed"] == 11
    assert_exactly_once_as_uninterrupted(spark, output, seed=11)


@pytest.mark.slow
@pytest.mark.extended
@pytest.mark.processes
def test_an_unseeded_write_killed_mid_stream_keeps_its_stored_seed_and_refuses_another(
    spark: SparkSession, tmp_path: Path
) -> None:
    output = tmp_path / "strings"
    # Once: what is tested here is the seed kept across a restart; the seeded test above
    # covers repeated kills.
    kill_repeatedly(output, None, tmp_path, times=1)
    stored_seed = stored_definition(output)["seed"]

    # A restart with an explicit seed other than the stored one is refused before Spark starts,
    # a usage error of its --output, and writes nothing.
    before = tree(output)
    other = stored_seed + 1 if stored_seed < 2**63 - 1 else stored_seed - 1
    refused = run_child(write_command(output, other))
    assert refused.returncode == 2
    (error,) = refused.stderr.splitlines()
    assert error.startswith(
        f"spark-random-strings write: error: argument --output: {output} holds a write of another stream"
    )
    assert f"seed: the checkpoint has {stored_seed}, the query sets {other}" in error
    assert tree(output) == before

    finish(output, None)
    assert stored_definition(output)["seed"] == stored_seed
    assert_exactly_once_as_uninterrupted(spark, output, seed=stored_seed)


@pytest.mark.slow
@pytest.mark.extended
@pytest.mark.skipif(
    pyspark_line() < (4, 2),
    reason="the write runs under Trigger.AvailableNow, which a Python source has from Spark 4.2 on",
)
@pytest.mark.processes
def test_an_unseeded_write_of_the_python_source_killed_mid_stream_continues_its_drawn_stream_exactly_once(
    spark: SparkSession, tmp_path: Path
) -> None:
    output = tmp_path / "strings"
    # Once: each start of a Python worker costs seconds, and the JVM source's seeded test above
    # covers repeated kills.
    kill_repeatedly(output, None, tmp_path, engine="python", times=1)
    drawn = stream_definition(output / "_checkpoint")
    finish(output, None, engine="python")
    definition = stream_definition(output / "_checkpoint")
    assert definition == drawn, "the seed drawn at the first start, kept in the offset log"
    expected = expected_rows(**definition, start=0, end=TOTAL_ROWS).to_pylist()
    written = spark.read.parquet(str(output))
    assert rows_as_dict(written) == {row["offset"]: row["value"] for row in expected}
    times = {row.offset: row.ts for row in written.select("offset", "ts").collect()}
    assert times == {row["offset"]: row["ts"] for row in expected}
