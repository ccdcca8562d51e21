"""``spark-random-strings nexmark --query``: a Nexmark query on the live events, its rows shown
batch by batch, or with ``--output`` written to files: exactly the oracle's rows."""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from helpers.support import CLI, RunInProcess, run_child
from spark_random_strings import NexmarkKeywords, nexmark_answers, nexmark_events

pytestmark = pytest.mark.slow


def test_nexmark_query_shows_each_batchs_rows_and_counts_every_row_of_the_answer() -> None:
    options: NexmarkKeywords = {
        "num_events": 5000,
        "first_event_rate": 1_000_000,
        "next_event_rate": 1_000_000,
    }
    flags = ["--num-events", "5000", "--first-event-rate", "1000000", "--next-event-rate", "1000000"]
    done = run_child([*CLI, "nexmark", *flags, "--query", "q21"])
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


def test_nexmark_query_output_writes_exactly_the_oracles_rows_and_a_second_run_adds_none(
    tmp_path: Path,
) -> None:
    options: NexmarkKeywords = {"num_events": 12_000, "first_event_rate": 1000, "next_event_rate": 1000}
    flags = ["--num-events", "12000", "--first-event-rate", "1000", "--next-event-rate", "1000"]
    output = tmp_path / "q3"
    args = [*CLI, "nexmark", *flags, "--query", "q3", "--output", str(output)]
    done = run_child(args)
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
