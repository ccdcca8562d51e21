"""Running Spark on this machine: a local session with the bundled jar, and a clean query stop.

The demo, the command-line tool and the tests share these.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Iterator, Mapping
from types import FrameType
from typing import TYPE_CHECKING

from spark_random_strings.engine.session import configure_spark_with_random_strings

if TYPE_CHECKING:
    from pyspark.sql import SparkSession
    from pyspark.sql.streaming.query import StreamingQuery


def local_session(
    app_name: str,
    *,
    cores: int | None = 2,
    log_level: str = "ERROR",
    silent_jvm: bool = False,
    config: Mapping[str, str] | None = None,
) -> SparkSession:
    """Start (or get) a local session with the jar on ``spark.jars``, no web UI, on loopback.

    Args:
        app_name: the application's name.
        cores: the local cores (``local[cores]``); ``None`` for all of them (``local[*]``).
        log_level: Spark's log level once the session runs.
        silent_jvm: send the JVM's standard error, where Spark logs, to the null device for
            the session's whole life (the command-line tool does, so that the terminal shows
            only its own output).
    """
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master(f"local[{cores or '*'}]")
        .appName(app_name)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        # A local session needs no network: its driver listens on loopback only.
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
    )
    # A shuffle gets one partition per local core, not Spark's 200, which would make a small
    # aggregation's every batch schedule 200 tasks on a core or two.
    builder = builder.config("spark.sql.shuffle.partitions", str(cores or os.cpu_count() or 1))
    for key, value in (config or {}).items():
        builder = builder.config(key, value)
    configured = configure_spark_with_random_strings(builder)
    # Python data sources are planned by a Python process that Spark starts with $PYSPARK_PYTHON
    # (default: python3 on the path), read when the session starts: make it this Python, which
    # has numpy and pyarrow.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    # The JVM inherits standard error when pyspark starts it, and keeps it.
    with _standard_error_to_null() if silent_jvm else contextlib.nullcontext():
        session = configured.getOrCreate()
    session.sparkContext.setLogLevel(log_level)
    return session


@contextlib.contextmanager
def _standard_error_to_null() -> Iterator[None]:
    """While inside, file descriptor 2 (inherited by child processes) is the null device."""
    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


class StopRequest:
    """A request to stop a running command, which a signal handler may make.

    Setting it only assigns a flag. A ``threading.Event`` would not do: a signal handler runs in
    the main thread between any two of its bytecodes, also inside ``Event.wait()`` while that
    holds the Event's lock, and the handler's ``Event.set()`` then waits for that lock, held by
    its own thread, forever. ``wait`` sleeps in short steps instead, which a signal interrupts
    to run its handler.
    """

    #: How long ``wait`` sleeps between two looks at the flag.
    STEP_S = 0.05

    def __init__(self) -> None:
        self._requested = False

    def set(self) -> None:
        """Request the stop; safe in a signal handler (takes no lock)."""
        self._requested = True

    def is_set(self) -> bool:
        """Whether the stop was requested."""
        return self._requested

    def wait(self, timeout_s: float) -> bool:
        """Return once the stop is requested (within ``STEP_S``) or ``timeout_s`` has passed;
        ``True`` if it was requested."""
        deadline = time.monotonic() + timeout_s
        while not self._requested and (left := deadline - time.monotonic()) > 0:
            time.sleep(min(left, self.STEP_S))
        return self._requested


@contextlib.contextmanager
def first_interrupt_sets(stop: StopRequest) -> Iterator[None]:
    """While inside: the first Ctrl-C sets ``stop`` for a clean stop; a second one interrupts."""

    def on_interrupt(signum: int, frame: FrameType | None) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def stop_between_batches(query: StreamingQuery, patience_s: float = 10.0) -> None:
    """Stop the query between two batches, so that stopping interrupts no batch's writes.

    Waits until no trigger is active or the running batch has finished (under
    ``Trigger.AvailableNow`` batches follow each other without a pause), at most ``patience_s``.
    Stopping mid-batch would be safe too: the batch runs again after a restart.
    """

    def last_batch() -> int:
        progress = query.lastProgress
        return -1 if progress is None else int(progress["batchId"])  # read by key: see engine.progress

    running = last_batch()
    deadline = time.monotonic() + patience_s
    while (
        query.isActive
        and query.status["isTriggerActive"]
        and last_batch() == running
        and time.monotonic() < deadline
    ):
        time.sleep(0.05)
    query.stop()
