"""The Python data source (``engine="python"``): the jar's stream without the jar.

On a classic session here, with the jar on it too, so that both engines read the same stream:
the Python source's rows are ``expected_rows`` of the definition its checkpoint holds, and the
jar source's rows for the same seed, relative to each stream's start time. Batches follow
``maxRowsPerTrigger``, ``Trigger.AvailableNow`` and ``totalRows`` as the jar's do; a seed left
out is kept in the offset log and survives a restart; a contradicting restart and every invalid
option of the shared table fail with the jar source's messages. Then through a Spark Connect
server that has neither the jar nor this package (its Python has numpy and pyarrow only), where
``engine="auto"`` falls back to the Python source with one warning.

Spark 4.0 and 4.1 give a Python reader no read limit, no start offset and no
``Trigger.AvailableNow`` (pyspark 4.2 added them): there the reader caps its batches itself,
learns the stored stream from the checkpoint's last offset, and under ``Trigger.AvailableNow``
reads the one batch Spark plans at the query's start, which the ``every_line`` tests pin down;
on 3.5, which has no Python streaming sources, ``engine="python"`` fails saying so.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from pyspark.errors import IllegalArgumentException, StreamingQueryException
from pyspark.sql import DataFrame, SparkSession

from helpers.stepped import SteppedClock, stepped_stream
from helpers.support import (
    EXAMPLES,
    REPO,
    connect_server,
    new_environment,
    pip_into,
    run_available_now,
    run_child,
)
from spark_random_strings import (
    PYTHON_FORMAT,
    UnsupportedSparkError,
    expected_rows,
    read_random_strings,
    stream_definition,
)
from spark_random_strings.engine.choice import pyspark_line

PYSPARK = pyspark_line()
needs_4 = pytest.mark.skipif(PYSPARK < (4, 0), reason="Python streaming data sources came with Spark 4.0")
needs_4_2 = pytest.mark.skipif(
    PYSPARK < (4, 2), reason="read limits, start offsets and AvailableNow for Python readers came with 4.2"
)
#: A stream with every kind of shaping, and characters outside the Basic Multilingual Plane.
SHAPED: dict[str, Any] = {
    "seed": 20261124,
    "rows_per_second": 1_000_000,
    "min_length": 1,
    "max_length": 9,
    "alphabet": "ab\U0001f600\u00e9",
    "distinct_values": 50,
    "value_distribution": "zipf",
    "zipf_exponent": 1.3,
    "max_out_of_order_ms": 40,
    "late_row_fraction": 0.1,
    "late_by_ms": 500,
    "duplicate_fraction": 0.2,
    "max_duplicate_distance": 30,
}
TABLE: dict[str, Any] = json.loads((REPO / "tests" / "vectors" / "invalid_inputs.json").read_text())
OPTION_CASES = [case for case in TABLE["cases"] if "checkpoint" not in case and "schema" not in case]


def read_all(df: DataFrame, checkpoint: Path, name: str) -> tuple[pa.Table, list[int]]:
    """Every row of a bounded stream, in offset order, and each batch's row count. Under
    Trigger.AvailableNow on 4.2+; on 4.0 and 4.1, whose Python readers cannot support it, by
    processing everything available."""
    writer = df.writeStream.format("memory").queryName(name).option("checkpointLocation", str(checkpoint))
    query = writer.trigger(availableNow=True).start() if PYSPARK >= (4, 2) else writer.start()
    try:
        if PYSPARK >= (4, 2):
            assert query.awaitTermination(120)
        else:
            query.processAllAvailable()
        assert query.exception() is None
        batches = [int(p["numInputRows"]) for p in query.recentProgress if int(p["numInputRows"])]
    finally:
        query.stop()
    table = df.sparkSession.table(name).orderBy("offset").toArrow()
    return table, batches


@pytest.mark.slow
@needs_4
def test_the_python_source_makes_the_jar_sources_rows_and_the_expected_rows_in_capped_batches(
    spark: SparkSession, tmp_path: Path
) -> None:
    options = {**SHAPED, "total_rows": 600, "max_rows_per_trigger": 150}
    table, batches = read_all(
        read_random_strings(spark, engine="python", **options), tmp_path / "python", "python_rows"
    )
    definition = stream_definition(tmp_path / "python")
    assert definition["seed"] == SHAPED["seed"]
    assert batches == [150, 150, 150, 150]
    assert table.cast(pa.schema([f.with_nullable(False) for f in table.schema])).equals(
        expected_rows(**definition, start=0, end=600)
    )

    jar_rows, _ = run_available_now(
        read_random_strings(spark, engine="jvm", **options), "jar_rows", tmp_path / "jvm"
    )
    # The same rows, with ts counted from each stream's start (what two streams of one seed share).
    start, jar_start = definition["start_time_ms"], stream_definition(tmp_path / "jvm")["start_time_ms"]
    assert [(r["value"], r["ts"] - start, r["offset"], r["length"]) for r in table.to_pylist()] == [
        (value, ts - jar_start, offset, length) for value, ts, offset, length in jar_rows
    ]


@pytest.mark.slow
@needs_4_2
def test_available_now_reads_a_bounded_stream_whole_in_batches_of_max_rows_per_trigger(
    spark: SparkSession, tmp_path: Path
) -> None:
    with SteppedClock(spark) as clock:
        df = stepped_stream(
            spark, clock, "python", seed=3, rows_per_second=1, total_rows=500, max_rows_per_trigger=150
        )
        # The clock never moves, so no row exists: AvailableNow reads a bounded stream whole anyway.
        table, batches = read_all(df, tmp_path / "checkpoint", "available_now")
    assert batches == [150, 150, 150, 50]
    assert table.column("offset").to_pylist() == list(range(500))


@needs_4
@pytest.mark.every_line
@pytest.mark.skipif(PYSPARK >= (4, 2), reason="on 4.2+ Python readers have Trigger.AvailableNow")
def test_on_spark_4_0_and_4_1_available_now_reads_one_batch_of_the_rows_that_exist_at_its_start(
    spark: SparkSession, tmp_path: Path
) -> None:
    # What the README says of these lines: Spark asks the reader for its latest offset once, as
    # the query starts, and reads up to it.
    # The memory sink continues no checkpoint on these lines; the noop sink does.
    def batches(clock: SteppedClock) -> list[int]:
        df = stepped_stream(
            spark, clock, "python", seed=5, rows_per_second=100, total_rows=500, max_rows_per_trigger=100
        )
        writer = df.writeStream.format("noop").option("checkpointLocation", str(tmp_path / "checkpoint"))
        query = writer.trigger(availableNow=True).start()
        try:
            assert query.awaitTermination(120)
            assert query.exception() is None
            return [int(p["numInputRows"]) for p in query.recentProgress]
        finally:
            query.stop()

    with SteppedClock(spark) as clock:
        # A stream's first start: no row exists yet by its clock.
        assert batches(clock) == [0]
        clock.advance(2000)
        # Restarted two seconds on, the stream has 200 rows: one batch, capped at 100.
        assert batches(clock) == [100]
    assert stream_definition(tmp_path / "checkpoint")["seed"] == 5


def run_into_parquet(spark: SparkSession, output: Path, **options: Any) -> None:
    """Run a bounded stream to its end into parquet files (a sink that continues a checkpoint
    on every line, unlike the memory sink on 4.0 and 4.1)."""
    writer = (
        read_random_strings(spark, engine="python", **options)
        .writeStream.format("parquet")
        .option("path", str(output))
        .option("checkpointLocation", str(output / "_checkpoint"))
    )
    if PYSPARK >= (4, 2):
        query = writer.trigger(availableNow=True).start()
        assert query.awaitTermination(120)
    else:
        query = writer.start()
        try:
            query.processAllAvailable()
        finally:
            query.stop()
    assert query.exception() is None


@pytest.mark.slow
@needs_4
@pytest.mark.every_line
def test_a_restart_without_the_seed_continues_the_drawn_stream_exactly_once(
    spark: SparkSession, tmp_path: Path
) -> None:
    output = tmp_path / "strings"
    run_into_parquet(spark, output, rows_per_second=100_000, total_rows=300, max_rows_per_trigger=100)
    first = stream_definition(output / "_checkpoint")
    run_into_parquet(spark, output, rows_per_second=100_000, total_rows=700, max_rows_per_trigger=100)
    assert stream_definition(output / "_checkpoint") == first
    written = spark.read.parquet(str(output)).orderBy("offset").toArrow()
    assert written.column("offset").to_pylist() == list(range(700))
    assert written.select(["value", "ts", "length"]).to_pylist() == (
        expected_rows(**first, start=0, end=700).select(["value", "ts", "length"]).to_pylist()
    )


@needs_4
@pytest.mark.every_line
def test_a_restart_that_contradicts_the_stored_stream_fails_naming_each_option(
    spark: SparkSession, tmp_path: Path
) -> None:
    output = tmp_path / "strings"
    run_into_parquet(spark, output, seed=7, total_rows=10, max_length=5)
    query = (
        read_random_strings(spark, engine="python", seed=8, total_rows=20, max_length=6)
        .writeStream.format("noop")
        .option("checkpointLocation", str(output / "_checkpoint"))
        .start()
    )
    try:
        with pytest.raises(StreamingQueryException) as raised:
            query.awaitTermination(60)
    finally:
        query.stop()
    message = str(raised.value)
    assert "contradict the stream stored in its checkpoint" in message
    assert "seed: the checkpoint has 7, the query sets 8" in message
    assert "maxLength: the checkpoint has 5, the query sets 6" in message


@needs_4
# The messages are Python's own, the same on every line; how pyspark raises them, the first case shows.
@pytest.mark.parametrize(
    "case",
    [pytest.param(c, marks=[pytest.mark.every_line] if i == 0 else []) for i, c in enumerate(OPTION_CASES)],
    ids=[case["name"] for case in OPTION_CASES],
)
def test_an_invalid_option_fails_at_load_with_the_jar_sources_message(
    spark: SparkSession, case: dict[str, Any]
) -> None:
    from spark_random_strings.strings.read import _python_stream

    with pytest.raises(IllegalArgumentException) as raised:
        _python_stream(spark, case["options"])
    for word in case["expect"]:
        assert word in str(raised.value)


@needs_4
def test_the_data_source_read_directly_refuses_a_bad_option_at_load_and_a_schema_it_cannot_make_at_start(
    spark: SparkSession, tmp_path: Path
) -> None:
    read_random_strings(spark, engine="python", seed=1)  # registers the data source
    with pytest.raises(Exception, match=r"Invalid value '0' for option 'rowsPerSecond'"):
        spark.readStream.format(PYTHON_FORMAT).option("ROWSPERSECOND", "0").load()
    # Spark asks a Python source nothing at load() when it is given a schema: the reader refuses
    # a declared schema it cannot make when the query starts.
    df = spark.readStream.format(PYTHON_FORMAT).schema("m MAP<STRING, INT>").load()
    query = df.writeStream.format("noop").option("checkpointLocation", str(tmp_path)).start()
    try:
        with pytest.raises(
            StreamingQueryException,
            match=r"Column 'm' has type MAP<STRING, INT>, which this source cannot generate",
        ):
            query.awaitTermination(60)
    finally:
        query.stop()


#: Reads the Python source in a session whose Python workers run PYSPARK_PYTHON (``engine.python_sources``).
WORKERS_WITHOUT_NUMPY = """
from pyspark.sql import SparkSession
from spark_random_strings import read_random_strings
spark = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").getOrCreate()
try:
    read_random_strings(spark, engine="python", seed=1, total_rows=10)
