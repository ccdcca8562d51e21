"""Finds the jar bundled inside this package."""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

_JAR_PREFIX = "spark-random-strings_"


def jar_path() -> Path:
    """Return the path of the source's jar bundled in this package.

    The jar is package data, found with :mod:`importlib.resources`, so this works for a wheel
    install and an editable install alike.

    >>> jar_path().name  # doctest: +SKIP
    'spark-random-strings_2.13-0.1.0.jar'

    Raises:
        FileNotFoundError: the package holds no jar (a source checkout where ``make jar``
            has not run yet), or more than one.
    """
    folder = resources.files("spark_random_strings") / "jars"
    jars = sorted(
        (
            entry
            for entry in (folder.iterdir() if folder.is_dir() else [])
            if entry.name.startswith(_JAR_PREFIX) and entry.name.endswith(".jar")
        ),
        key=lambda entry: entry.name,
    )
    if len(jars) != 1:
        found = ", ".join(j.name for j in jars) or "none"
        raise FileNotFoundError(
            f"spark_random_strings expects exactly one bundled jar in {folder}, found: {found}. "
            "In a source checkout, run `make jar` to build it and copy it there."
        )
    return _on_disk(jars[0])


def _on_disk(entry: Traversable) -> Path:
    """The file behind a package resource; Spark and the JVM need real paths."""
    path = Path(str(entry))
    if not path.is_file():
        raise FileNotFoundError(
            f"The packaged file {entry} is not a file on disk (is the package zipped?); "
            "install spark-random-strings as a regular wheel."
        )
    return path
