"""``spark-random-strings write``: exactly N rows into files of a folder it owns, resumable, with a
progress bar."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from spark_random_strings.engine.local import StopRequest, first_interrupt_sets, stop_between_batches
from spark_random_strings.engine.progress import StreamPosition, current_position, first_position
from spark_random_strings.engine.session import driver_loads, session_setting
from spark_random_strings.write.contents import SINK_LOG, unlisted_files
from spark_random_strings.write.files import Files, HadoopFiles, LocalFiles, child
from spark_random_strings.write.folder import Claim, check_folder, take
from spark_random_strings.write.records import clear_pending, pending_files
from spark_random_strings.write.request import WriteRequest

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.streaming.query import StreamingQuery
    from pyspark.sql.types import StructType

#: The file sink's commit protocol that records each data file before a task creates it: Spark's
#: own, with the record (jvm/.../write/RecordedFilesCommitProtocol.scala).
RECORDING_PROTOCOL = "io.github.sparkrandomstrings.write.RecordedFilesCommitProtocol"
#: The session's setting of the file sink's commit protocol.
PROTOCOL_SETTING = "spark.sql.streaming.commitProtocolClass"
#: What a write says when its session cannot record its files.
NOT_RECORDING = (
    "this session's driver has no class of the jar (it was not on the class path when the JVM "
    "started: give spark-submit --jars), so the write cannot record its data files: files an "
    "interrupted run leaves unlisted are kept, not deleted"
)


class Interrupted(Exception):
    """The write stopped before all rows were written; the same command resumes it."""


def write_command(
    df: DataFrame,
    request: WriteRequest,
    *,
    total_rows: int,
    console: Console,
    unit: str = "rows",
) -> int:
    """What ``write``, ``nexmark --output`` and ``changes --output`` run: ``write_files`` until done or
    Ctrl-C (the first stops between batches), its summary printed with the rows called ``unit``
    (``rows``; ``events``, or ``events through q3`` with ``--query q3``; ``changes``); the exit status
    (130 when interrupted).

    Raises:
        FolderRefused: the request's folders are not the write's own.
    """
    stop = StopRequest()
    try:
        with first_interrupt_sets(stop):
            summary = write_files(df, request, total_rows=total_rows, console=console, stop=stop, unit=unit)
    except Interrupted as interrupted:
        console.print(str(interrupted), soft_wrap=True)
        return 130
    console.print(summary, soft_wrap=True)
    return 0


def folder_files(spark: SparkSession, path: str) -> Files:
    """The files of the store that holds ``path`` for Spark: this machine's, or Hadoop's."""
    hadoop = HadoopFiles(spark)
    return LocalFiles() if hadoop.scheme(path) == "file" else hadoop


def write_files(
    rows: DataFrame,
    request: WriteRequest,
    *,
    total_rows: int,
    console: Console,
    stop: StopRequest,
    unit: str,
) -> str:
    """Write the bounded stream ``rows`` (``totalRows`` set) to the request's output folder as files.

    The folders are checked first (``check_folder``), through the file system Spark writes them
    with, and refused unless they are the write's own; then its records are written. The query runs
    under ``Trigger.AvailableNow`` with a checkpoint, so it ends by itself once the stream's last
    row is written, and a run after an interruption continues where the checkpoint stands: the file
    sink's log keeps every row exactly once. Its commit protocol records each data file before a
    task creates it. Once the query has stopped without failing, the files that interrupted runs
    left unlisted go (``remove_unfinished_files``), so that readers other than Spark see each row
    once too.

    Returns the one-line summary, and ``Interrupted``'s message says how far it got: both call the
    rows ``unit``. Raises ``FolderRefused``; ``Interrupted`` when ``stop`` is set first; and the
    query's exception if it failed.
    """
    spark = rows.sparkSession
    files = folder_files(spark, request.output)
    claim = check_folder(files, request)
    take(files, claim)
    output, checkpoint, file_format = claim.output, claim.checkpoint, request.file_format
    started = time.monotonic()
    with _recording_files(spark) as recording:
        if not recording:
            console.print(NOT_RECORDING, soft_wrap=True)
        query = _start(rows, output, checkpoint, file_format)
        first, last = _follow(query, total_rows, started, console, stop)
    failure = query.exception()
    if failure is not None:
        raise failure
    # Only now: while this query ran, files it had not yet listed were its own batch in flight.
    removed, kept = remove_unfinished_files(spark, files, claim, file_format, rows.schema)
    if removed:
        console.print(
            f"removed {len(removed):,} unfinished file(s) from {request.output}: "
            "a batch stopped before its commit made them",
            soft_wrap=True,
        )
    if kept:
        console.print(
            f"kept {len(kept):,} file(s) in {request.output} that the file sink's log does not list and "
            f"this write {'did not make' if recording else 'could not record'} "
            f"({', '.join(kept[:3])}{', ...' if len(kept) > 3 else ''}): Spark's readers skip them, other "
            "readers read them",
            soft_wrap=True,
        )
    elapsed = time.monotonic() - started
    done = last.rows_read if last else 0
    this_run = done - first.rows_before if first and last else 0
    output = request.output
    if stop.is_set() and done < total_rows:
        raise Interrupted(
            f"interrupted with {done:,} of {total_rows:,} {unit} written to {output}; "
            "run the same command again to resume"
        )
    if done != total_rows:
        raise RuntimeError(
            f"the stream ended at {done:,} rows, not {total_rows:,}: the checkpoint {checkpoint} "
            "had already passed --total-rows; give the --total-rows it was made with"
        )
    return (
        f"wrote {total_rows:,} {unit} to {output} as {file_format} ({this_run:,} in this run, "
        f"{elapsed:.1f} s, {this_run / elapsed:,.0f} {unit}/s); checkpoint: {checkpoint}"
    )


def _follow(
    query: StreamingQuery, total_rows: int, started: float, console: Console, stop: StopRequest
) -> tuple[StreamPosition | None, StreamPosition | None]:
    """Show the query's progress until it ends or ``stop`` is set, then stop it between batches;
    return where it stood at its first and its last progress report."""
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
    return first, last


def _start(rows: DataFrame, output: str, checkpoint: str, file_format: str) -> StreamingQuery:
    """Start the write's query, its file sink recording each data file before creating it."""
    return (
        rows.writeStream.format(file_format)
        .option("path", output)
        .option("checkpointLocation", checkpoint)
        .trigger(availableNow=True)
        .start()
    )


