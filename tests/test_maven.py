"""The jars as Maven artifacts: what `make publish-local` puts in its folder, and the two ways
Spark adds a package by its coordinates, `spark-submit --packages` and `spark.jars.packages`,
each with an empty Ivy home so that nothing comes from a cache."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ElementTree
import zipfile
from pathlib import Path

import pytest

from helpers.spark_lines import BUILDS, GROUP_ID, Build
from helpers.support import EXAMPLES, REPO, pyspark_bin, run_child
from spark_random_strings import installed_spark, jar_path

VERSION = (REPO / "VERSION").read_text().strip()


def maven_repository() -> Path:
    """The folder `make publish-local` publishes into, as the Makefile names it (for sbt too)."""
    done = subprocess.run(
        ["make", "--no-print-directory", "--silent", "maven-repo"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(done.stdout.strip())


MAVEN = maven_repository()
POM = "{http://maven.apache.org/POM/4.0.0}"


#: The builds of the Spark line that pyspark runs here; the build whose jar it loads.
HERE = installed_spark()
LINE_BUILDS = [b for b in BUILDS if b.line == HERE.spark_line]
BUILD = next(b for b in LINE_BUILDS if b.scala_binary == HERE.scala)


def artifact(build: Build, suffix: str) -> Path:
    """A file of a build's published artifact: ``.jar``, ``-sources.jar``, ``.pom``..."""
    path = (
        MAVEN
        / GROUP_ID.replace(".", "/")
        / build.artifact_id
        / VERSION
        / f"{build.artifact_id}-{VERSION}{suffix}"
    )
    assert path.is_file(), f"{path} is missing: `make publish-local` publishes every line there"
    return path


# Every line's artifacts, once (make test-compat publishes them all): sbt writes each the same way.
@pytest.mark.every_jar
@pytest.mark.parametrize("build", BUILDS, ids=lambda b: b.artifact_id)
def test_each_artifact_has_the_jar_its_sources_its_scaladoc_and_the_license(build: Build) -> None:
    assert artifact(build, ".jar").read_bytes() == jar_path(build.spark, build.scala_binary).read_bytes()
    license_text = (REPO / "LICENSE").read_bytes()
    with zipfile.ZipFile(artifact(build, "-sources.jar")) as sources:
        assert "io/github/sparkrandomstrings/strings/RandomStringsSource.scala" in sources.namelist()
        assert sources.read("META-INF/LICENSE") == license_text
    with zipfile.ZipFile(artifact(build, "-javadoc.jar")) as scaladoc:
        assert "index.html" in scaladoc.namelist()
        assert any(
            n.startswith("io/github/sparkrandomstrings/RandomStringsSourceProvider")
            for n in scaladoc.namelist()
        )
        assert scaladoc.read("META-INF/LICENSE") == license_text
    for suffix in (".jar", "-sources.jar", "-javadoc.jar", ".pom"):
        assert artifact(build, suffix + ".sha1").is_file()


@pytest.mark.every_jar
@pytest.mark.parametrize("build", BUILDS, ids=lambda b: b.artifact_id)
def test_each_pom_names_the_artifact_its_license_and_only_provided_spark_and_scala(build: Build) -> None:
    pom = ElementTree.parse(artifact(build, ".pom")).getroot()
    text = {tag: pom.findtext(f"{POM}{tag}") for tag in ("groupId", "artifactId", "version", "packaging")}
    assert text == {
        "groupId": GROUP_ID,
        "artifactId": build.artifact_id,
        "version": VERSION,
        "packaging": "jar",
    }
    assert f"Spark {build.line} on Scala {build.scala_binary}" in (pom.findtext(f"{POM}description") or "")
    assert pom.findtext(f"{POM}licenses/{POM}license/{POM}name") == "Apache-2.0"
    dependencies = [
        tuple(d.findtext(f"{POM}{tag}") for tag in ("groupId", "artifactId", "version", "scope"))
        for d in pom.iterfind(f"{POM}dependencies/{POM}dependency")
    ]
    # Spark supplies both at run time: Ivy has nothing to fetch but this artifact's jar.
    assert dependencies == [
        ("org.scala-lang", "scala-library", build.scala, "provided"),
        ("org.apache.spark", f"spark-sql_{build.scala_binary}", build.spark, "provided"),
    ]


def program_output(stdout: str) -> list[str]:
    """What the program printed: standard output without the line with which Spark 3.5's Ivy
    announces its settings there (``:: loading settings :: url = ...``; Spark 4 sends it to
    standard error)."""
    lines = stdout.splitlines()
    ivy = [line for line in lines if line.startswith(":: loading settings :: url = ")]
    assert len(ivy) <= 1, ivy
    return [line for line in lines if line not in ivy]


def fetched_jars(ivy: Path) -> list[str]:
    """The jars Spark resolved into an Ivy home and put on the class path."""
    return sorted(path.name for path in (ivy / "jars").iterdir())


# The ways in through Ivy, on every Spark line: each line's spark-submit resolves its own artifact.
@pytest.mark.slow
@pytest.mark.every_line
@pytest.mark.processes
def test_spark_submit_packages_fetches_only_our_jar_and_runs_the_python_example(
    expected_lines: list[str], tmp_path: Path
) -> None:
    ivy = tmp_path / "ivy"
    done = run_child(
        [
            str(pyspark_bin("spark-submit")),
            "--master",
            "local[2]",
            "--conf",
            "spark.ui.enabled=false",
            "--conf",
            f"spark.jars.ivy={ivy}",
            "--packages",
            BUILD.coordinates(VERSION),
            "--repositories",
            MAVEN.as_uri(),
            str(EXAMPLES / "random_strings.py"),
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert program_output(done.stdout) == expected_lines
    assert fetched_jars(ivy) == [f"{GROUP_ID}_{BUILD.jar_name(VERSION)}"]


# The same resolution through a session builder's spark.jars.packages: once, on the default line.
@pytest.mark.slow
@pytest.mark.processes
def test_spark_jars_packages_on_a_session_builder_runs_the_same_example(
    expected_lines: list[str], tmp_path: Path
) -> None:
    ivy = tmp_path / "ivy"
    example = EXAMPLES / "random_strings_from_packages.py"
    settings = f"--master local[2] --conf spark.ui.enabled=false --conf spark.jars.ivy={ivy} pyspark-shell"
    done = run_child(
        [sys.executable, str(example), BUILD.coordinates(VERSION), MAVEN.as_uri()],
        tmp_path,
        PYSPARK_SUBMIT_ARGS=settings,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert program_output(done.stdout) == expected_lines
    assert fetched_jars(ivy) == [f"{GROUP_ID}_{BUILD.jar_name(VERSION)}"]
