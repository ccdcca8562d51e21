"""``spark-random-strings changes``: a change stream counted batch by batch, or written to files,
exactly ``--total-rows`` changes, the rows ``expected_changes`` computes; the folders of a write
are its own (a checkpoint of a change stream is told from one of random strings), and bad flags
are refused before Spark starts, naming the flag."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import SparkSession

from helpers.support import CLI, RunInProcess, run_child
from spark_random_strings import expected_changes

# --- bad flags (no Spark is started for these) ---


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--delete-fraction", "1.5"],
            "argument --delete-fraction: invalid value '1.5': out of range. Allowed: a decimal number >= 0 "
            "and < 1.",
        ),
        (
            ["--output", "out"],
            "argument --total-rows: --output writes a bounded stream: say how many changes",
        ),
        (["--checkpoint", "cp"], "argument --checkpoint: only with --output"),
        (
            ["--key", "k"],
            "argument --key: --key is 'k', which names no declared column. Did you mean 'id'? The declared "
            "columns: id, value. Set --key to the column that holds each change's key.",
        ),
        (
            ["--schema", "id INT NOT NULL, v INT", "--field", "v.mn=3"],
            "argument --field: Unknown or misplaced property 'mn' in option --field v.mn: column 'v' (INT, "
            "kind random) takes kind, nullRate, min, max, distribution. Did you mean 'min'?",
        ),
        (["--as-of", "5"], "unrecognized arguments: --as-of 5"),
    ],
    ids=["range", "output-unbounded", "checkpoint-alone", "key", "field", "batch-only"],
)
def test_bad_flags_are_refused_before_spark_starts_naming_the_flag(
    in_process: RunInProcess, args: list[str], message: str
) -> None:
    done = in_process("changes", *args)
    assert done.returncode == 2
    assert (
        done.stderr
        == f"spark-random-strings changes: error: {message} (see spark-random-strings changes --help)\n"
    )


def test_help_lists_every_option_of_a_stream_as_a_flag_and_the_command_in_the_commands(
    in_process: RunInProcess,
) -> None:
    listed = in_process("--help").stdout
    assert re.search(
        r"^\s+changes\s+a change stream \(inserts, updates, deletes over a keyspace\)", listed, re.M
    )
    done = in_process("changes", "--help")
    assert done.returncode == 0
    flags = set(re.findall(r"^  (--[a-z-]+)", done.stdout, re.M))
    assert {"--key", "--keys", "--delete-fraction", "--hot-keys", "--hot-key-fraction", "--snapshot"} <= flags
    assert {"--envelope", "--schema", "--field", "--total-rows", "--output", "--format", "--engine"} <= flags
    assert not {"--as-of", "--history"} & flags


# --- through Spark ---

STREAM = ["--seed", "3", "--keys", "40", "--delete-fraction", "0.3", "--rows-per-second", "1000"]
SCHEMA = "id BIGINT NOT NULL, name STRING, score INT"
FIELDS = ["--field", "score.min=1", "--field", "score.max=9", "--field", "name.maxLength=5"]
KEYWORDS: dict[str, Any] = {"seed": 3, "keys": 40, "delete_fraction": 0.3, "rows_per_second": 1000}


@pytest.mark.slow
def test_output_writes_exactly_the_changes_expected_changes_computes_and_a_second_run_adds_none(
    spark: SparkSession, tmp_path: Path
) -> None:
    output = tmp_path / "changes"
    args = [
        "changes",
        *STREAM,
        "--schema",
        SCHEMA,
        *FIELDS,
        "--envelope",
        "delta",
        "--total-rows",
        "500",
        "--max-rows-per-trigger",
        "200",
        "--start-timestamp",
        "1700000000000",
        "--output",
        str(output),
    ]
    first = run_child([*CLI, *args])
    assert first.returncode == 0, first.stderr
    assert (
        first.stdout.strip()
        .splitlines()[-1]
        .startswith(f"wrote 500 changes to {output} as parquet (500 in this run, ")
    )
    again = run_child([*CLI, *args])
    assert again.returncode == 0, again.stderr
    assert "(0 in this run, " in again.stdout
    written = spark.read.parquet(str(output)).selectExpr(
        "id", "name", "score", "_change_type", "_commit_version", "unix_micros(_commit_timestamp) AS t"
    )
    expected = expected_changes(
        start=0,
        end=500,
        schema=SCHEMA,
        fields={"score": {"min": 1, "max": 9}, "name": {"maxLength": 5}},
        envelope="delta",
        start_timestamp=1_700_000_000_000,
        **KEYWORDS,
    )
    want = [
        (
            r["id"],
            r["name"],
            r["score"],
            r["_change_type"],
            r["_commit_version"],
            int(r["_commit_timestamp"].timestamp() * 1e6),
        )
        for r in expected.to_pylist()
    ]
    assert sorted(tuple(r) for r in written.collect()) == sorted(want)
    assert len(want) > 500  # an update is two rows of the change data feed
    # Another stream's flags into the same folder: refused, naming what differs.
    other = run_child([*CLI, *[a if a != "40" else "41" for a in args]])
    assert other.returncode == 2
    assert "keys: the checkpoint has 40, the query sets 41" in other.stderr
    # And a write of random strings into it: refused, the folder holding a write of changes.
    strings = run_child([*CLI, "write", "--total-rows", "10", "--output", str(output)])
    assert strings.returncode == 2
    assert f"argument --output: {output} holds a write of changes, and this run writes random strings." in (
        strings.stderr
    )


@pytest.mark.slow
def test_the_terminal_view_counts_each_batchs_changes_as_the_envelope_names_them_until_total_rows(
    tmp_path: Path,
) -> None:
    done = run_child(
        [
            *CLI,
            "changes",
            *STREAM,
            "--envelope",
            "flink",
            "--total-rows",
            "300",
            "--max-rows-per-trigger",
            "120",
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    batches = [line for line in done.stdout.splitlines() if line.startswith("batch ")]
    seen = Counter[str]()
    numbers = []
    for line in batches:
        match = re.fullmatch(r"batch \d+: ([\d,]+) changes?, ([\d,]+) to ([\d,]+) \((.*)\)", line)
        assert match, line
        count, first, last = (int(match.group(i).replace(",", "")) for i in (1, 2, 3))
        assert count == last - first + 1 and count <= 120
        numbers.append((first, last))
        for part in match.group(4).split(", "):
            n, kind = part.split(" ")
            seen[kind] += int(n.replace(",", ""))
    assert [first for first, _ in numbers] == [0] + [last + 1 for _, last in numbers[:-1]]
    assert numbers[-1][1] == 299
    rows = expected_changes(start=0, end=300, envelope="flink", **KEYWORDS)
    assert seen == Counter(rows.column("_row_kind").to_pylist())
    summary = done.stdout.strip().splitlines()[-1]
    assert summary.startswith("spark-random-strings changes: 300 changes (")
