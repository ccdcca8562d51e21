"""``spark-random-strings changes``: a change stream counted batch by batch, or written to files,
exactly ``--total-rows`` changes, the rows ``expected_changes`` computes; the folders of a write
are its own (a checkpoint of a change stream is told from one of random strings), and bad flags
are refused before Spark starts, naming the flag."""

from __future__ import annotations

import json
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
@pytest.mark.processes
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
@pytest.mark.processes
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


# --- the folders of a write of changes (no Spark: the checks read the folders alone) ---


def _changes_request(output: Path, *flags: str) -> Any:
    from spark_random_strings.cli import build_parser
    from spark_random_strings.cli.write import write_request

    return write_request(
        build_parser().parse_args(["changes", "--total-rows", "10", "--output", str(output), *flags])
    )


def _checkpoint_with_offset(checkpoint: Path, stream: object) -> None:
    """A checkpoint whose batch 0 is planned, its offset a Python data source's holding ``stream``."""
    (checkpoint / "offsets").mkdir(parents=True)
    offset = json.dumps({"offset": 10, "stream": stream})
    (checkpoint / "offsets" / "0").write_text(f'v1\n{{"batchWatermarkMs":0}}\n{offset}\n')


def test_a_folder_a_release_left_is_never_adopted_by_a_write_of_changes(tmp_path: Path) -> None:
    from spark_random_strings.write.files import LocalFiles
    from spark_random_strings.write.folder import check_folder
    from spark_random_strings.write.request import FolderRefused

    # As 0.6.0's write --engine python left it: the sink's log, a data file, its checkpoint, no records.
    output = tmp_path / "strings"
    (output / "_spark_metadata").mkdir(parents=True)
    (output / "_spark_metadata" / "0").write_text("v1\n")
    (output / "part-00000-6c1f0a4e-3b2d-4c5e-8f9a-0123456789ab-c000.snappy.parquet").write_bytes(b"PAR1")
    _checkpoint_with_offset(output / "_checkpoint", {"version": 3, "seed": 1, "startTimeMs": 0})
    for engine in ("python", "jvm"):
        with pytest.raises(FolderRefused, match=r"and no record that a spark-random-strings write made it"):
            check_folder(LocalFiles(), _changes_request(output, "--engine", engine))


def test_a_write_of_changes_continues_its_own_first_start_and_refuses_another_kinds_stream(
    tmp_path: Path,
) -> None:
    from spark_random_strings.write.contents import STRINGS_FILE
    from spark_random_strings.write.files import LocalFiles
    from spark_random_strings.write.folder import check_folder
    from spark_random_strings.write.records import CHECKPOINT_RECORD, OUTPUT_RECORD, render
    from spark_random_strings.write.request import FolderRefused

    output = tmp_path / "changes"
    checkpoint = output / "_checkpoint"
    (output / "_spark_random_strings").mkdir(parents=True)
    (output / OUTPUT_RECORD).write_text(render(checkpoint="_checkpoint", format="parquet", what="changes"))
    (checkpoint / "sources" / "0").mkdir(parents=True)
    (checkpoint / CHECKPOINT_RECORD).write_text(render(output=".."))
    # Stopped between the rows' definition and the change options, before any batch: its own.
    (checkpoint / "sources" / "0" / STRINGS_FILE).write_text('{"version": 4}')
    claim = check_folder(LocalFiles(), _changes_request(output))
    assert not claim.adopted and claim.records == ()
    # A Python data source's stream of random strings in that checkpoint: another kind's.
    (checkpoint / "sources" / "0" / STRINGS_FILE).unlink()
    _checkpoint_with_offset(checkpoint, {"version": 3, "seed": 1, "startTimeMs": 0})
    with pytest.raises(FolderRefused) as refused:
        check_folder(LocalFiles(), _changes_request(output, "--engine", "python"))
    assert str(refused.value) == (
        f"argument --output: the checkpoint {checkpoint} holds a stream of random strings, and this run "
        "writes changes. Give --output a new folder (one that does not exist yet, or is empty); or, to "
        "finish an earlier write, its folder and the flags of the changes --output run that made it."
    )
