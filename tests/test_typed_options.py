"""Typed columns (issue 38), the parsing side, without Spark or a JVM: a declared schema's DDL and
JSON, the ``fields.`` options read into cell specs with the JVM's messages
(``TypedColumnsSuite.scala``'s cases, and the messages the JVM gave for the shared cases of the
typed rows' dump), the pattern parser, and a declared stream's definition in a checkpoint
(version 4) and its restart check.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pytest

from helpers.orders import ORDERS_DDL, ORDERS_FIELDS
from helpers.support import REPO
from spark_random_strings.offsets.corrupt import CorruptDefinitionError
from spark_random_strings.offsets.definition_store import (
    definition_from_json,
    definition_to_json,
)
from spark_random_strings.options.ranges import Real, java_double, java_float
from spark_random_strings.rows.columns import Cells
from spark_random_strings.rows.definition import StreamDefinition, check_restart, describe_stream
from spark_random_strings.rows.options import parse_options
from spark_random_strings.typed.cells.pattern_plan import max_utf8_bytes
from spark_random_strings.typed.cells.pattern_plan import parse as parse_pattern
from spark_random_strings.typed.cells.row_bytes import LIMIT
from spark_random_strings.typed.cells.spec import (
    AnyOf,
    Arrays,
    ArrayType,
    AtomicType,
    Booleans,
    Bytes,
    CellSpec,
    Either,
    EventTime,
    Exponential,
    Literal,
    Normal,
    Patterned,
    PickUniform,
    PickWeighted,
    PickZipf,
    Reals,
    Repeat,
    RowOffset,
    SequenceKind,
    Strings,
    StructField,
    Structs,
    StructType,
    Uniform,
    Values,
    Wholes,
    Zipf,
)
from spark_random_strings.typed.cells.spec import Sequence as PatternSequence
from spark_random_strings.typed.declared_schema import DeclaredSchema
from spark_random_strings.typed.fields.options import is_field_option, shown, split
from spark_random_strings.typed.schema.ddl import parse_ddl, to_schema
from spark_random_strings.typed.schema.jackson import read_tree, to_string
from spark_random_strings.typed.schema.sql_types import BIGINT, INT, STRING, decimal, sql, to_ddl
from spark_random_strings.typed.schema.struct_json import from_json, schema_json, to_json

PATTERN_RULES = (
    " A pattern may hold literals, escapes, classes ([a-z], \\d, \\w, \\s, .), groups, alternation (|) "
    "and repeats (?, *, +, {n}, {m,n}); anchors, lookaround and back-references cannot be generated."
)


def definition(
    ddl: object, fields: dict[str, str], options: dict[str, str] | None = None, seed: int = 7
) -> StreamDefinition:
    """A declared stream's definition, as ``TypedColumnsSuite.definition`` makes it, with the
    stream's ``options`` besides."""
    parameters = {"seed": str(seed), "rowsPerSecond": "1000", **fields, **(options or {})}
    return parse_options(parameters, ddl).definition(seed, 1700000000000)


def cells(ddl: object, fields: dict[str, str]) -> tuple[CellSpec, ...]:
    """The cell specs of a declared stream's columns."""
    declared = definition(ddl, fields).declared
    assert declared is not None
    return declared.cells


def error(ddl: object, fields: dict[str, str], options: dict[str, str] | None = None) -> str:
    """The message that refuses a declared stream."""
    with pytest.raises(ValueError) as refused:
        definition(ddl, fields, options)
    return str(refused.value)


# The JVM's messages.


@dataclass(frozen=True)
class JvmCase:
    """A case of the shared typed-rows dump (``DumpTypedRows.scala``) that the JVM refuses, and
    the message it gave."""

    name: str
    ddl: str
    fields: dict[str, str]
    options: dict[str, str]
    message: str


JVM_CASES = [
    JvmCase(
        "err_unknown_column",
        "user_id INT",
        {"fields.usr_id.min": "1"},
        {},
        "Unknown column 'usr_id' in option 'fields.usr_id.min': the declared schema has no such column. "
        "Did you mean 'user_id'? Columns: user_id.",
    ),
    JvmCase(
        "err_property",
        "user_id INT",
        {"fields.user_id.minimum": "1"},
        {},
        "Unknown or misplaced property 'minimum' in option 'fields.user_id.minimum': column 'user_id' "
        "(INT, kind random) takes kind, nullRate, min, max, distribution.",
    ),
    JvmCase(
        "err_range",
        "user_id INT",
        {"fields.user_id.min": "9", "fields.user_id.max": "3"},
        {},
        "Invalid range for column 'user_id': 'fields.user_id.min' is 9 and 'fields.user_id.max' is 3. "
        "'min' must be less than or equal to 'max'.",
    ),
    JvmCase(
        "err_tinyint",
        "user_id TINYINT",
        {"fields.user_id.max": "300"},
        {},
        "Invalid value '300' for option 'fields.user_id.max': not a value of column 'user_id' (TINYINT). "
        "Allowed: a whole number from -128 to 127.",
    ),
    JvmCase(
        "err_notnull",
        "id INT NOT NULL",
        {"fields.id.nullRate": "0.1"},
        {},
        "Option 'fields.id.nullRate' sets nulls on column 'id', which is NOT NULL. Declare the column "
        "nullable (remove NOT NULL), or remove 'fields.id.nullRate'.",
    ),
    JvmCase(
        "err_weights",
        "s STRING",
        {"fields.s.kind": "values", "fields.s.values": '["a", "b"]', "fields.s.weights": "[1]"},
        {},
        "Invalid value '[1]' for option 'fields.s.weights': 1 weights for 2 values in 'fields.s.values'. "
        "Give one weight for each value.",
    ),
    JvmCase(
        "err_decimal",
        "a DECIMAL(5,2)",
        {"fields.a.max": "1000.00"},
        {},
        "Invalid value '1000.00' for option 'fields.a.max': not a value of column 'a' (DECIMAL(5,2)). "
        "Allowed: a decimal number with at most 2 digits after the point and 3 before it.",
    ),
    JvmCase(
        "err_anchor",
        "c STRING",
        {"fields.c.pattern": "^ab"},
        {},
        "Invalid value '^ab' for option 'fields.c.pattern': the anchor '^' at position 0." + PATTERN_RULES,
    ),
    JvmCase(
        "err_backref",
        "c STRING",
        {"fields.c.pattern": "(a)\\1"},
        {},
        "Invalid value '(a)\\1' for option 'fields.c.pattern': a back-reference at position 3."
        + PATTERN_RULES,
    ),
    JvmCase(
        "err_map",
        "m MAP<STRING, INT>",
        {},
        {},
        "Column 'm' has type MAP<STRING, INT>, which this source cannot generate. Allowed: BOOLEAN, "
        "TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p,s), STRING, BINARY, DATE, TIMESTAMP, "
        "TIMESTAMP_NTZ, and ARRAY and STRUCT of them.",
    ),
    JvmCase(
        "err_pool",
        "c STRING",
        {"fields.c.distinctValues": "100", "fields.c.maxLength": "1", "fields.c.charset": "digits"},
        {},
        "Column 'c': Invalid value '100' for option 'distinctValues': the other options allow only 11 "
        "distinct strings (lengths 0 to 1 of 10 characters). Lower 'distinctValues', or allow more strings "
        "with a larger 'maxLength' or more characters.",
    ),
    JvmCase(
        "err_stream_option",
        "a STRING",
        {},
        {"maxLength": "5"},
        "Option 'maxLength' shapes the random strings' own columns, and this query declares its schema. "
        "Set it per column instead: 'fields.<column>.maxLength'. Or remove it.",
    ),
    JvmCase(
        "err_kind",
        "a STRING",
        {"fields.a.kind": "offset"},
        {},
        "Invalid value 'offset' for option 'fields.a.kind': column 'a' is STRING, and kind offset makes "
        "BIGINT.",
    ),
    JvmCase(
        "err_seq_end",
        "a INT",
        {"fields.a.kind": "sequence", "fields.a.start": "5", "fields.a.end": "1"},
        {},
        "Invalid sequence for column 'a': it starts at 5 and steps by 1, so it never reaches "
        "'fields.a.end' = 1. Give an end the steps reach, or a step of the other sign.",
    ),
    JvmCase(
        "err_values_missing",
        "a INT",
        {"fields.a.kind": "values"},
        {},
        "Column 'a' has kind values, but 'fields.a.values' is not set. Give the values as a JSON array, "
        """e.g. '["new", "paid"]'.""",
    ),
    JvmCase(
        "err_dist",
        "a DOUBLE",
        {"fields.a.distribution": "zipf"},
        {},
        "Invalid value 'zipf' for option 'fields.a.distribution'. Allowed for column 'a' (DOUBLE): "
        "uniform, normal, exponential (case-insensitive).",
    ),
    JvmCase(
        "err_mean",
        "a INT",
        {"fields.a.distribution": "normal", "fields.a.mean": "1e20"},
        {},
        "Invalid value '1e20' for option 'fields.a.mean': out of range. Allowed: a decimal number >= "
        "-2147483648 and <= 2147483647.",
    ),
]


