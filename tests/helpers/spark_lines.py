"""spark-lines.txt, the one list of the Spark lines this project builds and tests, as the tests
read it (sbt and the Makefile read the same file)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

LINES_FILE = Path(__file__).resolve().parents[2] / "spark-lines.txt"
#: The Maven group id of every line's artifact (sbt's ``organization``).
GROUP_ID = "io.github.sparkrandomstrings"


class Build(NamedTuple):
    """One row: an sbt project and the jar it builds."""

    build: str
    spark: str
    scala: str
    release: str
    pyspark: str | None
    jars: str
    javas: tuple[int, ...]
    hadoop: str

    @property
    def line(self) -> str:
        return line_of(self.spark)

    @property
    def scala_binary(self) -> str:
        return ".".join(self.scala.split(".")[:2])

    @property
    def artifact_id(self) -> str:
        """The Maven artifact: the jar's name without its version."""
        return f"spark-random-strings-spark{self.line}_{self.scala_binary}"

    def jar_name(self, version: str) -> str:
        return f"{self.artifact_id}-{version}.jar"

    def coordinates(self, version: str) -> str:
        """``group:artifact:version``, as ``--packages`` and ``spark.jars.packages`` take them."""
        return f"{GROUP_ID}:{self.artifact_id}:{version}"


def read_lines() -> tuple[str, list[Build]]:
    """The default line and every build row, in the file's order."""
    default = ""
    builds: list[Build] = []
    for text in LINES_FILE.read_text().splitlines():
        words = text.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "default":
            default = words[1]
            continue
        build, spark, scala, release, pyspark, jars, javas, hadoop = words
        builds.append(
            Build(
                build,
                spark,
                scala,
                release,
                None if pyspark == "-" else pyspark,
                jars,
                tuple(int(java) for java in javas.split(",")),
                hadoop,
            )
        )
    return default, builds


def line_of(version: str) -> str:
    """The Spark line of a release: ``4.2`` of ``4.2.0``."""
    return ".".join(version.split(".")[:2])


DEFAULT_LINE, BUILDS = read_lines()


def on_default_line() -> bool:
    """Whether the installed pyspark is the default line's, where ``make test`` runs every suite.

    A test of something that cannot differ by line (the drawing of definitions, the kills'
    timing) repeats it in full there, and a few times on the other lines, which check only
    what each line's jar and Spark do with it.
    """
    import pyspark

    return line_of(pyspark.__version__) == DEFAULT_LINE


def scalas_by_line(builds: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """(line, Scala version) pairs grouped by line, in their order: ``{"3.5": ["2.12", "2.13"]}``."""
    scalas: dict[str, list[str]] = {}
    for line, scala in builds:
        scalas.setdefault(line, []).append(scala)
    return scalas


def supported_lines_text() -> str:
    """The lines as the package's messages list them: ``Spark 3.5 (Scala 2.12, 2.13), ...``."""
    scalas = scalas_by_line((build.line, build.scala_binary) for build in BUILDS)
    return ", ".join(f"Spark {line} (Scala {', '.join(versions)})" for line, versions in scalas.items())


def pyspark_bounds() -> tuple[str, str]:
    """The oldest line, and the first line past the newest: ``("3.5", "4.4")``."""
    major, minor = BUILDS[-1].line.split(".")
    return BUILDS[0].line, f"{major}.{int(minor) + 1}"