@contextlib.contextmanager
def _recording_files(spark: SparkSession) -> Iterator[bool]:
    """While inside, the session's file sinks record each data file before creating it: the file
    sink reads the setting from the session at every batch, so it holds until the query has ended.
    Yields whether they do: not where the driver cannot load the jar's protocol (a session whose
    jar came after its JVM started, as under spark-submit without --jars, reads the Python source
    and has no class of the jar). A write that records nothing deletes nothing."""
    if not driver_loads(spark, RECORDING_PROTOCOL):
        yield False
        return
    with session_setting(spark, PROTOCOL_SETTING, RECORDING_PROTOCOL):
        yield True


def remove_unfinished_files(
    spark: SparkSession, files: Files, claim: Claim, file_format: str, schema: StructType
) -> tuple[list[str], list[str]]:
    """Delete the data files in the write's output folder that its query made and the file sink's log
    does not list; return their names, and those of the unlisted files it did not make, which stay.

    Spark's file sink writes a batch's files straight into the output folder and then lists
    them in its log (``_spark_metadata``); a batch is in the output once its log entry is
    written. A run killed in between leaves files no log lists: whole, partial or empty, and a
    rerun writes that batch's rows again into new files. Spark's own reader lists the files
    through the log and never sees them; every other reader (pyarrow, pandas, DuckDB, polars)
    reads every file in the folder. So they go, once no query of this write is running (not
    before a run: a second run started by mistake beside a running one would delete the first
    one's batch in flight). Only files the write's query recorded before creating them are
    touched (``write.records.pending_files``): a file of the same name pattern that the write
    did not make stays, and so does anything else in the folder. The records then go.

    The listing of committed files is Spark's: a read of the folder goes through the sink's log.
    """
    output = claim.output
    committed: set[str] = set()
    if files.kind(child(output, SINK_LOG)) == "folder":
        listed = spark.read.format(file_format).schema(schema).load(output).inputFiles()
        committed = {uri.rsplit("/", 1)[-1] for uri in listed}
    made = pending_files(files, output)
    removed: list[str] = []
    kept: list[str] = []
    for name in unlisted_files(files.entries(output), committed):
        if name in made:
            files.delete(child(output, name))
            removed.append(name)
        else:
            kept.append(name)
    clear_pending(files, output)
    return removed, kept