@pytest.mark.parametrize("case", JVM_CASES, ids=lambda case: case.name)
def test_every_refused_case_of_the_shared_dump_says_what_the_jvm_said(case: JvmCase) -> None:
    assert error(case.ddl, case.fields, case.options) == case.message


def test_the_suites_messages_that_the_jvm_suite_checks_by_their_start() -> None:
    assert error("user_id INT", {"fields.user_id.minimum": "1"}).startswith(
        "Unknown or misplaced property 'minimum' in option 'fields.user_id.minimum': column 'user_id' (INT, "
        "kind random) takes kind, nullRate, min, max, distribution."
    )
    assert error("a DECIMAL(5,2)", {"fields.a.max": "1000.00"}).startswith(
        "Invalid value '1000.00' for option 'fields.a.max': not a value of column 'a' (DECIMAL(5,2))."
    )
    with pytest.raises(
        ValueError, match=r"^Option 'fields\.a\.min' says how a declared column is made, but no "
    ):
        parse_options({"fields.a.min": "1"})


def test_without_a_schema_a_fields_option_is_refused_naming_the_first_by_name() -> None:
    with pytest.raises(ValueError) as refused:
        parse_options({"seed": "1", "fields.b.min": "1", "fields.a.max": "2"})
    assert str(refused.value) == (
        "Option 'fields.a.max' says how a declared column is made, but no schema was declared. Declare the "
        "columns with .schema(...), e.g. .schema(\"id BIGINT, name STRING\"), or remove the 'fields.' "
        "options."
    )


@pytest.mark.parametrize(
    ("option", "instead"),
    [
        ("minLength", "'fields.<column>.minLength'."),
        ("CHARSET", "'fields.<column>.charset'."),
        ("zipfExponent", "'fields.<column>.zipfExponent'."),
        ("timestampColumn", "'fields.<column>.kind' = eventTime on a TIMESTAMP column."),
    ],
)
def test_with_a_schema_the_random_strings_own_options_are_refused(option: str, instead: str) -> None:
    assert error("a STRING", {}, {option: "1"}) == (
        f"Option '{option}' shapes the random strings' own columns, and this query declares its schema. "
        f"Set it per column instead: {instead} Or remove it."
    )


def test_an_unknown_option_is_refused_before_the_declared_columns_are_read() -> None:
    assert error("a STRING", {"fields.b.min": "1"}, {"minLenght": "2"}).startswith(
        "Unknown option 'minLenght'"
    )


