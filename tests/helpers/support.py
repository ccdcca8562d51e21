"""What several test modules share: running a bounded stream, and starting child processes."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Unpack

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.streaming.listener import StreamingQueryProgress
from pyspark.sql.streaming.query import StreamingQuery

from spark_random_strings import StreamDefinitionKeywords, expected_rows

#: The repository's root folder, and its examples.
REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"

#: The command-line tool, run by this interpreter.
CLI = [sys.executable, "-m", "spark_random_strings"]
#: The Pythons of the other lines' environments (``.venvs/spark-<line>/bin/python``), which
#: SPARK_RANDOM_STRINGS_OTHER_LINES names, separated by colons: ``make test-compat`` sets it for
#: the default line's tests marked ``other_lines``, which run something in each of them.
OTHER_LINE_PYTHONS = [
    p for p in os.environ.get("SPARK_RANDOM_STRINGS_OTHER_LINES", "").split(os.pathsep) if p
]


def pyspark_of(python: str) -> str:
    """The pyspark release (``4.2.0``) an interpreter runs."""
    return subprocess.run(
        [python, "-c", "import pyspark; print(pyspark.__version__)"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


#: The ``in_process`` fixture (conftest.py): the command's main function run in the test's process.
RunInProcess = Callable[..., subprocess.CompletedProcess[str]]


class StartedSpark(BaseException):
    """What a command run by ``in_process`` raises where it would start Spark or run a query:
    a BaseException, which main's ``except Exception`` cannot turn into an exit status."""


Row4 = tuple[str, int, int, int]


def example_module(name: str) -> ModuleType:
    """``examples/<name>.py`` loaded as a module, so that a test runs the example's own functions."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def recipe_of_example(guide: str, heading: str, example: str, blocks: int) -> str:
    """The section of ``docs/<guide>`` under the heading that starts with ``heading``, once each of its
    ``blocks`` Python code blocks is checked to be ``examples/<example>``'s own code (indented as in a
    function's body): the guide quotes the code the tests run."""
    text = (REPO / "docs" / guide).read_text()
    section = text[text.index(heading) :]
    section = section[: section.index("\n## ", 1)]
    source = (EXAMPLES / example).read_text()
    quoted = re.findall(r"^```python\n(.*?)^```$", section, re.S | re.M)
    assert len(quoted) == blocks, f"{guide}, {heading}: {len(quoted)} Python blocks"
    for block in quoted:
        assert textwrap.indent(block, "    ") in source, block
    return section


def available_now(df: DataFrame, name: str, checkpoint: Path) -> StreamingQuery:
    """Run df to completion under Trigger.AvailableNow into the memory sink (table) ``name``;
    the query, ended without an error."""
    query = (
        df.writeStream.format("memory")
        .queryName(name)
        .trigger(availableNow=True)
        .option("checkpointLocation", str(checkpoint))
        .start()
    )
    query.awaitTermination(120)
    assert not query.isActive
    assert query.exception() is None
    return query


def run_available_now(
    df: DataFrame, name: str, checkpoint: Path
) -> tuple[list[Row4], list[StreamingQueryProgress]]:
    """Run df to completion under Trigger.AvailableNow into a memory sink: its rows, in offset
    order, and the query's progress."""
    query = available_now(df, name, checkpoint)
    rows = df.sparkSession.table(name).orderBy("offset").collect()
    return [(r[0], r[1], r[2], r[3]) for r in rows], query.recentProgress


def seeded_rows(total_rows: int, **definition: Unpack[StreamDefinitionKeywords]) -> dict[int, str]:
    """Offset -> value of the first ``total_rows`` rows of the stream that the seed and the
    shaping options define: what any run with the same seed and shaping options must hold,
    computed by ``expected_rows`` (a value depends on neither the start time nor the rate)."""
    table = expected_rows(start=0, end=total_rows, **definition)
    return dict(zip(table.column("offset").to_pylist(), table.column("value").to_pylist(), strict=True))


def rows_as_dict(df: DataFrame) -> dict[int, str]:
    """Offset -> value of written rows, asserting that no offset is there twice."""
    rows = df.select("offset", "value").collect()
    found = {row.offset: row.value for row in rows}
    assert len(found) == len(rows), "an offset is written twice"
    return found


