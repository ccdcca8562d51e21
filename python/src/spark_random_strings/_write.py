"""``spark-random-strings write``: exactly N rows into files, resumable, with a progress bar."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from spark_random_strings._local import StopRequest, first_interrupt_sets, stop_between_batches
from spark_random_strings._progress import StreamPosition, current_position, first_position

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

#: The names Spark's file sink gives its data files: ``part-<task>-<uuid>-c<file>.<extension>``,
#: e.g. ``part-00001-6c1f…-c000.snappy.parquet``.
_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_SINK_FILE = re.compile(rf"part-\d{{5,}}-{_UUID}-c\d{{3,}}\..+")


class Interrupted(Exception):
    """The write stopped before all rows were written; the same command resumes it."""


def write_command(
    df: DataFrame,
    *,
    total_rows: int,
    file_format: str,
    output: str,
    checkpoint: str | None,
    console: Console,
    unit: str = "rows",
) -> int:
    """What ``write`` and ``nexmark --output`` run: ``write_files`` until done or Ctrl-C (the first
    stops between batches), its summary printed with the rows called ``unit``; the exit status
    (130 when interrupted)."""
    output = output.rstrip("/") or "/"
    stop = StopRequest()
    try:
        with first_interrupt_sets(stop):
            summary = write_files(
                df,
                total_rows=total_rows,
                file_format=file_format,
                output=output,
                checkpoint=checkpoint or f"{output}/_checkpoint",
                console=console,
                stop=stop,
            )
    except Interrupted as interrupted:
        console.print(str(interrupted).replace(" rows", f" {unit}"), soft_wrap=True)
        return 130
    console.print(summary.replace(" rows", f" {unit}"), soft_wrap=True)
    return 0


def write_files(
    strings: DataFrame,
    *,
    total_rows: int,
    file_format: str,
    output: str,
    checkpoint: str,
    console: Console,
    stop: StopRequest,
) -> str:
    """Write the bounded stream ``strings`` (``totalRows`` set) to ``output`` as files.

    The query runs under ``Trigger.AvailableNow`` with a checkpoint, so it ends by itself once
    the stream's last row is written, and a run after an interruption continues where the
    checkpoint stands: the file sink's log keeps every row exactly once. Once the query has
    stopped without failing, the files that interrupted runs left unlisted go
    (``remove_uncommitted_files``), so that readers other than Spark see each row once too.

    Returns the one-line summary. Raises ``Interrupted`` when ``stop`` is set first, and
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
    # Only now: while this query ran, files it had not yet listed were its own batch in flight.
    removed = remove_uncommitted_files(strings.sparkSession, output, file_format, strings.schema)
    if removed:
        console.print(
            f"removed {len(removed):,} unfinished file(s) that an interrupted run left in {output}",
            soft_wrap=True,
        )
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


def remove_uncommitted_files(
    spark: SparkSession, output: str, file_format: str, schema: StructType
) -> list[str]:
    """Delete the data files in ``output`` that the file sink's log does not list; return their names.

    Spark's file sink writes a batch's files straight into the output folder and then lists
    them in its log (``_spark_metadata``); a batch is in the output once its log entry is
    written. A run killed in between leaves files no log lists: whole, partial or empty, and a
    rerun writes that batch's rows again into new files. Spark's own reader lists the files
    through the log and never sees them; every other reader (pyarrow, pandas, DuckDB, polars)
    reads every file in the folder. So they go, once no query of this write is running (not
    before a run: a second run started by mistake beside a running one would delete the first
    one's batch in flight). Only names in the sink's own pattern are touched; nothing else in
    the folder is.

    The listing of committed files is Spark's: a read of ``output`` goes through the sink's log
    when the folder has one. The files are listed and deleted through Hadoop's FileSystem, so
    any store Spark writes to works the same.
    """
    jvm = spark._jvm
    assert jvm is not None, "the write runs on a local (classic) session"
    hadoop_path = jvm.org.apache.hadoop.fs.Path
    folder = hadoop_path(output)
    fs = folder.getFileSystem(spark._jsc.hadoopConfiguration())
    if not fs.isDirectory(folder):
        return []
    committed: set[str] = set()
    if fs.exists(hadoop_path(folder, "_spark_metadata")):
        listed = spark.read.format(file_format).schema(schema).load(output).inputFiles()
        committed = {uri.rsplit("/", 1)[-1] for uri in listed}
    removed: list[str] = []
    for status in fs.listStatus(folder):
        name = status.getPath().getName()
        if status.isFile() and _SINK_FILE.fullmatch(name) and name not in committed:
            fs.delete(status.getPath(), False)
            removed.append(name)
    return sorted(removed)
