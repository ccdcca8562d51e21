"""Finds the jar bundled inside this package that matches the Spark it will run on.

The wheel carries one jar per Spark line and Scala version, named
``spark-random-strings-spark<line>_<scala>-<version>.jar``. Spark loads classes compiled for its
own line and Scala only, so the choice must match the Spark that will run the query.
"""

from __future__ import annotations

import os
import re
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import NamedTuple

_JAR_NAME = re.compile(r"spark-random-strings-spark(\d+\.\d+)_(\d+\.\d+)-.+\.jar")
# Spark's own core jar names the Scala and Spark versions of a distribution.
_SPARK_CORE_JAR = re.compile(r"spark-core_(\d+\.\d+)-(\d+\.\d+)\.\d+.*\.jar")
_VERSION = re.compile(r"(\d+)\.(\d+)(?:\.|$)")


class UnsupportedSparkError(RuntimeError):
    """No bundled jar was built for the Spark line and Scala version asked for."""


class SparkBuild(NamedTuple):
    """A Spark line (``"4.3"``) and the Scala binary version (``"2.13"``) it is built with."""

    spark_line: str
    scala: str

    def __str__(self) -> str:
        return f"Spark {self.spark_line} (Scala {self.scala})"


def jar_path(spark_version: str | None = None, scala_version: str | None = None) -> Path:
    """Return the path of the bundled jar built for a Spark version and Scala version.

    By default both are those of the Spark that pyspark runs here (see
    [`installed_spark`][spark_random_strings.installed_spark]), so ``spark.jars``, ``--jars`` and
    Spark Connect servers get a jar their Spark can load. Pass them to pick the jar for another
    Spark, a cluster's say: ``jar_path("3.5.2", "2.12")``. Only the line (major.minor) of
    ``spark_version`` matters.

    The jars are package data, found with ``importlib.resources``, so this works for a wheel
    install and an editable install alike.

    Examples:
        >>> jar_path("4.3.0", "2.13").name  # doctest: +ELLIPSIS
        'spark-random-strings-spark4.3_2.13-....jar'

    Raises:
        UnsupportedSparkError: no bundled jar is built for that Spark line and Scala version;
            the message lists the ones that are.
        FileNotFoundError: the package holds no jar at all (a source checkout where
            ``make jar`` has not run yet).
    """
    if spark_version is not None and scala_version is not None:
        wanted, whose = SparkBuild(_line_of(spark_version), scala_version), "."
    else:
        installed = installed_spark()
        wanted = SparkBuild(
            _line_of(spark_version) if spark_version is not None else installed.spark_line,
            scala_version if scala_version is not None else installed.scala,
        )
        whose = ", the Spark that pyspark runs here." if wanted == installed else "."
    jars = bundled_jars()
    if wanted in jars:
        return jars[wanted]
    raise UnsupportedSparkError(
        f"spark-random-strings has no jar for {wanted}{whose} It supports {_describe(jars)}. "
        f"Install a supported pyspark (pip install '{_pyspark_range(jars)}'), or pass the Spark "
        "and Scala versions of the Spark you run to jar_path()."
    )


def bundled_jars() -> dict[SparkBuild, Path]:
    """Every jar bundled in this package, by the Spark line and Scala version it is built for.

    Raises:
        FileNotFoundError: the package holds no jar (a source checkout where ``make jar`` has
            not run yet).
    """
    folder = resources.files("spark_random_strings") / "jars"
    found: dict[SparkBuild, Path] = {}
    for entry in folder.iterdir() if folder.is_dir() else []:
        match = _JAR_NAME.fullmatch(entry.name)
        if match:
            found[SparkBuild(match.group(1), match.group(2))] = _on_disk(entry)
    if not found:
        raise FileNotFoundError(
            f"spark_random_strings holds no bundled jar in {folder}. "
            "In a source checkout, run `make jar` to build the jars and copy them there."
        )
    return dict(sorted(found.items(), key=lambda item: _sort_key(item[0])))


def installed_spark() -> SparkBuild:
    """The Spark line and Scala version of the Spark that pyspark runs here.

    They are read from the name of Spark's core jar (``spark-core_2.13-4.3.0.jar``) in the jars
    folder of ``SPARK_HOME`` if it is set, as pyspark itself does, else of the pyspark package.
    A pyspark without jars (a Spark Connect client only) gives its own version and the Scala of
    the pyspark distribution of that line on PyPI: 2.12 for Spark 3, 2.13 from Spark 4 on.
    """
    import pyspark

    home = os.environ.get("SPARK_HOME") or os.path.dirname(pyspark.__file__)
    jars = Path(home) / "jars"
    for name in sorted(os.listdir(jars)) if jars.is_dir() else []:
        match = _SPARK_CORE_JAR.fullmatch(name)
        if match:
            return SparkBuild(match.group(2), match.group(1))
    line = _line_of(pyspark.__version__)
    return SparkBuild(line, "2.12" if line.startswith("3.") else "2.13")


def _line_of(version: str) -> str:
    """The Spark line of a version: ``"3.5.2"`` -> ``"3.5"``."""
    match = _VERSION.match(version.strip())
    if not match:
        raise ValueError(f"{version!r} is not a Spark version; expected one like '4.3.0' or '3.5'.")
    return f"{match.group(1)}.{match.group(2)}"


def _sort_key(build: SparkBuild) -> tuple[int, ...]:
    return tuple(int(part) for part in (*build.spark_line.split("."), *build.scala.split(".")))


def _pyspark_range(jars: dict[SparkBuild, Path]) -> str:
    """The pyspark releases the jars serve: ``pyspark>=3.5,<4.4`` for the lines 3.5 to 4.3."""
    lines = [build.spark_line for build in jars]
    major, minor = lines[-1].split(".")
    return f"pyspark>={lines[0]},<{major}.{int(minor) + 1}"


def _describe(jars: dict[SparkBuild, Path]) -> str:
    """``Spark 3.5 (Scala 2.12, 2.13), Spark 4.0 (Scala 2.13)``: the lines, oldest first."""
    scalas: dict[str, list[str]] = {}
    for build in jars:
        scalas.setdefault(build.spark_line, []).append(build.scala)
    return ", ".join(f"Spark {line} (Scala {', '.join(versions)})" for line, versions in scalas.items())


def _on_disk(entry: Traversable) -> Path:
    """The file behind a package resource; Spark and the JVM need real paths."""
    path = Path(str(entry))
    if not path.is_file():
        raise FileNotFoundError(
            f"The packaged file {entry} is not a file on disk (is the package zipped?); "
            "install spark-random-strings as a regular wheel."
        )
    return path
