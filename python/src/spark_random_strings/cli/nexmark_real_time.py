"""``spark-random-strings nexmark --real-time``: the events, or a query's real-time form, in Spark's
real-time mode (``cli/real_time.py`` shows the rows and their latency), and what the flag cannot
go with, refused before Spark starts."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from spark_random_strings.cli.options import UsageError

if TYPE_CHECKING:
    from pyspark.sql import DataFrame
    from rich.console import Console


def shuffled(args: argparse.Namespace) -> bool:
    """Whether the command runs a real-time query that passes a shuffle (``nexmark --query``'s): a
    second stage of long-running tasks, a slot more per partition."""
    from spark_random_strings.nexmark.real_time import SHUFFLED_REAL_TIME

    return args.command == "nexmark" and args.query in SHUFFLED_REAL_TIME


def check_nexmark_real_time(args: argparse.Namespace) -> None:
    """Refuse, before Spark starts, what ``--real-time`` cannot run with.

    Raises:
        UsageError: on the flag that cannot go with it.
    """
    from spark_random_strings.engine.choice import pyspark_line
    from spark_random_strings.nexmark.real_time import REAL_TIME_QUERIES, STATEFUL_REAL_TIME

    if args.output is not None:
        raise UsageError(
            "argument --output: real-time mode writes to console, foreach and Kafka sinks, not to files; "
            "leave out --output or --real-time"
        )
    if args.query in STATEFUL_REAL_TIME and pyspark_line() < (4, 3):
        raise UsageError(
            f"argument --query: real-time mode runs {args.query}'s state from Spark 4.3 on; this is Spark "
            f"{'.'.join(map(str, pyspark_line()))}. Without --real-time it runs in micro-batches"
        )
    if args.query is not None and args.query not in REAL_TIME_QUERIES:
        raise UsageError(
            f"argument --query: {args.query} does not run in Spark's real-time mode (its operators are "
            f"not on Spark 4.3's list for it). Allowed with --real-time: {', '.join(REAL_TIME_QUERIES)}"
        )
    if args.max_events_per_trigger is not None:
        raise UsageError(
            f"argument --max-events-per-trigger: {args.max_events_per_trigger} limits the events of a "
            "micro-batch, and --real-time runs real-time batches, which read each event as it comes to "
            "exist. Leave out --max-events-per-trigger or --real-time."
        )


def run_nexmark_in_real_time(
    args: argparse.Namespace, events: DataFrame, console: Console, *, rows_shown: int
) -> int:
    """Show the events (or ``--query``'s rows, in their real-time form) as they reach the sink, in
    real-time mode, with the session settings of ``nexmark.real_time`` (the command owns its
    session): a shuffle partition per source partition, RocksDB's state store, and
    ``REAL_TIME_SETTINGS``."""
    from spark_random_strings.cli.real_time import rows_in_real_time
    from spark_random_strings.engine.local import StopRequest, first_interrupt_sets
    from spark_random_strings.nexmark.queries import ROCKSDB_PROVIDER, STATE_STORE_PROVIDER
    from spark_random_strings.nexmark.real_time import REAL_TIME_QUERIES, REAL_TIME_SETTINGS

    conf = events.sparkSession.conf
    for key, value in {
        "spark.sql.shuffle.partitions": str(args.num_partitions),
        STATE_STORE_PROVIDER: ROCKSDB_PROVIDER,
        **REAL_TIME_SETTINGS,
    }.items():
        conf.set(key, value)
    rows = events if args.query is None else REAL_TIME_QUERIES[args.query](events)
    stop = StopRequest()
    with first_interrupt_sets(stop):
        summary = rows_in_real_time(
            rows,
            of=args.query or "the events",
            console=console,
            rows_shown=rows_shown,
            duration_s=args.duration,
            stop=stop,
        )
    console.print(summary, soft_wrap=True, markup=False)
    return 0