@pytest.mark.parametrize(
    ("ddl", "fields", "message"),
    [
        (
            "a INT, A STRING",
            {},
            "The declared schema has two columns named 'a' (names are case-insensitive). Give each "
            "column its own name.",
        ),
        (
            "s STRUCT<x: INT, X: INT>",
            {},
            "The declared schema has two columns named 's.x' (names are case-insensitive). Give each "
            "column its own name.",
        ),
        ("s STRUCT<>", {}, "Column 's' is a STRUCT with no field. Declare at least one field."),
        (
            "a ARRAY<STRUCT<`b c`: INT NOT NULL COMMENT 'it''s', m MAP<INT, INT>>>",
            {},
            "Column 'a.element.m' has type MAP<INT, INT>, which this source cannot generate. Allowed: "
            "BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p,s), STRING, BINARY, DATE, "
            "TIMESTAMP, TIMESTAMP_NTZ, and ARRAY and STRUCT of them.",
        ),
        (
            "s STRUCT<x: INT NOT NULL COMMENT 'c'>",
            {"fields.s.x.y.min": "1"},
            "Unknown column 's.x.y' in option 'fields.s.x.y.min': 's.x' (INT) has no part 'y'. Did you "
            "mean 's.x'? Columns: s, s.x.",
        ),
        (
            "s STRUCT<`x.y`: INT NOT NULL COMMENT 'c'>",
            {"fields.s.z.min": "1"},
            "Unknown column 's.z' in option 'fields.s.z.min': 's' (STRUCT<`x.y`: INT NOT NULL COMMENT 'c'>) "
            "has no part 'z'. Did you mean 's'? Columns: s, s.`x.y`.",
        ),
        (
            "a INT",
            {"fields.a.min": "1", "fields.A.MIN": "2"},
            "Options 'fields.A.MIN' and 'fields.a.min' set the same property of column 'a'. Keep one.",
        ),
        (
            "a INT",
            {"fields.a.kind": "Sequenz"},
            "Invalid value 'Sequenz' for option 'fields.a.kind'. Allowed: random, sequence, offset, "
            "eventTime, values (case-insensitive).",
        ),
        (
            "a DATE",
            {"fields.a.kind": " eventtime "},
            "Invalid value ' eventtime ' for option 'fields.a.kind': column 'a' is DATE, and kind eventTime "
            "makes TIMESTAMP, TIMESTAMP_NTZ or BIGINT (epoch ms).",
        ),
        (
            "a ARRAY<INT>",
            {"fields.a.kind": "values"},
            "Invalid value 'values' for option 'fields.a.kind': column 'a' is ARRAY<INT>, and kind values "
            "makes a type other than ARRAY and STRUCT.",
        ),
        (
            "a BIGINT",
            {"fields.a.kind": "offset", "fields.a.min": "1"},
            "Unknown or misplaced property 'min' in option 'fields.a.min': column 'a' (BIGINT, kind offset) "
            "takes kind, nullRate. Did you mean 'kind'?",
        ),
        (
            "a DOUBLE",
            {"fields.a.min": "5"},
            "Invalid range for column 'a': 'fields.a.min' is 5 and 'fields.a.max' is 1.0 (its default). "
            "'min' must be less than or equal to 'max'.",
        ),
        (
            "a DECIMAL(4,2)",
            {"fields.a.min": "100"},
            "Invalid value '100' for option 'fields.a.min': not a value of column 'a' (DECIMAL(4,2)). "
            "Allowed: a decimal number with at most 2 digits after the point and 2 before it.",
        ),
        (
            "a DECIMAL(4,2)",
            {"fields.a.min": "99.99", "fields.a.max": "1.0005e1"},
            "Invalid value '1.0005e1' for option 'fields.a.max': not a value of column 'a' (DECIMAL(4,2)). "
            "Allowed: a decimal number with at most 2 digits after the point and 2 before it.",
        ),
        (
            "a DECIMAL(4,2)",
            {"fields.a.max": "-1"},
            "Invalid range for column 'a': 'fields.a.min' is 0 (its default) and 'fields.a.max' is -1. "
            "'min' must be less than or equal to 'max'.",
        ),
        (
            "a DECIMAL(38,20)",
            {"fields.a.min": "x"},
            "Invalid value 'x' for option 'fields.a.min': not a value of column 'a' (DECIMAL(38,20)). "
            "Allowed: a decimal number with at most 20 digits after the point and -2 before it (bounds of "
            "up to 18 digits in all).",
        ),
        (
            "a FLOAT",
            {"fields.a.max": "1e39"},
            "Invalid value '1e39' for option 'fields.a.max': out of range of column 'a' (FLOAT). Allowed: a "
            "decimal number from -3.4028234663852886E38 to 3.4028234663852886E38.",
        ),
        (
            "a DOUBLE",
            {"fields.a.max": "1e400"},
            "Invalid value '1e400' for option 'fields.a.max': out of range. Allowed: a decimal number >= "
            "-9223372036854775808 and <= 9223372036854775807.",
        ),
        (
            "a BIGINT",
            {"fields.a.distribution": "normal", "fields.a.mean": "1e19"},
            "Invalid value '1e19' for option 'fields.a.mean': out of range. Allowed: a decimal number >= "
            "-9223372036854775808 and <= 9223372036854775807.",
        ),
        (
            "a BIGINT",
            {"fields.a.distribution": "zipf"},
            "Column 'a': a zipf distribution needs fewer than 2^63 values between 'fields.a.min' and "
            "'fields.a.max'. Narrow the range.",
        ),
        (
            "a INT",
            {"fields.a.distribution": "exponential", "fields.a.stddev": "1"},
            "Unknown or misplaced property 'stddev' in option 'fields.a.stddev': column 'a' (INT, kind "
            "random) takes kind, nullRate, min, max, distribution, mean.",
        ),
        (
            "a DATE",
            {"fields.a.min": "2024-02-30"},
            "Invalid value '2024-02-30' for option 'fields.a.min': not a value of column 'a' (DATE). "
            "Allowed: "
            "a date yyyy-MM-dd, from 0001-01-01 to 9999-12-31.",
        ),
        (
            "a TIMESTAMP",
            {"fields.a.max": "2024-01-01 10:00:00.0000001"},
            "Invalid value '2024-01-01 10:00:00.0000001' for option 'fields.a.max': not a value of "
            "column 'a' "
            "(TIMESTAMP). Allowed: a time yyyy-MM-dd[ HH:mm:ss[.ffffff]] (UTC), from 0001-01-01 to "
            "9999-12-31.",
        ),
        (
            "a TIMESTAMP_NTZ",
            {"fields.a.min": "2031-01-01"},
            "Invalid range for column 'a': 'fields.a.min' is 2031-01-01 and 'fields.a.max' is "
            "1924991999999999 "
            "(its default). 'min' must be less than or equal to 'max'.",
        ),
        (
            "a SMALLINT",
            {"fields.a.kind": "sequence", "fields.a.step": "0"},
            "Invalid value '0' for option 'fields.a.step': a sequence's step cannot be 0. Allowed: a whole "
            "number other than 0.",
        ),
        (
            "a SMALLINT",
            {"fields.a.kind": "sequence", "fields.a.step": "-1", "fields.a.start": "5", "fields.a.end": "6"},
            "Invalid sequence for column 'a': it starts at 5 and steps by -1, so it never reaches "
            "'fields.a.end' = 6. Give an end the steps reach, or a step of the other sign.",
        ),
        (
            "a DECIMAL(5,2)",
            {"fields.a.kind": "sequence"},
            "Invalid value 'sequence' for option 'fields.a.kind': column 'a' is DECIMAL(5,2), and kind "
            "sequence makes TINYINT, SMALLINT, INT or BIGINT.",
        ),
        (
            "a INT",
            {"fields.a.kind": "values", "fields.a.values": "[1, 2.0]"},
            "Invalid value '[1, 2.0]' for option 'fields.a.values': its element 1 (2.0) is not a value of "
            "column 'a' (INT). Allowed: a whole number from -2147483648 to 2147483647.",
        ),
        (
            "a BINARY",
            {"fields.a.kind": "values", "fields.a.values": '["AAE=="]'},
            "Invalid value '[\"AAE==\"]' for option 'fields.a.values': its element 0 (\"AAE==\") is "
            "not a value "
            "of column 'a' (BINARY). Allowed: base64 strings.",
        ),
        (
            "a STRING",
            {"fields.a.kind": "values", "fields.a.values": '["a", {"b": 1e20}]'},
            "Invalid value '[\"a\", {\"b\": 1e20}]' for option 'fields.a.values': its element 1 "
            "({\"b\":1.0E20}) is not a value of column 'a' (STRING). Allowed: JSON strings.",
        ),
        (
            "a STRING",
            {"fields.a.kind": "values", "fields.a.values": "[]"},
            "Invalid value '[]' for option 'fields.a.values': the list is empty. Allowed: a JSON array of at "
            "least one value.",
        ),
        (
            "a STRING",
            {"fields.a.kind": "values", "fields.a.values": "['a']"},
            "Invalid value '['a']' for option 'fields.a.values': not a JSON array. Allowed: a JSON array, "
            """e.g. '["a", "b"]' or '[1, 2]'.""",
        ),
        (
            "a STRING",
            {"fields.a.kind": "values", "fields.a.values": '["a"]', "fields.a.weights": "[1e400]"},
            "Invalid value '[1e400]' for option 'fields.a.weights': its element 0 (\"Infinity\") is not a "
            "number >= 0. Allowed: a JSON array of numbers >= 0, one for each value.",
        ),
        (
            "a STRING",
            {"fields.a.kind": "values", "fields.a.values": '["a"]', "fields.a.weights": "[0]"},
            "Invalid value '[0]' for option 'fields.a.weights': the weights add up to 0. Give at least one "
            "value a weight above 0.",
        ),
        (
            "a STRING",
            {
                "fields.a.kind": "values",
                "fields.a.values": '["a"]',
                "fields.a.weights": "[1]",
                "fields.a.distribution": "ZIPF",
            },
            "Options that do not fit together: 'fields.a.weights' and 'fields.a.distribution' = zipf both "
            "say how column 'a' picks its values. Keep one.",
        ),
        (
            "a STRING",
            {"fields.a.kind": "values", "fields.a.values": '["a"]', "fields.a.zipfExponent": "2"},
            "Options that do not fit together: 'fields.a.zipfExponent' is set, but 'fields.a.distribution' "
            "is not zipf. Set it to zipf, or remove 'fields.a.zipfExponent'.",
        ),
        (
            "a STRING",
            {"fields.a.charset": "nope", "fields.a.alphabet": "xy"},
            "Options that do not fit together: 'fields.a.alphabet' and 'fields.a.charset' both say which "
            "characters column 'a' draws. Keep one.",
        ),
        (
            "a STRING",
            {"fields.a.valueDistribution": "zipf"},
            "Options that do not fit together: 'fields.a.valueDistribution' is set, but "
            "'fields.a.distinctValues' is not. A distribution picks among a pool of values: set it too.",
        ),
        (
            "a STRING",
            {"fields.a.minLength": "5"},
            "Column 'a': Invalid lengths: 'minLength' is 5 and 'maxLength' is 4 (its default). The option "
            "'minLength' must be less than or equal to 'maxLength'.",
        ),
        (
            "a STRING",
            {"fields.a.pattern": "x", "fields.a.maxLength": "3"},
            "Unknown or misplaced property 'maxLength' in option 'fields.a.maxLength': column 'a' (STRING, "
            "kind random) takes kind, nullRate, pattern.",
        ),
        (
            "a BINARY",
            {"fields.a.maxLength": "65537"},
            "Invalid value '65537' for option 'fields.a.maxLength': out of range. Allowed: a whole number "
            "from 0 to 65536.",
        ),
        (
            "a ARRAY<INT>",
            {"fields.a.minSize": "5"},
            "Invalid range for column 'a': 'fields.a.minSize' is 5 and 'fields.a.maxSize' is 4 (its "
            "default). 'minSize' must be less than or equal to 'maxSize'.",
        ),
        (
            "a ARRAY<INT>",
            {"fields.a.elements.min": "5"},
            "Unknown column 'a.elements' in option 'fields.a.elements.min': 'a' (ARRAY<INT>) has no part "
            "'elements'. Did you mean 'a.element'? Columns: a, a.element.",
        ),
        (
            "s STRING",
            {"fields.s.weights": "[1]"},
            "Unknown or misplaced property 'weights' in option 'fields.s.weights': column 's' (STRING, kind "
            "random) takes kind, nullRate, minLength, maxLength, charset, alphabet, distinctValues, "
            "valueDistribution, zipfExponent, pattern.",
        ),
        (
            "s STRING",
            {"fields.s.values": '["a"]', "fields.s.minLength": "2"},
            "Unknown or misplaced property 'minLength' in option 'fields.s.minLength': column 's' (STRING, "
            "kind values) takes kind, nullRate, values, weights, distribution, zipfExponent.",
        ),
        (
            "a INT",
            {"fields.a": "5"},
            "Invalid option name 'fields.a': it names no column, or no property. A per-column option "
            "is named "
            "'fields.<column>.<property>', with '.' between the names of nested fields and backticks around "
            "a name that holds a dot, e.g. 'fields.`a.b`.min'.",
        ),
    ],
)
def test_a_bad_per_column_option_is_refused_as_the_jvm_refuses_it(
    ddl: str, fields: dict[str, str], message: str
) -> None:
    assert error(ddl, fields) == message


