"""The spark-random-strings command. Its flags, help and refusals are checked in this process,
through its main function (they need no Spark), and each entry point, the console script and
``python -m``, once in a child process; what streams and writes is driven as a user drives it,
in a child process."""

from __future__ import annotations

import dataclasses
import re
import signal
import subprocess
import sys
import threading
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from types import FrameType
from typing import Any

import pyspark
import pytest
from pyspark.sql import SparkSession

import spark_random_strings
from helpers.support import (
    CLI,
    RunInProcess,
    rows_as_dict,
    run_child,
    seeded_rows,
    start_child,
    stop_group,
    wait_for,
)
from spark_random_strings import expected_rows, jar_path, read_random_strings
from spark_random_strings.cli.real_time import real_time_cores, status, summary_line
from spark_random_strings.cli.sink_rows import ArrivedRows, HandedOn, ShownRow, parse_recent
from spark_random_strings.engine.choice import pyspark_line
from spark_random_strings.engine.local import StopRequest
from spark_random_strings.latency.sink import LatencySummary
from spark_random_strings.options import OPTIONS

CONSOLE_SCRIPT = str(Path(sys.executable).parent / "spark-random-strings")
# A row as `stream` prints it: offset, event time (UTC), length, value.
ROW = re.compile(r" *([\d,]+)  (\d\d:\d\d:\d\d\.\d{3})  +(\d+)  (.*)")


def run(*args: str, command: list[str] = CLI) -> subprocess.CompletedProcess[str]:
    return run_child([*command, *args])


def start(args: list[str], out: Path, err: Path) -> subprocess.Popen[bytes]:
    return start_child([*CLI, *args], out, err)


# --- flags, help and bad input (no Spark is started for these) ---


def test_help_lists_the_three_commands(in_process: RunInProcess) -> None:
    done = in_process("--help")
    assert done.returncode == 0
    assert re.search(r"^\s+stream\s+show the live stream in the terminal$", done.stdout, re.M)
    assert re.search(r"^\s+write\s+write exactly N rows to files$", done.stdout, re.M)
    assert re.search(r"^\s+demo\s+count the strings by length, live$", done.stdout, re.M)


# The one test of each entry point in a child process: a fresh interpreter runs the command,
# finds the package's version, pyspark and the jar.
@pytest.mark.parametrize("command", [CLI, [CONSOLE_SCRIPT]], ids=["python -m", "console script"])
@pytest.mark.processes
def test_version_prints_the_version_and_the_jar_it_would_put_on_a_session(command: list[str]) -> None:
    done = run("--version", command=command)
    assert done.returncode == 0
    assert done.stderr == ""
    assert done.stdout.splitlines() == [
        f"spark-random-strings {spark_random_strings.__version__} (pyspark {pyspark.__version__})",
        f"jar: {jar_path()}",
    ]


def help_entries(help_text: str) -> dict[str, str]:
    """Each flag of an argparse help, with its description joined into one line."""
    entries: dict[str, str] = {}
    current = ""
    for line in help_text.split("options:\n", 1)[1].splitlines():
        starts = re.match(r"  (--?[\w-]+)(.*)", line)
        if starts:
            current = starts.group(1)
            entries[current] = starts.group(2)
        elif current:
            entries[current] += " " + line.strip()
    return {name: " ".join(text.split()) for name, text in entries.items()}


@pytest.mark.parametrize(
    ("name", "own_flags", "left_out"),
    [
        ("stream", ["--schema", "--field", "--duration", "--rows-shown"], []),
        # They refuse --real-time, and do not list it.
        (
            "write",
            ["--schema", "--field", "--format", "--output", "--checkpoint", "--nexmark"],
            ["--real-time"],
        ),
        ("demo", ["--duration"], ["--real-time"]),
    ],
)
def test_each_commands_help_documents_every_flag_with_its_default(
    name: str, own_flags: list[str], left_out: list[str], in_process: RunInProcess
) -> None:
    done = in_process(name, "--help")
    assert done.returncode == 0
    entries = help_entries(done.stdout)
    source_flags = [row.flag for row in OPTIONS if row.flag not in left_out]
    expected = ["-h", *source_flags, *own_flags, "--engine", "--verbose"]
    assert sorted(entries) == sorted(expected)
    for each in expected[1:]:
        assert re.search(r"\((default: [^)]+|required)\)$", entries[each]), entries[each]


