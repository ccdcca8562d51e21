"""The ``spark-random-strings`` command (also ``python -m spark_random_strings``).

``spark-random-strings stream`` shows the live stream in the terminal under a one-line status
(with ``--real-time``, in Spark's real-time mode, with the rows' latency);
``spark-random-strings write --total-rows N --format parquet --output PATH`` writes exactly N
rows to files through a checkpointed streaming query, resumable after an interruption;
``spark-random-strings demo`` counts the strings by length, batch by batch (``make demo`` runs
it); ``spark-random-strings nexmark`` shows the Nexmark benchmark's events batch by batch (or
a query's rows; with ``--real-time``, in real-time mode, with their latency), or with
``--output`` writes exactly ``--num-events`` of them to files; ``spark-random-strings changes``
counts a change stream's changes batch by batch, or with ``--output`` writes exactly
``--total-rows`` of them to files. Each starts a local Spark session
with the bundled jar. Every source option is a flag;
``stream``, ``write`` and ``changes`` also take typed columns: ``--schema DDL`` and a repeatable
``--field PATH.PROPERTY=VALUE``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from rich.console import Console

from spark_random_strings.cli.changes import add_changes_flags, open_changes, parsed_changes, run_changes
from spark_random_strings.cli.nexmark import add_nexmark_flags, open_nexmark, parsed_nexmark, run_nexmark
from spark_random_strings.cli.nexmark_real_time import shuffled
from spark_random_strings.cli.options import (
    UsageError,
    add_engine_flag,
    add_schema_flags,
    add_source_flags,
    open_stream,
    parsed,
    unrecognized,
)
from spark_random_strings.cli.real_time import REAL_TIME_HELP, check_real_time, real_time_cores
from spark_random_strings.cli.write import check_before_spark, write_request
from spark_random_strings.engine.choice import pyspark_line
from spark_random_strings.engine.local import StopRequest, first_interrupt_sets
from spark_random_strings.write.request import FolderRefused

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

PROG = "spark-random-strings"

#: ``write``'s own defaults and requirements, where they differ from the source's.
WRITE_ROWS_PER_TRIGGER = 100_000
#: ``write``'s flag for the Nexmark events: the ``nexmark`` command with ``--output``.
NEXMARK_FLAG = "--nexmark"
#: ``demo``'s own defaults: a rate and lengths that a terminal shows well.
DEMO_DEFAULTS: dict[str, Any] = {"rows_per_second": 50, "min_length": 1, "max_length": 8}
DEMO_SECONDS = 20.0
FORMATS = ("parquet", "json", "csv")


def _positive(kind: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse type: a number of ``kind`` above zero (for the tool's own flags)."""

    def parse(text: str) -> Any:
        value = kind(text)
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be above 0, got {text!r}")
        return value

    parse.__name__ = kind.__name__
    return parse


def version_text() -> str:
    """What ``--version`` prints: the package's version, and the jar it would put on a session
    here (the one built for the Spark that pyspark runs), or why there is none."""
    from importlib.metadata import version

    import pyspark

    from spark_random_strings.engine.jar import UnsupportedSparkError, jar_path

    try:
        jar = str(jar_path())
    except UnsupportedSparkError as error:
        jar = f"none: {error}"
    return f"{PROG} {version('spark-random-strings')} (pyspark {pyspark.__version__})\njar: {jar}"


