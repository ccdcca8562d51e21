"""The spark-random-strings command, driven as a user drives it: in a child process."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pyspark
import pytest
from pyspark.sql import SparkSession

import spark_random_strings
from helpers.support import CLI, rows_as_dict, run_child, seeded_rows, start_child, stop_group, wait_for
from spark_random_strings import jar_path, read_random_strings
from spark_random_strings._reader import pyspark_line
from spark_random_strings.options import OPTIONS

CONSOLE_SCRIPT = str(Path(sys.executable).parent / "spark-random-strings")
# A row as `stream` prints it: offset, event time (UTC), length, value.
ROW = re.compile(r" *([\d,]+)  (\d\d:\d\d:\d\d\.\d{3})  +(\d+)  (.*)")


def run(*args: str, command: list[str] = CLI) -> subprocess.CompletedProcess[str]:
    return run_child([*command, *args])


def start(args: list[str], out: Path, err: Path) -> subprocess.Popen[bytes]:
    return start_child([*CLI, *args], out, err)


# --- flags, help and bad input (no Spark is started for these) ---


@pytest.mark.parametrize("command", [CLI, [CONSOLE_SCRIPT]], ids=["python -m", "console script"])
def test_help_lists_the_three_commands(command: list[str]) -> None:
    done = run("--help", command=command)
    assert done.returncode == 0
    assert re.search(r"^\s+stream\s+show the live stream in the terminal$", done.stdout, re.M)
    assert re.search(r"^\s+write\s+write exactly N rows to files$", done.stdout, re.M)
    assert re.search(r"^\s+demo\s+count the strings by length, live$", done.stdout, re.M)


@pytest.mark.parametrize("command", [CLI, [CONSOLE_SCRIPT]], ids=["python -m", "console script"])
def test_version_prints_the_version_and_the_jar_it_would_put_on_a_session(command: list[str]) -> None:
    done = run("--version", command=command)
    assert done.returncode == 0
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
    ("name", "own_flags"),
    [
        ("stream", ["--duration", "--rows-shown"]),
        ("write", ["--format", "--output", "--checkpoint"]),
        ("demo", ["--duration"]),
    ],
)
def test_each_commands_help_documents_every_flag_with_its_default(name: str, own_flags: list[str]) -> None:
    done = run(name, "--help")
    assert done.returncode == 0
    entries = help_entries(done.stdout)
    expected = ["-h"] + [row.flag for row in OPTIONS] + own_flags + ["--engine", "--verbose"]
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
def test_a_bad_flag_exits_2_with_a_one_line_error(args: list[str], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("spark-random-strings")
    assert message in done.stderr


LINE = ".".join(map(str, pyspark_line()))


@pytest.mark.every_line
@pytest.mark.skipif(LINE not in ("4.0", "4.1"), reason="Python sources without AvailableNow: 4.0, 4.1")
def test_on_spark_4_0_and_4_1_a_write_of_the_python_source_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    # There Spark would read one batch of the rows that exist at the start: none.
    done = run("write", "--total-rows", "5", "--output", str(tmp_path / "out"), "--engine", "python")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "spark-random-strings write: error: argument --engine: write runs under "
        "Trigger.AvailableNow, which the Python data source has from Spark 4.2 on; this is "
        f"Spark {LINE}. Use --engine jvm (its jar comes with this package). "
        "(see spark-random-strings write --help)"
    ]
    assert not (tmp_path / "out").exists()


def test_a_value_the_source_rejects_exits_2_naming_the_flag_in_one_line() -> None:
    done = run("stream", "--max-length", "-1")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "spark-random-strings stream: error: argument --max-length: Invalid value '-1' for "
        "option 'maxLength': out of range. Allowed: a whole number from 0 to 1048576. "
        "(see spark-random-strings stream --help)"
    ]


@pytest.mark.parametrize(
    ("message", "flag"),
    [
        ("Invalid value '-1' for option 'maxLength': out of range.", "--max-length"),
        (
            "Options that do not fit together: 'lateByMs' is 5, but 'lateRowFraction' is not set, "
            "so no row is late.",
            "--late-by-ms",
        ),
        ("Invalid lengths: 'minLength' is 5 and 'maxLength' is 3.", "--min-length"),
    ],
)
def test_a_source_error_is_put_on_the_flag_of_the_option_it_names_first(message: str, flag: str) -> None:
    from spark_random_strings.cli import usage_error

    assert str(usage_error(message)) == f"argument {flag}: {message}"


# --- stream ---


def test_stream_prints_the_seeded_rows_in_order_and_a_summary(spark: SparkSession) -> None:
    done = run(
        "stream",
        "--rows-per-second",
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
        spark, len(offsets), seed=42, max_length=8, charset="hex"
    )
    assert all(int(r.group(3)) == len(r.group(4)) for r in rows if r)


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
    interrupted = re.fullmatch(
        rf"interrupted with ([\d,]+) of {WRITE_ROWS:,} rows written to (.*); "
        r"run the same command again to resume",
        out.read_text().strip(),
    )
    assert interrupted and interrupted.group(2) == str(output)
    written_before = int(interrupted.group(1).replace(",", ""))
    assert 0 < written_before < WRITE_ROWS and written_before % WRITE_BATCH_ROWS == 0

    # A rerun that contradicts the checkpoint's seed fails in one line and writes nothing.
    files_before = sorted(output.glob("*.parquet"))
    contradicting = run(*write_args(output)[:-2], "--seed", "8", "--output", str(output))
    assert contradicting.returncode == 1
    assert len(contradicting.stderr.splitlines()) == 1
    assert "seed" in contradicting.stderr and "8" in contradicting.stderr
    assert sorted(output.glob("*.parquet")) == files_before

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
    assert rows_as_dict(written) == seeded_rows(spark, WRITE_ROWS, seed=7, max_length=12)


@pytest.mark.slow
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
    assert rows_as_dict(written) == seeded_rows(spark, 1000, seed=3, min_length=1)


def test_with_a_rate_profile_the_status_line_shows_the_rate_it_sets_now() -> None:
    from spark_random_strings._progress import StreamPosition
    from spark_random_strings._rate_profile import parse_rate_profile
    from spark_random_strings._stream import _status

    position = StreamPosition(batch_id=7, rows_before=100, rows_read=12_000, rows_behind=5)
    profile = parse_rate_profile("10s@1000, 5s@0..4000")
    # 12.5 s in: the ramp's third whole second, at 0 + floor(4000 * 5 / 10) = 2000 rows/s.
    assert _status(position, 12.5, profile).plain == (
        "rows 12,000 | 960.0 rows/s | profile rate now 2,000 rows/s | batch 7 | rows behind 5 | 12 s"
    )
    assert _status(position, 12.5).plain == "rows 12,000 | 960.0 rows/s | batch 7 | rows behind 5 | 12 s"