def pyspark_bin(command: str) -> Path:
    """One of the launchers (spark-submit, spark-shell, spark-class) of the installed pyspark."""
    import pyspark

    return Path(pyspark.__file__).parent / "bin" / command


def new_environment(folder: Path) -> Path:
    """A new virtual environment in ``folder``, and its Python: without pip of its own (ensurepip
    costs seconds of a worker's time), since ``pip_into`` installs into it with this run's pip."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    return folder / "bin" / "python"


def pip_into(python: Path, *arguments: str) -> list[str]:
    """The command with which this run's pip installs ``arguments`` into ``python``'s environment,
    quietly. Without byte-compiling what it installs: that costs what the imports of it would
    compile anyway."""
    return [
        sys.executable,
        *("-m", "pip", "--python", str(python), "install"),
        *("-q", "--no-compile", "--disable-pip-version-check"),
        *arguments,
    ]


def child_env(python: str = sys.executable, **extra: str) -> dict[str, str]:
    """The environment for a child Spark process: ``python``'s pyspark (this interpreter's by
    default), loopback only.

    A SPARK_HOME or PYTHONPATH from the caller's shell is dropped, so the child finds exactly the
    pyspark and the Python it is given.
    """
    env = {k: v for k, v in os.environ.items() if k not in ("SPARK_HOME", "PYTHONPATH")}
    env["PATH"] = f"{Path(python).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYSPARK_PYTHON"] = python
    env["PYSPARK_DRIVER_PYTHON"] = python
    env["SPARK_LOCAL_IP"] = "127.0.0.1"
    env.update(extra)
    return env


def run_child(
    command: Sequence[str],
    cwd: Path | None = None,
    typed: str | None = None,
    python: str = sys.executable,
    **env: str,
) -> subprocess.CompletedProcess[str]:
    """Run a command to its end, as a user would from a shell, with ``python``'s pyspark (this
    interpreter's by default), and capture it; ``typed`` is what the user types into it (none by
    default)."""
    return subprocess.run(
        list(command),
        cwd=cwd,
        env=child_env(python, **env),
        capture_output=True,
        text=True,
        timeout=600,
        **({"input": typed} if typed is not None else {"stdin": subprocess.DEVNULL}),
    )


def start_child(
    command: Sequence[str],
    out: Path,
    err: Path | None = None,
    env: dict[str, str] | None = None,
    python: str = sys.executable,
) -> subprocess.Popen[bytes]:
    """Start a command in its own process group (so that :func:`stop_group` reaches every JVM it
    starts), with :func:`child_env` for ``python`` and ``env``, its output into files: standard
    error into ``err``, or into ``out`` as well."""
    with out.open("wb") as stdout, (err or out).open("ab") as stderr:
        return subprocess.Popen(
            list(command),
            env=child_env(python, **(env or {})),
            stdout=stdout,
            stderr=stderr if err else subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )


def stop_group(process: subprocess.Popen[bytes], grace_s: float = 30) -> None:
    """End a child started by :func:`start_child` and everything in its process group: SIGTERM,
    then SIGKILL after ``grace_s``. Safe to call for a child that has already ended."""
    for sig, wait_s in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 30.0)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        if group_gone(process, wait_s):
            break


def group_gone(process: subprocess.Popen[bytes], timeout_s: float) -> bool:
    """Reap the child, and wait up to ``timeout_s`` until no process of its group is left."""
    deadline = time.monotonic() + timeout_s
    while True:
        process.poll()
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)


def wait_for(
    condition_met: Callable[[], bool], what: str, timeout_s: float = 120, poll_s: float = 0.2
) -> None:
    assert met_within(condition_met, timeout_s, poll_s), f"timed out waiting for {what}"


def met_within(condition_met: Callable[[], bool], timeout_s: float, poll_s: float = 0.2) -> bool:
    """Whether ``condition_met()`` comes true within ``timeout_s``, asked every ``poll_s``."""
    deadline = time.monotonic() + timeout_s
    while not condition_met():
        if time.monotonic() >= deadline:
            return False
        time.sleep(poll_s)
    return True


def running_tasks(spark: SparkSession) -> int:
    """The tasks the session's executors run now: those of a stopped query too, until they end (a
    stage a query's stop cancels is no longer active before its tasks have ended)."""
    infos = spark.sparkContext._jsc.sc().statusTracker().getExecutorInfos()
    return sum(int(info.numRunningTasks()) for info in infos)