def test_every_column_is_read_as_its_options_say() -> None:
    specs = cells(ORDERS_DDL, ORDERS_FIELDS)
    by_name = {spec.path[0]: spec for spec in specs}
    assert [spec.path[0] for spec in specs] == [
        "order_id",
        "user_id",
        "amount",
        "status",
        "code",
        "tags",
        "shipping",
        "event_time",
        "score",
        "day",
        "flag",
        "raw",
    ]
    assert by_name["order_id"] == CellSpec(("order_id",), BIGINT, False, 0.0, RowOffset())
    assert by_name["user_id"].kind == Wholes(1, 100000, Zipf(1.2))
    assert by_name["amount"] == CellSpec(
        ("amount",), decimal(10, 2), True, 0.05, Wholes(50, 99999, Uniform())
    )
    assert by_name["status"].kind == Values(
        ("new", "paid", "shipped", "cancelled"),
        ('"new"', '"paid"', '"shipped"', '"cancelled"'),
        PickWeighted((2.0, 6.0, 1.0, 1.0), (2.0, 8.0, 9.0, 10.0)),
    )
    code = by_name["code"].kind
    assert isinstance(code, Patterned) and code.pattern == "ORD-[0-9]{4}-[A-Z]{3}"
    tags = by_name["tags"].kind
    assert isinstance(tags, Arrays) and (tags.min_size, tags.max_size) == (0, 3)
    assert tags.element.path == ("tags", "element") and tags.element.kind == Values(
        ("gift", "express", "fragile"), ('"gift"', '"express"', '"fragile"'), PickUniform()
    )
    shipping = by_name["shipping"].kind
    assert isinstance(shipping, Structs) and [f.path for f in shipping.fields] == [
        ("shipping", "city"),
        ("shipping", "zip"),
    ]
    assert by_name["event_time"].kind == EventTime(micros=True)
    assert by_name["score"].kind == Reals(0.0, 10.0, Normal(5.0, 2.0))
    assert by_name["day"].kind == Wholes(19723, 19753, Uniform())
    assert by_name["flag"].kind == Booleans()
    assert by_name["raw"].kind == Bytes(0, 3)


def test_defaults_of_every_type() -> None:
    ddl = (
        "b BOOLEAN, t TINYINT, s SMALLINT, i INT, l BIGINT, f FLOAT, d DOUBLE, dec DECIMAL(5,2), "
        "big DECIMAL(30,4), str STRING, bin BINARY, dt DATE, ts TIMESTAMP, ntz TIMESTAMP_NTZ, "
        "a ARRAY<INT>, ms BIGINT, sq INT"
    )
    fields = {"fields.ms.kind": "EVENTTIME", "fields.sq.kind": "sequence", "fields.sq.step": "-3"}
    kinds = {spec.path[0]: spec.kind for spec in cells(ddl, fields)}
    assert kinds["t"] == Wholes(-128, 127, Uniform())
    assert kinds["l"] == Wholes(-(2**63), 2**63 - 1, Uniform())
    assert kinds["f"] == kinds["d"] == Reals(0.0, 1.0, Uniform())
    assert kinds["dec"] == Wholes(0, 99999, Uniform())
    assert kinds["big"] == Wholes(0, 10**18 - 1, Uniform())
    assert isinstance(kinds["str"], Strings) and kinds["str"].values.max_length == 4
    assert kinds["bin"] == Bytes(0, 16)
    assert kinds["dt"] == Wholes(10957, 22279, Uniform())
    assert kinds["ts"] == kinds["ntz"] == Wholes(946684800000000, 1924991999999999, Uniform())
    assert isinstance(kinds["a"], Arrays) and (kinds["a"].min_size, kinds["a"].max_size) == (0, 4)
    assert kinds["ms"] == EventTime(micros=False)
    assert kinds["sq"] == SequenceKind(0, -3, 715827883)


def test_distributions_take_their_defaults_from_the_range() -> None:
    ddl = "n SMALLINT, e INT, z INT, r DOUBLE"
    fields = {
        "fields.n.distribution": "normal",
        "fields.n.min": "-50",
        "fields.n.max": "50",
        "fields.e.distribution": "Exponential ",
        "fields.e.min": "0",
        "fields.e.max": "100",
        "fields.z.distribution": "zipf",
        "fields.z.min": "10",
        "fields.z.max": "20",
        "fields.r.distribution": "normal",
        "fields.r.max": "1e-300",
        "fields.r.min": "1e-300",
    }
    kinds = {spec.path[0]: spec.kind for spec in cells(ddl, fields)}
    assert kinds["n"] == Wholes(-50, 50, Normal(0.0, 50 / 6 + 50 / 6))
    assert kinds["e"] == Wholes(0, 100, Exponential(10.0))
    assert kinds["z"] == Wholes(10, 20, Zipf(1.0))
    assert kinds["r"] == Reals(1e-300, 1e-300, Normal(1e-300, 5e-324))


def test_values_are_python_values_of_the_type_with_the_jvms_texts() -> None:
    ddl = "s STRING, i INT, d DOUBLE, f FLOAT, b BOOLEAN, dt DATE, t TIMESTAMP, dec DECIMAL(6,3), bin BINARY"
    fields = {
        "fields.s.kind": "values",
        "fields.s.values": '["x", "é\\n\\u0001"]',
        "fields.s.distribution": "zipf",
        "fields.s.zipfExponent": "2",
        "fields.i.kind": "values",
        "fields.i.values": '[1, "2"]',
        "fields.d.kind": "values",
        "fields.d.values": "[0.1, 2.5e10, -3, 1e-5, 100000000000000000000000]",
        "fields.f.kind": "values",
        "fields.f.values": "[0.1, 3, 1e39]",
        "fields.b.kind": "values",
        "fields.b.values": "[true, false] trailing text Jackson does not read",
        "fields.dt.kind": "values",
        "fields.dt.values": '["2024-02-29", "1999-01-01", " +10000-01-01 "]',
        "fields.t.kind": "values",
        "fields.t.values": '["2024-01-01 00:00:00.000001", "1970-01-01t00:01", "1969-12-31"]',
        "fields.dec.kind": "values",
        "fields.dec.values": '["1.5", 2, "-0.001", 1.5e2, "0.0000"]',
        "fields.bin.kind": "values",
        "fields.bin.values": '["AAEC", "", "AA", "AA=="]',
    }
    kinds = {spec.path[0]: spec.kind for spec in cells(ddl, fields)}
    assert kinds["s"] == Values(("x", "é\n\x01"), ('"x"', '"é\\n\\u0001"'), PickZipf(2.0))
    assert kinds["i"] == Values((1, 2), ("1", "2"), PickUniform())
    assert kinds["d"] == Values(
        (0.1, 2.5e10, -3.0, 1e-5, 1e23), ("0.1", "2.5E10", "-3.0", "1.0E-5", "1.0E23"), PickUniform()
    )
    f = kinds["f"]
    assert isinstance(f, Values) and f.texts == ("0.1", "3.0", "Infinity")
    assert f.values == (float(np.float32(0.1)), 3.0, float("inf"))
    assert kinds["b"] == Values((True, False), ("true", "false"), PickUniform())
    assert kinds["dt"] == Values(
        (19782, 10592, 2932897), ("2024-02-29", "1999-01-01", " +10000-01-01 "), PickUniform()
    )
    t = kinds["t"]
    assert isinstance(t, Values) and t.values == (1704067200000001, 60000000, -86400000000)
    assert kinds["dec"] == Values(
        (1500, 2000, -1, 150000, 0), ("1.5", "2", "-0.001", "150.0", "0.0000"), PickUniform()
    )
    assert kinds["bin"] == Values(
        (b"\x00\x01\x02", b"", b"\x00", b"\x00"), ('"AAEC"', '""', '"AA"', '"AA=="'), PickUniform()
    )


