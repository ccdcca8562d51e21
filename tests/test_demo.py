"""`spark-random-strings demo`, which `make demo` runs: it must keep working, on either engine."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pyspark
import pytest

from spark_random_strings import expected_rows
from spark_random_strings.cli.demo import heading, source_description
from spark_random_strings.offsets.definition_store import definition_to_json
from spark_random_strings.rows.definition import StreamDefinition
from spark_random_strings.rows.options import parse_options

#: The demo's stream as each engine's summary names it: the jar's source describes itself; the
#: Python data source is described from its offsets, in the same words.
DESCRIPTIONS = {
    "jvm": r"InMemoryRandomStrings\[rowsPerSecond=50, minLength=1, maxLength=8, charset=alphanumeric, "
    r"seed=-?\d+, numPartitions=2, maxRowsPerTrigger=none, totalRows=unbounded\]",
    "python": r"InMemoryRandomStringsPython\[rowsPerSecond=50, minLength=1, maxLength=8, "
    r"charset=alphanumeric, seed=-?\d+\]",
}
#: How long each engine's demo runs, counted from its first rows: the Python source starts a
#: Python process to plan its batches and Python workers (numpy, pyarrow) to make its rows, and on
#: a busy 2-core machine its first rows have come more than 16 s after the query started.
DURATIONS = {"jvm": "8", "python": "8"}


@pytest.mark.slow
# The Python engine's demo is another engine of the same command: make test-compat runs it once
# (extended), in a pytest run of its own, apart from the benchmark's smoke runs; its duration
# counts from the first rows, however late they come.
@pytest.mark.parametrize(
    "engine",
    [pytest.param(e, marks=pytest.mark.extended) if e == "python" else e for e in sorted(DESCRIPTIONS)],
)
@pytest.mark.processes
def test_demo_says_what_it_shows_shows_seeded_strings_and_counts_them_by_length(engine: str) -> None:
    command = [sys.executable, "-m", "spark_random_strings", "demo", "--duration", DURATIONS[engine]]
    done = subprocess.run(
        [*command, "--engine", engine],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    # The heading comes first (before Spark starts), wrapped at the width of a pipe: 80 columns.
    body = lines.index("")
    assert " ".join(" ".join(lines[:body]).split()) == heading(
        rows_per_second=50, min_length=1, max_length=8, spark_version=pyspark.__version__
    )
    summary = lines[-1]
    match = re.fullmatch(
        r"spark-random-strings demo: (\d+) rows in (\d+) batches over ([\d.]+) s = ([\d.]+) rows/s "
        rf"\(source: {DESCRIPTIONS[engine]}\)",
        summary,
    )
    assert match, summary
    rows, batches = int(match.group(1)), int(match.group(2))
    # At 50 rows/s, a run cannot have read more rows than existed.
    assert 0 < rows <= 50 * float(match.group(3)) + 50
    seed = int(re.search(r"seed=(-?\d+)", summary).group(1))  # type: ignore[union-attr]
    # Each batch: its heading, the column names, a few rows, the counts so far.
    shown: dict[int, str] = {}
    counts: dict[int, int] = {}
    new = 0
    for block in "\n".join(lines[body:-1]).strip().split("\n\n"):
        title, columns, *rows_shown, so_far = block.splitlines()
        assert re.fullmatch(r"batch \d+: [\d,]+ new strings, among them:", title), title
        new += int(title.split(": ")[1].split()[0].replace(",", ""))
        assert columns.split() == ["offset", "ts", "(UTC)", "length", "value"]
        assert 1 <= len(rows_shown) <= 3
        for row in rows_shown:
            offset, _, length, value = row.split()
            assert int(length) == len(value)
            shown[int(offset.replace(",", ""))] = value
        assert so_far.startswith("so far by length: ")
        counts = {
            int(k): int(v.replace(",", "")) for k, v in (p.split(": ") for p in so_far[18:].split(" | "))
        }
    assert len([line for line in lines if line.startswith("batch ")]) == batches
    # The counts add up to the rows read, over lengths 1 to 8 only.
    assert sum(counts.values()) == new == rows
    assert set(counts) <= set(range(1, 9))
    # The strings shown are the seed's own, as expected_rows makes them.
    expected = expected_rows(seed=seed, start=0, end=rows, start_time_ms=0, min_length=1, max_length=8)
    values = expected.column("value").to_pylist()
    assert shown and {offset: values[offset] for offset in shown} == shown


def test_a_python_sources_progress_is_described_from_its_offset_with_only_the_shaping_that_differs() -> None:
    options = parse_options(
        {
            "rowsPerSecond": "7",
            "minLength": "2",
            "maxLength": "6",
            "alphabet": "xy\U0001f600",
            "distinctValues": "3",
            "duplicateFraction": "0.25",
        }
    )
    stream = StreamDefinition(
        seed=-5,
        start_time_ms=1000,
        rows_per_second=options.rows_per_second,
        strings=options.strings,
        shape=options.shape,
    )
    # An offset as the Python source writes it, and Spark reports it: its JSON text.
    offset = json.dumps({"offset": 14, "stream": definition_to_json(stream)})
    progress = {
        "sources": [
            {
                "description": "org.apache.spark.sql.execution.datasources.v2.python.Stream@1",
                "endOffset": offset,
            }
        ]
    }
    assert source_description(progress) == (
        "InMemoryRandomStringsPython[rowsPerSecond=7, minLength=2, maxLength=6, alphabet=xy\U0001f600, "
        "seed=-5, distinctValues=3, duplicateFraction=0.25]"
    )
    # The jar's source describes itself; its offset is a number.
    jar = {"sources": [{"description": "InMemoryRandomStrings[rowsPerSecond=7, ...]", "endOffset": "13"}]}
    assert source_description(jar) == "InMemoryRandomStrings[rowsPerSecond=7, ...]"


def test_the_demos_duration_counts_from_its_first_rows_if_they_come_within_the_patience() -> None:
    from spark_random_strings.cli.stream import FIRST_ROWS_PATIENCE_S, _duration_passed

    # 30 s after the query started, no rows yet: it waits, up to the patience past the duration.
    assert not _duration_passed(100.0, 30.0, 8.0, lambda: None)
    assert _duration_passed(100.0, 8.0 + FIRST_ROWS_PATIENCE_S, 8.0, lambda: None)
    # The first rows came 5 s ago: 3 s to go; 8 s ago: done.
    assert not _duration_passed(100.0, 30.0, 8.0, lambda: 95.0)
    assert _duration_passed(100.0, 30.0, 8.0, lambda: 92.0)
    # Counted from the start, as the stream command counts it.
    assert not _duration_passed(100.0, 7.9, 8.0, None)
    assert _duration_passed(100.0, 8.0, 8.0, None)