class _VersionAction(argparse.Action):
    """``--version``: print ``version_text`` and exit, as argparse's own version action
    does, but find the jar only when asked."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **_: Any) -> None:
        super().__init__(
            option_strings, dest, nargs=0, help="print the version and the jar it would use, and exit"
        )

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        print(version_text())
        parser.exit(0)


class _Parser(argparse.ArgumentParser):
    """argparse, with errors in one line (the usage is one ``--help`` away)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The parser of the command and its subcommands."""
    parser = _Parser(
        prog=PROG,
        description="Stream random strings through a local Spark, with the InMemoryRandomStrings source.",
        epilog=f"Run `{PROG} COMMAND --help` for a command's flags and their defaults.",
    )
    parser.add_argument("--version", action=_VersionAction)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in (_add_stream, _add_write, _add_demo):
        command = add(commands)
        command.set_defaults(open=open_stream)
        add_engine_flag(command)
        command.add_argument("--verbose", action="store_true", help="show Spark's own log (default: silent)")
    _add_nexmark(commands)
    _add_changes(commands)
    return parser


def _add_stream(commands: Any) -> argparse.ArgumentParser:
    """``stream``: the live stream in the terminal."""
    stream: argparse.ArgumentParser = commands.add_parser(
        "stream",
        help="show the live stream in the terminal",
        description="Show the live stream in the terminal: each second's rows (offset, event "
        "time, length, value) under a one-line status. With --real-time, each row as it comes "
        "to exist, and how long rows take to reach the terminal's sink. Ctrl-C stops it.",
    )
    add_source_flags(
        stream,
        real_time={"help": REAL_TIME_HELP},
        num_partitions={
            "help": "partitions (tasks) per batch "
            "(default: the session's default parallelism; 1 with --real-time)"
        },
    )
    add_schema_flags(stream)
    stream.add_argument(
        "--duration",
        type=_positive(float),
        metavar="SECONDS",
        help="stop after this many seconds (default: run until Ctrl-C)",
    )
    stream.add_argument(
        "--rows-shown",
        type=_positive(int),
        default=20,
        metavar="N",
        help="the most rows printed per batch (with --real-time: per refresh, four a second, at "
        "most the 20 the sink keeps); the status counts all (default: 20)",
    )
    stream.set_defaults(run=_run_stream, parser=stream)
    return stream


def _add_write(commands: Any) -> argparse.ArgumentParser:
    """``write``: exactly N rows into files."""
    write: argparse.ArgumentParser = commands.add_parser(
        "write",
        help="write exactly N rows to files",
        description="Write exactly N rows to files through a streaming query with a "
        "checkpoint. Run the same command again after an interruption: it resumes, and the "
        "output ends with exactly N rows.",
    )
    add_source_flags(
        write,
        {"max_rows_per_trigger": WRITE_ROWS_PER_TRIGGER},
        total_rows={"required": True, "help": "how many rows to write (required)"},
        real_time={"help": argparse.SUPPRESS},  # refused in main, with why
    )
    add_schema_flags(write)
    write.add_argument(
        "--format",
        dest="file_format",
        choices=FORMATS,
        default="parquet",
        help="the file format (default: parquet)",
    )
    write.add_argument("--output", required=True, metavar="PATH", help="the output folder (required)")
    write.add_argument(
        "--checkpoint",
        metavar="PATH",
        help="the query's checkpoint folder (default: PATH/_checkpoint under --output)",
    )
    write.add_argument(
        NEXMARK_FLAG,
        action="store_true",
        help="write the Nexmark benchmark's events instead, exactly --num-events of them, with the "
        "nexmark command's flags (spark-random-strings nexmark --help), as nexmark --output does "
        "(default: the random strings)",
    )
    write.set_defaults(run=_run_write, parser=write)
    return write


def _add_demo(commands: Any) -> argparse.ArgumentParser:
    """``demo``: the strings counted by length, live."""
    demo: argparse.ArgumentParser = commands.add_parser(
        "demo",
        help="count the strings by length, live",
        description="Stream random strings through a local Spark and print the count of "
        "strings per length after every batch, then a one-line summary. Ctrl-C stops it.",
    )
    add_source_flags(demo, DEMO_DEFAULTS, real_time={"help": argparse.SUPPRESS})
    demo.add_argument(
        "--duration",
        type=_positive(float),
        default=DEMO_SECONDS,
        metavar="SECONDS",
        help=f"stop after this many seconds of strings, counted from the first (default: {DEMO_SECONDS:g})",
    )
    demo.set_defaults(run=_run_demo, parser=demo)
    return demo


def _add_nexmark(commands: Any) -> None:
    """``nexmark``: the Nexmark events, shown or written to files."""
    nexmark: argparse.ArgumentParser = commands.add_parser(
        "nexmark",
        help="the Nexmark benchmark's events, shown or written to files",
        description="Stream the Nexmark benchmark's events (Apache Beam's generator, every field "
        "equal) through a local Spark and show each batch's events by kind, or with --output write "
        "exactly --num-events of them to files. Flags are Beam's NexmarkConfiguration options. "
        "Ctrl-C stops it.",
    )
    add_nexmark_flags(nexmark)
    nexmark.add_argument("--verbose", action="store_true", help="show Spark's own log (default: silent)")
    nexmark.set_defaults(run=run_nexmark, parser=nexmark, open=open_nexmark)


def _add_changes(commands: Any) -> None:
    """``changes``: a change stream, counted or written to files."""
    changes: argparse.ArgumentParser = commands.add_parser(
        "changes",
        help="a change stream (inserts, updates, deletes over a keyspace), counted or written to files",
        description="Stream a change stream (inserts, updates and deletes over a keyspace of --keys "
        "keys, in the declared columns, in the --envelope chosen) through a local Spark and show each "
        "batch's changes by what they do, or with --output write exactly --total-rows changes to "
        "files: expected_table gives the table they leave. Ctrl-C stops it.",
    )
    add_changes_flags(changes)
    changes.add_argument("--verbose", action="store_true", help="show Spark's own log (default: silent)")
    changes.set_defaults(run=run_changes, parser=changes, open=open_changes, real_time=False)


def _run_stream(args: argparse.Namespace, strings: DataFrame, console: Console) -> int:
    from spark_random_strings.cli.stream import stream_to_terminal
    from spark_random_strings.time.rate_profile import parse_rate_profile

    declared = args.schema is not None
    stop = StopRequest()
    if args.real_time:
        from spark_random_strings.cli.real_time import stream_in_real_time

        with first_interrupt_sets(stop):
            summary = stream_in_real_time(
                strings,
                console=console,
                rows_shown=args.rows_shown,
                duration_s=args.duration,
                stop=stop,
                partitions=args.num_partitions,
                timestamp_column=bool(args.timestamp_column),
                declared=declared,
            )
        console.print(summary, soft_wrap=True, markup=False)
        return 0
    # load() has checked the profile already: parsing it again cannot fail.
    profile = None if args.rate_profile is None else parse_rate_profile(args.rate_profile)
    with first_interrupt_sets(stop):
        summary = stream_to_terminal(
            strings,
            console=console,
            rows_shown=args.rows_shown,
            duration_s=args.duration,
            stop=stop,
            profile=profile,
            declared=declared,
            offset_column=parsed(args).definition(0, 0).offset_column(),
        )
    console.print(summary, soft_wrap=True)
    return 0


def _run_demo(args: argparse.Namespace, strings: DataFrame, console: Console) -> int:
    from spark_random_strings.cli.demo import count_by_length

    stop = StopRequest()
    with first_interrupt_sets(stop):
        rows, summary = count_by_length(strings, duration_s=args.duration, stop=stop, console=console)
    # Not markup: the source's description is in brackets.
    console.print(summary, soft_wrap=True, markup=False)
    # A demo that showed no rows did not work, even if nothing failed.
    return 0 if rows > 0 else 1


def _demo_heading(args: argparse.Namespace) -> str:
    import pyspark

    from spark_random_strings.cli.demo import heading

    return heading(
        rows_per_second=None if args.rate_profile is not None else args.rows_per_second,
        min_length=args.min_length,
        max_length=args.max_length,
        spark_version=pyspark.__version__,
    )


def _run_write(args: argparse.Namespace, strings: DataFrame, console: Console) -> int:
    from spark_random_strings.write.command import write_command

    return write_command(strings, args.write_request, total_rows=args.total_rows, console=console)


def main(argv: list[str] | None = None) -> int:
    """Run the command; return its exit status (2 for a bad flag, 130 after Ctrl-C)."""
    from spark_random_strings.engine.local import local_session

    words = list(sys.argv[1:] if argv is None else argv)
    nexmark_write = words[:1] == ["write"] and NEXMARK_FLAG in words
    if nexmark_write:
        # write --nexmark is the nexmark command writing files: its flags, and --output required.
        words = ["nexmark", *(word for word in words[1:] if word != NEXMARK_FLAG)]
    args, unknown = build_parser().parse_known_args(words)
    command: argparse.ArgumentParser = args.parser
    if nexmark_write and args.output is None:
        command.error(f"the following arguments are required with write {NEXMARK_FLAG}: --output")
    if unknown:
        command.error(unrecognized(unknown, command))
    run: Callable[[argparse.Namespace, DataFrame, Console], int] = args.run
    writes = args.command == "write" or (args.command in ("nexmark", "changes") and args.output is not None)
    if writes and args.engine == "python" and (4, 0) <= pyspark_line() < (4, 2):
        # Spark 4.0 and 4.1 run a Python source under Trigger.AvailableNow as one batch of the
        # rows that exist at the start: none, on a first start. The write would end short.
        command.error(
            f"argument --engine: {'write' if args.command == 'write' else args.command + ' --output'} "
            "runs under Trigger.AvailableNow, which the Python data "
            f"source has from Spark 4.2 on; this is Spark {'.'.join(map(str, pyspark_line()))}. "
            "Use --engine jvm (its jar comes with this package)."
        )
    cores = None
    if args.real_time:
        if args.num_partitions is None:  # one by default: its task takes a core for the whole batch
            args.num_partitions = 1
        cores = real_time_cores(args.num_partitions * (2 if shuffled(args) else 1))
    spark = None
    console = Console(highlight=False)
    try:
        if run is run_nexmark:  # the source's checks, before Spark starts
            parsed_nexmark(args)
        elif run is run_changes:
            parsed_changes(args)
        else:
            parsed(args)
        if writes:  # whose folders they are, before Spark starts where it need not
            args.write_request = write_request(args)
            check_before_spark(args.write_request)
        if args.real_time:
            check_real_time(args, command)
        if run is _run_demo:  # what it shows, before Spark takes its few seconds to start
            console.print(_demo_heading(args), markup=False)
        spark = local_session(
            PROG, cores=cores, log_level="WARN" if args.verbose else "OFF", silent_jvm=not args.verbose
        )
        return run(args, args.open(spark, args), console)
    except (UsageError, FolderRefused) as error:
        command.error(str(error))
    except KeyboardInterrupt:
        print(f"{command.prog}: interrupted", file=sys.stderr)
        return 130
    except Exception as error:
        if args.verbose:
            raise
        lines = str(error).strip().splitlines() or [type(error).__name__]
        print(f"{command.prog}: error: {lines[0]} (--verbose shows more)", file=sys.stderr)
        return 1
    finally:
        if spark is not None:
            spark.stop()