def test_paths_match_case_insensitively_and_are_kept_as_the_schema_spells_them() -> None:
    specs = cells(
        "`a.b` INT, `we``ird` STRING, Nest STRUCT<Inner: ARRAY<INT>>",
        {
            "fields.`a.b`.min": "3",
            "fields.`a.b`.max": "4",
            "fields.`we``ird`.pattern": "q",
            "FIELDS.nest.INNER.Element.MAX": "9",
        },
    )
    assert specs[0].kind == Wholes(3, 4, Uniform())
    assert specs[1].kind == Patterned("q", Literal(ord("q")))
    nest = specs[2].kind
    assert isinstance(nest, Structs)
    inner = nest.fields[0].kind
    assert isinstance(inner, Arrays) and inner.element.path == ("Nest", "Inner", "element")
    assert inner.element.kind == Wholes(-(2**31), 9, Uniform())


# Option names.


def test_a_field_options_name_splits_into_its_path_and_property() -> None:
    assert is_field_option("Fields.a.min") and not is_field_option("field.a.min")
    assert split("fields.a.min") == (("a",), "min")
    assert split("FIELDS.`a.b`.`c``d`.x") == (("a.b", "c`d"), "x")
    assert shown(("a.b", "c`d", "", "e")) == "`a.b`.`c``d`.``.e"


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("fields.a..min", "an empty name at position 9"),
        ("fields.a`b`.min", "a backtick in the middle of a name, at position 8"),
        ("fields.😀a`b`.min", "a backtick in the middle of a name, at position 10"),
        ("fields.`a.min", "a backtick that does not close"),
        ("fields.a.", "it ends without a property"),
        ("fields.min", "it names no column, or no property"),
    ],
)
def test_a_bad_field_options_name_is_refused_naming_where(name: str, why: str) -> None:
    with pytest.raises(ValueError) as refused:
        split(name)
    assert str(refused.value).startswith(
        f"Invalid option name '{name}': {why}. A per-column option is named "
    )


# DDL, JSON and Spark's texts.


@pytest.mark.parametrize(
    ("ddl", "spark"),
    [
        (
            "id BIGINT NOT NULL , tags ARRAY < STRING > , shipping STRUCT<city: STRING, zip:STRING>",
            "id BIGINT NOT NULL,tags ARRAY<STRING>,shipping STRUCT<city: STRING, zip: STRING>",
        ),
        (
            "a integer, b long NOT NULL, c short, d byte, e real, f dec, g numeric(5), h Decimal ( 7 , 3 )",
            "a INT,b BIGINT NOT NULL,c SMALLINT,d TINYINT,e FLOAT,f DECIMAL(10,0),g DECIMAL(5,0),h "
            "DECIMAL(7,3)",
        ),
        (
            "s struct<a:int,`b c` string not null comment 'it''s \\\\ \\'q\\'', d: array<array<double>>>",
            "s STRUCT<a: INT, `b c`: STRING NOT NULL COMMENT 'it\\'s \\\\ \\'q\\'', d: ARRAY<ARRAY<DOUBLE>>>",
        ),
        (
            "`we``ird` timestamp_ltz, t TIMESTAMP WITHOUT TIME ZONE, u TIMESTAMP_NTZ, -- a comment\n "
            "v binary "
            "/* another */ COMMENT \"x\" 'y'",
            "`we``ird` TIMESTAMP,t TIMESTAMP_NTZ,u TIMESTAMP_NTZ,v BINARY COMMENT 'xy'",
        ),
        ("`1a` date, _b boolean, é int", "`1a` DATE,_b BOOLEAN,`é` INT"),
        (
            "m MAP<STRING, ARRAY<INT>>, v VOID, x VARIANT, c CHAR(3), i INTERVAL DAY TO SECOND, y INTERVAL",
            "m MAP<STRING, ARRAY<INT>>,v VOID,x VARIANT,c CHAR(3),i INTERVAL DAY TO SECOND,y INTERVAL",
        ),
    ],
)
def test_ddl_reads_as_spark_reads_it_and_prints_as_toDDL(ddl: str, spark: str) -> None:
    schema, metadata = parse_ddl(ddl)
    assert to_ddl(schema, metadata) == spark
    assert parse_ddl(spark) == (schema, metadata)


def test_types_print_as_sql_shows_them() -> None:
    schema, metadata = parse_ddl(
        "a ARRAY<STRUCT<x: INT NOT NULL COMMENT 'c', `y z`: TIMESTAMP_NTZ>>, d DECIMAL(38,18), s STRUCT<>"
    )
    assert [sql(f.data_type, metadata, (i,)) for i, f in enumerate(schema.fields)] == [
        "ARRAY<STRUCT<x: INT NOT NULL COMMENT 'c', `y z`: TIMESTAMP_NTZ>>",
        "DECIMAL(38,18)",
        "STRUCT<>",
    ]
    assert schema.fields[0].data_type == ArrayType(
        StructType((StructField("x", INT, False), StructField("y z", AtomicType("TIMESTAMP_NTZ"))))
    )


