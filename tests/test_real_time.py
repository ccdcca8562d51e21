"""``realTime=true`` end to end through PySpark: the same stream through Spark's DSv2 interfaces,
in real-time mode (PySpark's ``trigger(realTime=...)``, from Spark 4.2) and under micro-batch
triggers, its restart after SIGKILL, and its refusals where Spark has no real-time mode.

The Scala suites (RealTimeStreamSuite, on every line from 4.1) pin down the rest: rows handed on
no earlier than they exist, offsets per partition, the refusals of a changed ``numPartitions``
and of ``maxRowsPerTrigger`` in real-time mode. Spark 4.1's PySpark has no real-time trigger:
there the Scala shell test below runs it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyspark
import pytest
from pyspark.errors import IllegalArgumentException
from pyspark.sql import SparkSession

from helpers import real_time_child
from helpers.support import (
    group_gone,
    pyspark_bin,
    run_available_now,
    run_child,
    start_child,
    stop_group,
    wait_for,
)
from spark_random_strings import (
    expected_rows,
    installed_spark,
    jar_path,
    read_random_strings,
    stream_definition,
)
from spark_random_strings.engine.choice import pyspark_line

# Real-time mode is versioned code (4.1+) and its refusal before: on every line and Java.
pytestmark = [pytest.mark.every_line, pytest.mark.every_java]

REAL_TIME_LINE = (4, 1)
CHILD = Path(real_time_child.__file__)


def sink_rows(output: Path) -> list[tuple[str, dict[str, Any]]]:
    """Every row the child's sink wrote, with the name of the file it is in."""
    rows = []
    for file in sorted(output.glob("*.jsonl")):
        for line in file.read_text().splitlines():
            if line.endswith("}"):  # a line cut short by SIGKILL is not a row the sink got
                rows.append((file.name, json.loads(line)))
    return rows


def committed_batches(checkpoint: Path) -> list[int]:
    """The ids of the batches in the checkpoint's commit log."""
    folder = checkpoint / "commits"
    return [int(f.name) for f in folder.iterdir() if f.name.isdigit()] if folder.exists() else []


def last_committed_offset(checkpoint: Path) -> list[int]:
    """The source's offset at the end of the last committed batch: each partition's next offset."""
    entry = (checkpoint / "offsets" / str(max(committed_batches(checkpoint)))).read_text().splitlines()
    (source,) = (line for line in entry[2:] if line.startswith('{"next"'))
    offsets: list[int] = json.loads(source)["next"]
    return offsets


def past_the_last_commit(
    rows: list[tuple[str, dict[str, Any]]], committed: list[int]
) -> list[dict[str, Any]]:
    """The rows at or past each partition's offset at the end of the last committed batch: what
    the batch in flight has handed on."""
    partitions = len(committed)
    return [row for _, row in rows if int(row["offset"]) >= committed[int(row["offset"]) % partitions]]


def sink_holds_an_uncommitted_batch(checkpoint: Path, output: Path) -> bool:
    """Whether the sink holds rows of a batch that is not committed (a cheap look: the files of
    the tasks of later batches than the last committed one, named by their epoch, not empty)."""
    last = max(committed_batches(checkpoint), default=-1)
    return any(
        int(file.name.split("-")[1]) > last and file.stat().st_size > 0 for file in output.glob("*.jsonl")
    )


def group_stopped(process: subprocess.Popen[bytes]) -> bool:
    """Whether every process of the child's group is stopped (state T in /proc), or a zombie."""
    states = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            # The fields after the command's name, which is in parentheses: state, ppid, pgrp.
            state, _, group = stat.read_text().rsplit(")", 1)[1].split()[:3]
            if int(group) == process.pid:
                states.append(state)
    return bool(states) and all(state in ("T", "Z") for state in states)


def kill_mid_batch(process: subprocess.Popen[bytes], checkpoint: Path, output: Path, log: Path) -> None:
    """SIGKILL the child's group at a moment when the sink holds rows that the batch in flight
    handed on, after at least one batch committed: when a look shows such rows, stop the group
    (SIGSTOP), check again on what it left on disk, and kill it, or let it go on (SIGCONT) when
    its batch committed meanwhile."""
    deadline = time.monotonic() + 180

    def ready() -> bool:
        return bool(committed_batches(checkpoint)) and sink_holds_an_uncommitted_batch(checkpoint, output)

    while True:
        wait_for(
            lambda: ready() or process.poll() is not None,
            "rows of a batch in flight in the sink",
            timeout_s=deadline - time.monotonic(),
            poll_s=0.01,
        )
        assert process.poll() is None, log.read_text()[-3000:]
        os.killpg(process.pid, signal.SIGSTOP)
        wait_for(lambda: group_stopped(process), "the query's processes to stop", timeout_s=30, poll_s=0.01)
        if past_the_last_commit(sink_rows(output), last_committed_offset(checkpoint)):
            break
        os.killpg(process.pid, signal.SIGCONT)
    os.killpg(process.pid, signal.SIGKILL)
    assert group_gone(process, 30), "a process of the killed query (its JVM) survived SIGKILL"


