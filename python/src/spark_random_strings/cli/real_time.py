"""``spark-random-strings stream --real-time`` (and ``nexmark --real-time``): the stream in Spark's
real-time mode, each row shown as it reaches the sink, under a status line with how long rows
take to get there; and ``--real-time`` refused, before Spark starts, where it cannot run.

The query writes into the jar's ``LatencySink`` (see ``latency.sink``), which measures, for every
row, the moment it reached the sink minus the moment it came to exist, and keeps the last
:data:`SINK_KEEPS` rows. Four times a second this module reads the sink: it prints the rows it
has not shown yet and updates the status line. Two choices follow from how the sink works:

- The random strings are counted from their offsets, not by the sink (a Nexmark query's rows,
  which have none, by the sink: :class:`ArrivedRows`). The query reads a fresh checkpoint,
  and partition p of n hands on the offsets p, p + n, p + 2n, ... in order, so the highest
  offset seen in each partition says how many rows that partition has handed on
  (:class:`HandedOn`). It also says which of the sink's last rows are new. A refresh sees the
  sink's last rows only: where more came (a fast stream, or the first rows, which arrive in a
  burst), it shows the newest, and the status counts all.
- The latency figures leave out a warm-up. A query's first rows came to exist before its tasks
  started and wait hundreds of ms, which would hold the p99 up for minutes. So once the first
  batch has ended (the query's first progress report), the sink's measurements are dropped
  (``reset_latency``, which running tasks see at once), and the status says which figures it
  shows: "since start" before that, "after warm-up" after.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.console import Console
from rich.live import Live
from rich.text import Text

from spark_random_strings.cli.options import parsed
from spark_random_strings.cli.sink_rows import ArrivedRows, HandedOn, parse_recent, parse_recent_declared
from spark_random_strings.cli.stream import print_cells, print_header, print_row, run_until_done
from spark_random_strings.latency.sink import (
    LatencySummary,
    latency_summary,
    reset_latency,
    start_measured,
)

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.streaming.query import StreamingQuery

    from spark_random_strings.engine.local import StopRequest

#: Real-time mode's batch duration: Spark's shortest by default
#: (``spark.sql.streaming.realTimeMode.minBatchDuration``). Offsets are committed, and the
#: sink's tasks start again, once per batch.
BATCH_DURATION_S = 5
#: ``stream --real-time``'s help.
REAL_TIME_HELP = (
    "run the query in Spark's real-time mode (Spark 4.1+), in batches of "
    f"{BATCH_DURATION_S} s: each row reaches the terminal as it comes to exist, and the status "
    "line shows how long rows took from existing to reaching the sink (p50, p99, max): since the "
    "start at first, then after a warm-up of about two batches, whose first rows waited for the "
    "query to start. Reads 1 partition unless --num-partitions says otherwise, on a local Spark "
    "with more cores than partitions: each partition is a task that runs for the whole batch "
    "(default: off)"
)
#: How many of its last rows the ``LatencySink`` keeps: the most one refresh can show.
SINK_KEEPS = 20


def real_time_cores(partitions: int, cpus: int | None = None) -> int:
    """The local cores for a real-time query of ``partitions`` partitions: all of them
    (``cpus``, this machine's by default), and at least one more than the partitions. Each
    partition is a task that runs for the whole batch; Spark needs a slot left for anything
    else."""
    return max(cpus or os.cpu_count() or 1, partitions + 1)


def latency_text(summary: LatencySummary | None, after_warm_up: bool) -> str:
    """The latency figures of the status and the summary, and which rows they are of.

    The sink gives a percentile as the upper edge of its 0.1 ms bucket, which can lie above the
    exact maximum: a percentile is shown as at most the maximum.
    """
    label = "after warm-up" if after_warm_up else "since start"
    if summary is None or summary.p50_ms is None or summary.p99_ms is None or summary.max_ms is None:
        return f"latency {label}: none yet"
    top = summary.max_ms
    return (
        f"latency {label}: p50 {min(summary.p50_ms, top):,.1f} ms, p99 {min(summary.p99_ms, top):,.1f} ms, "
        f"max {top:,.1f} ms"
    )


def status(rows: int, elapsed_s: float, summary: LatencySummary | None, after_warm_up: bool) -> Text:
    """The status line: rows, rows/s, the latency figures, run time."""
    if rows == 0:
        return Text(f"waiting for the first rows ... {elapsed_s:4.0f} s", style="dim")
    rate = rows / elapsed_s if elapsed_s > 0 else 0.0
    return Text(
        f"rows {rows:,} | {rate:,.1f} rows/s | {latency_text(summary, after_warm_up)} | {elapsed_s:,.0f} s",
        style="bold",
    )


def summary_line(
    rows: int, elapsed_s: float, latency: LatencySummary | None, after_warm_up: bool, of: str = ""
) -> str:
    """The one line printed at the end (``of``: whose rows, as " of q5_counts")."""
    rate = rows / elapsed_s if elapsed_s > 0 else 0.0
    measured = "" if latency is None or latency.count == 0 else f" over {latency.count:,} rows"
    return (
        f"streamed {rows:,} rows{of} in real-time mode ({BATCH_DURATION_S} s batches) over {elapsed_s:.1f} s "
        f"({rate:,.1f} rows/s); {latency_text(latency, after_warm_up)}{measured}"
    )


class _Display:
    """What the terminal has shown of one measured query, and whether the warm-up is over."""

    def __init__(
        self,
        query: StreamingQuery,
        spark: SparkSession,
        name: str,
        console: Console,
        rows_shown: int,
        partitions: int,
        stamped: bool,
        declared: bool,
        counted: bool = False,
    ) -> None:
        self.query, self.spark, self.name, self.console = query, spark, name, console
        self.rows_shown = min(rows_shown, SINK_KEEPS)
        self.stamped = stamped
        self.declared = declared
        self.handed_on = HandedOn(partitions)
        #: Rows without offsets (a query's), counted by the sink: None for this source's strings.
        self.arrived = ArrivedRows() if counted else None
        self.after_warm_up = False
        #: The figures of the warm-up, the last read before they were dropped.
        self.since_start: LatencySummary | None = None

    def read(self) -> LatencySummary:
        """The sink's measurements; its rows not shown yet are printed (the newest
        ``rows_shown`` of them)."""
        summary = latency_summary(self.spark, self.name)
        if self.arrived is not None:
            for line in self.arrived.take(summary)[-self.rows_shown :]:
                self.console.print(Text("  " + line.replace("\t", ", ")), soft_wrap=True)
            return summary
        if self.declared:
            for declared in self.handed_on.take(parse_recent_declared(summary.recent))[-self.rows_shown :]:
                print_cells(self.console, declared.cells)
            return summary
        for row in self.handed_on.take(parse_recent(summary.recent, self.stamped))[-self.rows_shown :]:
            print_row(self.console, row.offset, row.ts, row.length, row.value)
        return summary

    def tick(self) -> LatencySummary:
        """Read the sink, first dropping the warm-up's measurements once the first batch ended."""
        if not self.after_warm_up and self.query.lastProgress is not None:
            self.since_start = self.read()
            reset_latency(self.spark, self.name)
            self.after_warm_up = True
        return self.read()

    @property
    def rows(self) -> int:
        """How many rows have reached the sink, as far as the display can tell."""
        return self.handed_on.count if self.arrived is None else self.arrived.count

    def final_figures(self, summary: LatencySummary) -> tuple[LatencySummary | None, bool]:
        """The figures to report at the end, and whether they are after the warm-up: they are
        if a row was measured after it, or else those of the warm-up."""
        if self.after_warm_up and summary.count == 0:
            return self.since_start, False
        return summary, self.after_warm_up