def test_the_flags_help_names_the_sources_own_defaults(spark: SparkSession, tmp_path: Path) -> None:
    query = (
        read_random_strings(spark)
        .writeStream.format("noop")
        .option("checkpointLocation", str(tmp_path / "checkpoint"))
        .start()
    )
    try:
        wait_for(lambda: query.lastProgress is not None, "a progress report")
        description = query.lastProgress["sources"][0]["description"]  # type: ignore[index]
    finally:
        query.stop()
    # The options whose defaults the source's description shows.
    shown = [row for row in OPTIONS if row.name in ("rowsPerSecond", "minLength", "maxLength", "charset")]
    assert len(shown) == 4
    for row in shown:
        assert f"{row.name}={row.option.default}," in description


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["stream", "--bogus"], "unrecognized arguments: --bogus"),
        (["stream", "--rows-per-second", "abc"], "argument --rows-per-second: invalid int value: 'abc'"),
        (["stream", "--duration"], "argument --duration: expected one argument"),
        (["stream", "--duration", "0"], "argument --duration: must be above 0, got '0'"),
        (["stream", "--rows-shown", "1.5"], "argument --rows-shown: invalid int value: '1.5'"),
        (["write", "--output", "out"], "the following arguments are required: --total-rows"),
        (
            ["write", "--total-rows", "5", "--output", "o", "--format", "xml"],
            "argument --format: invalid choice: 'xml'",
        ),
        (["launch"], "argument COMMAND: invalid choice: 'launch'"),
    ],
)
def test_a_bad_flag_exits_2_with_a_one_line_error(
    args: list[str], message: str, in_process: RunInProcess
) -> None:
    done = in_process(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("spark-random-strings")
    assert message in done.stderr


LINE = ".".join(map(str, pyspark_line()))


@pytest.mark.every_line
@pytest.mark.skipif(LINE not in ("4.0", "4.1"), reason="Python sources without AvailableNow: 4.0, 4.1")
def test_on_spark_4_0_and_4_1_a_write_of_the_python_source_exits_2_and_writes_nothing(
    tmp_path: Path, in_process: RunInProcess
) -> None:
    # There Spark would read one batch of the rows that exist at the start: none.
    done = in_process("write", "--total-rows", "5", "--output", str(tmp_path / "out"), "--engine", "python")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "spark-random-strings write: error: argument --engine: write runs under "
        "Trigger.AvailableNow, which the Python data source has from Spark 4.2 on; this is "
        f"Spark {LINE}. Use --engine jvm (its jar comes with this package). "
        "(see spark-random-strings write --help)"
    ]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["stream", "--real-time", "--engine", "python"],
            "spark-random-strings stream: error: argument --real-time: Spark's real-time mode reads "
            "JVM streams only, and --engine python reads the Python data source. Use --engine jvm "
            "or auto (the default: the jar's source, which comes with this package) with "
            "--real-time. (see spark-random-strings stream --help)",
        ),
        (
            ["stream", "--real-time", "--max-rows-per-trigger", "100"],
            "spark-random-strings stream: error: argument --max-rows-per-trigger: 100 limits the "
            "rows of a micro-batch, and --real-time runs real-time batches, which read each row as "
            "it comes to exist and have no row limit. Leave out --max-rows-per-trigger or "
            "--real-time. (see spark-random-strings stream --help)",
        ),
        (
            ["write", "--real-time", "--total-rows", "5", "--output", "out"],
            "spark-random-strings write: error: argument --real-time: write cannot run in Spark's "
            "real-time mode (real-time mode writes to console, foreach and Kafka sinks, not to "
            "files); only stream and nexmark take --real-time. (see spark-random-strings write --help)",
        ),
        (
            ["demo", "--real-time"],
            "spark-random-strings demo: error: argument --real-time: demo cannot run in Spark's "
            "real-time mode (real-time mode writes to console, foreach and Kafka sinks, and the demo "
            "counts each batch's strings with foreachBatch); only stream and nexmark take --real-time. "
            "(see spark-random-strings demo --help)",
        ),
        (
            ["nexmark", "--real-time", "--query", "q7"],
            "spark-random-strings nexmark: error: argument --query: q7 does not run in Spark's "
            "real-time mode (its operators are not on Spark 4.3's list for it). Allowed with "
            "--real-time: q0, q1, q2, q5_counts, q12, q13, q15, q16, q17, q18, q19 "
            "(see spark-random-strings nexmark --help)",
        ),
        (
            ["nexmark", "--real-time", "--output", "out", "--num-events", "5"],
            "spark-random-strings nexmark: error: argument --output: real-time mode writes to "
            "console, foreach and Kafka sinks, not to files; leave out --output or --real-time "
            "(see spark-random-strings nexmark --help)",
        ),
        (
            ["nexmark", "--real-time", "--max-events-per-trigger", "10"],
            "spark-random-strings nexmark: error: argument --max-events-per-trigger: 10 limits the "
            "events of a micro-batch, and --real-time runs real-time batches, which read each event as "
            "it comes to exist. Leave out --max-events-per-trigger or --real-time. "
            "(see spark-random-strings nexmark --help)",
        ),
    ],
    ids=["python engine", "row limit", "write", "demo", "nexmark query", "nexmark output", "event limit"],
)
def test_real_time_where_it_cannot_run_exits_2_with_a_usage_error_naming_the_flag(
    args: list[str], message: str, in_process: RunInProcess
) -> None:
    done = in_process(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [message]


def test_a_value_the_source_rejects_exits_2_naming_the_flag_in_one_line(in_process: RunInProcess) -> None:
    # Refused before Spark starts (in_process fails a command that starts it), with the source's
    # own message, on the flag.
    done = in_process("stream", "--max-length", "-1")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "spark-random-strings stream: error: argument --max-length: invalid value '-1': out of "
        "range. Allowed: a whole number from 0 to 1048576. (see spark-random-strings stream --help)"
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["stream", "--rows-per-secnd", "5"],
            "unrecognized arguments: --rows-per-secnd 5. Did you mean --rows-per-second?",
        ),
        (["demo", "--duraton=3"], "unrecognized arguments: --duraton=3. Did you mean --duration?"),
        (
            ["stream", "--max-lenght", "3", "--sed", "1"],
            "unrecognized arguments: --max-lenght 3 --sed 1. Did you mean --max-length for --max-lenght; "
            "--seed for --sed?",
        ),
        (["stream", "--zzz"], "unrecognized arguments: --zzz"),
    ],
    ids=["one", "with =", "two", "nothing close"],
)
def test_a_misspelt_flag_exits_2_suggesting_the_closest_flag_of_its_command(
    args: list[str], message: str, in_process: RunInProcess
) -> None:
    done = in_process(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"spark-random-strings {args[0]}: error: {message} (see spark-random-strings {args[0]} --help)"
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["stream", "--rows-per-second", "-5"],
            "argument --rows-per-second: invalid value '-5': out of range. Allowed: a whole number >= 1.",
        ),
        (
            ["demo", "--late-row-fraction", "0.5"],
            "argument --late-row-fraction: options that do not fit together: --late-row-fraction is 0.5, "
            "but --late-by-ms is not set. Say how late a late row is, in milliseconds: --late-by-ms >= 1.",
        ),
        (
            ["stream", "--charset", "seed"],
            "argument --charset: invalid value 'seed': unknown character set. Allowed: alphanumeric, "
            "letters, digits, hex, ascii, unicode.",
        ),
        (
            ["write", "--total-rows", "5", "--output", "o", "--rate-profile", "1s@0"],
            "argument --rate-profile: invalid value '1s@0':",
        ),
    ],
    ids=["range", "together", "a value spelt like an option", "write"],
)
def test_every_command_refuses_a_value_before_spark_with_the_sources_message_in_flags(
    args: list[str], message: str, in_process: RunInProcess
) -> None:
    done = in_process(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"spark-random-strings {args[0]}: error: {message}")
    assert line.endswith(f"(see spark-random-strings {args[0]} --help)")
    # The flags' names only: no option of the source is named in the message.
    assert not any(f"'{row.name}'" in line for row in OPTIONS if f"value '{row.name}'" not in line)
    assert "option '" not in line.lower()