@pytest.mark.slow
@pytest.mark.skipif(pyspark_line() < (4, 2), reason="PySpark's real-time trigger arrived in Spark 4.2")
@pytest.mark.processes
def test_a_real_time_query_killed_with_sigkill_continues_no_offset_skipped_repeats_identical(
    tmp_path: Path,
) -> None:
    checkpoint, output = tmp_path / "checkpoint", tmp_path / "rows"
    command = [sys.executable, str(CHILD), str(checkpoint), str(output)]
    first = start_child(command, tmp_path / "first.log")
    try:
        # Killed once a batch committed, at a moment when the next batch has handed rows on.
        kill_mid_batch(first, checkpoint, output, tmp_path / "first.log")
    finally:
        stop_group(first)
    before = sink_rows(output)
    committed = last_committed_offset(checkpoint)
    # What the killed batch had handed on (past the last commit): the kill landed where there is some.
    killed_batch = past_the_last_commit(before, committed)
    assert killed_batch, "the kill landed where the batch in flight had handed nothing on"
    files_before = {name for name, _ in before}

    def restarted_rows() -> list[tuple[str, dict[str, Any]]]:
        return [(name, row) for name, row in sink_rows(output) if name not in files_before]

    def restart_caught_up() -> bool:
        # Both partitions are waited for, each at its own pace: a count of rows over both can be
        # reached by one partition alone while the other has not yet handed the killed rows again.
        again = [row for _, row in restarted_rows()]
        return len(again) >= 300 and all(row in again for row in killed_batch)

    second = start_child(command, tmp_path / "second.log")
    try:
        wait_for(lambda: restart_caught_up() or second.poll() is not None, "the restart's rows")
        assert second.poll() is None, (tmp_path / "second.log").read_text()[-3000:]
    finally:
        stop_group(second)
    after = restarted_rows()

    definition = stream_definition(str(checkpoint))
    seen = [row for _, row in before + after]
    last = max(int(row["offset"]) for row in seen)
    expected = {row["offset"]: row for row in expected_rows(start=0, end=last + 1, **definition).to_pylist()}
    for row in seen:
        assert row == expected[row["offset"]], f"offset {row['offset']} differs from the stream's row"
    partitions = real_time_child.PARTITIONS
    for p in range(partitions):
        offsets = sorted({int(row["offset"]) for row in seen if int(row["offset"]) % partitions == p})
        assert offsets == list(range(p, offsets[-1] + 1, partitions)), f"partition {p} skipped an offset"
        # The restart goes on from the last committed batch's end: the killed batch's rows again.
        restarted = [int(row["offset"]) for _, row in after if int(row["offset"]) % partitions == p]
        assert min(restarted) == committed[p]
    # What the killed batch had handed on reaches the sink again, identical.
    again = [row for _, row in after]
    assert all(row in again for row in killed_batch)
    print(f"{len(killed_batch)} rows of the killed batch reached the sink again after the restart")


@pytest.mark.skipif(pyspark_line() < REAL_TIME_LINE, reason="real-time mode needs Spark 4.1")
def test_a_real_time_stream_under_available_now_reads_the_rows_of_expected_rows(
    spark: SparkSession, tmp_path: Path
) -> None:
    df = read_random_strings(
        spark,
        real_time=True,
        seed=5,
        total_rows=600,
        rows_per_second=1_000_000,
        num_partitions=3,
        max_rows_per_trigger=250,
        start_timestamp=1_700_000_000_000,
        max_out_of_order_ms=30,
    )
    rows, _ = run_available_now(df, "real_time_available_now", tmp_path / "checkpoint")
    expected = expected_rows(start=0, end=600, **stream_definition(tmp_path / "checkpoint")).to_pylist()
    assert [tuple(row.values()) for row in expected] == rows


@pytest.mark.skipif(pyspark_line() >= REAL_TIME_LINE, reason="Spark 4.1 and later have real-time mode")
def test_real_time_fails_at_load_before_spark_4_1_naming_the_spark_it_needs(spark: SparkSession) -> None:
    with pytest.raises(IllegalArgumentException) as raised:
        read_random_strings(spark, real_time=True, engine="jvm")
    assert str(raised.value).strip().splitlines()[0] == (
        f"real_time is true, but this is Spark {pyspark.__version__}, which has no real-time "
        "mode: it needs Spark 4.1 or later. Remove real_time to read the stream with micro-batch "
        "triggers, or run on a later Spark."
    )


