"""The Delta Lake recipes of docs/change-streams.md: a change stream applied in ``foreachBatch`` with
``MERGE`` to a real Delta table, which after every batch is exactly ``expected_table``, and to its
history (SCD type 2), exactly ``expected_history``. Delta Lake is the tests' (Maven coordinates in
the example, fetched by Spark at the session's start), never the package's; its releases run on
Spark 3.5 to 4.2, and the test runs (``make test-compat``) on the oldest and the newest of those
lines, which take Delta's two releases (``TESTED_LINES``): from the default line's run, in each of
those lines' environments (``OTHER_LINE_PYTHONS``), as the default line has no Delta release yet.
What it checks is the guide's code with Delta's, not a row of a line's jar (the digests prove
those), so no line's own run waits for it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from helpers.spark_lines import line_of
from helpers.support import OTHER_LINE_PYTHONS, example_module, pyspark_of, recipe_of_example, run_child
from spark_random_strings import expected_history, expected_table

CHILD = Path(__file__).parent / "helpers" / "delta_recipes_child.py"


EXAMPLE = example_module("changes_merge_into_delta")


def _version(line: str) -> tuple[int, ...]:
    return tuple(int(part) for part in line.split("."))


#: The lines the Delta recipe runs on: the oldest and the newest with a Delta release, 3.5 with
#: Delta 3.3.3 and 4.2 with 4.4.0 (4.0 and 4.1 take 4.4.0's builds for them). Each run costs about
#: 80 s of CPU on top of a line's end-to-end tests, which CI's budget has no room for on every line.
TESTED_LINES = (min(EXAMPLE.DELTA_PACKAGES, key=_version), max(EXAMPLE.DELTA_PACKAGES, key=_version))


def _cells(table: pa.Table) -> list[list[Any]]:
    """Each row's cells as the child prints them: a decimal as its text, a timestamp as epoch µs."""
    columns = []
    for field, column in zip(table.schema, table.columns, strict=True):
        if pa.types.is_decimal(field.type):
            columns.append([None if v is None else str(v) for v in column.to_pylist()])
        elif pa.types.is_timestamp(field.type):
            columns.append(column.cast(pa.int64()).to_pylist())
        else:
            columns.append(column.to_pylist())
    return [list(row) for row in zip(*columns, strict=True)]


def delta_pythons() -> list[Any]:
    """The other lines' Pythons whose line is one of TESTED_LINES, each with its line as its id."""
    lines = {python: line_of(pyspark_of(python)) for python in OTHER_LINE_PYTHONS}
    return [pytest.param(python, id=line) for python, line in lines.items() if line in TESTED_LINES]


# Delta's merge of the feed, in the environments of the lines with Delta's two releases.
@pytest.mark.slow
@pytest.mark.other_lines
@pytest.mark.processes
@pytest.mark.parametrize("python", delta_pythons())
def test_a_feed_merged_into_delta_is_expected_table_and_its_scd2_history_expected_history_after_each_batch(
    tmp_path: Path, python: str
) -> None:
    done = run_child([python, str(CHILD), str(tmp_path)], tmp_path, python=python)
    assert done.returncode == 0, done.stderr[-4000:]
    batches = json.loads(done.stdout.strip().splitlines()[-1])["batches"]
    stream = {k: v for k, v in EXAMPLE.STREAM.items() if k not in ("total_rows", "max_rows_per_trigger")}
    # 600 changes, at most 200 a batch: three batches, each applied whole.
    assert [batch["end"] for batch in batches] == [200, 400, 600]
    for batch in batches:
        end = batch["end"]
        table = expected_table(end=end, schema=EXAMPLE.SCHEMA, fields=EXAMPLE.FIELDS, **stream)
        history = expected_history(end=end, schema=EXAMPLE.SCHEMA, fields=EXAMPLE.FIELDS, **stream)
        assert batch["table"] == _cells(table), f"the table after {end} changes"
        assert batch["history"] == _cells(history), f"the history after {end} changes"
    # Keys were deleted, born again and updated in the same batch: the recipes had work to do.
    assert 0 < len(batches[-1]["table"]) < EXAMPLE.STREAM["keys"]
    assert len(batches[-1]["history"]) > 600 // 2


def test_the_guides_recipe_code_is_the_examples_own_and_its_table_names_the_examples_delta_releases() -> None:
    recipe = recipe_of_example(
        "change-streams.md", "## Recipe: the feed into Delta Lake", "changes_merge_into_delta.py", 2
    )
    rows = re.findall(r"^\| (\d\.\d) \| [^|]+ \| `([^`]+)` \|$", recipe, re.M)
    assert dict(rows) == EXAMPLE.DELTA_PACKAGES
    assert f"runs in `make test-compat` on Spark {TESTED_LINES[0]} and {TESTED_LINES[1]}" in recipe
