"""``spark-random-strings nexmark``: the Nexmark benchmark's events on a local Spark, shown batch by
batch in the terminal or, with ``--output``, written to files, exactly ``--num-events`` of them."""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from spark_random_strings.cli.options import UsageError, add_engine_flag, add_output_flags
from spark_random_strings.cli.real_time import BATCH_DURATION_S
from spark_random_strings.nexmark.table import NEXMARK_FORMAT, NEXMARK_OPTIONS

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

    from spark_random_strings.engine.local import StopRequest
    from spark_random_strings.nexmark.options import NexmarkOptions
    from spark_random_strings.options import SourceOption

#: How often the terminal view reads the events that have come to exist.
TRIGGER_INTERVAL = "1 second"
#: ``--output``'s most events per micro-batch: a file per partition and batch.
EVENTS_PER_TRIGGER = 200_000
#: The kinds of event, by ``event_type``.
KINDS = ("persons", "auctions", "bids")
#: How many of a batch's rows ``--query`` shows.
ROWS_SHOWN = 5
#: Once the stream's last event is read, how long ``--query`` waits without a new batch before it
#: stops: a query with a watermark runs batches without data that close its last windows (one per
#: stateful operator in a chain), each within a trigger interval of the one before.
LAST_BATCH_WAIT_S = 3.0


def add_nexmark_flags(parser: argparse.ArgumentParser) -> None:
    """A flag for each of the ``nexmark`` source's options, and the command's own."""
    for row in NEXMARK_OPTIONS.rows:
        if row.kind is bool:  # realTime: the command's own --real-time view sets it
            continue
        parser.add_argument(
            row.flag, dest=row.keyword, type=row.kind, help=row.described, metavar=row.option.metavar
        )
    from spark_random_strings.nexmark.real_time import REAL_TIME_QUERIES

    parser.add_argument(
        "--real-time",
        action="store_true",
        help="run the events, or --query's rows, in Spark's real-time mode (Spark 4.3 for the queries "
        f"with state), in batches of {BATCH_DURATION_S} s: each row reaches the terminal as it comes, and "
        "the status line shows how long rows took from the newest event they count to the sink (p50, "
        "p99, max), after a warm-up of about two batches. Queries: "
        + ", ".join(REAL_TIME_QUERIES)
        + "; the stream is endless unless --num-events says otherwise, read in 1 partition unless "
        "--num-partitions does (default: off)",
    )
    parser.add_argument(
        "--duration",
        type=float,
        metavar="SECONDS",
        help="stop the terminal view after this many seconds (default: run until the stream's "
        "--num-events have come, or Ctrl-C)",
    )
    add_output_flags(parser, count_flag="--num-events", unit="events", formats=("parquet", "json"))
    from spark_random_strings.nexmark.queries import QUERY_NAMES

    parser.add_argument(
        "--query",
        choices=QUERY_NAMES,
        metavar="QUERY",
        help="run this Nexmark query (nexmark_queries' names: q0 to q23, q4_closing_prices, q5_counts) "
        "on the events and show its rows batch by batch, or with --output write them (default: the "
        "events themselves)",
    )
    add_engine_flag(parser)


def _keywords(args: argparse.Namespace) -> dict[str, Any]:
    return {row.keyword: getattr(args, row.keyword) for row in NEXMARK_OPTIONS.rows if row.kind is not bool}


def _flag(row: SourceOption) -> str:
    return row.flag


def nexmark_options(args: argparse.Namespace) -> dict[str, str]:
    """The ``nexmark`` source's options that the flags give, with ``--output``'s own default cap.

    Raises:
        UsageError: a flag that only goes with another, or an endless stream to write.
    """
    if args.output is not None and args.num_events == 0:
        raise UsageError("argument --num-events: 0 is an endless stream, and --output writes a bounded one")
    if args.output is None and (args.checkpoint is not None):
        raise UsageError("argument --checkpoint: only with --output")
    if args.output is not None and args.query is not None:
        from spark_random_strings.nexmark.queries import UPDATE_QUERIES

        if args.query in UPDATE_QUERIES:
            raise UsageError(
                f"argument --query: {args.query} writes upserts (update mode), which Spark's file sink "
                "cannot take; without --output the command shows them"
            )
    keywords = _keywords(args)
    if args.real_time:
        from spark_random_strings.cli.nexmark_real_time import check_nexmark_real_time

        check_nexmark_real_time(args)
        keywords["real_time"] = True
        if keywords["num_events"] is None:
            keywords["num_events"] = 0
    if args.output is not None and keywords["max_events_per_trigger"] is None:
        keywords["max_events_per_trigger"] = EVENTS_PER_TRIGGER
    return NEXMARK_OPTIONS.options(keywords, "nexmark")


