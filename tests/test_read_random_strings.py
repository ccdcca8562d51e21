"""The source end to end through PySpark and the jar the package bundles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pyspark.errors import IllegalArgumentException
from pyspark.sql import SparkSession

from helpers.support import run_available_now
from spark_random_strings import FORMAT, read_random_strings

# The contract, the packaging and the ways in, on every Spark line and Java.
pytestmark = pytest.mark.every_line


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


def test_same_seed_gives_identical_rows_whatever_the_partitioning(
    spark: SparkSession, tmp_path: Path
) -> None:
    made = []
    for i, (partitions, per_trigger) in enumerate([(1, 1000), (3, 70), (4, 1)]):
        df = read_random_strings(
            spark,
            total_rows=40,
            seed=-11,
            num_partitions=partitions,
            max_rows_per_trigger=per_trigger,
            charset="unicode",
            max_length=12,
        )
        rows, _ = run_available_now(df, f"partitioning_{i}", tmp_path / str(i))
        made.append([(value, offset, length) for value, _, offset, length in rows])
    assert made[0] == made[1] == made[2]
    assert [offset for _, offset, _ in made[0]] == list(range(40))
    assert all(len(value) == length for value, _, length in made[0])


def test_the_schema_is_value_ts_offset_length_not_null(spark: SparkSession) -> None:
    df = read_random_strings(spark)
    assert df.isStreaming
    assert [(f.name, f.dataType.simpleString(), f.nullable) for f in df.schema.fields] == [
        ("value", "string", False),
        ("ts", "bigint", False),
        ("offset", "bigint", False),
        ("length", "int", False),
    ]


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
        ({"rows_per_second": 0}, "Invalid value '0' for option 'rowsPerSecond'"),
        ({"min_length": -1}, "Invalid value '-1' for option 'minLength'"),
        ({"max_length": 2_000_000}, "Allowed: a whole number from 0 to 1048576."),
        ({"min_length": 6, "max_length": 2}, "'minLength' is 6 and 'maxLength' is 2"),
        ({"charset": "klingon"}, "Allowed: alphanumeric, letters, digits, hex, ascii, unicode."),
        ({"alphabet": ""}, "the alphabet is empty"),
        ({"seed": 2**64}, "Invalid value '18446744073709551616' for option 'seed'"),
        ({"num_partitions": 0}, "option 'numPartitions': out of range"),
        ({"max_rows_per_trigger": -4}, "option 'maxRowsPerTrigger': out of range"),
        ({"total_rows": -1}, "Invalid value '-1' for option 'totalRows'"),
    ],
)
def test_bad_values_raise_a_readable_illegal_argument_exception(
    spark: SparkSession, options: dict[str, Any], expected: str
) -> None:
    with pytest.raises(IllegalArgumentException) as raised:
        read_random_strings(spark, **options)
    assert expected in str(raised.value)
    assert "\tat " not in str(raised.value), "no JVM stack trace in the message"


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"rows_per_second": "10"}, "rows_per_second must be int or None, got str '10'"),
        ({"max_length": 4.0}, "max_length must be int or None, got float 4.0"),
        ({"total_rows": True}, "total_rows must be int or None, got bool True"),
        ({"charset": 5}, "charset must be str or None, got int 5"),
        ({"alphabet": b"ab"}, "alphabet must be str or None, got bytes b'ab'"),
        (
            {"rows_per_secnd": 5},
            "() got an unexpected keyword argument 'rows_per_secnd'. Did you mean 'rows_per_second'? "
            "Known: rows_per_second, min_length, max_length, charset, alphabet, seed, "
            "num_partitions, max_rows_per_trigger, total_rows.",
        ),
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
