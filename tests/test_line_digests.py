"""Every Spark line, Java and engine makes the same rows: each definition of the digest table
(tests/digests/definitions.json) read through this line's jar, in micro-batch and under
AvailableNow, in one and in three partitions, and through the Python engine where the line has
Python data sources, must equal the digest the default line committed (tests/digests/expected.json).

What the rows are is pinned on the default line by each feature's own tests; what a line can change
of them (Spark's rows, strings, decimals and timestamps under the same Scala, the versioned readers)
is caught here, one query a way of reading, not one test per feature and line."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pyspark.sql import SparkSession

from helpers.digests import (
    EXPECTED,
    PYTHON_VARIANT,
    RUNNER_OPTIONS,
    SOURCES,
    VARIANTS,
    Variant,
    definitions,
    differences,
    digest,
    line_definitions,
    read_rows,
)
from helpers.spark_lines import on_default_line
from helpers.typed_draws import ATOMS
from spark_random_strings.engine.choice import pyspark_line
from spark_random_strings.options.table import FIELDS
from spark_random_strings.options.table import SOURCES as OPTION_SOURCES


def committed() -> dict[str, Any]:
    return json.loads(EXPECTED.read_text())  # type: ignore[no-any-return]


def test_the_digest_table_sets_every_option_and_every_choice_of_each_source() -> None:
    for source, table in OPTION_SOURCES.items():
        written = [d for d in definitions() if d.format == source]
        assert written, f"no definition of {source}"
        names = {name.lower() for d in written for name in d.options}
        for option in table.rows:
            if option.name in RUNNER_OPTIONS:  # the runner sets these on every read
                continue
            assert option.name.lower() in names, f"{source}: no definition sets {option.name}"
            values = {
                v.lower() for d in written for n, v in d.options.items() if n.lower() == option.name.lower()
            }
            missing = {v.lower() for v in option.values} - values
            # A choice's default is read where a definition leaves it unset.
            assert missing <= {option.default.lower()}, f"{source}: {option.name} never {missing}"


def test_the_digest_table_sets_every_property_of_a_declared_column() -> None:
    written = {
        name.rsplit(".", 1)[1].lower() for d in definitions() if d.schema for name in d.options if "." in name
    }
    properties = {p.name.lower() for p in FIELDS.rows} | {p.lower() for p in FIELDS.string_properties}
    assert properties - written == set()
    for choice in (p for p in FIELDS.rows if p.values):
        suffix = "." + choice.name.lower()
        values = {
            v.lower() for d in definitions() for n, v in d.options.items() if n.lower().endswith(suffix)
        }
        assert {v.lower() for v in choice.values} - values == set(), choice.name


def test_the_digest_table_declares_every_type_and_the_python_engine_reads_each() -> None:
    for read_by_python in (False, True):
        chosen = [d for d in definitions() if d.schema and (d.python or not read_by_python)]
        ddl = " ".join(d.schema or "" for d in chosen).upper()
        for name in (*ATOMS, "ARRAY<", "STRUCT<", "NOT NULL"):
            assert name in ddl, (name, "python" if read_by_python else "jar")
    python = [d for d in definitions() if d.python]
    assert {d.format for d in python} == set(SOURCES)
    assert {d.options.get("envelope", "flat") for d in python if d.format == "changes"} == {
        "flat",
        "debezium",
        "delta",
        "flink",
    }


def test_the_committed_digests_are_of_every_definition_and_no_other() -> None:
    assert sorted(committed()) == sorted(d.name for d in definitions())


# On another Java only the first way of reading (AvailableNow, one partition): what a Java can
# change is a row's value (strings, numbers, time), which every way of reading makes alike; the
# partitions and batches around them are Spark's, checked on each line.
@pytest.mark.slow
@pytest.mark.every_line
@pytest.mark.parametrize(
    "variant",
    [pytest.param(VARIANTS[0], id=VARIANTS[0].name, marks=pytest.mark.every_java)]
    + [pytest.param(variant, id=variant.name) for variant in VARIANTS[1:]],
)
def test_the_jar_makes_every_definitions_committed_rows(spark: SparkSession, variant: Variant) -> None:
    made = read_rows(spark, line_definitions(), variant)
    assert differences(made, committed(), f"jar, {variant.name}") == []


@pytest.mark.slow
@pytest.mark.every_line
@pytest.mark.skipif(pyspark_line() < (4, 0), reason="Spark 3.5 has no Python data sources")
@pytest.mark.skipif(
    on_default_line(),
    reason="on the default line the Python engine's rows are compared with the jar's by its own tests "
    "(test_python_source, test_nexmark_python_source, test_changes_python_source), and the jar's with "
    "the committed digests here",
)
def test_the_python_engine_makes_every_definitions_committed_rows(spark: SparkSession) -> None:
    chosen = [d for d in line_definitions() if d.python]
    made = read_rows(spark, chosen, PYTHON_VARIANT, python=True)
    assert differences(made, committed(), f"python engine, {PYTHON_VARIANT.name}") == []


def test_a_differing_digest_names_its_definition_and_first_differing_row() -> None:
    rows = ['{"offset":0}', '{"offset":1}', '{"offset":2}', '{"offset":3}']
    expected = {"d": digest(rows)}
    assert differences({"d": rows}, expected, "jar") == []
    changed = [*rows[:2], '{"offset":2,"x":1}', rows[3]]
    assert differences({"d": changed}, expected, "jar") == [
        'd (jar): 4 rows, 4 committed; row 2 differs first: {"offset":2,"x":1}'
    ]
    assert differences({"d": rows[:3]}, expected, "jar") == [
        "d (jar): 3 rows, 4 committed; row 3 differs first: (none: the read ended there)"
    ]
    assert differences({"e": rows}, expected, "jar") == [
        "e (jar): no committed digest; run `make digests` on the default line"
    ]


def test_each_source_of_the_table_is_one_the_runner_reads() -> None:
    assert set(OPTION_SOURCES) == set(SOURCES)
