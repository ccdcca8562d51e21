"""The examples in examples/ run as their headers say, with nothing but Spark and the jar."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import List

import pytest
from pyspark.sql import SparkSession

from spark_random_strings import jar_path, read_random_strings
from support import REPO, child_env, pyspark_bin, run_available_now

EXAMPLES = REPO / "examples"


@pytest.fixture(scope="module")
def expected_lines(spark: SparkSession, tmp_path_factory: pytest.TempPathFactory) -> List[str]:
    """The examples' stream (seed 42, ten rows of 4-8 letters), read in this process."""
    df = read_random_strings(
        spark, seed=42, total_rows=10, min_length=4, max_length=8, charset="letters"
    )
    rows, _ = run_available_now(df, "examples_expected", tmp_path_factory.mktemp("checkpoint"))
    assert len(rows) == 10
    return [f"{offset} {value} {length}" for value, _, offset, length in rows]


def _run(command: List[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        command,
        cwd=cwd,
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_spark_submit_runs_the_python_example_and_prints_the_seeded_rows(
    expected_lines: List[str], tmp_path: Path
) -> None:
    done = _run(
        [
            str(pyspark_bin("spark-submit")),
            "--master", "local[2]",
            "--conf", "spark.ui.enabled=false",
            "--jars", str(jar_path()),
            str(EXAMPLES / "random_strings.py"),
        ],
        cwd=tmp_path,
    )
    assert done.stdout.splitlines() == expected_lines


def test_spark_shell_runs_the_scala_example_and_prints_the_same_rows(
    expected_lines: List[str], tmp_path: Path
) -> None:
    done = _run(
        [
            str(pyspark_bin("spark-shell")),
            "--master", "local[2]",
            "--conf", "spark.ui.enabled=false",
            "--jars", str(jar_path()),
            "-I", str(EXAMPLES / "RandomStrings.scala"),
        ],
        cwd=tmp_path,
    )
    # The shell prints its banner and prompt around the rows.
    printed = [line for line in done.stdout.splitlines() if re.fullmatch(r"\d+ \S+ \d+", line)]
    assert printed == expected_lines
    assert "error" not in done.stdout.lower()
