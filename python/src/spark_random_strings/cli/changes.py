"""``spark-random-strings changes``: a change stream on a local Spark, each batch's changes counted
by what they do in the terminal or, with ``--output``, written to files, exactly ``--total-rows``
changes (an exact dataset: ``expected_table`` gives the table they leave)."""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from spark_random_strings.changes.keywords import BATCH_NAMES, CHANGE_OPTIONS, DEFAULT_SCHEMA
from spark_random_strings.cli.options import (
    UsageError,
    add_engine_flag,
    add_output_flags,
    add_schema_flags,
    field_options,
    usage_error,
)
from spark_random_strings.options import REAL_TIME

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

    from spark_random_strings.changes.options import ChangeOptions
    from spark_random_strings.engine.local import StopRequest

#: How often the terminal view reads the changes that have come to exist.
TRIGGER_INTERVAL = "1 second"
#: ``--output``'s most changes per micro-batch: a file per partition and batch.
CHANGES_PER_TRIGGER = 100_000
#: The file formats ``--output`` writes: each holds every envelope (Debezium's structs too).
FORMATS = ("parquet", "json")


#: The stream's options that have no flag: a batch read's (asOf, history), and realTime (the
#: terminal view and the files are micro-batch queries).
NO_FLAG = (*BATCH_NAMES, REAL_TIME)


def add_changes_flags(parser: argparse.ArgumentParser) -> None:
    """A flag for each of the ``changes`` stream's options, ``--schema`` and ``--field``, and the
    command's own."""
    for row in CHANGE_OPTIONS.rows:
        if row.name in NO_FLAG:
            continue
        settings: dict[str, Any] = {"type": row.kind, "help": row.described, "metavar": row.option.metavar}
        if row.kind is bool:  # a switch: given, true; left out, the source's default
            settings = {"action": "store_const", "const": True, "help": row.described}
        parser.add_argument(row.flag, dest=row.keyword, **settings)
    add_schema_flags(parser, default=DEFAULT_SCHEMA)
    parser.add_argument(
        "--duration",
        type=float,
        metavar="SECONDS",
        help="stop the terminal view after this many seconds (default: run until the stream's "
        "--total-rows changes have come, or Ctrl-C)",
    )
    add_output_flags(parser, count_flag="--total-rows", unit="changes", formats=FORMATS)
    add_engine_flag(parser)


def _keywords(args: argparse.Namespace) -> dict[str, Any]:
    return {row.keyword: getattr(args, row.keyword) for row in CHANGE_OPTIONS.rows if row.name not in NO_FLAG}


def changes_options(args: argparse.Namespace) -> dict[str, str]:
    """The ``changes`` source's options that the flags give (``fields.`` options included), with
    ``--output``'s own default cap.

    Raises:
        UsageError: a flag that only goes with another, or an endless stream to write.
    """
    if args.output is not None and args.total_rows is None:
        raise UsageError("argument --total-rows: --output writes a bounded stream: say how many changes")
    if args.output is None and args.checkpoint is not None:
        raise UsageError("argument --checkpoint: only with --output")
    keywords = _keywords(args)
    if args.output is not None and keywords["max_rows_per_trigger"] is None:
        keywords["max_rows_per_trigger"] = CHANGES_PER_TRIGGER
    return CHANGE_OPTIONS.options(keywords, "changes") | field_options(args)


def parsed_changes(args: argparse.Namespace) -> ChangeOptions:
    """The flags as the ``changes`` source's options, parsed and checked as the source does at
    ``load()``, before Spark starts.

    Raises:
        UsageError: on the flag of the option the source's message names.
    """
    from spark_random_strings.changes.options import parse_stream_options

    try:
        return parse_stream_options(changes_options(args), args.schema)
    except ValueError as error:
        raise usage_error(str(error), args.schema is not None, CHANGE_OPTIONS) from None


