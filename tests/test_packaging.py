"""The bundled jars, the choice among them, and the helper that puts one on a session."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

import pyspark
import pytest
from pyspark.sql import SparkSession

import spark_random_strings
from helpers.spark_lines import BUILDS, pyspark_bounds, supported_lines_text
from spark_random_strings import (
    SparkBuild,
    UnsupportedSparkError,
    bundled_jars,
    configure_spark_with_random_strings,
    installed_spark,
    jar_path,
    read_random_strings,
)

VERSION = spark_random_strings.__version__
#: Every Spark line and Scala version the wheel carries a jar for.
SUPPORTED = [(build.line, build.scala_binary) for build in BUILDS]
JARS_FOLDER = Path(spark_random_strings.__file__).parent / "jars"

# The packaging and the ways in, on every Spark line; the same on every Java (Python's choice of
# the jar and its messages).


@pytest.mark.every_jar
def test_the_package_bundles_one_jar_per_spark_line_and_scala_version() -> None:
    jars = bundled_jars()
    assert list(jars) == [SparkBuild(line, scala) for line, scala in SUPPORTED]
    for (line, scala), path in zip(SUPPORTED, jars.values(), strict=False):
        assert path == JARS_FOLDER / f"spark-random-strings-spark{line}_{scala}-{VERSION}.jar"
        assert path.is_file()


@pytest.mark.every_jar
@pytest.mark.parametrize(("line", "scala"), SUPPORTED)
def test_each_jar_is_built_for_the_spark_and_scala_in_its_name_and_carries_the_license(
    line: str, scala: str
) -> None:
    with zipfile.ZipFile(jar_path(f"{line}.1", scala)) as jar:
        manifest = jar.read("META-INF/MANIFEST.MF").decode()
        classes = jar.read("io/github/sparkrandomstrings/strings/RandomStringsSource.class")
        license_text = jar.read("META-INF/LICENSE")
    assert f"Spark-Version: {line}." in manifest
    assert f"Scala-Version: {scala}" in manifest
    # Class file major version: 52 is Java 8 (Spark 3.5 still runs on it), 61 is Java 17.
    assert int.from_bytes(classes[6:8], "big") == (52 if line == "3.5" else 61)
    assert license_text == (Path(__file__).parents[1] / "LICENSE").read_bytes()


@pytest.mark.every_line
def test_jar_path_picks_the_jar_of_the_spark_that_pyspark_runs_here() -> None:
    line = ".".join(pyspark.__version__.split(".")[:2])
    scala = "2.12" if line == "3.5" else "2.13"  # the Scala of pyspark's own jars on PyPI
    assert installed_spark() == SparkBuild(line, scala)
    assert jar_path() == JARS_FOLDER / f"spark-random-strings-spark{line}_{scala}-{VERSION}.jar"


@pytest.mark.every_jar
def test_installed_spark_reads_spark_home_as_pyspark_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "jars").mkdir()
    (tmp_path / "jars" / "spark-core_2.13-3.5.4.jar").touch()
    monkeypatch.setenv("SPARK_HOME", str(tmp_path))
    assert installed_spark() == SparkBuild("3.5", "2.13")
    assert jar_path().name == f"spark-random-strings-spark3.5_2.13-{VERSION}.jar"
    assert jar_path(scala_version="2.12").name == f"spark-random-strings-spark3.5_2.12-{VERSION}.jar"


@pytest.mark.every_line
def test_without_spark_jars_installed_spark_is_pysparks_version_with_its_pypi_scala(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A Spark Connect client only (pyspark-client) has no jars folder: SPARK_HOME without one.
    monkeypatch.setenv("SPARK_HOME", str(tmp_path))
    monkeypatch.setattr(pyspark, "__version__", "3.5.1")
    assert installed_spark() == SparkBuild("3.5", "2.12")
    monkeypatch.setattr(pyspark, "__version__", "4.2.0.dev1")
    assert installed_spark() == SparkBuild("4.2", "2.13")


@pytest.mark.every_jar
def test_jar_path_for_an_unsupported_spark_names_it_and_lists_the_supported_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    oldest, past = pyspark_bounds()
    expected = (
        f"It supports {supported_lines_text()}. "
        f"Install a supported pyspark (pip install 'pyspark>={oldest},<{past}'), or pass"
    )
    with pytest.raises(UnsupportedSparkError) as given:
        jar_path("3.4.1", "2.12")
    assert str(given.value).startswith(
        "spark-random-strings has no jar for Spark 3.4 (Scala 2.12). " + expected
    )
    with pytest.raises(UnsupportedSparkError, match=r"no jar for Spark 4\.3 \(Scala 2\.12\)\. It supports"):
        jar_path("4.3.0", "2.12")

    (tmp_path / "jars").mkdir()
    (tmp_path / "jars" / "spark-core_2.12-3.3.2.jar").touch()
    monkeypatch.setenv("SPARK_HOME", str(tmp_path))
    with pytest.raises(UnsupportedSparkError) as installed:
        configure_spark_with_random_strings(SparkSession.builder)
    assert str(installed.value).startswith(
        "spark-random-strings has no jar for Spark 3.3 (Scala 2.12), the Spark that pyspark runs here. "
        + expected
    )


def test_jar_path_rejects_what_is_not_a_spark_version() -> None:
    with pytest.raises(
        ValueError, match=re.escape("'latest' is not a Spark version; expected one like '4.3.0' or '3.5'")
    ):
        jar_path("latest", "2.13")


@pytest.mark.every_jar
@pytest.mark.parametrize(("line", "scala"), SUPPORTED)
def test_each_jar_registers_every_short_name(line: str, scala: str) -> None:
    with zipfile.ZipFile(jar_path(line, scala)) as jar:
        services = jar.read("META-INF/services/org.apache.spark.sql.sources.DataSourceRegister").decode()
    assert services.split() == [
        "io.github.sparkrandomstrings.RandomStringsSourceProvider",
        "io.github.sparkrandomstrings.nexmark.NexmarkSourceProvider",
        "io.github.sparkrandomstrings.changes.ChangesSourceProvider",
    ]


@pytest.mark.every_line
def test_configure_appends_the_jar_and_extensions_and_keeps_what_is_set() -> None:
    builder = SparkSession.builder.config("spark.jars", "/opt/a.jar, /opt/b.jar").config(
        "spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension"
    )
    configured = configure_spark_with_random_strings(builder)
    assert configured is builder
    assert builder._options["spark.jars"] == f"/opt/a.jar,/opt/b.jar,{jar_path()}"
    assert builder._options["spark.sql.extensions"] == (
        "io.delta.sql.DeltaSparkSessionExtension,io.github.sparkrandomstrings.RandomStringsExtensions"
    )


def test_configure_twice_adds_the_jar_and_extensions_once() -> None:
    builder = configure_spark_with_random_strings(SparkSession.builder)
    configure_spark_with_random_strings(builder)
    assert builder._options["spark.jars"] == str(jar_path())
    assert builder._options["spark.sql.extensions"] == "io.github.sparkrandomstrings.RandomStringsExtensions"


def test_configure_rejects_what_is_not_a_builder() -> None:
    not_a_builder: Any = "local[2]"
    with pytest.raises(TypeError, match=r"expects a SparkSession\.Builder .* got str"):
        configure_spark_with_random_strings(not_a_builder)


@pytest.mark.every_line
def test_the_running_session_has_the_jar_on_spark_jars(spark: SparkSession) -> None:
    assert str(jar_path()) in (spark.conf.get("spark.jars") or "").split(",")


@pytest.mark.every_line
def test_a_configured_session_plans_the_sources_scan_through_its_extensions(
    spark: SparkSession, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    df = read_random_strings(spark, seed=5, total_rows=30, max_rows_per_trigger=10)
    # load() added nothing to the session: the extensions had put the strategy in place.
    assert spark._jsparkSession.experimental().extraStrategies().isEmpty()
    query = (
        df.writeStream.format("memory")
        .queryName("planned_by_extensions")
        .trigger(availableNow=True)
        .option("checkpointLocation", str(tmp_path / "checkpoint"))
        .start()
    )
    query.awaitTermination(120)
    assert query.exception() is None
    assert [p["numInputRows"] for p in query.recentProgress] == [10, 10, 10]
    capsys.readouterr()
    query.explain()
    plan = capsys.readouterr().out
    assert "Scan InMemoryRandomStrings[value#" in plan, plan
    assert "ExistingRDD" not in plan, plan


@pytest.mark.slow
@pytest.mark.every_line
@pytest.mark.processes
def test_a_session_without_the_jar_gets_an_error_that_says_how_to_add_it_and_auto_reads_python() -> None:
    import sys

    from helpers.support import run_child

    script = (
        "import warnings\n"
        "from pyspark.sql import SparkSession\n"
        "from spark_random_strings import SourceNotFoundError, read_random_strings\n"
        "spark = SparkSession.builder.master('local[1]').getOrCreate()\n"
        "try:\n"
        "    read_random_strings(spark, engine='jvm')\n"
        "except SourceNotFoundError as error:\n"
        "    print(error)\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    try:\n"
        "        df = read_random_strings(spark, seed=1)\n"
        "        print(df.isStreaming, [each.category.__name__ for each in caught])\n"
        "    except SourceNotFoundError:\n"
        "        print('auto: SourceNotFoundError')\n"
    )
    done = run_child([sys.executable, "-c", script])
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines() == [
        "This Spark session has no InMemoryRandomStrings source: its jar is not on the class "
        "path. Build the session with configure_spark_with_random_strings(SparkSession.builder...), "
        f"run spark-submit with --jars {jar_path()}, or, for Spark Connect, start the server "
        "with that --jars; or read the Python data source (engine='python').",
        # Spark 3.5 has no Python streaming sources to fall back on.
        "True ['SlowerEngineWarning']" if int(pyspark.__version__[0]) >= 4 else "auto: SourceNotFoundError",
    ]