def parsed_nexmark(args: argparse.Namespace) -> NexmarkOptions:
    """The flags as the ``nexmark`` source's options, parsed and checked as the source does at
    ``load()``, before Spark starts.

    Raises:
        UsageError: on the flag of the option the source's message names.
    """
    from spark_random_strings.nexmark.options import parse_nexmark_options

    try:
        return parse_nexmark_options(nexmark_options(args))
    except ValueError as error:
        raise nexmark_usage_error(str(error)) from None


def open_nexmark(spark: SparkSession, args: argparse.Namespace) -> DataFrame:
    """The ``nexmark`` source with the flags given; a value it rejects becomes a UsageError on its flag."""
    from pyspark.errors import IllegalArgumentException

    from spark_random_strings.engine.choice import engine_stream, jar_stream, python_stream
    from spark_random_strings.nexmark.options import parse_nexmark_options
    from spark_random_strings.nexmark.read import data_source

    given = nexmark_options(args)
    try:
        return engine_stream(
            spark,
            args.engine,
            "nexmark",
            jar=lambda: jar_stream(spark, NEXMARK_FORMAT, given),
            python=lambda: python_stream(spark, data_source, given, lambda: parse_nexmark_options(given)),
            fallback=f"This Spark session has no {NEXMARK_FORMAT} jar, so the nexmark command reads the "
            "Python data source, which makes the same events",
        )
    except IllegalArgumentException as error:
        raise nexmark_usage_error(str(error).strip().splitlines()[0]) from None


def nexmark_usage_error(message: str) -> UsageError:
    """The source's message as a usage error of the flag of the option it names first."""
    about = NEXMARK_OPTIONS.first_named(message)
    if about is None:
        return UsageError(message)
    # argparse's own form: "argument --flag: invalid value '0': out of range. ...".
    text = NEXMARK_OPTIONS.renamed(message, _flag).replace(f" for {about.flag}", "", 1)
    return UsageError(f"argument {about.flag}: {text[0].lower()}{text[1:]}")


def run_nexmark(args: argparse.Namespace, events: DataFrame, console: Console) -> int:
    """Show the events (or ``--query``'s rows) batch by batch, or write them with ``--output``."""
    from spark_random_strings.engine.local import StopRequest, first_interrupt_sets

    if args.real_time:
        from spark_random_strings.cli.nexmark_real_time import run_nexmark_in_real_time

        return run_nexmark_in_real_time(args, events, console, rows_shown=ROWS_SHOWN)
    num_events = 100_000 if args.num_events is None else args.num_events
    rows = events if args.query is None else query_rows(events, args.query)
    if args.output is not None:
        from spark_random_strings.write.command import write_command

        unit = "events" if args.query is None else f"events through {args.query}"
        return write_command(rows, args.write_request, total_rows=num_events, console=console, unit=unit)
    stop = StopRequest()
    with first_interrupt_sets(stop):
        if args.query is None:
            events_read, summary = show_batches(
                events, num_events=num_events or None, duration_s=args.duration, stop=stop, console=console
            )
        else:
            events_read, summary = show_query_batches(
                rows,
                args.query,
                num_events=num_events or None,
                duration_s=args.duration,
                stop=stop,
                console=console,
            )
    console.print(summary, soft_wrap=True, markup=False)
    return 0 if events_read > 0 else 1


def query_rows(events: DataFrame, name: str) -> DataFrame:
    """``name``'s rows of the events; the session takes the RocksDB state store first where the
    query keeps its state with ``transformWithState`` (the command owns its session)."""
    from spark_random_strings.nexmark.queries import (
        QUERIES,
        ROCKSDB_PROVIDER,
        STATE_STORE_PROVIDER,
        TRANSFORM_WITH_STATE_QUERIES,
    )

    if name in TRANSFORM_WITH_STATE_QUERIES:
        events.sparkSession.conf.set(STATE_STORE_PROVIDER, ROCKSDB_PROVIDER)
    rows: DataFrame = QUERIES[name](events)
    return rows


