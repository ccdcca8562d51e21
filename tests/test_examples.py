"""The examples in examples/ run as their headers say and print the same seeded rows."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pyspark
import pytest

from helpers.spark_lines import on_default_line
from helpers.support import EXAMPLES, pyspark_bin, run_child
from helpers.support import connect_server as start_connect_server
from spark_random_strings import installed_spark, jar_path

# The contract, the packaging and the ways in, on every Spark line and Java.
pytestmark = [pytest.mark.every_line, pytest.mark.processes, pytest.mark.xdist_group("connect_server")]


def _run(command: list[str], cwd: Path, typed: str | None = None) -> subprocess.CompletedProcess[str]:
    done = run_child(command, cwd, typed)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def _launch(
    launcher: str, *args: str, cwd: Path, typed: str | None = None
) -> subprocess.CompletedProcess[str]:
    """One of pyspark's launchers, local[2], no web UI, with the jar: nothing else."""
    return _run(
        [
            str(pyspark_bin(launcher)),
            "--master",
            "local[2]",
            "--conf",
            "spark.ui.enabled=false",
            "--jars",
            str(jar_path()),
            *args,
        ],
        cwd,
        typed,
    )


def test_spark_submit_runs_the_python_example_and_prints_the_seeded_rows(
    expected_lines: list[str], tmp_path: Path
) -> None:
    done = _launch("spark-submit", str(EXAMPLES / "random_strings.py"), cwd=tmp_path)
    assert done.stdout.splitlines() == expected_lines


#: The lines whose spark-shell reads the example its own way: 3.5's Scala 2.12 shell, 4.0's (which
#: ignores -I); 4.1 and later share one shell (Scala 2.13, -I), run on the default line, and each
#: spark-shell costs ~50 s of a line's end-to-end tests.
SHELL_LINES = ("3.5", "4.0")


@pytest.mark.slow
@pytest.mark.skipif(
    not on_default_line() and installed_spark().spark_line not in SHELL_LINES,
    reason="Spark 4.1 and later read the example with one spark-shell, run on the default line",
)
def test_spark_shell_runs_the_scala_example_and_prints_the_same_rows(
    expected_lines: list[str], tmp_path: Path
) -> None:
    example = EXAMPLES / "RandomStrings.scala"
    if installed_spark().spark_line == "4.0":
        # Spark 4.0's Scala 2.13 shell ignores -I (SPARK-52587, fixed in 4.1): load it at the prompt.
        done = _launch("spark-shell", cwd=tmp_path, typed=f":load {example}\n:quit\n")
    else:
        done = _launch("spark-shell", "-I", str(example), cwd=tmp_path)
    # The shell prints its banner and prompt around the rows.
    printed = [line for line in done.stdout.splitlines() if re.fullmatch(r"\d+ \S+ \d+", line)]
    assert printed == expected_lines
    assert "error" not in done.stdout.lower()


def connect_server_jars() -> list[str]:
    """The jars a Spark Connect server needs beside Spark's own: none where pyspark ships the
    server (from 4.0 on); on 3.5, Maven Central's spark-connect jar for the line, which
    ``make test-compat`` fetches and names in SPARK_RANDOM_STRINGS_CONNECT_JAR."""
    if any(pyspark_bin("spark-submit").parent.parent.glob("jars/spark-connect_*.jar")):
        return []
    given = os.environ.get("SPARK_RANDOM_STRINGS_CONNECT_JAR", "")
    assert Path(given).is_file(), (
        f"pyspark {pyspark.__version__} ships no Spark Connect server: set "
        "SPARK_RANDOM_STRINGS_CONNECT_JAR to Maven Central's spark-connect jar of its Spark and "
        f"Scala (make test-compat does), not {given!r}"
    )
    return [given]


@pytest.fixture(scope="module")
def connect_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Spark Connect server on 127.0.0.1 with the jar on its class path; always shut down."""
    with start_connect_server(
        [*connect_server_jars(), str(jar_path())], tmp_path_factory.mktemp("connect") / "server.log"
    ) as url:
        yield url


def test_the_connect_example_reads_the_seeded_rows_through_a_connect_server(
    connect_server: str, expected_lines: list[str], tmp_path: Path
) -> None:
    done = _run([sys.executable, str(EXAMPLES / "connect_random_strings.py"), connect_server], tmp_path)
    assert done.stdout.splitlines() == expected_lines


CONNECT_ERRORS = """
import sys, tempfile
from pyspark.errors import IllegalArgumentException, StreamingQueryException
from pyspark.sql import SparkSession
from spark_random_strings import configure_spark_with_random_strings, read_random_strings

spark = SparkSession.builder.remote(sys.argv[1]).getOrCreate()
assert type(spark).__module__ == "pyspark.sql.connect.session"
try:
    read_random_strings(spark, max_length=-1)
except IllegalArgumentException as error:
    print(str(error).splitlines()[0])

def run(seed, checkpoint):
    query = (read_random_strings(spark, seed=seed, total_rows=5).writeStream.format("noop")
             .trigger(availableNow=True).option("checkpointLocation", checkpoint).start())
    query.awaitTermination()

checkpoint = tempfile.mkdtemp()
run(7, checkpoint)
try:
    run(8, checkpoint)
except StreamingQueryException as error:
    print("seed: the checkpoint has 7, the query sets 8" in str(error))
try:
    configure_spark_with_random_strings(SparkSession.builder.remote(sys.argv[1]))
except ValueError as error:
    print(str(error).split(": start")[0])
spark.stop()
"""


def test_on_connect_a_bad_option_fails_at_load_a_contradicting_restart_at_start_and_jars_are_refused(
    connect_server: str, tmp_path: Path
) -> None:
    done = _run([sys.executable, "-c", CONNECT_ERRORS, connect_server], tmp_path)
    assert done.stdout.splitlines() == [
        "Invalid value '-1' for max_length: out of range. Allowed: a whole number from 0 to 1048576.",
        "True",
        f"This builder connects to the Spark Connect server {connect_server}, and a client "
        "cannot add jars to a server",
    ]