def await_free_slots(spark: SparkSession, timeout_s: float = 20, rekills: int = 4) -> None:
    """Wait until no task runs in the session: a real-time query's stages must all run at once,
    and a task left running would hold a slot the next query's stages need (they would then
    wait for it, silently).

    A stopped query's killed tasks end within seconds (the streaming shuffle's teardown takes up
    to 20 s). Past ``timeout_s``, a task still running is killed again, ``rekills`` times 5 s
    apart: Spark interrupts a killed task's thread once, and a wait that lost that interrupt (the
    streaming shuffle writer's wait for its readers' acknowledgements has no other way out)
    would hold the slot for good. Each re-kill is reported as a warning with the task's stack;
    a task that outlives them all fails the wait with it."""

    def idle() -> bool:
        return running_tasks(spark) == 0

    met_within(idle, timeout_s, poll_s=0.1)
    for _ in range(rekills):
        stacks = task_threads(spark)
        counted = running_tasks(spark)  # after the stacks: a task that ended meanwhile is not counted
        if counted == 0:
            return
        tids = re.findall(r"\(TID (\d+)\)", stacks)
        if tids:
            warnings.warn(
                f"killing again the tasks still running {timeout_s} s after their kill:\n{stacks}",
                stacklevel=2,
            )
        else:
            warnings.warn(
                f"the status tracker counts {counted} running tasks {timeout_s} s after "
                "their kill, and no task thread runs",
                stacklevel=2,
            )
        context = spark.sparkContext._jsc.sc()
        for tid in tids:
            context.killTaskAttempt(int(tid), True, "still running after the test stopped its query")
        met_within(idle, 5, poll_s=0.1)
    if not idle():
        raise AssertionError(f"tasks still running after {rekills} more kills:\n{task_threads(spark)}")


def task_threads(spark: SparkSession, frames: int = 40) -> str:
    """The stack of each thread that runs a task in the session's JVM (local mode), innermost
    call first, under the thread's name (which ends in the task's id, ``(TID n)``)."""
    traces = spark.sparkContext._jvm.java.lang.Thread.getAllStackTraces()  # type: ignore[union-attr]
    shown = []
    for thread in traces.keySet():
        name = str(thread.getName())
        if name.startswith("Executor task launch worker"):
            stack = traces.get(thread)
            lines = [f"    at {stack[i].toString()}" for i in range(min(len(stack), frames))]
            shown.append("\n".join([f"{name} ({thread.getState().toString()})", *lines]))
    return "\n".join(shown) or "(no task thread)"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def connect_server(
    jars: Sequence[str], log: Path, python: str = sys.executable, conf: Sequence[str] = ()
) -> Iterator[str]:
    """A Spark Connect server of this pyspark on 127.0.0.1, with ``jars`` on its class path,
    ``python`` for its Python workers and ``conf`` (``key=value`` settings); yields its ``sc://``
    address, and always shuts it down."""
    port = free_port()
    server = start_child(
        [
            str(pyspark_bin("spark-submit")),
            "--class",
            "org.apache.spark.sql.connect.service.SparkConnectServer",
            "--master",
            "local[2]",
            "--conf",
            "spark.ui.enabled=false",
            "--conf",
            "spark.connect.grpc.binding.address=127.0.0.1",
            "--conf",
            f"spark.connect.grpc.binding.port={port}",
            *(["--jars", ",".join(jars)] if jars else []),
            *(part for setting in conf for part in ("--conf", setting)),
        ],
        log,
        python=python,
    )
    try:
        deadline = time.monotonic() + 180
        while True:
            assert server.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, "the Connect server did not listen in 180 s"
            with socket.socket() as client:
                if client.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.5)
        yield f"sc://127.0.0.1:{port}"
    finally:
        stop_group(server, grace_s=60)
