"""Where the Python data source reads the time (the JVM source's ``StreamClock.scala``), and a
clock that tests step by hand (its ``ManualClock.scala``).

A stream reads the system clock, unless a test names a manual clock with the internal option
``_manualClock``: then it fixes its first start and counts the rows that exist by that clock.
Between two steps no row comes to exist, so each step makes exactly the rows a test expects,
and a query's next batch reads exactly those: no test waits for the wall clock.

The Python data source plans its batches in a Python worker that the JVM starts, not in the
process that runs the test, so a clock kept in the test's memory (as the JVM's registry keeps
its clocks) could not reach it. A manual clock here is a small file on this machine instead,
named after the clock, in :data:`FOLDER`: :func:`register` writes it,
:meth:`ManualClock.advance` rewrites it (atomically, with ``os.replace``: a reader sees the time
before a step or after it, never half a file), :func:`unregister` removes it, and a stream reads
it every time it asks the time. One process steps a clock; any process on the machine reads it.

The option is for tests only: it is not among the documented options, and ``load()`` refuses a
name no clock is registered under. Use it with a local master, whose Python workers run on this
machine, and not through Spark Connect.

>>> from spark_random_strings.time import manual_clock
>>> clock = manual_clock.register("steps", 1_700_000_000_000)
>>> clock.advance(1000)
1700000001000
>>> manual_clock.unregister("steps")
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from spark_random_strings.options import MANUAL_CLOCK
from spark_random_strings.options.ranges import LONG_MAX, LONG_MIN, java_trim

#: Where manual clocks live: one file per clock, holding its time in epoch ms as decimal text.
#: (A constant: the data source's code travels pickled by value, and takes this folder with it.)
FOLDER = Path(tempfile.gettempdir()) / "spark-random-strings-clocks"


def system_now_ms() -> int:
    """The system clock, in epoch ms: what every stream reads unless a test names a manual
    clock (``StreamClock.System``)."""
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class ManualClock:
    """The manual clock registered under ``name`` on this machine: a handle, which reads and
    steps the clock's file (two handles of one name are one clock)."""

    #: The name it is registered under, which the option ``_manualClock`` gives.
    name: str

    @property
    def path(self) -> Path:
        """The clock's file: its name, escaped to one file name."""
        return FOLDER / f"{quote(self.name, safe='')}.ms"

    def now_ms(self) -> int:
        """The time this clock reads, in epoch ms.

        Raises:
            RuntimeError: the clock is not registered (any more).
        """
        try:
            return int(self.path.read_text(encoding="ascii"))
        except FileNotFoundError:
            raise RuntimeError(
                f"No manual clock named '{self.name}' is registered on this machine ({MANUAL_CLOCK} is "
                "for tests on a local master, whose Python workers run on the driver's machine)."
            ) from None

    def advance(self, ms: int) -> int:
        """Moves the clock forward by ``ms`` (>= 0), saturating at 2^63 - 1; the new time.

        Raises:
            ValueError: ``ms`` is negative.
            RuntimeError: the clock is not registered (any more).
        """
        if ms < 0:
            raise ValueError(f"a clock only moves forward: cannot advance {self.name} by {ms} ms")
        now = min(self.now_ms() + ms, LONG_MAX)
        self._write(now)
        return now

    def _write(self, now_ms: int) -> None:
        """Sets the clock's time: a new file, which replaces the old one at once."""
        FOLDER.mkdir(parents=True, exist_ok=True)
        descriptor, written = tempfile.mkstemp(dir=FOLDER, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(descriptor, "w", encoding="ascii") as out:
                out.write(str(now_ms))
            os.replace(written, self.path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(written)
            raise

    def __str__(self) -> str:
        return f"ManualClock({self.name})"


def register(name: str, start_ms: int) -> ManualClock:
    """A new clock reading ``start_ms`` (epoch ms) under ``name``, replacing any clock registered
    under it before.

    Raises:
        ValueError: ``name`` is blank, or ``start_ms`` is outside the 64-bit range.
    """
    if not java_trim(name):
        raise ValueError("a manual clock needs a name")
    if not LONG_MIN <= start_ms <= LONG_MAX:
        raise ValueError(f"a manual clock's time is a 64-bit epoch ms, not {start_ms}")
    clock = ManualClock(name)
    clock._write(start_ms)
    return clock


def named(name: str) -> ManualClock | None:
    """The clock registered under ``name``, if any."""
    clock = ManualClock(name)
    return clock if clock.path.is_file() else None


def unregister(name: str) -> None:
    """Removes the clock registered under ``name``, if any."""
    ManualClock(name).path.unlink(missing_ok=True)


def manual(option: str, value: str) -> ManualClock:
    """The clock that option ``option`` (``_manualClock``) names with ``value``
    (``StreamClock.manual``).

    Raises:
        ValueError: no manual clock is registered under ``value``.
    """
    clock = named(value)
    if clock is None:
        raise ValueError(
            f"Invalid value '{value}' for option '{option}': no manual clock of that name is registered "
            "on this machine. The option is for tests: register one first with "
            f"spark_random_strings.time.manual_clock.register(\"{value}\", start_ms), or remove '{option}'."
        )
    return clock