except Exception as error:
    print(error)
"""


@pytest.mark.slow
@needs_4
@pytest.mark.processes
def test_workers_whose_python_lacks_numpy_and_pyarrow_fail_at_load_naming_that_python(
    tmp_path: Path,
) -> None:
    # A Python with nothing installed, as a fresh system's.
    bare_python = str(new_environment(tmp_path / "bare"))
    worker_executable = subprocess.run(
        [bare_python, "-c", "import sys; print(sys.executable)"], capture_output=True, text=True, check=True
    ).stdout.strip()
    script = tmp_path / "read.py"
    script.write_text(WORKERS_WITHOUT_NUMPY)
    # The driver runs this interpreter (which has both); the workers run the bare one.
    result = run_child([sys.executable, str(script)], PYSPARK_PYTHON=bare_python)
    assert result.returncode == 0, result.stderr[-3000:]
    assert (
        f"The {PYTHON_FORMAT} source makes its rows with numpy and pyarrow in the Python that Spark "
        f"runs for Python data sources, {worker_executable} (Python "
    ) in result.stdout
    assert "which lacks numpy and pyarrow. Install numpy and pyarrow there, or start the session" in (
        result.stdout
    )
    assert "ModuleNotFoundError" not in result.stdout


@pytest.mark.every_line
@pytest.mark.skipif(PYSPARK >= (4, 0), reason="Spark 3.5 only")
def test_on_spark_3_5_the_python_engine_fails_saying_it_needs_spark_4(spark: SparkSession) -> None:
    with pytest.raises(UnsupportedSparkError, match=r"engine='python' needs Spark 4.0 or later"):
        read_random_strings(spark, engine="python")


# The tests on the server share one worker (xdist_group), so that it is made once.
@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A Python whose packages are numpy and pyarrow only, at this line's pinned versions."""
    python = new_environment(tmp_path_factory.mktemp("bare") / "venv")
    pins = REPO / "python" / "constraints-numpy2.txt"
    subprocess.run(pip_into(python, "-r", str(pins)), check=True, timeout=600)
    return str(python)


