"""The source end to end through PySpark and the jar the package bundles."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pyspark.errors import IllegalArgumentException
from pyspark.sql import SparkSession

from helpers.support import run_available_now
from spark_random_strings import FORMAT, read_random_strings

# The V1 contract and load()'s refusals through Spark, on every Spark line; the rows themselves
# are the digest run's (test_line_digests.py), the keywords' own checks Python's, run once.


@pytest.mark.every_line
def test_memory_sink_holds_offsets_0_to_n_minus_1_exactly_once(
    spark: SparkSession, query_name: str, tmp_path: Path
) -> None:
    df = read_random_strings(
        spark, total_rows=500, max_rows_per_trigger=120, seed=3, min_length=2, max_length=6
    )
    rows, progress = run_available_now(df, query_name, tmp_path / "checkpoint")
    assert [r[2] for r in rows] == list(range(500))
    assert [p["numInputRows"] for p in progress if p["numInputRows"]] == [120, 120, 120, 120, 20]
    assert all(2 <= r[3] <= 6 and len(r[0]) == r[3] for r in rows)
    assert all(r[0].isalnum() and r[0].isascii() for r in rows)
    start = rows[0][1]
    assert [r[1] for r in rows] == [start + offset * 100 for offset in range(500)]


#: The stream shaped by every shaping option; a float keyword takes an int too (late_row_fraction).
SHAPED: dict[str, Any] = dict(
    distinct_values=25,
    value_distribution="zipf",
    zipf_exponent=1.3,
    max_out_of_order_ms=100,
    late_row_fraction=1,
    late_by_ms=1000,
    duplicate_fraction=0.3,
    max_duplicate_distance=4,
)


@pytest.mark.slow
@pytest.mark.parametrize("shape", [{}, SHAPED], ids=["plain", "shaped"])
def test_same_seed_gives_identical_rows_whatever_the_partitioning(
    spark: SparkSession, tmp_path: Path, shape: dict[str, Any]
) -> None:
    made = []
    for i, (partitions, per_trigger) in enumerate([(1, 1000), (3, 7), (4, 3)]):
        df = read_random_strings(
            spark,
            total_rows=40,
            seed=-11,
            num_partitions=partitions,
            max_rows_per_trigger=per_trigger,
            charset="unicode",
            max_length=12,
            **shape,
        )
        rows, _ = run_available_now(df, f"partitioning_{len(shape)}_{i}", tmp_path / str(i))
        start = json.loads((tmp_path / str(i) / "sources/0/random-strings-source.json").read_text())
        made.append(
            [(value, ts - start["startTimeMs"], offset, length) for value, ts, offset, length in rows]
        )
    assert made[0] == made[1] == made[2]
    assert [offset for _, _, offset, _ in made[0]] == list(range(40))
    assert all(len(value) == length for value, _, _, length in made[0])
    if shape:
        # Every row is late: an original is 1 to 1.1 s behind its in-order time (10 rows/s:
        # offset * 100 ms), and a repeat carries the time of an original before it.
        behind = [offset * 100 - ms for _, ms, offset, _ in made[0]]
        seen: set[tuple[str, int]] = set()
        repeats = 0
        for (value, ms, _, _), late_by in zip(made[0], behind, strict=True):
            if (value, ms) in seen:
                repeats += 1
                assert late_by >= 1000
            else:
                assert 1000 <= late_by <= 1100
                seen.add((value, ms))
        assert len({value for value, *_ in made[0]}) <= 25
        assert 0 < repeats < 40
    else:
        assert [ms for _, ms, _, _ in made[0]] == [offset * 100 for offset in range(40)]


@pytest.mark.every_line
def test_the_schema_is_value_ts_offset_length_not_null(spark: SparkSession) -> None:
    df = read_random_strings(spark)
    assert df.isStreaming
    assert [(f.name, f.dataType.simpleString(), f.nullable) for f in df.schema.fields] == [
        ("value", "string", False),
        ("ts", "bigint", False),
        ("offset", "bigint", False),
        ("length", "int", False),
    ]


@pytest.mark.every_line
@pytest.mark.parametrize("name", [FORMAT, FORMAT.lower(), FORMAT.upper(), "io.github.sparkrandomstrings"])
def test_short_name_in_any_case_and_package_name_formats(
    spark: SparkSession, name: str, query_name: str, tmp_path: Path
) -> None:
    df = spark.readStream.format(name).option("totalRows", "5").option("seed", "1").load()
    rows, _ = run_available_now(df, query_name, tmp_path / "checkpoint")
    assert [r[2] for r in rows] == [0, 1, 2, 3, 4]


def test_an_alphabet_draws_only_its_characters(spark: SparkSession, query_name: str, tmp_path: Path) -> None:
    df = read_random_strings(spark, total_rows=200, alphabet="ACGT", min_length=10, max_length=10)
    rows, _ = run_available_now(df, query_name, tmp_path / "checkpoint")
    assert len(rows) == 200
    assert set("".join(r[0] for r in rows)) == set("ACGT")


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"rows_per_second": 0}, "Invalid value '0' for rows_per_second: out of range."),
        ({"min_length": -1}, "Invalid value '-1' for min_length: out of range."),
        ({"max_length": 2_000_000}, "Allowed: a whole number from 0 to 1048576."),
        ({"min_length": 6, "max_length": 2}, "min_length is 6 and max_length is 2"),
        ({"charset": "klingon"}, "Allowed: alphanumeric, letters, digits, hex, ascii, unicode."),
        ({"alphabet": ""}, "the alphabet is empty"),
        ({"seed": 2**64}, "Invalid value '18446744073709551616' for seed:"),
        ({"num_partitions": 0}, "for num_partitions: out of range"),
        ({"max_rows_per_trigger": -4}, "for max_rows_per_trigger: out of range"),
        ({"total_rows": -1}, "Invalid value '-1' for total_rows:"),
        (
            {"late_row_fraction": 0.5},
            "Options that do not fit together: late_row_fraction is 0.5, but late_by_ms is not set.",
        ),
        ({"charset": "seed"}, "Invalid value 'seed' for charset: unknown character set."),
    ],
)
@pytest.mark.every_line
def test_bad_values_raise_a_readable_illegal_argument_exception(
    spark: SparkSession, options: dict[str, Any], expected: str
) -> None:
    with pytest.raises(IllegalArgumentException) as raised:
        read_random_strings(spark, **options)
    assert expected in str(raised.value)
    assert "\tat " not in str(raised.value), "no JVM stack trace in the message"
    # The keywords the caller wrote, not the source's option names.
    assert "option '" not in str(raised.value).lower()


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"rows_per_second": "10"}, "rows_per_second must be int or None, got str '10'"),
        ({"max_length": 4.0}, "max_length must be int or None, got float 4.0"),
        ({"total_rows": True}, "total_rows must be int or None, got bool True"),
        ({"charset": 5}, "charset must be str or None, got int 5"),
        ({"alphabet": b"ab"}, "alphabet must be str or None, got bytes b'ab'"),
        ({"zipf_exponent": "1.5"}, "zipf_exponent must be float or None, got str '1.5'"),
        ({"late_row_fraction": False}, "late_row_fraction must be float or None, got bool False"),
        (
            {"rows_per_secnd": 5},
            "() got an unexpected keyword argument 'rows_per_secnd'. Did you mean 'rows_per_second'? "
            "Known: rows_per_second, min_length, max_length, charset, alphabet, seed, "
            "num_partitions, max_rows_per_trigger, total_rows, distinct_values, value_distribution, "
            "zipf_exponent, max_out_of_order_ms, late_row_fraction, late_by_ms, duplicate_fraction, "
            "max_duplicate_distance, timestamp_column, start_timestamp, rate_profile, real_time.",
        ),
        ({"timestamp_column": 1}, "timestamp_column must be bool or None, got int 1"),
        ({"start_timestamp": True}, "start_timestamp must be int or None, got bool True"),
    ],
)
def test_wrong_python_types_raise_type_error_before_reaching_spark(
    options: dict[str, Any], expected: str
) -> None:
    not_a_session: Any = object()  # any use of Spark would fail with AttributeError
    with pytest.raises(TypeError) as raised:
        read_random_strings(not_a_session, **options)
    separator = "" if expected.startswith("()") else ": "
    assert str(raised.value) == f"read_random_strings{separator}{expected}"


def test_the_docstring_documents_each_keyword_with_its_option_and_default() -> None:
    from spark_random_strings.options import OPTIONS

    keyword_args = (read_random_strings.__doc__ or "").split("Keyword Args:\n", 1)[1].splitlines()
    assert keyword_args == [
        f"        {row.keyword} ({row.kind.__name__}): the option ``{row.name}``: "
        f"{row.option.help} (default: {row.option.default})."
        for row in OPTIONS
    ]
    assert keyword_args[0] == (
        "        rows_per_second (int): the option ``rowsPerSecond``: rows made available per "
        "second (default: 10)."
    )