def stream_in_real_time(
    strings: DataFrame,
    *,
    console: Console,
    rows_shown: int,
    duration_s: float | None,
    stop: StopRequest,
    partitions: int,
    timestamp_column: bool,
    declared: bool = False,
) -> str:
    """Run ``strings`` (the jar's source with ``realTime``, read in ``partitions`` partitions)
    in real-time mode into a ``LatencySink``, and print its rows as they reach it, under a
    status line with their latency, until ``duration_s`` passes or ``stop`` is set. A stream of
    a ``declared`` schema needs a column of kind ``offset``; its rows show as they are.

    The query's checkpoint is a temporary folder, removed at the end. Returns the one-line
    summary. Raises the query's exception if it failed.
    """
    print_header(console, strings.columns if declared else None)
    return _measured_in_real_time(
        strings,
        lambda query, name: _Display(
            query, strings.sparkSession, name, console, rows_shown, partitions, timestamp_column, declared
        ),
        duration_s=duration_s,
        stop=stop,
    )


def rows_in_real_time(
    rows: DataFrame,
    *,
    of: str,
    console: Console,
    rows_shown: int,
    duration_s: float | None,
    stop: StopRequest,
) -> str:
    """Run ``rows`` (of a real-time stream, with a column the ``LatencySink`` measures from: a
    Nexmark query's ``dateTime``) in real-time mode into a ``LatencySink``, and print them as they
    reach it, their columns separated by commas, under a status line with their latency, until
    ``duration_s`` passes or ``stop`` is set. ``of`` names them in the summary ("q5_counts").

    Returns the one-line summary. Raises the query's exception if it failed.
    """
    console.print(Text(", ".join(rows.columns), style="bold"), soft_wrap=True)
    return _measured_in_real_time(
        rows,
        lambda query, name: _Display(
            query, rows.sparkSession, name, console, rows_shown, 1, False, False, counted=True
        ),
        duration_s=duration_s,
        stop=stop,
        of=f" of {of}",
    )


