"""The clock tests step (``time.manual_clock``, the twin of the jar's ``ManualClock``): a file per
clock on this machine, replaced whole at each step, which the Python data source's reader reads
when it is named by the internal option ``_manualClock``; an option that names no registered
clock is refused with the jar's message, adapted, here and in the Python worker that checks a
data source's options. The end-to-end tests step it (``helpers.stepped``)."""

from __future__ import annotations

import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from pyspark.errors import IllegalArgumentException
from pyspark.sql import SparkSession

from spark_random_strings import PYTHON_FORMAT
from spark_random_strings.options import INTERNAL_NAMES, MANUAL_CLOCK, NAMES
from spark_random_strings.options.ranges import LONG_MAX
from spark_random_strings.rows.options import parse_options
from spark_random_strings.time import manual_clock as _manual_clock
from spark_random_strings.time.manual_clock import FOLDER, ManualClock


@pytest.fixture
def name() -> Iterator[str]:
    """A clock name no other test uses, unregistered at the end."""
    unique = f"test-{uuid.uuid4().hex}"
    yield unique
    _manual_clock.unregister(unique)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The clocks' folder, this test's own: so that it can see every file in it."""
    assert FOLDER.name == "spark-random-strings-clocks"
    assert FOLDER.parent == Path(tempfile.gettempdir())
    monkeypatch.setattr(_manual_clock, "FOLDER", tmp_path / "clocks")
    return tmp_path / "clocks"


def test_a_clock_is_one_file_that_holds_its_time_and_each_step_replaces_it_whole(folder: Path) -> None:
    clock = _manual_clock.register("steps", 1_700_000_000_000)
    assert clock == ManualClock("steps")
    assert clock.path == folder / "steps.ms"
    assert clock.path.read_text() == "1700000000000"
    first = clock.path.stat().st_ino
    assert clock.advance(1500) == 1_700_000_001_500
    # os.replace: a new file took the old one's name, so a reader saw one time or the other.
    assert clock.path.stat().st_ino != first
    assert clock.path.read_text() == "1700000001500"
    assert ManualClock("steps").now_ms() == 1_700_000_001_500, "a second handle reads the same clock"
    assert clock.advance(0) == 1_700_000_001_500
    assert sorted(path.name for path in folder.iterdir()) == ["steps.ms"], "no step left a file behind"


def test_registering_a_name_again_replaces_its_clock_and_unregistering_removes_it(name: str) -> None:
    _manual_clock.register(name, 5).advance(10)
    clock = _manual_clock.register(name, 100)
    assert clock.now_ms() == 100
    assert _manual_clock.named(name) == clock
    _manual_clock.unregister(name)
    assert _manual_clock.named(name) is None
    assert not clock.path.exists()
    _manual_clock.unregister(name)  # no clock: nothing to do
    with pytest.raises(RuntimeError) as raised:
        clock.now_ms()
    assert str(raised.value) == (
        f"No manual clock named '{name}' is registered on this machine (_manualClock is for tests on a "
        "local master, whose Python workers run on the driver's machine)."
    )


def test_a_clock_moves_only_forward_saturates_and_needs_a_name(name: str) -> None:
    clock = _manual_clock.register(name, LONG_MAX - 10)
    with pytest.raises(ValueError) as raised:
        clock.advance(-1)
    assert str(raised.value) == f"a clock only moves forward: cannot advance {name} by -1 ms"
    assert clock.advance(LONG_MAX) == LONG_MAX
    with pytest.raises(ValueError, match=r"^a manual clock needs a name$"):
        _manual_clock.register(" \t", 0)
    with pytest.raises(
        ValueError, match=r"a manual clock's time is a 64-bit epoch ms, not 9223372036854775808"
    ):
        _manual_clock.register(name, LONG_MAX + 1)


def test_a_name_that_is_no_file_name_stays_one_file_in_the_folder(folder: Path) -> None:
    odd = ["../a/b", "..", "a b%2F"]
    for n, name in enumerate(odd):
        _manual_clock.register(name, n)
    assert sorted(path.name for path in folder.iterdir()) == ["..%2Fa%2Fb.ms", "...ms", "a%20b%252F.ms"]
    assert [_manual_clock.named(name) for name in odd] == [ManualClock(name) for name in odd]
    assert [ManualClock(name).now_ms() for name in odd] == [0, 1, 2]
    for name in odd:
        _manual_clock.unregister(name)
    assert list(folder.iterdir()) == []


def test_the_option_is_internal_accepted_case_insensitively_and_kept_out_of_the_option_table(
    name: str,
) -> None:
    assert MANUAL_CLOCK == "_manualClock"
    assert INTERNAL_NAMES == (MANUAL_CLOCK,)
    assert MANUAL_CLOCK not in NAMES  # the option table's names (OPTIONS)
    clock = _manual_clock.register(name, 0)
    assert parse_options({"_MANUALCLOCK": name}).clock == clock
    assert parse_options({}).clock is None
    with pytest.raises(ValueError) as raised:
        parse_options({"_manualClok": name})
    assert "Known options (case-insensitive): rowsPerSecond, " in str(raised.value)
    assert MANUAL_CLOCK not in str(raised.value)


def test_an_option_that_names_no_registered_clock_is_refused_with_the_jars_message_adapted() -> None:
    with pytest.raises(ValueError) as raised:
        parse_options({MANUAL_CLOCK: "nowhere", "seed": "1"})
    assert str(raised.value) == (
        "Invalid value 'nowhere' for option '_manualClock': no manual clock of that name is registered "
        "on this machine. The option is for tests: register one first with "
        "spark_random_strings.time.manual_clock.register(\"nowhere\", start_ms), or remove '_manualClock'."
    )


def test_the_reader_starts_the_stream_and_counts_its_rows_by_the_clock_it_is_given(name: str) -> None:
    # Imported here: the reader needs pyspark's Python data sources (4.0+), and every line's run
    # collects this module.
    from spark_random_strings.strings.reader import RandomStringsStreamReader

    clock = _manual_clock.register(name, 1_000_000)
    reader = RandomStringsStreamReader(parse_options({MANUAL_CLOCK: name, "rowsPerSecond": "100"}))
    assert reader.initialOffset()["stream"]["startTimeMs"] == 1_000_000
    assert reader.latestOffset()["offset"] == 0
    clock.advance(1009)
    assert reader.latestOffset()["offset"] == 100
    clock.advance(1)
    assert reader.latestOffset()["offset"] == 101
    assert RandomStringsStreamReader(parse_options({})).now_ms is _manual_clock.system_now_ms


def test_a_clock_that_is_not_registered_is_refused_at_load_here_and_in_the_python_worker(
    spark: SparkSession,
) -> None:
    from spark_random_strings.engine.python_sources import register
    from spark_random_strings.strings.python_source import RandomStringsDataSource
    from spark_random_strings.strings.read import _python_stream

    refused = (
        r"Invalid value 'nowhere' for option '_manualClock': no manual clock of that name is registered "
        r"on this machine\. The option is for tests: register one first with "
        r"spark_random_strings\.time\.manual_clock\.register\(\"nowhere\", start_ms\), "
        r"or remove '_manualClock'\."
    )
    with pytest.raises(IllegalArgumentException, match=refused):
        _python_stream(spark, {MANUAL_CLOCK: "nowhere"})
    # Read by its name, the data source's options are checked in the Python worker that Spark asks
    # for the schema at load(): it looks the clock up on this machine too.
    register(spark, RandomStringsDataSource)
    with pytest.raises(Exception, match=refused):
        spark.readStream.format(PYTHON_FORMAT).option(MANUAL_CLOCK, "nowhere").load()