@pytest.mark.parametrize("name", ["stream", "write", "demo"])
def test_each_flags_help_states_its_default_once(name: str, in_process: RunInProcess) -> None:
    entries = help_entries(in_process(name, "--help").stdout)
    assert entries
    for flag, text in entries.items():
        assert text.count("(default:") <= 1, (flag, text)


@pytest.mark.parametrize(
    ("message", "error"),
    [
        (
            "Invalid value '-1' for option 'maxLength': out of range.",
            "argument --max-length: invalid value '-1': out of range.",
        ),
        (
            "Options that do not fit together: 'lateByMs' is 5, but 'lateRowFraction' is not set, "
            "so no row is late.",
            "argument --late-by-ms: options that do not fit together: --late-by-ms is 5, but "
            "--late-row-fraction is not set, so no row is late.",
        ),
        (
            "Invalid lengths: 'minLength' is 5 and 'maxLength' is 3.",
            "argument --min-length: invalid lengths: --min-length is 5 and --max-length is 3.",
        ),
        (
            "Invalid value 'seed' for option 'charset'.",
            "argument --charset: invalid value 'seed' for --charset.",
        ),
        ("No option named here.", "No option named here."),
    ],
)
def test_a_source_error_is_put_on_the_flag_of_the_option_it_names_first_and_names_flags(
    message: str, error: str
) -> None:
    from spark_random_strings.cli.options import usage_error

    assert str(usage_error(message)) == error


# --- stream ---


