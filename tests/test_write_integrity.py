"""``spark-random-strings write`` leaves exactly N rows for every reader, not only for Spark.

The command is killed with SIGKILL (its whole process group, JVM and all) at random moments,
most of them while a batch's files are in the folder but not yet in the file sink's log, and
rerun until it ends. The folder is then read as pandas, DuckDB or polars users read it: with
pyarrow (parquet) and pandas (CSV), which read every data file in the folder and know nothing
of ``_spark_metadata``. It must hold offsets 0..N-1 once each, with the values of an
uninterrupted run of the same seed, in files every reader opens.

The kill points come from a seeded random generator; its seed is in the test's output, so a
failure can be replayed with SPARK_RANDOM_STRINGS_KILL_SEED.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from helpers.checkpointed_writes import kill_when, stored_definition
from helpers.spark_lines import on_default_line
from helpers.support import run_child
from spark_random_strings import expected_rows

TOTAL_ROWS = 400_000
ROWS_PER_TRIGGER = 40_000  # 10 batches
SEED = 23
#: How often the write is killed mid-batch (more if no kill left files behind): twice on the
#: default line; once on the other lines, which check their own Spark's sink log and recovery.
KILLS = 2 if on_default_line() else 1
COLUMNS = ["value", "ts", "offset", "length"]


def write_command(output: Path, file_format: str, total_rows: int = TOTAL_ROWS) -> list[str]:
    return [
        sys.executable,
        "-m",
        "spark_random_strings",
        "write",
        "--total-rows",
        str(total_rows),
        "--max-rows-per-trigger",
        str(ROWS_PER_TRIGGER),
        "--seed",
        str(SEED),
        "--max-length",
        "12",
        "--format",
        file_format,
        "--output",
        str(output),
    ]


def listed_in_sink_log(output: Path) -> set[str]:
    """The names of the data files the file sink's log (``_spark_metadata``) lists."""
    log = output / "_spark_metadata"
    names: set[str] = set()
    for entry in log.iterdir() if log.exists() else ():
        if entry.name.startswith("."):
            continue  # a checksum, or a log entry still being written under a temporary name
        for line in entry.read_text().splitlines():
            if line.startswith("{"):
                names.add(json.loads(line)["path"].rsplit("/", 1)[-1])
    return names


def data_files(output: Path) -> list[Path]:
    """The files a reader of the folder reads: every file not hidden by a leading '.' or '_'."""
    return sorted(f for f in output.iterdir() if f.is_file() and f.name[0] not in "._")


def unlisted(output: Path) -> list[str]:
    """Data files in the folder that the sink's log does not list: a batch in flight or killed."""
    if not output.exists():
        return []
    listed = listed_in_sink_log(output)
    return [f.name for f in data_files(output) if f.name not in listed]


def committed_batches(output: Path) -> int:
    folder = output / "_checkpoint" / "commits"
    return sum(1 for f in folder.iterdir() if f.name.isdigit()) if folder.exists() else 0


def batch_in_flight(output: Path, after_commits: int, known: set[str]) -> Callable[[], bool]:
    """Whether a batch after the first ``after_commits`` has files in the folder that the log
    does not list, other than the ``known`` ones earlier kills left."""
    return lambda: committed_batches(output) >= after_commits and bool(set(unlisted(output)) - known)


def kill_repeatedly(output: Path, file_format: str, log_folder: Path) -> list[int]:
    """Kill the write KILLS times (more if need be, until one kill left a batch's files unlisted);
    return how many unlisted files each kill added."""
    kill_seed = int(os.environ.get("SPARK_RANDOM_STRINGS_KILL_SEED", time.time_ns() % 2**32))
    print(f"kill points drawn with SPARK_RANDOM_STRINGS_KILL_SEED={kill_seed}")
    rng = random.Random(kill_seed)
    command = write_command(output, file_format)
    added: list[int] = []
    while len(added) < KILLS or (max(added) == 0 and len(added) < 4):
        known = set(unlisted(output))
        target = committed_batches(output) + rng.randint(0, 2)
        delay_s = rng.uniform(0.0, 0.08)
        kill_when(
            command,
            batch_in_flight(output, target, known),
            f"a batch in flight after {target} commits",
            delay_s,
            log_folder / f"killed-{len(added)}.log",
            poll_s=0.005,
        )
        added.append(len(set(unlisted(output)) - known))
        print(f"killed {delay_s:.3f} s into a batch after {target} commits: {added[-1]} more unlisted files")
    assert max(added) > 0, "no kill left a batch's files behind: the test proved nothing"
    assert committed_batches(output) < TOTAL_ROWS // ROWS_PER_TRIGGER, "every kill was mid-stream"
    return added


def finish(output: Path, file_format: str) -> str:
    done = run_child(write_command(output, file_format))
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert lines[-1].startswith(f"wrote {TOTAL_ROWS:,} rows to {output} as {file_format} (")
    return done.stdout


def uninterrupted(start_time_ms: int) -> pd.DataFrame:
    """What one uninterrupted run of the write holds, computed row by row (``expected_rows``)."""
    return expected_rows(
        seed=SEED, start=0, end=TOTAL_ROWS, max_length=12, start_time_ms=start_time_ms
    ).to_pandas()


def read_without_spark(output: Path, file_format: str) -> pd.DataFrame:
    """The folder as pyarrow (parquet) or pandas (CSV) read it: every data file in it."""
    files = data_files(output)
    assert files, f"no data files in {output}"
    empty = [f.name for f in files if f.stat().st_size == 0]
    assert not empty, f"zero-byte files: {empty}"
    if file_format == "parquet":
        frame = pq.read_table(str(output)).to_pandas()
    else:
        frame = pd.concat(
            pd.read_csv(f, header=None, names=COLUMNS, dtype={"value": str}, keep_default_na=False)
            for f in files
        )
    return frame.sort_values("offset", kind="stable").reset_index(drop=True)


# Every line runs the parquet case: the clean-up reads the sink's log through that line's Spark.
# The CSV case, the same clean-up of another format's files, runs once (make test-compat).
@pytest.mark.slow
@pytest.mark.parametrize(
    "file_format",
    [
        "parquet",
        pytest.param("csv", marks=pytest.mark.extended),
    ],
)
@pytest.mark.processes
def test_a_write_killed_mid_batch_and_rerun_leaves_exactly_n_rows_for_readers_other_than_spark(
    file_format: str, tmp_path: Path
) -> None:
    output = tmp_path / "strings"
    kill_repeatedly(output, file_format, tmp_path)
    left = len(unlisted(output))  # killed runs remove nothing: only a run whose query stopped does
    summary = finish(output, file_format)
    assert (
        f"removed {left:,} unfinished file(s) from {output}: a batch stopped before its commit made them"
        in summary
    )
    assert unlisted(output) == [], "every data file in the folder is one the sink's log lists"

    written = read_without_spark(output, file_format)
    assert written["offset"].tolist() == list(range(TOTAL_ROWS)), "offsets 0..N-1, each once"
    # The values, event times (from the checkpoint's start time) and lengths of an uninterrupted
    # run, in the types this reader gives for the format.
    expected = uninterrupted(stored_definition(output)["startTimeMs"]).astype(written[COLUMNS].dtypes)
    pd.testing.assert_frame_equal(written[COLUMNS], expected[COLUMNS])