@pytest.mark.skipif(pyspark_line() < (4, 0), reason="Spark 3.5 has no Python data sources")
def test_real_time_with_the_python_engine_fails_saying_python_sources_cannot_run_in_real_time_mode(
    spark: SparkSession,
) -> None:
    with pytest.raises(IllegalArgumentException) as raised:
        read_random_strings(spark, real_time=True, engine="python")
    assert str(raised.value).strip().splitlines()[0] == (
        "real_time is true, but the InMemoryRandomStringsPython source is a Python data source, "
        "and Spark's Python data sources cannot run in real-time mode: it reads only JVM streams that "
        "implement its real-time interfaces. Read the jar's source (engine='jvm') with real_time, or "
        "remove real_time."
    )


SCALA_REAL_TIME = """
import org.apache.spark.sql.streaming.Trigger
import io.github.sparkrandomstrings.LatencySink
spark.conf.set("spark.sql.streaming.realTimeMode.minBatchDuration", "1s")
val checkpoint = "CHECKPOINT"
val query = spark.readStream.format("InMemoryRandomStrings")
  .option("realTime", "true").option("seed", "33").option("rowsPerSecond", "200")
  .option("numPartitions", "1").option("startTimestamp", "1700000000000").load()
  .writeStream.foreach(new LatencySink("shell", checkpoint))
  .outputMode("update").trigger(Trigger.RealTime("1 second"))
  .option("checkpointLocation", checkpoint).start()
while (LatencySink.summary("shell").get("count").toLong < 400L) Thread.sleep(100L)
query.stop()
println("LAST ROWS")
println(LatencySink.summary("shell").get("recent"))
"""


@pytest.mark.slow
@pytest.mark.skipif(installed_spark().spark_line != "4.1", reason="PySpark's real-time trigger covers 4.2 on")
@pytest.mark.processes
def test_scalas_real_time_trigger_reads_the_stream_on_spark_4_1(tmp_path: Path) -> None:
    checkpoint = tmp_path / "checkpoint"
    script = tmp_path / "real_time.scala"
    script.write_text(SCALA_REAL_TIME.replace("CHECKPOINT", str(checkpoint)))
    done = run_child(
        [
            str(pyspark_bin("spark-shell")),
            "--master",
            "local[2]",
            "--jars",
            str(jar_path()),
            "-I",
            str(script),
        ],
        cwd=tmp_path,
        typed=":quit\n",
    )
    printed = done.stdout.split("LAST ROWS\n", 1)[1].splitlines()
    shown = [line.split("\t") for line in printed if re.fullmatch(r"\S*\t\d+\t\d+\t\d+", line)]
    assert len(shown) == 20, done.stdout[-3000:]
    definition = stream_definition(str(checkpoint))
    offsets = [int(offset) for _, _, offset, _ in shown]
    assert offsets == list(range(offsets[0], offsets[0] + 20)), "one partition hands its rows on in order"
    expected = expected_rows(start=offsets[0], end=offsets[0] + 20, **definition).to_pylist()
    assert [[str(row[k]) for k in ("value", "ts", "offset", "length")] for row in expected] == shown


@pytest.mark.slow
@pytest.mark.skipif(pyspark_line() < (4, 3), reason="real-time mode runs stateful queries from Spark 4.3")
@pytest.mark.processes
def test_the_real_time_deduplication_example_keeps_exactly_each_original_and_no_repeat(
    tmp_path: Path,
) -> None:
    example = Path(__file__).parent.parent / "examples" / "real_time_deduplicate.py"
    done = run_child([sys.executable, str(example), "11", str(tmp_path)])
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    kept, committed_until = result["kept"], result["committed_until"]
    assert committed_until is not None and committed_until > 0, "a real-time batch committed"
    definition = stream_definition(tmp_path / "_checkpoint")
    stream = expected_rows(start=0, end=max(kept) + 1, **definition).to_pylist()
    seen: set[tuple[str, int]] = set()
    originals = []
    for row in stream:
        if (row["value"], row["ts"]) not in seen:
            seen.add((row["value"], row["ts"]))
            originals.append(row["offset"])
    assert len(originals) < len(stream), "the stream repeats rows"
    # No repeat ever reaches the sink, and every original of the committed batches does.
    assert set(kept) <= set(originals)
    assert [o for o in kept if o < committed_until] == [o for o in originals if o < committed_until]
