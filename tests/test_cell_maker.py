"""Declared columns' cells (issue 38) made in Python (``typed.cells.maker``, the twin of the JVM source's
``CellWriter.scala``), without Spark or a JVM: cells pinned to the ones the JVM made for a few
specs and definitions (copied from its rows, in the form its dump writes them), and what every
cell is: null as often as its rate says, in its range, its original's in a repeated row, the same
in any batch, and drawn as the JVM draws even where a draw is rejected.
"""

from __future__ import annotations

import base64
import datetime
import struct
from decimal import Decimal
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

from helpers.orders import ORDERS_DDL, ORDERS_FIELDS
from spark_random_strings import expected_rows
from spark_random_strings.columns.maker import RowDraw
from spark_random_strings.options.ranges import LONG_MAX
from spark_random_strings.randomness.counter_random import MASK, bounded_at, mix_int, stream_keys
from spark_random_strings.rows.generator import expected_table
from spark_random_strings.rows.options import parse_options
from spark_random_strings.text.character_set import NAMED_SETS, CharacterSet
from spark_random_strings.text.string_values import DEFAULT_VALUES, StringValues
from spark_random_strings.typed.cells import draws as draws
from spark_random_strings.typed.cells.base import arrow_type
from spark_random_strings.typed.cells.maker import cell_weight, make_cells
from spark_random_strings.typed.cells.spec import (
    AnyOf,
    Arrays,
    ArrayType,
    AtomicType,
    Booleans,
    Bytes,
    CellSpec,
    DataType,
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
from spark_random_strings.typed.cells.text import PatternWalk

BOOLEAN, TINYINT, SMALLINT, INT, BIGINT = (
    AtomicType(t) for t in ("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT")
)
FLOAT, DOUBLE, STRING, BINARY, DATE = (AtomicType(t) for t in ("FLOAT", "DOUBLE", "STRING", "BINARY", "DATE"))
TIMESTAMP, TIMESTAMP_NTZ = AtomicType("TIMESTAMP"), AtomicType("TIMESTAMP_NTZ")
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
ORIGIN_MS = 1_700_000_000_000


def decimal(precision: int, scale: int) -> AtomicType:
    return AtomicType(f"DECIMAL({precision},{scale})", precision, scale)


def spec(
    path: str, data_type: DataType, kind: Any, null_rate: float = 0.0, nullable: bool = True
) -> CellSpec:
    return CellSpec(tuple(path.split(".")), data_type, nullable, null_rate, kind)


def in_order(start: int, end: int) -> RowDraw:
    """Rows [start, end), each its own original, at 1000 rows a second from ``ORIGIN_MS``."""
    offsets = np.arange(start, end, dtype=np.int64)
    return RowDraw(offsets, offsets, ORIGIN_MS + offsets)


def any_of(first: str, last: str) -> AnyOf:
    return AnyOf(tuple(range(ord(first), ord(last) + 1)))


def literals(text: str) -> list[Literal]:
    return [Literal(ord(c)) for c in text]


def epoch_day(text: str) -> int:
    return (datetime.date.fromisoformat(text) - datetime.date(1970, 1, 1)).days


_EPOCH_DAY = datetime.date(1970, 1, 1)
_EPOCH = datetime.datetime(1970, 1, 1)
_UTC_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)