def show_query_batches(
    rows: DataFrame,
    name: str,
    *,
    num_events: int | None,
    duration_s: float | None,
    stop: StopRequest,
    console: Console,
) -> tuple[int, str]:
    """After every batch with rows, print how many the query ``name`` wrote and the first
    ``ROWS_SHOWN``, until the stream's ``num_events`` have been read and ``LAST_BATCH_WAIT_S``
    passed without a batch (those without data close the last windows), ``duration_s`` passes or
    ``stop`` is set. Update-mode queries (``UPDATE_QUERIES``) write upserts.

    Returns the events read and the one-line summary. Raises the query's exception if it failed.
    """
    from spark_random_strings.cli.stream import run_until_done
    from spark_random_strings.engine.progress import current_position
    from spark_random_strings.nexmark.queries import UPDATE_QUERIES

    mode = "update" if name in UPDATE_QUERIES else "append"
    what = "upserts" if mode == "update" else "rows"
    written = [0, 0]  # rows, batches with rows

    def show(batch: DataFrame, batch_id: int) -> None:
        count = batch.count()
        if not count:
            return
        written[:] = [written[0] + count, written[1] + 1]
        console.print(Text(f"batch {batch_id}: {count:,} {what} of {name}"), soft_wrap=True)
        for row in batch.limit(ROWS_SHOWN).collect():
            console.print(Text("  " + ", ".join(_shown(value) for value in row)), soft_wrap=True)
        if count > ROWS_SHOWN:
            console.print(Text(f"  ... and {count - ROWS_SHOWN:,} more"), soft_wrap=True)

    started = time.monotonic()
    query = (
        rows.writeStream.outputMode(mode).foreachBatch(show).trigger(processingTime=TRIGGER_INTERVAL).start()
    )
    latest: list[tuple[int, float]] = []  # once every event is read: the latest batch, when first seen

    def watch(elapsed: float) -> None:
        position = current_position(query)
        if num_events is None or position is None or position.rows_read < num_events:
            return
        if not latest or position.batch_id != latest[0][0]:
            latest[:] = [(position.batch_id, elapsed)]
        elif elapsed - latest[0][1] >= LAST_BATCH_WAIT_S:
            stop.set()

    elapsed = run_until_done(query, started=started, duration_s=duration_s, stop=stop, every_tick=watch)
    position = current_position(query)
    read = position.rows_read if position is not None else 0
    return read, (
        f"spark-random-strings nexmark --query {name}: {written[0]:,} {what} in {written[1]:,} batches "
        f"from {read:,} events in {elapsed:.1f} s"
    )


def _shown(value: object) -> str:
    """A cell as the terminal shows it: a time to the millisecond."""
    from datetime import datetime

    if isinstance(value, datetime):
        return value.isoformat(sep=" ", timespec="milliseconds")
    return str(value)


def show_batches(
    events: DataFrame,
    *,
    num_events: int | None,
    duration_s: float | None,
    stop: StopRequest,
    console: Console,
) -> tuple[int, str]:
    """After every batch, print its events by kind, the event time it reached, and its highest bid,
    until the stream's ``num_events`` have come (``None``: endless), ``duration_s`` passes or
    ``stop`` is set.

    Returns the events read and the one-line summary. Raises the query's exception if it failed.
    """
    from pyspark.sql import functions as f

    from spark_random_strings.cli.stream import run_until_done

    totals = [0, 0, 0]

    def show(batch: DataFrame, batch_id: int) -> None:
        row = batch.agg(
            *(f.sum((f.col("event_type") == kind).cast("long")).alias(KINDS[kind]) for kind in range(3)),
            f.max("dateTime").alias("until"),
            f.max("bid.price").alias("top"),
        ).collect()[0]
        counts = [row[kind] or 0 for kind in KINDS]
        if not sum(counts):
            return
        totals[:] = [a + b for a, b in zip(totals, counts, strict=True)]
        top = "" if row["top"] is None else f"; highest bid {row['top']:,}"
        console.print(
            Text(
                f"batch {batch_id}: {sum(counts):,} events ("
                + ", ".join(f"{n:,} {kind}" for n, kind in zip(counts, KINDS, strict=True))
                + f"), event time up to {row['until'].isoformat(sep=' ', timespec='milliseconds')}{top}"
            ),
            soft_wrap=True,
        )
        if num_events is not None and sum(totals) >= num_events:
            stop.set()  # the stream has ended: stop once this batch is done

    started = time.monotonic()
    query = events.writeStream.foreachBatch(show).trigger(processingTime=TRIGGER_INTERVAL).start()
    elapsed = run_until_done(query, started=started, duration_s=duration_s, stop=stop)
    read = sum(totals)
    return read, (
        f"spark-random-strings nexmark: {read:,} events ("
        + ", ".join(f"{n:,} {kind}" for n, kind in zip(totals, KINDS, strict=True))
        + f") in {elapsed:.1f} s"
    )
