"""``spark-random-strings demo``: a few of each batch's random strings, and the strings counted by
length so far, live, on a local Spark."""

from __future__ import annotations

import json
import time
from collections import Counter
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from spark_random_strings.cli.stream import print_header, print_row, run_until_done
from spark_random_strings.engine.progress import ProgressReport
from spark_random_strings.offsets.definition_store import python_stream
from spark_random_strings.rows.definition import describe_stream

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

    from spark_random_strings.engine.local import StopRequest

#: How often Spark reads the rows that have come to exist.
TRIGGER_INTERVAL = "2 seconds"
#: How many of a batch's strings are shown.
SHOWN = 3


def heading(*, rows_per_second: int | None, min_length: int, max_length: int, spark_version: str) -> str:
    """What the demo shows, printed before it starts."""
    rate = "" if rows_per_second is None else f"{rows_per_second} random strings a second, "
    return (
        f"spark-random-strings demo: the InMemoryRandomStrings source makes {rate}each {min_length} "
        f"to {max_length} characters long, and a streaming query on a local Spark {spark_version} "
        f"reads them every {TRIGGER_INTERVAL}. Each batch shows a few of its strings, then how many "
        "strings of each length have come so far: every length is equally likely, so the counts "
        "grow evenly. Ctrl-C stops it."
    )


def counts_line(counts: Counter[int]) -> str:
    """The strings read so far, by length: ``so far by length: 1: 12 | 2: 9 | ...``."""
    return "so far by length: " + " | ".join(f"{length}: {counts[length]:,}" for length in sorted(counts))


def count_by_length(
    strings: DataFrame, *, duration_s: float, stop: StopRequest, console: Console
) -> tuple[int, str]:
    """After every batch, print a few of its strings and the count of the strings read so far per
    length, until ``duration_s`` has passed since the first strings came or ``stop`` is set.

    Returns the rows read and the one-line summary. Raises the query's exception if it failed.
    """
    counts: Counter[int] = Counter()
    batches = 0
    first_rows: list[float] = []

    def show(batch: DataFrame, batch_id: int) -> None:
        nonlocal batches
        # Two small Spark jobs: the batch's counts by length (added to those so far), and a few
        # of its rows.
        by_length = {row["length"]: row["count"] for row in batch.groupBy("length").count().collect()}
        if not by_length:
            return
        if not first_rows:
            first_rows.append(time.monotonic())
        counts.update(by_length)
        batches += 1
        shown = sorted(batch.limit(SHOWN).collect(), key=lambda row: row.offset)
        console.print()
        console.print(
            Text(f"batch {batch_id}: {sum(by_length.values()):,} new strings, among them:", style="bold")
        )
        print_header(console)
        for row in shown:
            print_row(console, row.offset, row.ts, row.length, row.value)
        console.print(Text(counts_line(counts)), soft_wrap=True)

    started = time.monotonic()
    query = strings.writeStream.foreachBatch(show).trigger(processingTime=TRIGGER_INTERVAL).start()
    # The duration counts from the first strings: on a loaded machine, a query's first batch (the
    # Python engine's most) can come seconds after its start.
    elapsed = run_until_done(
        query,
        started=started,
        duration_s=duration_s,
        stop=stop,
        first_rows=lambda: first_rows[0] if first_rows else None,
    )
    # The rows are counted here: Spark's numInputRows counts a batch's rows once per job that
    # reads them, and show runs two.
    rows = sum(counts.values())
    progress = query.recentProgress
    source = source_description(progress[-1]) if progress else "no progress reported"
    return rows, (
        f"spark-random-strings demo: {rows} rows in {batches} batches over "
        f"{elapsed:.1f} s = {rows / elapsed:.1f} rows/s (source: {source})"
    )


def source_description(progress: ProgressReport) -> str:
    """The source's description in a progress report. The jar's source describes itself; a
    Python data source's stream is described by Spark's class name only, so it is described
    from the stream its end offset holds, in the jar's words."""
    source = progress["sources"][0]
    offset = source["endOffset"]
    if offset is not None:
        text = offset if isinstance(offset, str) else json.dumps(offset)
        stream = python_stream(text, "the query's progress report")
        if stream is not None:
            return describe_stream(stream)
    return str(source["description"])
