"""``spark-random-strings write``: exactly N rows into files, resumable, with a progress bar."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from spark_random_strings._local import stop_between_batches
from spark_random_strings._progress import StreamPosition, current_position, first_position

if TYPE_CHECKING:
    from pyspark.sql import DataFrame


class Interrupted(Exception):
    """The write stopped before all rows were written; the same command resumes it."""


def write_files(
    strings: DataFrame,
    *,
    total_rows: int,
    file_format: str,
    output: str,
    checkpoint: str,
    console: Console,
    stop: threading.Event,
) -> str:
    """Write the bounded stream ``strings`` (``totalRows`` set) to ``output`` as files.

    The query runs under ``Trigger.AvailableNow`` with a checkpoint, so it ends by itself once
    the stream's last row is written, and a run after an interruption continues where the
    checkpoint stands: the file sink's log keeps every row exactly once.

    Returns the one-line summary. Raises :class:`Interrupted` when ``stop`` is set first, and
    the query's exception if it failed.
    """
    started = time.monotonic()
    query = (
        strings.writeStream.format(file_format)
        .option("path", output)
        .option("checkpointLocation", checkpoint)
        .trigger(availableNow=True)
        .start()
    )
    progress = Progress(
        TextColumn("writing"),
        BarColumn(),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f} rows"),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
        console=console,
        disable=not console.is_terminal,
    )
    first: StreamPosition | None = None
    last: StreamPosition | None = None
    with progress:
        task = progress.add_task("write", total=total_rows, rate="")
        while True:
            active = query.isActive
            first = first or first_position(query)
            last = current_position(query) or last
            if first is not None and last is not None:
                rate = (last.rows_read - first.rows_before) / (time.monotonic() - started)
                progress.update(task, completed=last.rows_read, rate=f"{rate:,.0f} rows/s")
            if not active or stop.is_set():
                break
            stop.wait(0.25)
        if query.isActive:
            stop_between_batches(query)
            last = current_position(query) or last
    failure = query.exception()
    if failure is not None:
        raise failure
    elapsed = time.monotonic() - started
    done = last.rows_read if last else 0
    this_run = done - first.rows_before if first and last else 0
    if stop.is_set() and done < total_rows:
        raise Interrupted(
            f"interrupted with {done:,} of {total_rows:,} rows written to {output}; "
            "run the same command again to resume"
        )
    if done != total_rows:
        raise RuntimeError(
            f"the stream ended at {done:,} rows, not {total_rows:,}: the checkpoint {checkpoint} "
            "had already passed --total-rows; give the --total-rows it was made with"
        )
    return (
        f"wrote {total_rows:,} rows to {output} as {file_format} ({this_run:,} in this run, "
        f"{elapsed:.1f} s, {this_run / elapsed:,.0f} rows/s); checkpoint: {checkpoint}"
    )
