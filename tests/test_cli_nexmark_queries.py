"""``spark-random-strings nexmark --query``: a Nexmark query on the live events, its rows shown
batch by batch, or with ``--output`` written to files: exactly the oracle's rows.

The command runs in this process, on the tests' Spark session (test_nexmark_source runs the
``nexmark`` command in a child process of its own, as users do)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from pyspark.sql import SparkSession

from helpers.support import CLI, RunInProcess
from spark_random_strings import NexmarkKeywords, cli, nexmark_answers, nexmark_events
from spark_random_strings.engine import local as _local

pytestmark = pytest.mark.slow


@pytest.fixture
def on_this_session(
    spark: SparkSession, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> RunInProcess:
    """Run the command's main function in this process on the tests' session, which it does not
    stop: its exit status and what it printed."""
    monkeypatch.setattr(_local, "local_session", lambda *_, **__: spark)
    monkeypatch.setattr(spark, "stop", lambda: None)

    def call(*args: str) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()
        status = cli.main(list(args))
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess([*CLI, *args], status, out, err)

    return call


def test_nexmark_query_shows_each_batchs_rows_and_counts_every_row_of_the_answer(
    on_this_session: RunInProcess,
) -> None:
    options: NexmarkKeywords = {
        "num_events": 5000,
        "first_event_rate": 1_000_000,
        "next_event_rate": 1_000_000,
    }
    flags = ["--num-events", "5000", "--first-event-rate", "1000000", "--next-event-rate", "1000000"]
    done = on_this_session("nexmark", *flags, "--query", "q21")
    assert done.returncode == 0, done.stderr
    expected = nexmark_answers(nexmark_events(**options), ["q21"])["q21"]
    lines = done.stdout.strip().splitlines()
    pattern = (
        r"spark-random-strings nexmark --query q21: ([\d,]+) rows in (\d+) batches from 5,000 events in "
    )
    summary = re.fullmatch(pattern + r"[\d.]+ s", lines[-1])
    assert summary is not None, lines[-1]
    assert int(summary[1].replace(",", "")) == len(expected) > 0
    shown = [line.strip() for line in lines if line.startswith("  ") and not line.startswith("  ...")]
    assert shown and set(shown) <= {", ".join(map(str, row)) for row in expected}


def test_nexmark_query_output_writes_exactly_the_oracles_rows(
    on_this_session: RunInProcess, tmp_path: Path
) -> None:
    options: NexmarkKeywords = {"num_events": 12_000, "first_event_rate": 1000, "next_event_rate": 1000}
    flags = ["--num-events", "12000", "--first-event-rate", "1000", "--next-event-rate", "1000"]
    output = tmp_path / "q3"
    done = on_this_session("nexmark", *flags, "--query", "q3", "--output", str(output))
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout.strip()
        .splitlines()[-1]
        .startswith(f"wrote 12,000 events through q3 to {output} as parquet (12,000 in this run, ")
    )
    table = pq.read_table(sorted(str(p) for p in output.glob("*.parquet")))
    rows = sorted(tuple(row.values()) for row in table.to_pylist())
    # A second run resumes as the events' writes do (test_nexmark_source): the same command.
    assert rows == sorted(nexmark_answers(nexmark_events(**options), ["q3"])["q3"]) != []


def test_nexmark_query_output_refuses_an_update_mode_query_and_an_unknown_one_naming_the_flag(
    in_process: RunInProcess,
) -> None:
    done = in_process("nexmark", "--query", "q18", "--output", "out")
    assert done.returncode == 2
    assert (
        "argument --query: q18 writes upserts (update mode), which Spark's file sink cannot take; without "
        "--output the command shows them" in done.stderr
    )
    unknown = in_process("nexmark", "--query", "q99")
    assert unknown.returncode == 2
    assert "argument --query: invalid choice: 'q99' (choose from " in unknown.stderr
    assert "q4_closing_prices" in unknown.stderr and "q23" in unknown.stderr