@pytest.fixture(scope="module")
def bare_server(bare_python: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Spark Connect server without the jar, whose Python workers run ``bare_python``, and
    whose default parallelism (3) is not the machine's cores."""
    log = tmp_path_factory.mktemp("connect") / "server.log"
    with connect_server([], log, python=bare_python, conf=["spark.default.parallelism=3"]) as url:
        yield url


def client_report(script: str, *args: str, cwd: Path) -> Any:
    """What a Spark Connect client ``script`` (run with ``args``) printed last, as JSON."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=300, cwd=cwd
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


CONNECT_CLIENT = """
import json, sys, tempfile, warnings
from pyspark.sql import SparkSession
from pyspark.sql.functions import spark_partition_id
from spark_random_strings import expected_rows, read_random_strings, stream_definition

spark = SparkSession.builder.remote(sys.argv[1]).getOrCreate()
options = json.loads(sys.argv[2])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    df = read_random_strings(spark, **options)
checkpoint = tempfile.mkdtemp()
query = (df.withColumn("partition", spark_partition_id()).writeStream.format("memory")
         .queryName("connect_rows").trigger(availableNow=True)
         .option("checkpointLocation", checkpoint).start())
query.awaitTermination()
written = spark.table("connect_rows")
partitions = sorted(row[0] for row in written.select("partition").distinct().collect())
rows = written.drop("partition").orderBy("offset").toArrow()
definition = stream_definition(checkpoint)
expected = expected_rows(**definition, start=0, end=rows.num_rows)
print(json.dumps({
    "warnings": [type(w.message).__name__ for w in caught],
    "batches": [p.numInputRows for p in query.recentProgress if p.numInputRows],
    "equal": rows.to_pylist() == expected.to_pylist(),
    "rows": rows.num_rows,
    "seed": definition["seed"],
    "partitions": partitions,
}))
"""


@pytest.mark.slow
@needs_4_2
@pytest.mark.xdist_group("bare_server")
@pytest.mark.processes
def test_through_a_connect_server_without_the_jar_or_the_package_auto_reads_the_python_source(
    bare_python: str, bare_server: str, tmp_path: Path
) -> None:
    has_package = subprocess.run([bare_python, "-c", "import spark_random_strings"], capture_output=True)
    assert has_package.returncode == 1, "the server's Python must not have the package"
    options = {**SHAPED, "total_rows": 400, "max_rows_per_trigger": 100}
    assert client_report(CONNECT_CLIENT, bare_server, json.dumps(options), cwd=tmp_path) == {
        "warnings": ["SlowerEngineWarning"],
        "batches": [100, 100, 100, 100],
        "equal": True,
        "rows": 400,
        "seed": SHAPED["seed"],
        # numPartitions left out: the server's default parallelism, as the jar's source takes.
        "partitions": [0, 1, 2],
    }


NEXMARK_CLIENT = """
import json, sys, tempfile, warnings
from pyspark.sql import SparkSession
from spark_random_strings import read_nexmark
from spark_random_strings.nexmark.config import NexmarkConfig
from spark_random_strings.nexmark.generator import nexmark_events

spark = SparkSession.builder.remote(sys.argv[1]).getOrCreate()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    df = read_nexmark(spark, num_events=500, max_events_per_trigger=200, out_of_order_group_size=10)
columns = ("event_type", "unix_millis(dateTime)", "bid.price", "unix_millis(auction.expires)", "person.name")
query = (df.selectExpr(*columns)
         .writeStream.format("memory").queryName("nexmark_rows").trigger(availableNow=True)
         .option("checkpointLocation", tempfile.mkdtemp()).start())
query.awaitTermination()
rows = sorted(tuple(row) for row in spark.table("nexmark_rows").collect())
twin = sorted(
    (e.event_type, e.date_time_ms, e.bid and e.bid["price"], e.auction and e.auction["expires"],
     e.person and e.person["name"])
    for e in nexmark_events(NexmarkConfig(out_of_order_group_size=10), 0, 500)
)
print(json.dumps({
    "warnings": [type(w.message).__name__ for w in caught],
    "batches": [p.numInputRows for p in query.recentProgress if p.numInputRows],
    "equal": rows == twin,
    "auctions": sum(row[0] == 1 for row in rows),
}))
"""


@pytest.mark.slow
@needs_4_2
@pytest.mark.xdist_group("bare_server")
@pytest.mark.processes
def test_through_a_connect_server_without_the_jar_or_the_package_read_nexmark_reads_the_python_source(
    bare_server: str, tmp_path: Path
) -> None:
    assert client_report(NEXMARK_CLIENT, bare_server, cwd=tmp_path) == {
        "warnings": ["SlowerEngineWarning"],
        "batches": [200, 200, 100],
        "equal": True,
        # 3 in 50 events are auctions: 30 of the 500.
        "auctions": 30,
    }


@pytest.mark.slow
@needs_4_2
@pytest.mark.xdist_group("bare_server")
@pytest.mark.processes
def test_the_example_without_a_jar_prints_the_seeded_rows_through_a_server_without_the_jar(
    bare_server: str, expected_lines: list[str], tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "connect_without_jar.py"), bare_server],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines() == expected_lines


def test_an_unknown_engine_is_refused_naming_the_allowed_ones(spark: SparkSession) -> None:
    with pytest.raises(ValueError, match=r"engine is 'rust'; allowed: 'auto', 'jvm' or 'python'"):
        read_random_strings(spark, engine="rust")  # type: ignore[arg-type]