def _measured_in_real_time(
    df: DataFrame,
    display_of: Callable[[StreamingQuery, str], _Display],
    *,
    duration_s: float | None,
    stop: StopRequest,
    of: str = "",
) -> str:
    """Run ``df`` in real-time mode into a ``LatencySink`` whose rows and figures ``display_of``
    shows; the one-line summary at the end."""
    name = f"spark-random-strings real-time {uuid.uuid4().hex}"
    with tempfile.TemporaryDirectory(prefix="spark-random-strings-stream-") as checkpoint:
        started = time.monotonic()
        query = start_measured(df, name=name, checkpoint=checkpoint, real_time=f"{BATCH_DURATION_S} seconds")
        display = display_of(query, name)
        try:
            with Live(
                status(0, 0.0, None, False), console=display.console, refresh_per_second=4, transient=True
            ) as live:

                def update(elapsed: float) -> None:
                    summary = display.tick()
                    live.update(status(display.rows, elapsed, summary, display.after_warm_up))

                # A real-time batch runs for the whole batch duration: waiting for its end would
                # hold a stop for up to BATCH_DURATION_S, and this query's sink and checkpoint
                # keep nothing that stopping mid-batch could leave half done.
                elapsed = run_until_done(
                    query,
                    started=started,
                    duration_s=duration_s,
                    stop=stop,
                    every_tick=update,
                    stop_query=lambda running: running.stop(),
                )
            # The rows that arrived since the last tick, and the figures of the whole run.
            figures, after_warm_up = display.final_figures(display.read())
            reset_latency(display.spark, name)
            return summary_line(display.rows, elapsed, figures, after_warm_up, of)
        finally:
            # Before its checkpoint goes.
            if query.isActive:
                query.stop()


#: The commands that do not run in real-time mode, and why (the usage error of --real-time).
NOT_REAL_TIME = {
    "write": "real-time mode writes to console, foreach and Kafka sinks, not to files",
    "demo": "real-time mode writes to console, foreach and Kafka sinks, and the demo counts each "
    "batch's strings with foreachBatch",
}


def check_real_time(args: argparse.Namespace, command: argparse.ArgumentParser) -> None:
    """Refuse --real-time, before Spark starts, where it cannot run: the commands other than
    stream, the Python data source, and a row limit per batch (which the source would refuse
    only once the query started)."""
    name = args.command
    if name in NOT_REAL_TIME:
        command.error(
            f"argument --real-time: {name} cannot run in Spark's real-time mode "
            f"({NOT_REAL_TIME[name]}); only stream and nexmark take --real-time."
        )
    if args.engine == "python":
        command.error(
            "argument --real-time: Spark's real-time mode reads JVM streams only, and --engine "
            "python reads the Python data source. Use --engine jvm or auto (the default: the "
            "jar's source, which comes with this package) with --real-time."
        )
    if name == "nexmark":  # its own checks are nexmark_options'
        return
    if args.schema is not None and parsed(args).definition(0, 0).offset_column() is None:
        command.error(
            "argument --real-time: the status line measures each row from the moment its offset "
            "came to exist, and the --schema declares no column of the rows' offsets. Declare a "
            "BIGINT column made with --field <column>.kind=offset."
        )
    if args.max_rows_per_trigger is not None:
        command.error(
            f"argument --max-rows-per-trigger: {args.max_rows_per_trigger} limits the rows of a "
            "micro-batch, and --real-time runs real-time batches, which read each row as it comes "
            "to exist and have no row limit. Leave out --max-rows-per-trigger or --real-time."
        )