@pytest.mark.parametrize(
    ("ddl", "why"),
    [
        ("a", "a type expected, not the end at position 1"),
        ("a INT,", "a column name expected, not the end at position 6"),
        ("a FOO", "the unsupported data type 'FOO' at position 2"),
        ("a ARRAY", "ARRAY needs the type of its parts: ARRAY<...> at position 2"),
        ("a DECIMAL(39,2)", "Decimal precision 39 exceeds max precision 38 at position 2"),
        ("a DECIMAL(5,6)", "Decimal scale (6) cannot be greater than precision (5) at position 2"),
        ("a INT NOT", "NULL expected, not the end at position 9"),
        ("a STRUCT<b INT", "'>' expected, not the end at position 14"),
        ("a INT b INT", "',' or the end expected, not 'b' at position 6"),
        ("a CHAR", "CHAR needs a length, e.g. CHAR(10) at position 2"),
        ("`a INT", "a backtick that does not close at position 0"),
    ],
)
def test_bad_ddl_is_refused_naming_the_position(ddl: str, why: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_ddl(ddl)
    assert str(refused.value) == f"Invalid schema '{ddl}': {why}."


def test_the_schema_json_is_sparks_with_its_keys_in_sparks_order() -> None:
    schema, metadata = parse_ddl(
        "id BIGINT NOT NULL, amount DECIMAL(10,2) COMMENT 'in \"euros\"\t', tags ARRAY<STRING>, "
        "s STRUCT<`a.b`: TIMESTAMP, c: ARRAY<STRUCT<d: DATE NOT NULL>>>"
    )
    assert schema_json(schema, metadata) == (
        '{"type":"struct","fields":['
        '{"name":"id","type":"long","nullable":false,"metadata":{}},'
        '{"name":"amount","type":"decimal(10,2)","nullable":true,"metadata":{"comment":"in \\"euros\\"\\t"}},'
        '{"name":"tags","type":{"type":"array","elementType":"string","containsNull":true},'
        '"nullable":true,"metadata":{}},'
        '{"name":"s","type":{"type":"struct","fields":['
        '{"name":"a.b","type":"timestamp","nullable":true,"metadata":{}},'
        '{"name":"c","type":{"type":"array","elementType":{"type":"struct","fields":['
        '{"name":"d","type":"date","nullable":false,"metadata":{}}]},"containsNull":true},'
        '"nullable":true,"metadata":{}}]},"nullable":true,"metadata":{}}]}'
    )
    assert from_json(json.loads(schema_json(schema, metadata))) == (schema, metadata)
    assert to_json(schema, metadata) == json.loads(schema_json(schema, metadata))


def test_a_pyspark_struct_type_is_read_without_a_jvm() -> None:
    types = pytest.importorskip("pyspark.sql.types")
    given = types.StructType(
        [
            types.StructField("id", types.LongType(), False),
            types.StructField("amount", types.DecimalType(10, 2)),
            types.StructField("tags", types.ArrayType(types.StringType(), False)),
            types.StructField(
                "s",
                types.StructType(
                    [types.StructField("t", types.TimestampNTZType(), metadata={"comment": "c"})]
                ),
            ),
            types.StructField("l", types.StringType("UTF8_LCASE")),
            types.StructField("m", types.MapType(types.StringType(), types.IntegerType())),
        ]
    )
    schema, metadata = to_schema(given)
    assert to_ddl(schema, metadata) == (
        "id BIGINT NOT NULL,amount DECIMAL(10,2),tags ARRAY<STRING>,s STRUCT<t: TIMESTAMP_NTZ COMMENT 'c'>,"
        "l STRING COLLATE UTF8_LCASE,m MAP<STRING, INT>"
    )
    assert schema.fields[2].data_type == ArrayType(STRING, contains_null=False)
    # pyspark's json() sorts the keys; Spark's (and the definition file's) keep the order of
    # test_the_schema_json_is_sparks_with_its_keys_in_sparks_order: the same JSON, in another order.
    first_four = types.StructType(given.fields[:4])
    assert json.loads(schema_json(*to_schema(first_four))) == json.loads(first_four.json())


# Patterns.


@pytest.mark.parametrize(
    ("pattern", "plan"),
    [
        ("ab", PatternSequence((Literal(97), Literal(98)))),
        ("a|b|", Either((Literal(97), Literal(98), PatternSequence(())))),
        ("(?:a)?", Repeat(Literal(97), 0, 1)),
        ("x*", Repeat(Literal(120), 0, 8)),
        ("x+", Repeat(Literal(120), 1, 9)),
        ("x{3,}", Repeat(Literal(120), 3, 11)),
        ("x{1}", Literal(120)),
        ("[a-c-]", AnyOf((45, 97, 98, 99))),
        ("[]a]", AnyOf((93, 97))),
        ("[^!-~]", AnyOf((32,))),
        ("\\d", AnyOf(tuple(range(48, 58)))),
        ("[\\s\\.]", AnyOf((9, 10, 13, 32, 46))),
        ("\\t\\-\\\\", PatternSequence((Literal(9), Literal(45), Literal(92)))),
        ("😀.", PatternSequence((Literal(0x1F600), AnyOf(tuple(range(32, 127)))))),
    ],
)
def test_a_pattern_reads_into_its_plan(pattern: str, plan: object) -> None:
    assert parse_pattern("p", pattern) == plan


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        ("ab$", "the anchor '$' at position 2"),
        ("😀😀^", "the anchor '^' at position 2"),
        ("a\\b", "the anchor '\\b' at position 1"),
        ("(?=a)", "a group with '?' (lookaround, a named group or flags) at position 0"),
        ("(ab", "a group that does not close at position 0"),
        ("ab)", "an unmatched ')' at position 2"),
        ("*a", "a repeat '*' with nothing before it at position 0"),
        ("a*?", "a lazy or possessive repeat at position 2"),
        ("a{2}{3}", "a repeat of a repeat at position 4"),
        ("a{x}", "a '{' that is not a repeat such as {3} or {2,5} at position 1"),
        ("a{2,1}", "a repeat whose most (1) is below its least (2) at position 1"),
        ("a{2", "a repeat that does not close with '}' at position 1"),
        ("a{12345678}", "a repeat count above 1000000 at position 2"),
        ("[b-a]", "a range whose end is before its start at position 3"),
        ("[a-\\d]", "a range with a class as an end at position 4"),
        ("[[:alpha:]]", "a POSIX class at position 1"),
        ("[ab", "a class that does not close at position 0"),
        ("[^ -~]", "a class with no character in it at position 0"),
        ("\\p{L}", "the escape '\\p' at position 0"),
        ("[\\1]", "the escape '\\1' at position 1"),
        ("a\\", "a backslash at the end at position 1"),
    ],
)
def test_a_pattern_that_cannot_be_generated_is_refused_naming_the_position(pattern: str, why: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_pattern("fields.c.pattern", pattern)
    assert (
        str(refused.value)
        == f"Invalid value '{pattern}' for option 'fields.c.pattern': {why}." + PATTERN_RULES
    )


def test_a_patterns_longest_string_is_counted_exactly_and_capped() -> None:
    with pytest.raises(ValueError) as refused:
        parse_pattern("o", "(a{1024}){1025}")
    assert str(refused.value) == (
        "Invalid value '(a{1024}){1025}' for option 'o': its strings may be 1049600 characters long, and "
        "the longest allowed is 1048576. Lower its repeats."
    )
    parse_pattern("o", "(a{1024}){1024}")
    # 2^21 * 2^21 * 2^22 = 2^64, which a long would wrap to 0: counted exactly, and refused.
    with pytest.raises(ValueError) as wrapped:
        parse_pattern("o", "((a{2097152}){2097152}){4194304}")
    assert str(wrapped.value) == (
        "Invalid value '((a{2097152}){2097152}){4194304}' for option 'o': its strings may be "
        "18446744073709551616 characters long, and the longest allowed is 1048576. Lower its repeats."
    )


def test_a_patterns_longest_utf8_is_counted_exactly_by_each_characters_width() -> None:
    assert max_utf8_bytes(parse_pattern("o", "x[é€]{1048575}")) == 1 + 3 * 1048575
    assert max_utf8_bytes(parse_pattern("o", "(ab|😀){3}[a-z]?|é{9}")) == 18
    assert max_utf8_bytes(parse_pattern("o", "")) == 0


# Numbers and JSON as the JVM writes them.


def test_numbers_are_shown_as_java_shows_them() -> None:
    doubles = [1.0, 0.5, 1e20, 1e-5, 1e7, 9999999.0, 0.001, 0.0009, -0.0, 2.5e10, 5e-324, 1e23, 0.1 + 0.2]
    assert [java_double(d) for d in doubles] == [
        "1.0",
        "0.5",
        "1.0E20",
        "1.0E-5",
        "1.0E7",
        "9999999.0",
        "0.001",
        "9.0E-4",
        "-0.0",
        "2.5E10",
        "4.9E-324",
        "1.0E23",
        "0.30000000000000004",
    ]
    assert [java_float(f) for f in (0.1, 1e10, 1.401298464324817e-45, 1e39)] == [
        "0.1",
        "1.0E10",
        "1.4E-45",
        "Infinity",
    ]
    assert Real(0.0, False, 1e-3, True).allowed == "a decimal number > 0 and <= 0.001"


def test_json_is_read_and_written_as_jackson_does() -> None:
    assert read_tree('  [1, 1.0, "\\u00e9\\u001f", null] and more') == (True, [1, 1.0, "é\x1f", None])
    assert read_tree("[NaN]") == (False, None)
    assert read_tree("") == (False, None)
    assert to_string([1, 1.0, 1e20, float("inf"), 'é\x1f"\\/', {"a": [True]}]) == (
        '[1,1.0,1.0E20,"Infinity","é\\u001F\\"\\\\/",{"a":[true]}]'
    )


# The definition in a checkpoint, and the restart check.


def test_a_declared_streams_definition_is_version_4_and_reads_back_to_the_same_cells() -> None:
    stream = definition(ORDERS_DDL + " COMMENT 'raw bytes'", ORDERS_FIELDS)
    stored = definition_to_json(stream)
    assert stored["version"] == 4
    assert list(stored)[-2:] == ["schema", "fields"]
    assert list(stored["fields"]) == sorted(ORDERS_FIELDS)  # type: ignore[call-overload]
    assert stored["schema"]["fields"][-1] == {  # type: ignore[index]
        "name": "raw",
        "type": "binary",
        "nullable": True,
        "metadata": {"comment": "raw bytes"},
    }
    again = definition_from_json(json.loads(json.dumps(stored)), "here")
    assert again == stream
    assert again.declared is not None and stream.declared is not None
    assert again.declared.cells == stream.declared.cells
    assert again.schema == stream.schema
    assert [f.name for f in stream.schema] == [spec.path[0] for spec in stream.declared.cells]
    assert all(isinstance(c.content, Cells) for c in stream.columns())


def test_a_classic_streams_definition_is_still_version_3_field_for_field() -> None:
    stored = definition_to_json(parse_options({"seed": "1"}).definition(1, 2))
    assert stored == {
        "version": 3,
        "seed": 1,
        "startTimeMs": 2,
        "rowsPerSecond": 10,
        "minLength": 0,
        "maxLength": 4,
        "characters": "charset=alphanumeric",
        "distinctValues": None,
        "valueDistribution": "uniform",
        "zipfExponent": 1.0,
        "maxOutOfOrderMs": 0,
        "lateRowFraction": 0.0,
        "lateByMs": None,
        "duplicateFraction": 0.0,
        "maxDuplicateDistance": 1000,
        "timestampColumn": False,
        "startTimestamp": None,
        "rateProfile": None,
    }
    assert json.dumps(stored, separators=(",", ":")).startswith('{"version":3,"seed":1,"startTimeMs":2,')


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"version": 5}, "version 5 is not 1 to 4, the versions this source reads"),
        ({"fields": []}, "'fields' is not an object"),
        ({"fields": {"fields.a.min": 1}}, "the value of 'fields.a.min' in 'fields' is not a string"),
        ({"schema": "integer"}, "'schema' is int, not a STRUCT"),
        ({"schema": {"type": "struct"}}, "'schema' is not a schema: "),
        ({"fields": {"fields.a.min": "x"}}, "Invalid value 'x' for option 'fields.a.min': not a value of "),
    ],
)
def test_a_bad_version_4_file_is_refused_as_corrupt(change: dict[str, object], why: str) -> None:
    stored = definition_to_json(definition("a INT", {"fields.a.max": "5"}))
    with pytest.raises(CorruptDefinitionError) as refused:
        definition_from_json({**stored, **change}, "The file f")
    assert str(refused.value).startswith(f"The file f is corrupt or truncated ({why}")


