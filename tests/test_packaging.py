"""The bundled jar and the helper that puts it on a session."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pyspark.sql import SparkSession

import spark_random_strings
from spark_random_strings import configure_spark_with_random_strings, jar_path


def test_jar_path_is_the_one_jar_inside_the_package() -> None:
    path = jar_path()
    assert path.is_file()
    assert path.parent == __import__("pathlib").Path(spark_random_strings.__file__).parent / "jars"
    assert re.fullmatch(r"spark-random-strings_2\.13-\d+\.\d+\.\d+\.jar", path.name)


def test_the_jar_registers_the_short_name() -> None:
    import zipfile

    with zipfile.ZipFile(jar_path()) as jar:
        services = jar.read(
            "META-INF/services/org.apache.spark.sql.sources.DataSourceRegister"
        ).decode()
    assert services.strip() == "io.github.sparkrandomstrings.RandomStringsSourceProvider"


def test_configure_appends_the_jar_and_keeps_jars_already_set() -> None:
    builder = SparkSession.builder.config("spark.jars", "/opt/a.jar, /opt/b.jar")
    configured = configure_spark_with_random_strings(builder)
    assert configured is builder
    assert builder._options["spark.jars"] == f"/opt/a.jar,/opt/b.jar,{jar_path()}"


def test_configure_twice_adds_the_jar_once() -> None:
    builder = configure_spark_with_random_strings(SparkSession.builder)
    configure_spark_with_random_strings(builder)
    assert builder._options["spark.jars"] == str(jar_path())


def test_configure_rejects_what_is_not_a_builder() -> None:
    not_a_builder: Any = "local[2]"
    with pytest.raises(TypeError, match="expects a SparkSession.Builder .* got str"):
        configure_spark_with_random_strings(not_a_builder)


def test_the_running_session_has_the_jar_on_spark_jars(spark: SparkSession) -> None:
    assert str(jar_path()) in (spark.conf.get("spark.jars") or "").split(",")


def test_every_keyword_of_read_random_strings_maps_to_a_source_option() -> None:
    import inspect

    from spark_random_strings._reader import _OPTIONS, read_random_strings

    keywords = list(inspect.signature(read_random_strings).parameters)[1:]
    assert keywords == list(_OPTIONS)


def test_a_session_without_the_jar_gets_an_error_that_says_how_to_add_it() -> None:
    import sys

    from support import run_child

    script = (
        "from pyspark.sql import SparkSession\n"
        "from spark_random_strings import SourceNotFoundError, read_random_strings\n"
        "spark = SparkSession.builder.master('local[1]').getOrCreate()\n"
        "try:\n"
        "    read_random_strings(spark)\n"
        "except SourceNotFoundError as error:\n"
        "    print(error)\n"
    )
    done = run_child([sys.executable, "-c", script])
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == (
        "This Spark session has no InMemoryRandomStrings source: its jar is not on the class "
        "path. Build the session with configure_spark_with_random_strings(SparkSession.builder...), "
        f"run spark-submit with --jars {jar_path()}, or, for Spark Connect, start the server "
        "with that --jars."
    )