def jvm_form(value: Any, data_type: DataType) -> Any:
    """A cell as the JVM's dump of typed rows writes it: BIGINT and TIMESTAMP as decimal text, a
    FLOAT's int bits, a DOUBLE's long bits in hex (``Long.toHexString``), a DECIMAL's plain text,
    a DATE's days, BINARY in base64, ARRAY and STRUCT as lists, null as None."""
    if value is None:
        return None
    if isinstance(data_type, ArrayType):
        return [jvm_form(v, data_type.element) for v in value]
    if isinstance(data_type, StructType):
        return [jvm_form(value[f.name], f.data_type) for f in data_type.fields]
    name = data_type.sql
    if name in ("TIMESTAMP", "TIMESTAMP_NTZ"):
        delta = value - (_UTC_EPOCH if value.tzinfo else _EPOCH)
        return str((delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds)
    if name.startswith("DECIMAL"):
        assert isinstance(value, Decimal)
        return format(value, "f")
    if name == "BIGINT":
        return str(value)
    if name == "DATE":
        return (value - _EPOCH_DAY).days
    if name == "FLOAT":
        return struct.unpack("<i", struct.pack("<f", value))[0]
    if name == "DOUBLE":
        return format(struct.unpack("<Q", struct.pack("<d", value))[0], "x")
    if name == "BINARY":
        return base64.b64encode(value).decode()
    return value


def jvm_cells(array: pa.Array, data_type: DataType) -> list[Any]:
    return [jvm_form(v, data_type) for v in array.to_pylist()]


# Cells pinned to the JVM's: rows 0, 1, ... of each spec, at each row's original (its own offset).

STRUCT_AB = StructType((StructField("a", INT), StructField("b", STRING)))
NESTED_B = StructType((StructField("x", INT), StructField("y", ArrayType(STRING))))
NESTED_C = StructType(
    (StructField("p", StructType((StructField("q", BIGINT, False),))), StructField("r", ArrayType(DOUBLE)))
)
CODE_PLAN = PatternSequence(
    (*literals("ORD-"), Repeat(any_of("0", "9"), 4, 4), Literal(ord("-")), Repeat(any_of("A", "Z"), 3, 3))
)
# (ab|c[0-9]d)+x?
ALTERNATIVES_PLAN = PatternSequence(
    (
        Repeat(
            Either(
                (
                    PatternSequence(tuple(literals("ab"))),
                    PatternSequence((Literal(ord("c")), any_of("0", "9"), Literal(ord("d")))),
                )
            ),
            1,
            9,
        ),
        Repeat(Literal(ord("x")), 0, 1),
    )
)
# (?:[A-F]{2}:){5}[A-F]{2}
MAC_PLAN = PatternSequence(
    (
        Repeat(PatternSequence((Repeat(any_of("A", "F"), 2, 2), Literal(ord(":")))), 5, 5),
        Repeat(any_of("A", "F"), 2, 2),
    )
)
#: alpha, beta, gamma and a grinning face.
GREEK_TEXT = "\u03b1\u03b2\u03b3\U0001f600"
GREEK = CharacterSet.of_ranges(f"alphabet={GREEK_TEXT}", [(ord(c), ord(c)) for c in sorted(GREEK_TEXT)])

PINNED: list[tuple[str, int, CellSpec, list[Any]]] = [
    # wholes_distributions (seed 7)
    ("uniform", 7, spec("u", BIGINT, Wholes(-1000, 1000, Uniform())), ["233", "44", "884", "942", "882"]),
    ("zipf", 7, spec("z", INT, Wholes(10, 20, Zipf(0.7))), [18, 10, 11, 11, 18]),
    ("normal", 7, spec("n", SMALLINT, Wholes(-50, 50, Normal(10.0, 20.0))), [12, 14, -21, -16, 12]),
    ("exponential", 7, spec("e", INT, Wholes(0, 100, Exponential(15.0))), [13, 14, 25, 23, 8]),
    (
        "every long",
        7,
        spec("full", BIGINT, Wholes(-(2**63), LONG_MAX, Uniform())),
        ["2353623076004982388", "302976688214866639", "7181514051353309943", "6810253832274222827"],
    ),
    # reals_distributions (seed 7)
    (
        "reals uniform",
        7,
        spec("u", DOUBLE, Reals(-1e300, 1e300, Uniform())),
        ["fe32138e192cb9ac", "fe32b82ffae680f6", "7e2ca01d1d439cff", "7e34184c84d99d1e"],
    ),
    (
        "reals normal",
        7,
        spec("n", DOUBLE, Reals(0.0, 1.0, Normal(0.5, 1.0 / 6))),
        ["3fe087a6365bd70c", "3fe127e639064424", "3fcf6843d13e17d4", "3fd1fc541d62ff58"],
    ),
    (
        "float exponential",
        7,
        spec("e", FLOAT, Reals(1.0, 2.0, Exponential(0.25))),
        [1067253812, 1067320285, 1068784444, 1068461817],
    ),
    (
        "float",
        7,
        spec("f", FLOAT, Reals(-3.5, 3.5, Uniform())),
        [-1067976686, -1072175059, 1060639199, -1068782454],
    ),
    # nulls_everywhere (seed -3)
    ("booleans", -3, spec("b", BOOLEAN, Booleans(), 0.3), [False, None, None, False, None, True]),
    (
        "ints",
        -3,
        spec("i", INT, Wholes(INT_MIN, INT_MAX, Uniform()), 0.5),
        [306671314, None, None, 1718186242, 1166004652, 2120346708],
    ),
    ("all null", -3, spec("d", DOUBLE, Reals(0.0, 1.0, Uniform()), 1.0), [None] * 6),
    ("strings", -3, spec("str", STRING, Strings(DEFAULT_VALUES), 0.2), ["Q8", "Y", "HU", None, "dN", ""]),
    (
        "arrays",
        -3,
        spec(
            "arr",
            ArrayType(INT),
            Arrays(0, 6, spec("arr.element", INT, Wholes(INT_MIN, INT_MAX, Uniform()), 0.4)),
            0.25,
        ),
        [
            [],
            [1283020836, 456483813, -504326482, -693111261, None, None],
            [1700335730, -60741960, None, -1642964899],
            [None, None, None, -67714699, None],
            [208199511, None, None, 1128407883],
            [-1994210158, None, None, None, -524966444],
        ],
    ),
    (
        "structs",
        -3,
        spec(
            "st",
            STRUCT_AB,
            Structs(
                (
                    spec("st.a", INT, Wholes(INT_MIN, INT_MAX, Uniform()), 0.5),
                    spec("st.b", STRING, Strings(DEFAULT_VALUES), 0.5),
                )
            ),
            0.3,
        ),
        [None, [776586084, None], [None, "cXcX"], None, [-1925234707, None], None],
    ),
    # nested (seed 7)
    (
        "arrays of arrays",
        7,
        spec(
            "a",
            ArrayType(ArrayType(INT)),
            Arrays(
                1,
                3,
                spec(
                    "a.element",
                    ArrayType(INT),
                    Arrays(0, 2, spec("a.element.element", INT, Wholes(0, 9, Uniform()))),
                ),
            ),
        ),
        [[[5], [0, 7]], [[1, 6], [0, 0]], [[]]],
    ),
    (
        "arrays of structs",
        7,
        spec(
            "b",
            ArrayType(NESTED_B),
            Arrays(
                0,
                4,
                spec(
                    "b.element",
                    NESTED_B,
                    Structs(
                        (
                            spec("b.element.x", INT, Values((7, 8), ("7", "8"), PickUniform())),
                            spec(
                                "b.element.y",
                                ArrayType(STRING),
                                Arrays(
                                    0,
                                    4,
                                    spec(
                                        "b.element.y.element",
                                        STRING,
                                        Patterned("[a-z]{2}", Repeat(any_of("a", "z"), 2, 2)),
                                    ),
                                ),
                            ),
                        )
                    ),
                ),
            ),
        ),
        [
            [[8, ["sj", "cm"]]],
            [[7, ["qb", "sv", "vu", "mf"]], [7, ["bk", "jf", "wr"]], [7, []], [7, []]],
            [[7, []], [7, []], [7, []]],
        ],
    ),
    (
        "structs of structs",
        7,
        spec(
            "c",
            NESTED_C,
            Structs(
                (
                    spec(
                        "c.p",
                        NESTED_C.fields[0].data_type,
                        Structs((spec("c.p.q", BIGINT, Wholes(5, 6, Uniform()), nullable=False),)),
                    ),
                    spec(
                        "c.r",
                        ArrayType(DOUBLE),
                        Arrays(0, 2, spec("c.r.element", DOUBLE, Reals(0.0, 1.0, Uniform()))),
                    ),
                )
            ),
        ),
        [
            [["5"], ["3fdd90a099452ed0", "3fecdb10102dc2a8"]],
            [["5"], []],
            [["6"], ["3fe91e60f8bc574e", "3fc7d4712229d4f4"]],
        ],
    ),
    # patterns (seed 7)
    (
        "pattern of alternatives",
        7,
        spec("a", STRING, Patterned("(ab|c[0-9]d)+x?", ALTERNATIVES_PLAN)),
        ["abc8dc3dabc6dab", "c1dabc1dabx", "c7dc0dabx", "abx"],
    ),
    (
        "pattern of fixed repeats",
        7,
        spec("c", STRING, Patterned("(?:[A-F]{2}:){5}[A-F]{2}", MAC_PLAN)),
        ["BB:FC:AE:FE:ED:AC", "AA:DF:DD:FB:EB:BA", "CE:AB:AA:AF:DA:AE", "AF:CA:AE:BE:DF:DA"],
    ),
    # strings_options (seed 7)
    (
        "hex strings",
        7,
        spec("a", STRING, Strings(StringValues(3, 9, NAMED_SETS["hex"]))),
        ["2eda44e", "b16f1", "cbe1", "4fe"],
    ),
    (
        "an alphabet beyond the BMP",
        7,
        spec("b", STRING, Strings(StringValues(0, 6, GREEK))),
        [
            "\u03b3",
            "\u03b3\U0001f600\u03b2\u03b1\U0001f600\u03b3",
            "\u03b3\u03b2\u03b1\u03b1\u03b2",
            "\u03b1\u03b1\u03b3\u03b3\u03b3\U0001f600",
        ],
    ),
    (
        "a pool picked by Zipf's law",
        7,
        spec("c", STRING, Strings(StringValues(0, 6, NAMED_SETS["alphanumeric"], 50, "zipf", 1.5))),
        ["zDhoW", "I", "RStg", "RStg"],
    ),
    (
        "a unicode pool",
        7,
        spec("d", STRING, Strings(StringValues(2, 5, NAMED_SETS["unicode"], 1000))),
        [
            "\U000167ad\U0003cb21\U0005ada0\U00052c68\U000eec4b",
            "\U000557e0\U000d4441",
            "\U000fca51\U000e6e3b\U0010c9c2\U00079a91",
            "\U000e2158\U000def24\U000e6f1f\U000eee19\U00028963",
        ],
    ),
    # values_kinds (seed 7)
    (
        "values by Zipf's law",
        7,
        spec("s", STRING, Values(("x", "y", "z", "w"), ("",) * 4, PickZipf(2.0))),
        ["x", "z", "x", "x"],
    ),
    (
        "values by weights",
        7,
        spec("i", INT, Values((1, 2, 3), ("",) * 3, PickWeighted((0.0, 1.0, 3.5), (0.0, 1.0, 4.5)))),
        [3, 3, 3, 2],
    ),
    (
        "doubles",
        7,
        spec("d", DOUBLE, Values((0.1, 2.5e10, -3.0), ("",) * 3, PickUniform())),
        ["3fb999999999999a", "c008000000000000", "c008000000000000", "42174876e8000000"],
    ),
    (
        "dates",
        7,
        spec(
            "dt", DATE, Values((epoch_day("2024-02-29"), epoch_day("1999-01-01")), ("",) * 2, PickUniform())
        ),
        [19782, 10592, 10592, 19782],
    ),
    (
        "decimals",
        7,
        spec("dec", decimal(6, 3), Values((1500, 2000, -1), ("",) * 3, PickUniform())),
        ["2.000", "-0.001", "1.500", "2.000"],
    ),
    (
        "binary",
        7,
        spec("bin", BINARY, Values((b"\x00\x01\x02", b""), ("",) * 2, PickUniform())),
        ["", "AAEC", "", "AAEC"],
    ),
    # sequences (seed 7)
    ("sequence", 7, spec("a", INT, SequenceKind(10, 5, 3), nullable=False), [10, 15, 20, 10]),
    (
        "sequence near the top",
        7,
        spec("b", BIGINT, SequenceKind(9223372036854775800, 1, 8), nullable=False),
        ["9223372036854775800", "9223372036854775801", "9223372036854775802", "9223372036854775803"],
    ),
    ("sequence down", 7, spec("c", TINYINT, SequenceKind(0, -3, 43), nullable=False), [0, -3, -6, -9]),
    # decimals_dates_times (seed 7)
    (
        "decimals by Zipf's law",
        7,
        spec("a", decimal(10, 2), Wholes(100, 200, Zipf(1.0))),
        ["1.44", "1.01", "1.01"],
    ),
    (
        "wide decimals",
        7,
        spec("b", decimal(38, 10), Wholes(-5 * 10**10, 5 * 10**10, Uniform())),
        ["4.0524239981", "-3.9098739149", "2.0342728845"],
    ),
    (
        "normal dates",
        7,
        spec(
            "d",
            DATE,
            Wholes(
                epoch_day("2020-01-01"),
                epoch_day("2020-12-31"),
                Normal(
                    epoch_day("2020-01-01") / 2 + epoch_day("2020-12-31") / 2,
                    epoch_day("2020-12-31") / 6 - epoch_day("2020-01-01") / 6,
                ),
            ),
        ),
        [18427, 18391, 18413],
    ),
    (
        "timestamps",
        7,
        spec("t", TIMESTAMP, Wholes(1709287200000000, 1709287201500000, Uniform())),
        ["1709287201340339", "1709287200124416", "1709287201086967"],
    ),
    (
        "timestamps without a zone",
        7,
        spec("n", TIMESTAMP_NTZ, Wholes(946684799000000, 946684800000000, Uniform())),
        ["946684799399039", "946684799502668", "946684799671946"],
    ),
    # defaults_every_type (seed 7)
    ("tinyint", 7, spec("t", TINYINT, Wholes(-128, 127, Uniform())), [106, -37]),
    ("float by default", 7, spec("f", FLOAT, Reals(0.0, 1.0, Uniform())), [1016257062, 1042598077]),
    (
        "decimal(30,4)",
        7,
        spec("big", decimal(30, 4), Wholes(0, 10**18 - 1, Uniform())),
        ["21395428591538.8399", "13606122351469.7114"],
    ),
    ("bytes", 7, spec("bin", BINARY, Bytes(0, 16)), ["TSMblFlJixgPr0I=", "e9w="]),
]


@pytest.mark.parametrize(("seed", "cells", "jvm"), [p[1:] for p in PINNED], ids=[p[0] for p in PINNED])
def test_cells_are_the_jvms(seed: int, cells: CellSpec, jvm: list[Any]) -> None:
    array = make_cells(cells, seed, in_order(0, len(jvm)))
    assert array.type == arrow_type(cells.data_type)
    assert jvm_cells(array, cells.data_type) == jvm


def declared_rows(
    ddl: str, fields: dict[str, str], end: int, options: dict[str, str] | None = None
) -> list[Any]:
    """Rows [0, end) of a declared stream of seed 7, through its definition and ``RowGenerator``,
    as the JVM's dump writes them."""
    parameters = {"seed": "7", "rowsPerSecond": "1000", **(options or {}), **fields}
    definition = parse_options(parameters, ddl).definition(7, ORIGIN_MS)
    assert definition.declared is not None
    specs = definition.declared.cells
    table = expected_table(definition, 0, end)
    columns = [jvm_cells(table.column(j).combine_chunks(), s.data_type) for j, s in enumerate(specs)]
    return [list(row) for row in zip(*columns, strict=True)]


def test_a_declared_streams_rows_are_the_jvms() -> None:
    assert declared_rows(ORDERS_DDL, ORDERS_FIELDS, 4) == [
        [
            "0",
            4,
            "474.84",
            "paid",
            "ORD-7613-NBQ",
            [],
            ["Lyon", "96189"],
            "1700000000000000",
            "4017d7f64389331d",
            19724,
            True,
            "azOh",
        ],
        [
            "1",
            1,
            "806.04",
            "paid",
            "ORD-9697-HLT",
            [],
            ["Turin", "80302"],
            "1700000000001000",
            "4017de831a5af163",
            19725,
            True,
            "tg==",
        ],
        [
            "2",
            269,
            "666.86",
            "new",
            "ORD-1626-COD",
            ["gift", "fragile", "fragile"],
            ["Lyon", "54819"],
            "1700000000002000",
            "40117918d5dfdcec",
            19747,
            False,
            "6A==",
        ],
        [
            "3",
            4,
            "410.55",
            "paid",
            "ORD-6599-ETY",
            ["express"],
            ["Turin", "68709"],
            "1700000000003000",
            "3ffb2181f7892a8c",
            19735,
            True,
            "BCj2",
        ],
    ]


def test_a_shaped_streams_event_times_offsets_and_repeats_are_the_jvms() -> None:
    rows = declared_rows(
        "ts TIMESTAMP NOT NULL, ms BIGINT NOT NULL, o BIGINT NOT NULL, v INT",
        {
            "fields.ts.kind": "eventTime",
            "fields.ms.kind": "eventTime",
            "fields.o.kind": "offset",
            "fields.v.max": "9",
            "fields.v.min": "0",
        },
        6,
        {
            "maxOutOfOrderMs": "500",
            "lateRowFraction": "0.1",
            "lateByMs": "10000",
            "duplicateFraction": "0.2",
            "maxDuplicateDistance": "5",
            "startTimestamp": "1700000000000",
        },
    )
    # Row 1 repeats row 0: its event time and value, and its own offset.
    assert rows == [
        ["1699999999728000", "1699999999728", "0", 0],
        ["1699999999728000", "1699999999728", "1", 0],
        ["1699999999703000", "1699999999703", "2", 1],
        ["1699999999769000", "1699999999769", "3", 2],
        ["1699999999512000", "1699999999512", "4", 1],
        ["1699999999687000", "1699999999687", "5", 2],
    ]


# What every cell is.


def test_arrow_types_are_sparks_types() -> None:
    assert [arrow_type(t) for t in (BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE)] == [
        pa.bool_(),
        pa.int8(),
        pa.int16(),
        pa.int32(),
        pa.int64(),
        pa.float32(),
        pa.float64(),
    ]
    assert [arrow_type(t) for t in (decimal(38, 10), STRING, BINARY, DATE, TIMESTAMP, TIMESTAMP_NTZ)] == [
        pa.decimal128(38, 10),
        pa.string(),
        pa.binary(),
        pa.date32(),
        pa.timestamp("us", tz="UTC"),
        pa.timestamp("us"),
    ]
    assert arrow_type(ArrayType(INT, contains_null=False)) == pa.list_(pa.field("element", pa.int32(), False))
    assert arrow_type(STRUCT_AB) == pa.struct([pa.field("a", pa.int32()), pa.field("b", pa.string())])


@pytest.mark.parametrize("rate", [0.0, 0.05, 0.5, 0.9, 1.0])
def test_the_share_of_null_cells_is_the_null_rate(rate: float) -> None:
    n = 20_000
    for kind, data_type in ((Booleans(), BOOLEAN), (Bytes(0, 4), BINARY)):
        nulls = make_cells(spec("c", data_type, kind, rate), 7, in_order(0, n)).null_count
        assert abs(nulls - rate * n) <= 5 * (rate * (1 - rate) * n) ** 0.5
    elements = make_cells(
        spec("a", ArrayType(INT), Arrays(3, 3, spec("a.element", INT, Wholes(0, 9, Uniform()), rate))),
        7,
        in_order(0, n),
    )
    assert elements.null_count == 0
    nulls = elements.values.null_count
    assert abs(nulls - rate * 3 * n) <= 5 * (rate * (1 - rate) * 3 * n) ** 0.5


@pytest.mark.parametrize(
    "distribution", [Uniform(), Zipf(1.1), Normal(3.0, 40.0), Normal(-95.0, 1.0), Exponential(30.0)], ids=repr
)
def test_whole_numbers_stay_in_their_range(distribution: Any) -> None:
    values = make_cells(spec("w", SMALLINT, Wholes(-100, 100, distribution)), 3, in_order(0, 20_000))
    drawn = values.to_numpy()
    assert drawn.min() >= -100 and drawn.max() <= 100
    assert len(np.unique(drawn)) >= 10


@pytest.mark.parametrize(
    "distribution", [Uniform(), Normal(0.0, 1e-3), Normal(2.0, 10.0), Exponential(0.1)], ids=repr
)
def test_reals_stay_in_their_range(distribution: Any) -> None:
    for data_type in (FLOAT, DOUBLE):
        drawn = make_cells(
            spec("r", data_type, Reals(-1.5, 2.5, distribution)), 3, in_order(0, 20_000)
        ).to_numpy()
        assert drawn.min() >= -1.5 and drawn.max() <= 2.5
        assert len(np.unique(drawn)) > 1000


def test_whole_numbers_of_any_span_draw_the_whole_range() -> None:
    for low, high in ((-(2**63), LONG_MAX), (-(2**63), LONG_MAX - 2**62), (0, 2**62 + 1), (5, 5)):
        drawn = make_cells(spec("l", BIGINT, Wholes(low, high, Uniform())), 1, in_order(0, 5_000)).to_pylist()
        assert min(drawn) >= low and max(drawn) <= high
        assert len(set(drawn)) == (1 if low == high else 5_000)


REPEATED = spec(
    "r",
    StructType(
        (
            StructField("offset", BIGINT),
            StructField("time", TIMESTAMP),
            StructField("n", DOUBLE),
            StructField("tags", ArrayType(STRING)),
            StructField("code", STRING),
        )
    ),
    Structs(
        (
            spec("r.offset", BIGINT, RowOffset()),
            spec("r.time", TIMESTAMP, EventTime(micros=True)),
            spec("r.n", DOUBLE, Reals(0.0, 1.0, Normal(0.5, 0.2)), 0.2),
            spec(
                "r.tags",
                ArrayType(STRING),
                Arrays(0, 5, spec("r.tags.element", STRING, Strings(DEFAULT_VALUES), 0.3)),
            ),
            spec("r.code", STRING, Patterned("[a-c]{2,5}", Repeat(any_of("a", "c"), 2, 5))),
        )
    ),
    0.1,
)


def test_a_repeat_carries_its_originals_cells_but_its_own_offset() -> None:
    offsets = np.arange(100, 400, dtype=np.int64)
    originals = np.where(offsets % 3 == 0, offsets - 2, offsets)
    times = ORIGIN_MS + originals  # the generator gives a repeat its original's event time
    cells = make_cells(REPEATED, 7, RowDraw(offsets, originals, times)).to_pylist()
    alone = make_cells(REPEATED, 7, RowDraw(originals, originals, times)).to_pylist()
    for row, (cell, original) in enumerate(zip(cells, alone, strict=True)):
        if original is None:
            assert cell is None
        else:
            assert cell == {**original, "offset": int(offsets[row])}


def test_a_cell_is_the_same_in_any_batch() -> None:
    whole = make_cells(REPEATED, 5, in_order(0, 1_000))
    parts = [make_cells(REPEATED, 5, in_order(start, start + 250)) for start in range(0, 1_000, 250)]
    assert pa.concat_arrays(parts).equals(whole)
    assert make_cells(REPEATED, 5, in_order(731, 732)).to_pylist() == whole.to_pylist()[731:732]


def test_an_element_is_the_same_whatever_the_arrays_size() -> None:
    def arrays(size: int) -> list[list[int]]:
        element = spec("a.element", INT, Wholes(0, 1000, Uniform()))
        made: list[list[int]] = make_cells(
            spec("a", ArrayType(INT), Arrays(size, size, element)), 7, in_order(0, 50)
        ).to_pylist()
        return made

    assert [a[:3] for a in arrays(5)] == arrays(3)


def test_a_column_draws_from_the_stream_of_its_path_and_seed() -> None:
    def cells(path: str, seed: int) -> list[int]:
        made: list[int] = make_cells(
            spec(path, INT, Wholes(0, 10**6, Uniform())), seed, in_order(0, 20)
        ).to_pylist()
        return made

    assert cells("a", 7) == cells("a", 7)
    assert cells("a", 7) != cells("b", 7)
    assert cells("a", 7) != cells("a", 8)
    assert cells("a.b", 7) != cells("ab", 7)


def test_a_cells_weight_bounds_what_it_holds() -> None:
    assert cell_weight(spec("s", STRING, Strings(StringValues(0, 30, NAMED_SETS["hex"])))) == 30
    assert cell_weight(spec("c", STRING, Patterned("", MAC_PLAN))) == 17
    assert cell_weight(spec("i", INT, Wholes(0, 1, Uniform()))) == 1
    assert cell_weight(REPEATED) == 1 + 1 + 1 + (1 + 5 * 4) + 5


# Rejected draws, in rounds over many streams, are the draws the JVM makes one by one.

KEYS = stream_keys(3, np.arange(2_000, dtype=np.int64))
#: Lemire's method rejects a quarter of the 32-bit draws for this bound.
REJECTING = 3 * 2**29


def one_by_one(key: int, count: int, bound: int = REJECTING, draw: int = 0) -> list[int]:
    """``count`` draws ``nextBounded(bound)`` of stream ``key`` from its 32-bit draw ``draw``."""
    values = []
    for _ in range(count):
        value, draw = bounded_at(key, draw, bound)
        values.append(value)
    return values


def test_bounded_draws_after_rejections_are_the_jvms() -> None:
    cursor = np.zeros(len(KEYS), np.int64)
    every = np.arange(len(KEYS))
    rounds = [draws.bounded_at_cursor(KEYS, cursor, every, REJECTING) for _ in range(4)]
    walk = PatternWalk(KEYS)
    walked = [
        walk.bounded(every, REJECTING),
        walk.bounded(every[::3], REJECTING),
        walk.bounded(every, REJECTING),
    ]
    first, following = draws.bounded_first(KEYS, REJECTING)
    counts = np.arange(len(KEYS)) % 5
    runs = draws.bounded_runs(KEYS, following, counts, REJECTING)
    at = 0
    for i, key in enumerate(int(k) for k in KEYS):
        assert [int(r[i]) for r in rounds] == one_by_one(key, 4)
        expected = one_by_one(key, 3 if i % 3 == 0 else 2)
        assert [
            int(walked[0][i]),
            *([int(walked[1][i // 3])] if i % 3 == 0 else []),
            int(walked[2][i]),
        ] == expected
        drawn = one_by_one(key, 1 + int(counts[i]))
        assert [int(first[i]), *runs[at : at + counts[i]].tolist()] == drawn
        at += int(counts[i])
    assert int(cursor.sum()) > 4 * len(KEYS)  # some were rejected


def unsigned_up_to(key: int, span: int) -> int:
    """``CellWriter.unsignedUpTo`` of stream ``key``, draw by draw."""
    number = 0

    def next_long() -> int:
        nonlocal number
        number += 1
        return mix_int((key + number * 0x9E3779B97F4A7C15) & MASK)

    if span == -1:
        return next_long()
    if span < 0:
        bits = next_long()
        while bits > span & MASK:
            bits = next_long()
        return bits
    if span == LONG_MAX:
        return next_long() >> 1
    bound = span + 1
    limit = LONG_MAX - (LONG_MAX % bound + 1) % bound
    bits = next_long() >> 1
    while bits > limit:
        bits = next_long() >> 1
    return bits % bound


@pytest.mark.parametrize("span", [0, 6, 2**62 + 1, LONG_MAX, -1, -(2**62) - 1, -(2**63)])
def test_unsigned_spans_after_rejections_are_the_jvms(span: int) -> None:
    drawn = draws.unsigned_up_to(KEYS[:500], span)
    assert drawn.tolist() == [unsigned_up_to(int(key), span) for key in KEYS[:500]]


def test_an_exponential_over_the_whole_bigint_range_draws_just_above_its_min() -> None:
    table = expected_rows(
        start=0,
        end=2000,
        seed=1,
        schema="b BIGINT",
        fields={"b": {"distribution": "exponential", "mean": 1000}},
    )
    drawn = table.column("b").to_pylist()
    assert all(-(2**63) <= b < -(2**63) + 100_000 for b in drawn)
    assert drawn[:3] == [-9223372036854775288, -9223372036854774672, -9223372036854775250]
