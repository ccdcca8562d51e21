"""Which of a ``LatencySink``'s last rows are new, and how they read, for the terminal's
real-time view (``cli/real_time.py``): the random strings' rows by their offsets
(:class:`HandedOn`), those of a declared schema as their offset and JSON, and a query's rows,
which have no offsets, by the sink's count of every row (:class:`ArrivedRows`)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Protocol, TypeVar

from spark_random_strings.latency.sink import LatencySummary

_WHOLE = re.compile(r"-?\d+")


@dataclass(frozen=True)
class ShownRow:
    """A row the sink got, as the terminal shows it."""

    offset: int
    #: The event time, in epoch ms.
    ts: int
    length: int
    value: str


def parse_recent(lines: Sequence[str], timestamp_column: bool) -> list[ShownRow]:
    """The rows of ``LatencySummary.recent``: lines of ``value, ts, offset, length`` (and the
    ``timestamp`` with ``timestamp_column``) separated by tabs.

    The value comes first and may hold tabs or line breaks (an ``alphabet`` may have them): a
    row is split from its right end, and a line that does not parse, with a value as long as
    its ``length`` says, is the first part of a row that goes on in the next line.
    """
    trailing = 4 if timestamp_column else 3
    rows: list[ShownRow] = []
    pending: str | None = None
    for line in lines:
        text = line if pending is None else f"{pending}\n{line}"
        row = _parse_row(text, trailing)
        if row is None:
            pending = text
        else:
            rows.append(row)
            pending = None
    return rows


@dataclass(frozen=True)
class DeclaredRow:
    """A row of a declared schema the sink got: its offset, and its cells in the schema's order."""

    offset: int
    cells: tuple[object, ...]


def parse_recent_declared(lines: Sequence[str]) -> list[DeclaredRow]:
    """The rows of ``LatencySummary.recent`` for a stream of a declared schema: lines of the
    row's offset, a tab and the row as a JSON object (whose strings hold no line break)."""
    rows = []
    for line in lines:
        offset, _, text = line.partition("\t")
        cells = json.loads(text, parse_float=Decimal)  # a DECIMAL's digits, as the JVM wrote them
        rows.append(DeclaredRow(int(offset), tuple(cells.values() if isinstance(cells, dict) else cells)))
    return rows


class _HasOffset(Protocol):
    @property
    def offset(self) -> int: ...


_Row = TypeVar("_Row", bound=_HasOffset)


def _parse_row(text: str, trailing: int) -> ShownRow | None:
    parts = text.rsplit("\t", trailing)
    if len(parts) != trailing + 1 or not all(_WHOLE.fullmatch(part) for part in parts[1:4]):
        return None
    value, ts, offset, length = parts[:4]
    return ShownRow(int(offset), int(ts), int(length), value) if len(value) == int(length) else None


class HandedOn:
    """Which rows of a stream read in ``partitions`` partitions, from offset 0, have reached
    the sink: partition p hands on the offsets p, p + n, p + 2n, ... in order, so the next one
    each partition has not handed on yet says it all."""

    def __init__(self, partitions: int) -> None:
        self._partitions = partitions
        self._next = list(range(partitions))

    @property
    def count(self) -> int:
        """How many rows have reached the sink, as far as the rows taken tell."""
        return sum((after - p) // self._partitions for p, after in enumerate(self._next))

    def take(self, rows: Sequence[_Row]) -> list[_Row]:
        """The rows not taken before, in offset order; they count from now on."""
        new = sorted(
            (row for row in rows if row.offset >= self._next[row.offset % self._partitions]),
            key=lambda row: row.offset,
        )
        for row in new:
            p = row.offset % self._partitions
            self._next[p] = max(self._next[p], row.offset + self._partitions)
        return new


class ArrivedRows:
    """Which of a ``LatencySink``'s last rows are new, for rows without offsets (a query's): the
    sink counts every row that reached it (``arrived``), and the last of them is the last of its
    ``recent`` rows."""

    def __init__(self) -> None:
        self._arrived = 0

    @property
    def count(self) -> int:
        """How many rows have reached the sink."""
        return self._arrived

    def take(self, summary: LatencySummary) -> list[str]:
        """The rows of ``summary.recent`` that arrived since the last take (those it holds: the
        newest); they count from now on."""
        new = summary.arrived - self._arrived
        self._arrived = max(self._arrived, summary.arrived)
        return list(summary.recent[-new:]) if new > 0 else []