@pytest.mark.slow
@pytest.mark.processes
def test_stream_prints_the_seeded_rows_in_order_and_a_summary() -> None:
    # A row comes every millisecond and each batch reads at most 20: the first batch, however
    # late a loaded machine starts it, prints 20 rows, so the count does not hang on timing.
    done = run(
        "stream",
        "--rows-per-second",
        "1000",
        "--max-rows-per-trigger",
        "20",
        "--seed",
        "42",
        "--max-length",
        "8",
        "--charset",
        "hex",
        "--duration",
        "6",
        "--rows-shown",
        "1000",
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["offset", "ts", "(UTC)", "length", "value"]
    rows = [ROW.fullmatch(line) for line in lines[1:-1]]
    assert all(rows), lines
    offsets = [int(r.group(1).replace(",", "")) for r in rows if r]
    assert offsets == list(range(len(offsets))) and len(offsets) >= 20
    summary = re.fullmatch(
        r"streamed ([\d,]+) rows in (\d+) batches over ([\d.]+) s \(([\d.,]+) rows/s\)", lines[-1]
    )
    assert summary, lines[-1]
    assert int(summary.group(1).replace(",", "")) == len(offsets)
    assert {o: r.group(4) for o, r in zip(offsets, rows, strict=False) if r} == seeded_rows(
        len(offsets), seed=42, max_length=8, charset="hex"
    )
    assert all(int(r.group(3)) == len(r.group(4)) for r in rows if r)


@pytest.mark.slow
@pytest.mark.processes
def test_ctrl_c_stops_the_stream_cleanly_with_a_summary(tmp_path: Path) -> None:
    out, err = tmp_path / "out", tmp_path / "err"
    process = start(["stream", "--rows-per-second", "50", "--seed", "1"], out, err)
    try:
        wait_for(lambda: b"\n           0  " in out.read_bytes(), "the first row")
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 0
    finally:
        stop_group(process)
    lines = out.read_text().splitlines()
    assert re.fullmatch(r"streamed [\d,]+ rows in \d+ batches over [\d.]+ s \([\d.,]+ rows/s\)", lines[-1])
    assert err.read_text() == ""  # no stack trace, no Spark log


def request_at_every_line_of_a_wait(stop: StopRequest, patience_s: float) -> bool:
    """Wait on ``stop`` in a thread that requests the stop at each line the wait runs, as a
    Ctrl-C handler may (a signal handler runs between any two lines of the main thread);
    whether that wait returned within ``patience_s``."""

    def request_mid_wait(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            stop.set()
        return request_mid_wait

    def wait() -> None:
        sys.settrace(request_mid_wait)
        try:
            stop.wait(30)
        finally:
            sys.settrace(None)

    waiter = threading.Thread(target=wait, daemon=True)
    waiter.start()
    waiter.join(patience_s)
    return not waiter.is_alive()


#: The same wait on a threading.Event, in a child Python: the request made while wait() holds
#: the Event's lock waits for that lock forever, and the child with it.
EVENT_WAIT = """
import sys, threading
stop = threading.Event()
def request_mid_wait(frame, event, arg):
    if event == "line":
        stop.set()
    return request_mid_wait
print("waiting", flush=True)
sys.settrace(request_mid_wait)
stop.wait(30)
sys.settrace(None)
print("returned", flush=True)
"""


def test_a_stop_requested_at_any_line_of_its_own_wait_returns_it_at_once() -> None:
    assert request_at_every_line_of_a_wait(StopRequest(), patience_s=10)
    # Why the CLI does not use an Event: the request, made while wait() holds the Event's lock,
    # waits for that lock forever (a Ctrl-C that hung `stream` so, once in CI). Shown in a child
    # process, killed after, so that no blocked thread is left in this one.
    child = subprocess.Popen(
        [sys.executable, "-c", EVENT_WAIT], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "waiting\n"
        with pytest.raises(subprocess.TimeoutExpired):
            child.wait(timeout=2)
    finally:
        child.kill()
        rest, _ = child.communicate(timeout=30)
    assert rest == "", "the wait on the Event returned"
    assert child.returncode == -signal.SIGKILL


# --- stream --real-time ---

REAL_TIME_LINE = pytest.mark.skipif(pyspark_line() < (4, 1), reason="real-time mode: Spark 4.1+")
# The summary of `stream --real-time`.
REAL_TIME_SUMMARY = re.compile(
    r"streamed ([\d,]+) rows in real-time mode \(5 s batches\) over ([\d.]+) s \(([\d.,]+) rows/s\); "
    r"latency (since start|after warm-up): p50 ([\d.,]+) ms, p99 ([\d.,]+) ms, max ([\d.,]+) ms "
    r"over ([\d,]+) rows"
)
# Its live status line, with the latency figures.
STATUS = re.compile(
    r"rows [\d,]+ \| [\d.,]+ rows/s \| latency since start: p50 [\d.,]+ ms, p99 [\d.,]+ ms, "
    r"max [\d.,]+ ms \| \d+ s"
)


def clock(ts: int) -> str:
    """An event time as `stream` prints it."""
    return datetime.fromtimestamp(ts / 1000, tz=UTC).strftime("%H:%M:%S.%f")[:-3]


@pytest.mark.slow
@REAL_TIME_LINE
@pytest.mark.processes
def test_stream_real_time_prints_the_seeded_rows_as_they_come_and_their_latency_after_warm_up() -> None:
    # Long enough that rows are shown as they come for half the run or more, even where a
    # loaded machine takes 10 s and more from the query's start to its first rows.
    origin, seconds = 1_700_000_000_000, 30
    done = run(
        "stream",
        "--real-time",
        "--rows-per-second",
        "10",
        "--seed",
        "42",
        "--max-length",
        "8",
        "--charset",
        "hex",
        "--start-timestamp",
        str(origin),
        "--duration",
        str(seconds),
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["offset", "ts", "(UTC)", "length", "value"]
    rows = [ROW.fullmatch(line) for line in lines[1:-1]]
    assert all(rows), lines
    shown = {int(r.group(1).replace(",", "")): (r.group(2), int(r.group(3)), r.group(4)) for r in rows if r}
    offsets = list(shown)
    assert offsets == sorted(shown) and len(offsets) == len(rows)  # in order, each row once
    summary = REAL_TIME_SUMMARY.fullmatch(lines[-1])
    assert summary, lines[-1]
    streamed, elapsed = int(summary.group(1).replace(",", "")), float(summary.group(2))
    # One partition hands on offsets 0, 1, 2, ... in order: the last one shown is the last row.
    assert streamed == offsets[-1] + 1
    # Each refresh shows the sink's last 20 rows: of the first rows, which came to exist while
    # the query started and arrive at once, only the last 20. From then on, at 10 rows/s, a
    # refresh misses rows only when it comes over 2 s late (a loaded machine).
    assert offsets[0] < streamed // 2
    assert len(offsets) >= 0.95 * (streamed - offsets[0])
    expected = expected_rows(
        seed=42,
        start=0,
        end=streamed,
        rows_per_second=10,
        max_length=8,
        charset="hex",
        start_timestamp=origin,
    ).to_pylist()
    assert shown == {
        o: (clock(expected[o]["ts"]), expected[o]["length"], expected[o]["value"]) for o in offsets
    }
    # The figures leave out the first 5 s batch: they are of the rows that reached the sink in
    # the last (elapsed - 5) s at most, and not of all of them.
    assert summary.group(4) == "after warm-up"
    p50, p99, top = (float(summary.group(i).replace(",", "")) for i in (5, 6, 7))
    assert 0 < p50 <= p99 <= top
    assert 0 < int(summary.group(8).replace(",", "")) <= min(streamed - 1, 10 * (elapsed - 5) + 1)
    # Stopped at once, not at the end of a 5 s batch.
    assert seconds <= elapsed < seconds + 2


# A q5_counts row as `nexmark --real-time` prints it: auction, num, the window's start and end, and
# the time of the newest bid it counts.
COUNT_ROW = re.compile(r"  (\d+), (\d+), ([\d-]+ [\d:.]+), ([\d-]+ [\d:.]+), ([\d-]+ [\d:.]+)")
NEXMARK_SUMMARY = re.compile(
    r"streamed ([\d,]+) rows of q5_counts in real-time mode \(5 s batches\) over ([\d.]+) s "
    r"\(([\d.,]+) rows/s\); latency after warm-up: p50 ([\d.,]+) ms, p99 ([\d.,]+) ms, max ([\d.,]+) ms "
    r"over ([\d,]+) rows"
)


@pytest.mark.slow
@pytest.mark.skipif(pyspark_line() < (4, 3), reason="real-time mode's state: Spark 4.3+")
@pytest.mark.processes
def test_nexmark_real_time_prints_a_querys_rows_as_they_come_and_their_latency_after_warm_up() -> None:
    seconds = 25
    done = run(
        "nexmark",
        "--real-time",
        "--query",
        "q5_counts",
        "--first-event-rate",
        "200",
        "--next-event-rate",
        "200",
        "--duration",
        str(seconds),
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == "auction, num, starttime, endtime, dateTime"
    rows = [COUNT_ROW.fullmatch(line) for line in lines[1:-1]]
    assert rows and all(rows), lines[:5]

    def moment(text: str) -> datetime:
        return datetime.fromisoformat(text)

    for row in rows:
        assert row is not None
        start, end, newest = moment(row.group(3)), moment(row.group(4)), moment(row.group(5))
        # A sliding window of 10 s every 2 s, which holds the newest bid it counts.
        assert int(row.group(2)) >= 1
        assert (end - start).total_seconds() == 10 and start.second % 2 == 0 and start.microsecond == 0
        assert start <= newest < end
    summary = NEXMARK_SUMMARY.fullmatch(lines[-1])
    assert summary, lines[-1]
    streamed, measured = (int(summary.group(i).replace(",", "")) for i in (1, 7))
    # Each refresh shows the newest of the rows that came since the last: at most ROWS_SHOWN.
    assert len(rows) <= streamed and 0 < measured <= streamed
    p50, p99, top = (float(summary.group(i).replace(",", "")) for i in (4, 5, 6))
    assert 0 < p50 <= p99 <= top
    assert seconds <= float(summary.group(2)) < seconds + 2


@pytest.mark.slow
@REAL_TIME_LINE
@pytest.mark.processes
def test_ctrl_c_stops_the_real_time_stream_cleanly_after_a_live_latency_status(tmp_path: Path) -> None:
    out, err = tmp_path / "out", tmp_path / "err"
    # A wide terminal, as rich sees it, so that the status line is drawn whole (without colours).
    terminal = {"TTY_COMPATIBLE": "1", "TTY_INTERACTIVE": "1", "NO_COLOR": "1", "COLUMNS": "200"}
    command = [*CLI, "stream", "--real-time", "--rows-per-second", "100", "--seed", "1"]
    process = start_child(command, out, err, env=terminal)
    try:
        wait_for(
            lambda: STATUS.search(out.read_bytes().decode(errors="replace")) is not None,
            "a status line with p50/p99",
        )
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
    finally:
        stop_group(process)
    assert err.read_text() == ""  # no stack trace, no Spark log
    # Without the terminal's control sequences, the last line is the summary.
    last = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", out.read_text()).strip().splitlines()[-1]
    summary = REAL_TIME_SUMMARY.fullmatch(last)
    assert summary, last
    assert summary.group(4) == "since start"  # stopped within the warm-up


def figures(count: int, p50: float | None, p99: float | None, top: float | None) -> LatencySummary:
    """A LatencySink's summary with these figures (no row of its own)."""
    return LatencySummary(
        count,
        p50,
        p99,
        p999_ms=None,
        max_ms=top,
        first_ms=None,
        last_ms=None,
        gap_count=0,
        gap_median_ms=None,
        gap_max_ms=None,
        batches=(),
        arrived=count,
        recent=(),
    )


def test_the_real_time_status_shows_rows_rate_and_latency_and_no_percentile_above_the_max() -> None:
    # The sink gives a percentile as the upper edge of its 0.1 ms bucket: 50.1, above the max.
    measured = figures(2_400, 0.6, 50.1, 49.98)
    assert status(0, 1.4, None, False).plain == "waiting for the first rows ...    1 s"
    assert status(30, 3.0, figures(30, 12.3, 800.1, 803.25), False).plain == (
        "rows 30 | 10.0 rows/s | latency since start: p50 12.3 ms, p99 800.1 ms, max 803.2 ms | 3 s"
    )
    assert status(12_000, 12.5, measured, True).plain == (
        "rows 12,000 | 960.0 rows/s | latency after warm-up: p50 0.6 ms, p99 50.0 ms, max 50.0 ms | 12 s"
    )
    assert status(12_000, 12.5, figures(0, None, None, None), True).plain == (
        "rows 12,000 | 960.0 rows/s | latency after warm-up: none yet | 12 s"
    )
    assert summary_line(12_000, 12.5, measured, True) == (
        "streamed 12,000 rows in real-time mode (5 s batches) over 12.5 s (960.0 rows/s); "
        "latency after warm-up: p50 0.6 ms, p99 50.0 ms, max 50.0 ms over 2,400 rows"
    )
    assert summary_line(0, 6.0, figures(0, None, None, None), False) == (
        "streamed 0 rows in real-time mode (5 s batches) over 6.0 s (0.0 rows/s); "
        "latency since start: none yet"
    )


def test_the_sinks_last_rows_are_read_back_whole_even_with_tabs_and_line_breaks_in_values() -> None:
    # LatencySink.recent: value, ts, offset, length (and the timestamp) joined by tabs, one row
    # per line; pyspark's side splits the text at line breaks.
    recent = (
        "ab\t1700000000000\t0\t2",
        "a\tb\t1700000000100\t1\t3",
        "x",
        "y\t1700000000200\t2\t3",
        "\t-5\t3\t0",
    )
    assert parse_recent(recent, timestamp_column=False) == [
        ShownRow(0, 1_700_000_000_000, 2, "ab"),
        ShownRow(1, 1_700_000_000_100, 3, "a\tb"),
        ShownRow(2, 1_700_000_000_200, 3, "x\ny"),
        ShownRow(3, -5, 0, ""),
    ]
    stamped = ("cd\t1700000000000\t7\t2\t2023-11-14 22:13:20.0",)
    assert parse_recent(stamped, timestamp_column=True) == [ShownRow(7, 1_700_000_000_000, 2, "cd")]


def test_a_querys_rows_are_counted_by_the_sink_and_each_of_its_last_rows_is_new_once() -> None:
    def sink(arrived: int) -> LatencySummary:
        """The sink after ``arrived`` rows, row i's line "i": it keeps the last 20."""
        summary = figures(arrived, None, None, None)
        return dataclasses.replace(
            summary, arrived=arrived, recent=tuple(str(i) for i in range(max(0, arrived - 20), arrived))
        )

    arrived = ArrivedRows()
    assert arrived.take(sink(3)) == ["0", "1", "2"] and arrived.count == 3
    assert arrived.take(sink(5)) == ["3", "4"]
    assert arrived.take(sink(5)) == []
    # More came than the sink keeps: the newest 20 are new, and all count.
    assert arrived.take(sink(40)) == [str(i) for i in range(20, 40)] and arrived.count == 40


def test_rows_handed_on_are_counted_per_partition_and_each_is_new_once() -> None:
    def rows(*offsets: int) -> list[ShownRow]:
        return [ShownRow(o, 0, 1, "v") for o in offsets]

    handed_on = HandedOn(partitions=3)
    assert handed_on.count == 0
    # Partition 0 reads 0, 3, 6; partition 1 reads 1, 4; partition 2 has handed on nothing.
    assert handed_on.take(rows(3, 1, 0)) == rows(0, 1, 3)
    assert handed_on.count == 3  # 0, 3 and 1 (0 before 3: in order within a partition)
    assert handed_on.take(rows(1, 3, 4, 6)) == rows(4, 6)
    assert handed_on.count == 5
    assert handed_on.take(rows(8)) == rows(8)
    assert handed_on.count == 8  # partition 2's 8 says 2 and 5 went before it


@pytest.mark.parametrize(("partitions", "cpus", "cores"), [(1, 2, 2), (2, 2, 3), (4, 2, 5), (1, 8, 8)])
def test_a_real_time_session_has_more_cores_than_partitions(partitions: int, cpus: int, cores: int) -> None:
    assert real_time_cores(partitions, cpus) == cores


# --- write ---


#: The interrupted write: 8 batches, so that an interrupt after the first leaves most to resume.
WRITE_ROWS, WRITE_BATCH_ROWS = 160_000, 20_000


def write_args(output: Path, *more: str) -> list[str]:
    return [
        "write",
        "--total-rows",
        str(WRITE_ROWS),
        "--max-rows-per-trigger",
        str(WRITE_BATCH_ROWS),
        "--seed",
        "7",
        "--max-length",
        "12",
        "--output",
        str(output),
        *more,
    ]


@pytest.mark.slow
@pytest.mark.processes
def test_an_interrupted_write_resumes_and_ends_with_exactly_n_rows(
    spark: SparkSession, tmp_path: Path
) -> None:
    output = tmp_path / "strings"
    out, err = tmp_path / "out", tmp_path / "err"
    process = start(write_args(output), out, err)
    try:
        # Interrupt once the first batch is in the sink's log, well before the last.
        wait_for(lambda: (output / "_spark_metadata" / "0").exists(), "the first batch")
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 130
    finally:
        stop_group(process)
    assert err.read_text() == ""
    # Under AvailableNow the next batch starts as the last commits: a stop that comes just after
    # finds its first files made, which the write removes and says so before the interrupt's line.
    interrupted = re.fullmatch(
        rf"(?:removed [\d,]+ unfinished file\(s\) from {re.escape(str(output))}: "
        r"a batch stopped before its commit made them"
        r"\n)?"
        rf"interrupted with ([\d,]+) of {WRITE_ROWS:,} rows written to (.*); "
        r"run the same command again to resume",
        out.read_text().strip(),
    )
    assert interrupted and interrupted.group(2) == str(output)
    written_before = int(interrupted.group(1).replace(",", ""))
    assert 0 < written_before < WRITE_ROWS and written_before % WRITE_BATCH_ROWS == 0

    # (A rerun that contradicts the checkpoint's seed is refused in one line, writing nothing:
    # test_crash_recovery's unseeded write checks it, message and files exactly.)
    resumed = run(*write_args(output))
    assert resumed.returncode == 0, resumed.stderr
    assert (
        resumed.stdout.strip()
        .splitlines()[-1]
        .startswith(
            f"wrote {WRITE_ROWS:,} rows to {output} as parquet ({WRITE_ROWS - written_before:,} in this run, "
        )
    )
    written = spark.read.parquet(str(output))
    assert written.count() == WRITE_ROWS
    assert rows_as_dict(written) == seeded_rows(WRITE_ROWS, seed=7, max_length=12)


@pytest.mark.slow
@pytest.mark.extended  # another format of the parquet writes above
@pytest.mark.processes
def test_write_as_csv_holds_exactly_the_rows_and_a_second_run_adds_none(
    spark: SparkSession, tmp_path: Path
) -> None:
    output = tmp_path / "csv"
    # Spark's CSV reader reads an empty string back as null: the strings here are never empty.
    args = [
        "write",
        "--total-rows",
        "1000",
        "--format",
        "csv",
        "--seed",
        "3",
        "--min-length",
        "1",
        "--output",
        str(output),
        "--checkpoint",
        str(tmp_path / "checkpoint"),
    ]
    first = run(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip().startswith(f"wrote 1,000 rows to {output} as csv (1,000 in this run, ")
    again = run(*args)
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip().startswith(f"wrote 1,000 rows to {output} as csv (0 in this run, ")
    written = spark.read.schema("value STRING, ts LONG, offset LONG, length INT").csv(str(output))
    assert rows_as_dict(written) == seeded_rows(1000, seed=3, min_length=1)


def test_with_a_rate_profile_the_status_line_shows_the_rate_it_sets_now() -> None:
    from spark_random_strings.cli.stream import _status
    from spark_random_strings.engine.progress import StreamPosition
    from spark_random_strings.time.rate_profile import parse_rate_profile

    position = StreamPosition(batch_id=7, rows_before=100, rows_read=12_000, rows_behind=5)
    profile = parse_rate_profile("10s@1000, 5s@0..4000")
    # 12.5 s in: the ramp's third whole second, at 0 + floor(4000 * 5 / 10) = 2000 rows/s.
    assert _status(position, 12.5, profile).plain == (
        "rows 12,000 | 960.0 rows/s | profile rate now 2,000 rows/s | batch 7 | rows behind 5 | 12 s"
    )
    assert _status(position, 12.5).plain == "rows 12,000 | 960.0 rows/s | batch 7 | rows behind 5 | 12 s"


# --- typed columns: --schema and --field ---

#: A declared schema of every shape the terminal shows, and how its columns are made.
TYPED_SCHEMA = (
    "id BIGINT NOT NULL, k INT NOT NULL, amount DECIMAL(6,2), status STRING NOT NULL, tags ARRAY<INT>"
)
TYPED_FIELDS = {
    "id": {"kind": "offset"},
    "k": {"min": "1", "max": "9", "distribution": "zipf"},
    "amount": {"nullRate": "0.5"},
    "status": {"values": '["new", "paid"]'},
    "tags.element": {"min": "0", "max": "99"},
}


def typed_flags() -> list[str]:
    """``TYPED_SCHEMA`` and ``TYPED_FIELDS`` as the command's flags."""
    flags = ["--schema", TYPED_SCHEMA]
    for path, properties in TYPED_FIELDS.items():
        for name, value in properties.items():
            flags += ["--field", f"{path}.{name}={value}"]
    return flags


def typed_lines(count: int, **definition: Any) -> dict[int, str]:
    """Offset -> the line `stream` prints for that row of the typed stream, from expected_rows."""
    from spark_random_strings.cli.stream import CELL_GAP, cell_text

    rows = expected_rows(
        start=0, end=count, schema=TYPED_SCHEMA, fields=TYPED_FIELDS, **definition
    ).to_pylist()
    return {row["id"]: CELL_GAP.join(cell_text(cell) for cell in row.values()) for row in rows}


@pytest.mark.processes
def test_stream_with_a_schema_prints_its_columns_and_the_seeded_cells_in_offset_order() -> None:
    # As the untyped stream's test: at most 20 of 1,000 rows a second per batch, so that the first
    # batch prints 20 rows however late a loaded machine runs it.
    done = run(
        "stream",
        *typed_flags(),
        "--rows-per-second",
        "1000",
        "--max-rows-per-trigger",
        "20",
        "--seed",
        "42",
        "--duration",
        "6",
        "--rows-shown",
        "1000",
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == "id  k  amount  status  tags"
    shown = {int(line.split("  ", 1)[0]): line for line in lines[1:-1]}
    assert list(shown) == list(range(len(shown))) and len(shown) >= 20
    assert shown == typed_lines(len(shown), seed=42, rows_per_second=1000)
    assert "null" in {line.split("  ")[2] for line in shown.values()}  # amount's nulls, printed


@pytest.mark.processes
def test_write_with_a_schema_holds_exactly_the_expected_typed_rows_in_parquet(tmp_path: Path) -> None:
    import pyarrow.dataset

    output = tmp_path / "typed"
    done = run("write", *typed_flags(), "--total-rows", "3000", "--seed", "5", "--output", str(output))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith(f"wrote 3,000 rows to {output} as parquet (3,000 in this run, ")
    written = pyarrow.dataset.dataset(output, format="parquet", ignore_prefixes=["_", "."]).to_table()
    expected = expected_rows(start=0, end=3000, seed=5, schema=TYPED_SCHEMA, fields=TYPED_FIELDS)
    assert written.column_names == expected.column_names
    assert sorted(written.to_pylist(), key=lambda row: row["id"]) == expected.to_pylist()


@pytest.mark.slow
@pytest.mark.extended  # the declared schema's variant of the real-time stream above
@REAL_TIME_LINE
@pytest.mark.processes
def test_stream_real_time_with_a_schema_prints_the_seeded_cells_of_its_offset_column_in_order() -> None:
    done = run(
        "stream", "--real-time", *typed_flags(), "--rows-per-second", "10", "--seed", "42", "--duration", "20"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "id  k  amount  status  tags"
    shown = {int(line.split("  ", 1)[0]): line for line in lines[1:-1]}
    summary = REAL_TIME_SUMMARY.fullmatch(lines[-1])
    assert summary, lines[-1]
    streamed = int(summary.group(1).replace(",", ""))
    assert list(shown) == sorted(shown) and max(shown) == streamed - 1
    expected = typed_lines(streamed, seed=42, rows_per_second=10)
    assert shown == {offset: expected[offset] for offset in shown}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["stream", "--field", "k.min=1"],
            "spark-random-strings stream: error: argument --field: Option --field k.min says how a declared "
            "column is made, but no schema was declared. Declare the columns with --schema, e.g. --schema "
            '"id BIGINT, name STRING", or remove the --field options. '
            "(see spark-random-strings stream --help)",
        ),
        (
            ["write", "--schema", "k INT", "--field", "k.min", "--total-rows", "1", "--output", "out"],
            "spark-random-strings write: error: argument --field: 'k.min' is not PATH.PROPERTY=VALUE, e.g. "
            "--field user_id.min=1 or --field shipping.zip.pattern=[0-9]{5} (see spark-random-strings "
            "write --help)",
        ),
        (
            ["stream", "--schema", "k INT NOT NULL", "--field", "k.nullRate=0.1"],
            "spark-random-strings stream: error: argument --field: Option --field k.nullRate sets nulls on "
            "column 'k', which is NOT NULL. Declare the column nullable (remove NOT NULL), or remove --field "
            "k.nullRate. (see spark-random-strings stream --help)",
        ),
        (
            ["stream", "--schema", "k INTERVAL DAY"],
            "spark-random-strings stream: error: argument --schema: Column 'k' has type INTERVAL DAY, which "
            "this source cannot generate. Allowed: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, "
            "DECIMAL(p,s), STRING, BINARY, DATE, TIMESTAMP, TIMESTAMP_NTZ, and ARRAY and STRUCT of them. "
            "(see spark-random-strings stream --help)",
        ),
        (
            ["stream", "--schema", "k INT", "--max-length", "3"],
            "spark-random-strings stream: error: argument --max-length: --max-length shapes the random "
            "strings' own columns, and this query declares its schema. Set it per column instead: --field "
            "<column>.maxLength. Or remove it. (see spark-random-strings stream --help)",
        ),
        (
            ["stream", "--real-time", "--schema", "k INT"],
            "spark-random-strings stream: error: argument --real-time: the status line measures each row "
            "from the moment its offset came to exist, and the --schema declares no column of the rows' "
            "offsets. Declare a BIGINT column made with --field <column>.kind=offset. (see "
            "spark-random-strings stream --help)",
        ),
        (
            ["demo", "--schema", "k INT"],
            "spark-random-strings demo: error: unrecognized arguments: --schema k INT (see "
            "spark-random-strings demo --help)",
        ),
    ],
    ids=[
        "field without schema",
        "field without value",
        "nulls on not null",
        "type",
        "string option",
        "real-time without offset",
        "demo",
    ],
)
def test_a_bad_schema_or_field_exits_2_before_spark_naming_the_flag(
    args: list[str], message: str, in_process: RunInProcess
) -> None:
    done = in_process(*args)
    assert (done.returncode, done.stdout, done.stderr.splitlines()) == (2, "", [message])


def test_the_sinks_last_rows_of_a_declared_schema_are_read_back_as_offset_and_cells() -> None:
    from spark_random_strings.cli.sink_rows import DeclaredRow, parse_recent_declared

    recent = ('3\t{"id":3,"s":"a\\tb\\nc","amount":12345678901234567.89,"n":null,"t":[1,2]}', '4\t{"id":4}')
    assert parse_recent_declared(recent) == [
        DeclaredRow(3, (3, "a\tb\nc", Decimal("12345678901234567.89"), None, [1, 2])),
        DeclaredRow(4, (4,)),
    ]


def test_a_cell_prints_as_the_terminal_shows_it() -> None:
    from datetime import date

    from pyspark.sql import Row

    from spark_random_strings.cli.stream import cell_text

    cells = [
        None,
        True,
        Decimal("-0.50"),
        date(2024, 2, 29),
        datetime(2024, 1, 2, 3, 4, 5, 6),
        b"\x00\xff",
        [1, None],
        Row(city="Lyon", zip="69001"),
        "a  b",
    ]
    assert [cell_text(c) for c in cells] == [
        "null",
        "true",
        "-0.50",
        "2024-02-29",
        "2024-01-02 03:04:05.000006",
        "00ff",
        "[1, null]",
        "{city: Lyon, zip: 69001}",
        "a  b",
    ]
