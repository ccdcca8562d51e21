"""``spark-random-strings stream``: the live stream in the terminal, under a one-line status."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

from rich.console import Console
from rich.live import Live
from rich.text import Text

from spark_random_strings.engine.local import StopRequest, stop_between_batches
from spark_random_strings.engine.progress import StreamPosition, current_position

if TYPE_CHECKING:
    from pyspark.sql import DataFrame
    from pyspark.sql.streaming.query import StreamingQuery

    from spark_random_strings.time.rate_profile import RateProfile

#: How often the query is triggered: rows appear in the terminal once a second.
TRIGGER_INTERVAL = "1 second"


#: How long past ``duration_s`` a command whose duration counts from its first rows waits for them.
FIRST_ROWS_PATIENCE_S = 60.0


def run_until_done(
    query: StreamingQuery,
    *,
    started: float,
    duration_s: float | None,
    stop: StopRequest,
    every_tick: Callable[[float], None] | None = None,
    stop_query: Callable[[StreamingQuery], None] = stop_between_batches,
    first_rows: Callable[[], float | None] | None = None,
) -> float:
    """Let the query run until it ends, ``duration_s`` passes or ``stop`` is set, then stop it
    with ``stop_query`` (by default between batches). ``every_tick`` gets the seconds since
    ``started`` four times a second. With ``first_rows`` (when the first rows came, or None while
    none has), ``duration_s`` counts from the first rows, as long as they come within
    ``FIRST_ROWS_PATIENCE_S`` past it: on a loaded machine a query's first batch can come late.

    The stream and the demo commands share this loop. Returns the seconds since ``started``
    (``time.monotonic()``). Raises the query's exception if it failed.
    """
    while query.isActive and not stop.is_set():
        now = time.monotonic()
        elapsed = now - started
        if duration_s is not None and _duration_passed(now, elapsed, duration_s, first_rows):
            break
        if every_tick is not None:
            every_tick(elapsed)
        stop.wait(0.25)
    stop_query(query)
    elapsed = time.monotonic() - started
    failure = query.exception()
    if failure is not None:
        raise failure
    return elapsed


def _duration_passed(
    now: float, elapsed: float, duration_s: float, first_rows: Callable[[], float | None] | None
) -> bool:
    """Whether ``duration_s`` has passed: since the start, or since the first rows came, if the
    command counts from them (and they came within the patience)."""
    if first_rows is None:
        return elapsed >= duration_s
    since = first_rows()
    return (since is not None and now - since >= duration_s) or elapsed >= duration_s + FIRST_ROWS_PATIENCE_S


def print_header(console: Console, columns: Sequence[str] | None = None) -> None:
    """The line above the rows: their columns; those of a declared schema, ``columns``, in order."""
    if columns is not None:
        console.print(Text(CELL_GAP.join(columns), style="bold"), soft_wrap=True)
        return
    console.print(Text(f"{'offset':>12}  {'ts (UTC)':<12}  {'length':>6}  value", style="bold"))


def print_row(console: Console, offset: int, ts: int, length: int, value: str) -> None:
    """One row: its offset, its event time (UTC, to the ms), its length and its value."""
    clock = datetime.fromtimestamp(ts / 1000, tz=UTC).strftime("%H:%M:%S.%f")
    # Text, not markup: a random string may hold "[" or ":".
    console.print(Text(f"{offset:>12,}  {clock[:-3]}  {length:>6}  {value}"), soft_wrap=True)


#: What separates the cells of a row of a declared schema in the terminal.
CELL_GAP = "  "


def cell_text(value: object) -> str:
    """A cell as the terminal shows it: ``null``, ``true``/``false``, a date or time in ISO form,
    bytes in hex, arrays in brackets and structs in braces; anything else as Python writes it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime | date):
        return value.isoformat(sep=" ") if isinstance(value, datetime) else value.isoformat()
    if isinstance(value, bytes | bytearray):
        return value.hex()
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{key}: {cell_text(item)}" for key, item in value.items()) + "}"
    if isinstance(value, tuple) and hasattr(value, "asDict"):  # a struct: pyspark's Row
        return cell_text(value.asDict())
    if isinstance(value, list | tuple):
        return "[" + ", ".join(cell_text(item) for item in value) + "]"
    return str(value)


def print_cells(console: Console, cells: Sequence[object]) -> None:
    """One row of a declared schema: its cells in order (``cell_text``)."""
    # Text, not markup: a random string may hold "[" or ":".
    console.print(Text(CELL_GAP.join(cell_text(cell) for cell in cells)), soft_wrap=True)


def _status(position: StreamPosition | None, elapsed_s: float, profile: RateProfile | None = None) -> Text:
    """The status line: rows, rows/s, with a rate profile the rate it sets now, batch id, rows
    behind, run time."""
    if position is None:
        return Text(f"waiting for the first batch ... {elapsed_s:4.0f} s", style="dim")
    rate = position.rows_read / elapsed_s if elapsed_s > 0 else 0.0
    # The stream starts with the query, so the profile has run for about as long.
    now = "" if profile is None else f" | profile rate now {profile.rate_at(int(elapsed_s * 1000)):,} rows/s"
    return Text(
        f"rows {position.rows_read:,} | {rate:,.1f} rows/s{now} | batch {position.batch_id} | "
        f"rows behind {position.rows_behind:,} | {elapsed_s:,.0f} s",
        style="bold",
    )


def stream_to_terminal(
    strings: DataFrame,
    *,
    console: Console,
    rows_shown: int,
    duration_s: float | None,
    stop: StopRequest,
    profile: RateProfile | None = None,
    declared: bool = False,
    offset_column: str | None = "offset",
) -> str:
    """Print each batch's first rows until ``duration_s`` passes or ``stop`` is set; with the
    stream's rate ``profile``, the status line shows the rate it sets now. A stream of a
    ``declared`` schema shows its columns as they are, in the order of ``offset_column`` (the
    column of the rows' offsets) if it has one.

    Returns the one-line summary. Raises the query's exception if it failed.
    """

    def show(batch: DataFrame, batch_id: int) -> None:
        rows = batch.limit(rows_shown).collect()
        if offset_column is not None:
            rows.sort(key=lambda row: row[offset_column])
        for row in rows:
            if declared:
                print_cells(console, tuple(row))
            else:
                print_row(console, row.offset, row.ts, row.length, row.value)

    print_header(console, strings.columns if declared else None)
    started = time.monotonic()
    query = strings.writeStream.foreachBatch(show).trigger(processingTime=TRIGGER_INTERVAL).start()
    position: StreamPosition | None = None
    # Transient: the live line goes at the end, and the summary stays (also when not a terminal).
    with Live(_status(None, 0.0), console=console, refresh_per_second=4, transient=True) as live:

        def update(elapsed: float) -> None:
            nonlocal position
            position = current_position(query) or position
            live.update(_status(position, elapsed, profile))

        elapsed = run_until_done(query, started=started, duration_s=duration_s, stop=stop, every_tick=update)
    position = current_position(query) or position
    rows, batches = (position.rows_read, position.batch_id + 1) if position else (0, 0)
    return (
        f"streamed {rows:,} rows in {batches:,} batches over {elapsed:.1f} s ({rows / elapsed:,.1f} rows/s)"
    )