def open_changes(spark: SparkSession, args: argparse.Namespace) -> DataFrame:
    """The ``changes`` source with the flags given; a value it rejects becomes a UsageError on its flag."""
    from pyspark.errors import IllegalArgumentException

    from spark_random_strings.changes.read import changes_stream

    try:
        return changes_stream(spark, args.engine, "changes", changes_options(args), args.schema)
    except IllegalArgumentException as error:
        raise usage_error(
            str(error).strip().splitlines()[0], args.schema is not None, CHANGE_OPTIONS
        ) from None


def run_changes(args: argparse.Namespace, changes: DataFrame, console: Console) -> int:
    """Show the changes batch by batch, or write them with ``--output``."""
    from spark_random_strings.engine.local import StopRequest, first_interrupt_sets

    # With untidy delivery an offset is a read: totalRows changes take totalRows reads and the copies.
    parsed = parsed_changes(args)
    if args.output is not None:
        from spark_random_strings.write.command import write_command

        assert parsed.positions is not None, "changes_options refuses --output without --total-rows"
        return write_command(
            changes, args.write_request, total_rows=parsed.positions, console=console, unit="changes"
        )
    envelope = parsed.spec.envelope
    stop = StopRequest()
    with first_interrupt_sets(stop):
        read, summary = show_batches(
            changes,
            envelope=envelope,
            total=parsed.positions,
            duration_s=args.duration,
            stop=stop,
            console=console,
        )
    console.print(summary, soft_wrap=True, markup=False)
    return 0 if read > 0 or args.total_rows == 0 else 1


def show_batches(
    changes: DataFrame,
    *,
    envelope: str,
    total: int | None,
    duration_s: float | None,
    stop: StopRequest,
    console: Console,
) -> tuple[int, str]:
    """After every batch, print its changes counted by what their rows do, as the envelope names it,
    and the numbers of its first and last changes, until the stream's ``total`` changes have come
    (``None``: endless), ``duration_s`` passes or ``stop`` is set.

    Returns the changes read and the one-line summary. Raises the query's exception if it failed.
    """
    from pyspark.sql import functions as f

    from spark_random_strings.changes.envelope import ENVELOPE_OF
    from spark_random_strings.cli.stream import run_until_done

    kind, number = ENVELOPE_OF[envelope].kind_column, ENVELOPE_OF[envelope].number_column
    totals: dict[str, int] = {}
    read = [0]

    def show(batch: DataFrame, batch_id: int) -> None:
        # Two small jobs on the batch: made once (the Python engine makes its rows in Python).
        batch = batch.persist()
        try:
            count(batch, batch_id)
        finally:
            batch.unpersist()

    def count(batch: DataFrame, batch_id: int) -> None:
        counts = {
            row["kind"]: row["rows"]
            for row in batch.groupBy(f.col(kind).alias("kind"))
            .count()
            .withColumnRenamed("count", "rows")
            .collect()
        }
        if not counts:
            return
        span = batch.agg(f.min(number), f.max(number), f.count_distinct(number)).first()
        assert span is not None
        first, last, changes_in_batch = span
        read[0] += changes_in_batch
        for name, rows in counts.items():
            totals[name] = totals.get(name, 0) + rows
        console.print(
            Text(
                f"batch {batch_id}: {_changes(changes_in_batch)}, {first:,} to {last:,} ("
                + ", ".join(f"{counts[name]:,} {name}" for name in sorted(counts))
                + ")"
            ),
            soft_wrap=True,
        )
        if total is not None and read[0] >= total:
            stop.set()  # the stream has ended: stop once this batch is done

    if total == 0:
        stop.set()  # an empty stream: nothing will come
    started = time.monotonic()
    query = changes.writeStream.foreachBatch(show).trigger(processingTime=TRIGGER_INTERVAL).start()
    elapsed = run_until_done(query, started=started, duration_s=duration_s, stop=stop)
    rows = ", ".join(f"{totals[name]:,} {name}" for name in sorted(totals))
    return read[0], f"spark-random-strings changes: {_changes(read[0])} ({rows or 'none'}) in {elapsed:.1f} s"


def _changes(n: int) -> str:
    return f"{n:,} change{'' if n == 1 else 's'}"
