"""The options of the Spark JVMs the tests start: the C1 compiler only, and a class archive.

The end-to-end tests start many Spark JVMs (each xdist worker's session, every child's driver,
spark-shell, the Connect servers), most of which live for seconds. On a 2-core machine the suite
is CPU-bound, and such a JVM spends most of its CPU time in the optimising JIT compiler (C2),
on code that never gets hot, and in loading Spark's classes. Two standard JVM options cut both.
They reach every JVM that spark-submit starts through SPARK_SUBMIT_OPTS, which Spark's launcher
adds to its command line, and standalone masters and workers through SPARK_DAEMON_JAVA_OPTS:

- ``-XX:TieredStopAtLevel=1``: compile with C1 only (about 30% less CPU time a child).
- a dynamic CDS archive (JDK 13 and later; about 40% less CPU time a child again): the classes
  a short query of this source loads, dumped once by ``-XX:ArchiveClassesAtExit`` (by ``make
  test`` before pytest starts, or else while the first tests run), and mapped by every later JVM
  with ``-XX:SharedArchiveFile``. A JVM that starts before the archive is there, or whose class
  path differs (another pyspark's, such as test_wheel's fresh environment), loads its classes as
  usual; ``-Xlog:cds=off`` keeps that quiet, so that no test sees a word of it.

Neither changes what a test checks: rows, offsets and messages do not depend on the JIT or on
where a class was loaded from. ``make bench`` and ``make soak`` run with the JVM's defaults.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from helpers.support import REPO, child_env, pyspark_bin
from spark_random_strings.engine.jar import jar_path

C1_ONLY = "-XX:TieredStopAtLevel=1"
#: Where the class archives are kept: pytest's cache folder (git-ignored).
ARCHIVES = REPO / ".pytest_cache" / "d" / "spark-jvm"
#: The query whose classes the archive holds.
ARCHIVED_QUERY = REPO / "tests" / "helpers" / "class_archive_query.py"


def java_command() -> str:
    """The java that pyspark starts: JAVA_HOME's, or the one on the path."""
    home = os.environ.get("JAVA_HOME")
    return os.path.join(home, "bin", "java") if home else "java"


def java_version_line() -> str:
    """The first line of ``java -version``, e.g. 'openjdk version "17.0.15" 2025-04-15'."""
    return subprocess.run([java_command(), "-version"], capture_output=True, text=True).stderr.splitlines()[0]


def java_feature(version_line: str) -> int:
    """The feature release of a ``java -version`` line: 8 for "1.8.0_402", 17 for "17.0.15"."""
    found = re.search(r'version "(\d+)(?:\.(\d+))?', version_line)
    if not found:
        raise ValueError(f"not a java -version line: {version_line!r}")
    major = int(found.group(1))
    return int(found.group(2) or 0) if major == 1 else major


def with_options(given: str, *options: str) -> str:
    """SPARK_SUBMIT_OPTS ``given`` with ``options`` appended, each once."""
    words = given.split()
    return " ".join([*words, *(option for option in options if option not in words)])


class ClassArchive:
    """The class archive of this Python's pyspark on this Java, kept in ``folder``.

    Made in the background the first time, by a run of ARCHIVED_QUERY, while the tests start:
    a JVM that starts before it is there finds no archive and loads its classes as usual, and
    later JVMs map it once it has been renamed into place."""

    def __init__(self, folder: Path, version_line: str) -> None:
        import pyspark

        key = hashlib.sha256(
            "\n".join(
                [version_line, sys.executable, pyspark.__version__, ARCHIVED_QUERY.read_text()]
            ).encode()
        ).hexdigest()[:16]
        self.folder = folder
        self.path = folder / f"spark-classes-{key}.jsa"
        self._making: threading.Thread | None = None
        self._process: subprocess.Popen[bytes] | None = None

    def options(self) -> list[str]:
        """The JVM options that map the archive, quietly whether it is there, matches or not."""
        return [f"-XX:SharedArchiveFile={self.path}", "-Xlog:cds=off", "-Xlog:cds+dynamic=off"]

    def make_in_background(self, base_opts: str) -> None:
        """Start making the archive if it is not there, with the JVM options ``base_opts``."""
        if self.path.is_file():
            self.path.touch()  # in use: not pruned
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        partial = self.folder / f"{self.path.name}.{os.getpid()}"
        work = self.folder / f"query-{os.getpid()}"
        process = subprocess.Popen(
            # With the line's jar on the driver's class path, as every child the tests start has
            # it: without it the query's write reads the Python source, which Spark 3.5 to 4.1
            # cannot write under AvailableNow, and its commit protocol is not there to record.
            [
                str(pyspark_bin("spark-submit")),
                *("--master", "local[2]", "--jars", str(jar_path())),
                str(ARCHIVED_QUERY),
                str(work),
            ],
            env=child_env(SPARK_SUBMIT_OPTS=with_options(base_opts, f"-XX:ArchiveClassesAtExit={partial}")),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )

        def finish() -> None:
            # spark-submit waits for its JVM, which writes the archive as it exits.
            _, err = process.communicate()
            shutil.rmtree(work, ignore_errors=True)
            if process.returncode == 0 and partial.is_file():
                partial.replace(self.path)
                self._prune()
            else:
                partial.unlink(missing_ok=True)
                print(f"no class archive for the tests' JVMs: {err.decode()[-1000:]}", file=sys.stderr)

        self._process = process
        self._making = threading.Thread(target=finish, name="class archive", daemon=True)
        self._making.start()

    def wait(self, timeout_s: float = 300) -> None:
        """Let a making of the archive end (or end it), so that no JVM outlives the tests."""
        if self._making is None:
            return
        self._making.join(timeout_s)
        if self._making.is_alive() and self._process is not None:
            os.killpg(self._process.pid, signal.SIGKILL)
            self._making.join(30)

    def _prune(self) -> None:
        """An archive is 100-200 MB: those of environments unused for a week go."""
        for old in self.folder.glob("spark-classes-*.jsa"):
            if time.time() - old.stat().st_mtime > 7 * 86400:
                old.unlink(missing_ok=True)


def jvm_environment() -> tuple[dict[str, str], ClassArchive | None]:
    """The environment variables for the tests' JVMs: SPARK_SUBMIT_OPTS (every JVM spark-submit
    starts) and SPARK_DAEMON_JAVA_OPTS (test_cluster's standalone master and workers), each what
    the caller's environment sets plus C1 only and, on JDK 13 and later, the class archive kept in
    ARCHIVES, made in the background if need be (``ClassArchive.wait`` lets it end)."""
    options = [C1_ONLY]
    archive = None
    version_line = java_version_line()
    if java_feature(version_line) >= 13:
        archive = ClassArchive(ARCHIVES, version_line)
        archive.make_in_background(with_options(os.environ.get("SPARK_SUBMIT_OPTS", ""), C1_ONLY))
        options += archive.options()
    names = ["SPARK_SUBMIT_OPTS", "SPARK_DAEMON_JAVA_OPTS"]
    return {name: with_options(os.environ.get(name, ""), *options) for name in names}, archive


def main() -> int:
    """Make the class archive now, if it is not there: ``make test`` runs this (``python -m
    helpers.jvm_options`` from tests/) before pytest, so that every JVM of the run maps the
    archive, the first tests' too, and none waits for it. A failure to make it is reported, and
    the tests then run without it."""
    _, archive = jvm_environment()
    if archive is not None:
        archive.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