def test_a_restart_with_other_fields_options_or_another_schema_is_refused_naming_each() -> None:
    stream = definition(ORDERS_DDL, ORDERS_FIELDS)
    fewer = {**ORDERS_FIELDS, "fields.user_id.max": "50"}
    del fewer["fields.raw.maxLength"]
    with pytest.raises(ValueError) as refused:
        check_restart(stream, definition(ORDERS_DDL, fewer), "here")
    assert str(refused.value) == (
        "The options of this query contradict the stream stored in its checkpoint (here): "
        "fields.raw.maxLength: the checkpoint has 3, the query sets none; "
        "fields.user_id.max: the checkpoint has 100000, the query sets 50. A checkpoint's seed, "
        "rowsPerSecond, declared schema, its fields. options and the options that shape rows (distinctValues "
        "to rateProfile) are fixed when its query first starts, so that every batch can be replayed "
        "identically. Restart with the stored values (the seed may simply be left out), or use a new "
        "checkpoint location to start a different stream."
    )
    check_restart(stream, definition(ORDERS_DDL, dict(reversed(ORDERS_FIELDS.items()))), "here")
    check_restart(stream, definition(ORDERS_DDL.replace("BIGINT", "LONG"), ORDERS_FIELDS), "here")
    renamed = {k.replace("fields.user_id", "fields.USER_ID"): v for k, v in ORDERS_FIELDS.items()}
    check_restart(stream, definition(ORDERS_DDL, renamed), "here")
    with pytest.raises(
        ValueError,
        match=r"schema: the checkpoint has a INT NOT NULL, the query declares a INT\. A checkpoint's ",
    ):
        check_restart(definition("a INT NOT NULL", {}), definition("a INT", {}), "here")
    classic = parse_options({"seed": "7", "rowsPerSecond": "1000"}).definition(7, 1700000000000)
    with pytest.raises(ValueError) as refused:
        check_restart(classic, definition("a INT", {}), "here")
    assert str(refused.value).startswith(
        "The options of this query contradict the stream stored in its checkpoint (here): schema: the "
        "checkpoint has the random strings' schema, the query declares a INT. A checkpoint's seed, "
        "rowsPerSecond, declared schema, its fields. options and"
    )


def test_a_declaration_compares_by_its_ddl_and_its_options_lowercase_names() -> None:
    one = DeclaredSchema(parse_ddl("a INT")[0], ())
    other = replace(one, fields=(("FIELDS.A.MIN", "1"),))
    assert one.differences_from(other) == ["FIELDS.A.MIN: the checkpoint has none, the query sets 1"]
    assert other.differences_from(replace(one, fields=(("fields.a.min", "1"),))) == []
    assert one.to_ddl() == "a INT"


def test_a_declared_stream_is_described_by_its_schema_as_the_jvm_describes_it() -> None:
    assert describe_stream(definition("a INT NOT NULL, `b c` ARRAY<STRING>", {}, seed=3)) == (
        "InMemoryRandomStringsPython[rowsPerSecond=1000, schema=a INT NOT NULL,`b c` ARRAY<STRING>, seed=3]"
    )


def test_values_given_without_a_kind_make_the_column_of_kind_values() -> None:
    values = {"fields.s.values": '["new", "paid"]', "fields.s.weights": "[3, 1]"}
    assert cells("s STRING", values) == cells("s STRING", {**values, "fields.s.kind": "values"})
    assert cells("t ARRAY<INT>", {"fields.t.element.values": "[1, 2]"}) == cells(
        "t ARRAY<INT>", {"fields.t.element.values": "[1, 2]", "fields.t.element.kind": "VALUES"}
    )
    # A kind given wins: values with kind random are a property random does not take.
    assert error("s STRING", {**values, "fields.s.kind": "random"}).startswith(
        "Unknown or misplaced property 'values' in option 'fields.s.values': column 's' (STRING, kind random)"
    )


