"""The one table of options (``options/table.json``): the wheel's copy is every jar's, and the
Python side reads its names, keywords, defaults and ranges from it, refusing at import a
keyword that disagrees with it."""

from __future__ import annotations

import json
import zipfile
from importlib import resources
from pathlib import Path
from typing import Annotated, TypedDict, get_type_hints

import pytest

from helpers.spark_lines import BUILDS
from spark_random_strings.engine.jar import bundled_jars
from spark_random_strings.nexmark.table import NEXMARK_OPTIONS, NexmarkKeywords
from spark_random_strings.options import OPTIONS, ZIPF_EXPONENT, OptionTable, SourceKeywords
from spark_random_strings.options.table import FIELDS, SOURCES
from spark_random_strings.typed.fields import properties

TABLE = resources.files("spark_random_strings.options").joinpath("table.json").read_bytes()


@pytest.mark.every_jar
def test_every_jar_in_the_package_carries_the_wheels_table_byte_for_byte() -> None:
    jars = list(bundled_jars().values())
    assert len(jars) == len(BUILDS)
    for jar in jars:
        with zipfile.ZipFile(jar) as archive:
            assert archive.read("io/github/sparkrandomstrings/options/table.json") == TABLE, jar.name


def test_the_keywords_of_both_sources_are_the_tables_rows_in_its_order() -> None:
    table = json.loads(TABLE)["sources"]
    for keywords, rows, source in (
        (SourceKeywords, OPTIONS, "InMemoryRandomStrings"),
        (NexmarkKeywords, NEXMARK_OPTIONS.rows, "nexmark"),
    ):
        entries = table[source]["options"]
        assert list(keywords.__annotations__) == [entry["keyword"] for entry in entries]
        assert [(row.keyword, row.name, row.option.help) for row in rows] == [
            (entry["keyword"], entry["name"], entry["help"]) for entry in entries
        ]
    assert SOURCES["InMemoryRandomStrings"]["rowsPerSecond"].whole.allowed == "a whole number >= 1"
    assert SOURCES["nexmark"]["numEventGenerators"].whole.allowed == "a whole number from 1 to 1000000"


def test_the_typed_properties_named_in_code_are_the_tables_rows() -> None:
    p = properties
    named: tuple[str, ...] = (p.KIND, p.NULL_RATE, p.MIN, p.MAX, p.DISTRIBUTION, ZIPF_EXPONENT, p.MEAN)
    named += (p.STDDEV, p.START, p.STEP, p.END, p.VALUES, p.WEIGHTS, p.PATTERN, p.MIN_SIZE, p.MAX_SIZE)
    assert named == FIELDS.names
    assert p.KINDS == ("random", "sequence", "offset", "eventTime", "values")
    assert (properties.DEFAULT_MAX_SIZE, properties.MAX_SIZE_LIMIT, properties.DEFAULT_MAX_BYTES) == (
        4,
        65536,
        16,
    )
    assert p.NULL_RATE_RANGE.allowed == "a decimal number >= 0 and <= 1"


def test_a_keyword_the_table_does_not_have_is_refused_naming_it() -> None:
    class Wrong(TypedDict, total=False):
        rows_per_second: Annotated[float | None, "rowsPerSecond"]

    with pytest.raises(ValueError, match=r"^Wrong\.rows_per_second \(float\) is not table\.json's option "):
        OptionTable(Wrong, SOURCES["InMemoryRandomStrings"])

    class Short(TypedDict, total=False):
        rows_per_second: Annotated[int | None, "rowsPerSecond"]

    with pytest.raises(ValueError, match=r"^Short lists other options than table\.json"):
        OptionTable(Short, SOURCES["InMemoryRandomStrings"])
    with pytest.raises(KeyError, match=r"table\.json has no option 'rowsPerMinute'"):
        SOURCES["InMemoryRandomStrings"]["rowsPerMinute"]


def test_keywords_may_extend_others_in_any_order_and_the_rows_keep_the_tables_order() -> None:
    from spark_random_strings.changes.keywords import CHANGE_OPTIONS, CHANGES_TABLE, ChangeDefinitionKeywords

    # ChangeKeywords lists the oracles' keywords first (it extends ChangeDefinitionKeywords), and
    # its rows, read_changes' docstring and the command line's flags still follow the table.
    assert [row.name for row in CHANGE_OPTIONS.rows] == list(CHANGES_TABLE.names)
    assert list(get_type_hints(ChangeDefinitionKeywords))[-1] == "rate_profile"
    assert CHANGE_OPTIONS.keyword_args().index("rate_profile") > CHANGE_OPTIONS.keyword_args().index("seed")


def test_the_typed_columns_guide_lists_every_property_of_the_table_and_no_other() -> None:
    listed = {name for row in FIELDS.guide for name in row.properties}
    assert listed == set(FIELDS.names) | set(FIELDS.string_properties)


def test_the_typed_columns_guides_property_table_is_the_tables_guide_row_for_row() -> None:
    guide = (Path(__file__).parent.parent / "docs" / "typed-columns.md").read_text()
    heading = "| property | where | default | what it does |\n|---|---|---|---|\n"
    rows = guide.split(heading)[1].split("\n\n")[0]
    assert rows.splitlines() == [
        f"| {', '.join(f'`{name}`' for name in row.properties)} | {row.where} | {row.default} | {row.help} |"
        for row in FIELDS.guide
    ]


def test_a_guide_rows_default_is_the_tables_where_the_table_has_one() -> None:
    strings = SOURCES["InMemoryRandomStrings"]
    nullable = "a nullable column, `STRUCT` field or `ARRAY` element"
    stated = {
        (row.properties, row.where): row.default
        for row in FIELDS.guide
        if row.properties in (("nullRate",), ("minSize", "maxSize"), ("minLength", "maxLength"))
    }
    assert stated == {
        (("nullRate",), nullable): f"{FIELDS['nullRate'].value:g}",
        (("minSize", "maxSize"), "`ARRAY`"): f"{FIELDS['minSize'].default}, {FIELDS['maxSize'].default}",
        # A STRING column's lengths are the stream's options of the same names.
        (("minLength", "maxLength"), "`STRING`"): (
            f"{strings['minLength'].default}, {strings['maxLength'].default}"
        ),
        (("minLength", "maxLength"), "`BINARY`"): (
            f"{FIELDS.default('binaryMinLength')}, {FIELDS.default('binaryMaxLength')}"
        ),
    }
