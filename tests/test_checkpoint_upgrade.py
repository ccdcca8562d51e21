"""A checkpoint written on an older Spark line restarts on this one and continues exactly-once.

The older line's write (``spark-random-strings write`` in a virtual environment that
SPARK_RANDOM_STRINGS_OTHER_LINES names, with that line's pyspark and jar; a test for each of the
interpreters it lists, separated by colons) is killed with SIGKILL
while a batch is planned but not yet committed. This test run's Spark then restarts the same
checkpoint: it replays the planned batch from the older line's offset log and goes on to the
end. ``make test-compat`` runs this for every older line it tests, against the default line, in
the pytest run of its every_jar tests (marker ``other_lines``).
"""

from __future__ import annotations

from pathlib import Path

import pyspark
import pytest
from pyspark.sql import SparkSession

from helpers.checkpointed_writes import (
    ROWS_PER_TRIGGER,
    TOTAL_ROWS,
    assert_exactly_once_as_uninterrupted,
    committed_batches,
    finish,
    kill_when,
    log_entries,
    stored_definition,
    write_command,
)
from helpers.spark_lines import line_of
from helpers.support import OTHER_LINE_PYTHONS, pyspark_of
from spark_random_strings import installed_spark

SEED = 23

pytestmark = [
    pytest.mark.other_lines,
    pytest.mark.skipif(
        not OTHER_LINE_PYTHONS,
        reason="SPARK_RANDOM_STRINGS_OTHER_LINES names no older line's Python; make test-compat sets it",
    ),
]


def in_flight(output: Path) -> bool:
    """A batch is planned (in the offset log) and not committed, past the first two batches."""
    planned = log_entries(output, "offsets")
    return planned >= 3 and planned > committed_batches(output)


@pytest.mark.slow
@pytest.mark.parametrize("older_python", OTHER_LINE_PYTHONS, ids=lambda python: Path(python).parents[1].name)
def test_a_checkpoint_killed_mid_batch_on_an_older_spark_line_finishes_exactly_once_on_this_one(
    spark: SparkSession, tmp_path: Path, older_python: str
) -> None:
    older = pyspark_of(older_python)
    assert line_of(older) != line_of(pyspark.__version__), "the lines must differ"
    print(
        f"checkpoint written by pyspark {older}, finished by pyspark {pyspark.__version__} "
        f"({installed_spark()})"
    )

    output = tmp_path / "strings"
    command = write_command(output, SEED, python=older_python)
    # A kill can land just after the commit it raced with; try again until a batch is left
    # planned and uncommitted, the case a restart must replay.
    for attempt in range(5):
        kill_when(
            command, lambda: in_flight(output), "a batch in flight", 0.0, tmp_path / f"older-{attempt}.log"
        )
        if log_entries(output, "offsets") > committed_batches(output):
            break
    planned, committed = log_entries(output, "offsets"), committed_batches(output)
    print(f"the older line planned {planned} batches and committed {committed}")
    assert planned == committed + 1, "the kill left one batch planned and uncommitted"
    assert committed < TOTAL_ROWS // ROWS_PER_TRIGGER

    finish(output, SEED)
    assert stored_definition(output)["seed"] == SEED
    assert log_entries(output, "commits") == TOTAL_ROWS // ROWS_PER_TRIGGER
    assert_exactly_once_as_uninterrupted(spark, output, seed=SEED)