def test_a_spread_is_given_in_the_types_terms_and_a_dates_or_times_mean_as_a_value() -> None:
    def kind(ddl: str, fields: dict[str, str]) -> object:
        return cells(ddl, fields)[0].kind.distribution  # type: ignore[union-attr]

    # A DECIMAL's mean and stddev are values (25.00 is 2500 hundredths).
    assert kind(
        "a DECIMAL(10,2)",
        {"fields.a.distribution": "normal", "fields.a.mean": "25", "fields.a.stddev": "1.5"},
    ) == Normal(2500.0, 150.0)
    # A date's mean is a date and its stddev in days; a time's in seconds.
    assert kind(
        "d DATE", {"fields.d.distribution": "normal", "fields.d.mean": "2000-01-02", "fields.d.stddev": "3"}
    ) == Normal(10958.0, 3.0)
    assert kind(
        "t TIMESTAMP",
        {
            "fields.t.distribution": "normal",
            "fields.t.min": "1970-01-01",
            "fields.t.mean": "1970-01-01 00:00:01",
            "fields.t.stddev": "0.5",
        },
    ) == Normal(1e6, 5e5)
    assert kind(
        "t TIMESTAMP_NTZ", {"fields.t.distribution": "exponential", "fields.t.mean": "2"}
    ) == Exponential(2e6)
    assert kind(
        "a DECIMAL(4,1)", {"fields.a.distribution": "exponential", "fields.a.mean": "0.5"}
    ) == Exponential(5.0)
    # An integer's stay numbers of its units.
    assert kind(
        "i INT", {"fields.i.distribution": "normal", "fields.i.mean": "2.5", "fields.i.stddev": "4"}
    ) == Normal(2.5, 4.0)
    assert error(
        "d DATE",
        {"fields.d.min": "2020-01-01", "fields.d.distribution": "normal", "fields.d.mean": "2019-12-31"},
    ) == (
        "Invalid value '2019-12-31' for option 'fields.d.mean': outside column 'd''s range [min, max]. "
        "Allowed: from '2020-01-01' to the default max."
    )
    assert error("t TIMESTAMP", {"fields.t.distribution": "normal", "fields.t.mean": "12"}).startswith(
        "Invalid value '12' for option 'fields.t.mean': not a value of column 't' (TIMESTAMP). "
        "Allowed: a time"
    )
    assert error(
        "a DECIMAL(4,1)",
        {
            "fields.a.min": "0",
            "fields.a.max": "1",
            "fields.a.distribution": "normal",
            "fields.a.stddev": "200",
        },
    ) == (
        "Invalid value '200' for option 'fields.a.stddev': a normal distribution that wide would rarely "
        "fall within column 'a''s range [min, max], and a value is drawn again until it does. Allowed: a "
        "stddev of at most 110.0 (100 times max - min + 1, in the column's values)."
    )


def test_a_sequence_inside_an_array_is_refused_as_its_elements_are_no_rows() -> None:
    message = (
        "Invalid value 'sequence' for option 'fields.items.element.qty.kind': a sequence counts rows, and "
        "column 'items.element.qty' is inside an ARRAY, whose elements are no rows. Use kind sequence on a "
        "column of the row, or another kind here."
    )
    assert error("items ARRAY<STRUCT<qty: INT>>", {"fields.items.element.qty.kind": "sequence"}) == message
    # A STRUCT field named element is a column of the row.
    assert cells("s STRUCT<element: INT>", {"fields.s.element.kind": "sequence"})


# A row too large for Spark's (RowBytes.scala, TypedColumnsSuite's messages).

SHARED_INVALID_INPUTS = json.loads((REPO / "tests" / "vectors" / "invalid_inputs.json").read_text())


@pytest.mark.parametrize(
    "case",
    [c for c in SHARED_INVALID_INPUTS["cases"] if "schema" in c and "checkpoint" not in c],
    ids=lambda c: c["name"],
)
def test_every_declared_case_of_the_shared_invalid_inputs_is_refused_with_the_jvms_words(
    case: dict[str, Any],
) -> None:
    with pytest.raises(ValueError) as refused:
        parse_options(case.get("options", {}), case["schema"])
    for word in case["expect"]:
        assert word in str(refused.value)


def test_a_declaration_whose_rows_may_not_fit_in_sparks_is_refused_naming_the_column_and_its_bound() -> None:
    assert error(
        "a ARRAY<ARRAY<STRING>>",
        {
            "fields.a.maxSize": "65536",
            "fields.a.element.maxSize": "65536",
            "fields.a.element.element.maxLength": "1048576",
        },
    ) == (
        "Column 'a' can take up to 4,503,634,525,036,560 bytes of a row, and a row must fit in 2,147,483,632 "
        "bytes (Spark's limit). Lower 'fields.a.maxSize', 'fields.a.element.maxSize' or "
        "'fields.a.element.element.maxLength'."
    )
    # Into a STRUCT's largest field; a pattern at its longest UTF-8 (é and € take 2 and 3 bytes).
    assert error(
        "id BIGINT, s STRUCT<n: INT, t: ARRAY<STRING>, u: STRING>",
        {"fields.s.t.maxSize": "65536", "fields.s.t.element.pattern": "x[é€]{1048575}"},
    ) == (
        "Column 's' can take up to 206,158,962,744 bytes of a row, and a row must fit in 2,147,483,632 bytes "
        "(Spark's limit). Lower 'fields.s.t.maxSize' or 'fields.s.t.element.pattern'."
    )
    assert error(
        "a ARRAY<ARRAY<STRING>>",
        {
            "fields.a.maxSize": "65536",
            "fields.a.element.maxSize": "65536",
            "fields.a.element.element.values": '["a", "€€€€€€€€€"]',
        },
    ).endswith("Lower 'fields.a.maxSize', 'fields.a.element.maxSize' or 'fields.a.element.element.values'.")
    # Columns that fit alone, but not together: the largest is named.
    ddl = ", ".join(f"c{i} STRING" for i in range(512))
    unicode = {
        f"fields.c{i}.{name}": value
        for i in range(512)
        for name, value in (("maxLength", "1048576"), ("charset", "unicode"))
    }
    assert error(ddl, unicode) == (
        "A row of the declared columns can take up to 2,147,487,808 bytes, and a row must fit in "
        "2,147,483,632 bytes (Spark's limit); its largest column, 'c0', up to 4,194,312. Lower "
        "'fields.c0.maxLength', or declare fewer columns."
    )
    fewer = {name: value for name, value in unicode.items() if not name.startswith("fields.c511.")}
    assert len(cells(ddl.removesuffix(", c511 STRING"), fewer)) == 511


def test_a_declared_row_of_up_to_sparks_limit_is_taken_and_one_byte_more_a_cell_is_refused() -> None:
    assert LIMIT == 2_147_483_632
    # 8 null bytes, an 8-byte slot, then the array: 8 bytes of size, 5,448 of null bits, 348,560 of
    # slots and 43,570 values of 49,280 bytes: 2,147,483,632 bytes in all.
    assert cells("a ARRAY<BINARY>", {"fields.a.maxSize": "43570", "fields.a.element.maxLength": "49280"})
    assert error("a ARRAY<BINARY>", {"fields.a.maxSize": "43570", "fields.a.element.maxLength": "49281"}) == (
        "Column 'a' can take up to 2,147,832,184 bytes of a row, and a row must fit in 2,147,483,632 bytes "
        "(Spark's limit). Lower 'fields.a.maxSize' or 'fields.a.element.maxLength'."
    )
    # A column that is always null takes its slot alone, however large its values could be.
    huge = {
        "fields.a.maxSize": "65536",
        "fields.a.element.maxSize": "65536",
        "fields.a.element.element.maxLength": "1048576",
    }
    assert cells("a ARRAY<ARRAY<STRING>>", {**huge, "fields.a.nullRate": "1"})
    assert cells("a ARRAY<ARRAY<STRING>>", {**huge, "fields.a.element.nullRate": "1"})
    # A wide DECIMAL keeps 16 bytes in a row or a struct, null or not; in an array a null one takes none.
    decimals = {"fields.d.maxSize": "4000", "fields.d.element.maxSize": "65536"}
    assert cells("d ARRAY<ARRAY<DECIMAL(38,0)>>", {**decimals, "fields.d.element.element.nullRate": "1"})
    assert error(
        "d ARRAY<ARRAY<DECIMAL(38,0)>>", {**decimals, "fields.d.element.element.nullRate": "0.5"}
    ) == (
        "Column 'd' can take up to 6,324,288,520 bytes of a row, and a row must fit in 2,147,483,632 bytes "
        "(Spark's limit). Lower 'fields.d.maxSize' or 'fields.d.element.maxSize'."
    )
