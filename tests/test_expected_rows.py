"""expected_rows and stream_definition: the source's rows computed in Python, equal to the JVM
source's for the same definition, and a query's definition read back from its checkpoint."""

from __future__ import annotations

import json
import random
import re
import struct
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from pyspark.sql import SparkSession
from pyspark.sql.functions import lit, unix_micros
from pyspark.sql.pandas.types import from_arrow_schema

from helpers.stepped import Batches, SteppedClock, start_stepped, stepped_stream
from helpers.support import REPO
from helpers.typed_draws import ATOMS, draw_declared
from helpers.typed_rows import canonical, differences, from_json_cell, json_row
from spark_random_strings import FORMAT, expected_rows, stream_definition
from spark_random_strings.changes.options import parse_stream_options
from spark_random_strings.changes.rows import ChangeRows
from spark_random_strings.changes.store import stream_from_json
from spark_random_strings.nexmark.config import NexmarkConfig
from spark_random_strings.nexmark.generator import NexmarkEvent, nexmark_events
from spark_random_strings.offsets.definition_store import DEFINITION_FILE
from spark_random_strings.randomness import strictmath as strict
from spark_random_strings.rows.options import parse_options
from spark_random_strings.text.value_pool import pool_capacity
from spark_random_strings.time.rate_profile import parse_rate_profile

FIXTURES = REPO / "tests" / "fixtures"
RELEASED = [
    pytest.param(stream, id=f"{release.name}-{stream['name']}")
    for release in sorted(FIXTURES.iterdir())
    if (release / "streams.json").is_file()
    for stream in json.loads((release / "streams.json").read_text())["streams"]
]


def declared(param: Any) -> bool:
    """Whether a released stream (a pytest param of ``RELEASED``) of random strings declares its schema."""
    return "schema" in param.values[0] and not changes(param)


def changes(param: Any) -> bool:
    """Whether a released stream (a pytest param of ``RELEASED``) is the changes source's (0.7.0 on)."""
    return bool(param.values[0].get("format") == "changes")


def nexmark(param: Any) -> bool:
    """Whether a released stream (a pytest param of ``RELEASED``) is the nexmark source's (0.6.0 on)."""
    return bool(param.values[0].get("format") == "nexmark")


INVALID = json.loads((REPO / "tests" / "vectors" / "invalid_inputs.json").read_text())
#: How many plain and declared streams the drawn-definitions comparisons draw, on the default line:
#: the twin's rows against the jar's. Every other line proves its jar's rows equal to this line's by
#: the digest table (tests/digests/definitions.json, test_line_digests.py), not by drawing again.
DRAWN_COUNT, TYPED_COUNT = (70, 40)


def as_lists(table: pa.Table) -> list[list[Any]]:
    return [list(row.values()) for row in table.to_pylist()]


def checkpoint_with(tmp_path: Path, definitions: dict[int, str]) -> Path:
    """A checkpoint folder whose sources/<n> hold these definition files."""
    for number, text in definitions.items():
        folder = tmp_path / "sources" / str(number)
        folder.mkdir(parents=True)
        (folder / DEFINITION_FILE).write_text(text)
    return tmp_path


@pytest.mark.parametrize(
    "stream", [s for s in RELEASED if not declared(s) and not nexmark(s) and not changes(s)]
)
def test_expected_rows_of_a_stored_definition_are_the_rows_the_release_made(
    stream: dict[str, Any], tmp_path: Path
) -> None:
    definition = stream_definition(checkpoint_with(tmp_path, {0: stream["definition"]}))
    assert definition["seed"] == json.loads(stream["definition"])["seed"]
    expected = expected_rows(**definition, start=0, end=len(stream["rows"]))
    # A release's rows are value, ts, offset and length; a timestamp column is ts again.
    assert as_lists(expected.select(["value", "ts", "offset", "length"])) == stream["rows"]


@pytest.mark.parametrize("stream", [s for s in RELEASED if declared(s)])
def test_expected_rows_of_a_stored_declared_definition_are_the_typed_rows_the_release_made(
    spark: SparkSession, stream: dict[str, Any], tmp_path: Path
) -> None:
    definition = stream_definition(checkpoint_with(tmp_path, {0: stream["definition"]}))
    assert definition["seed"] == int(stream["options"]["seed"])
    expected = expected_rows(**definition, start=0, end=len(stream["rows"]))
    schema = spark.createDataFrame([], stream["schema"]).schema
    released = [from_json_cell(json.loads(row, parse_float=str), schema) for row in stream["rows"]]
    assert [canonical(row, schema) for row in expected.to_pylist()] == released


@pytest.mark.parametrize("stream", [s for s in RELEASED if changes(s)])
def test_the_twins_rows_of_a_stored_change_stream_are_the_rows_the_release_made(
    stream: dict[str, Any],
) -> None:
    stored = {"definition": json.loads(stream["definition"]), "changes": json.loads(stream["changes"])}
    change_stream = stream_from_json(stored, "the fixture")
    parsed = parse_stream_options(stream["options"], stream["schema"])
    assert parsed.positions is not None
    rows = [
        row for batch in ChangeRows(change_stream).batches(0, parsed.positions) for row in batch.to_pylist()
    ]
    # Spark's types of the rows (changes.reader's envelope_schema needs Python data sources: 4.0+).
    schema = from_arrow_schema(change_stream.schema)
    released = [from_json_cell(json.loads(row, parse_float=str), schema) for row in stream["rows"]]
    assert [canonical(row, schema) for row in rows] == released


@pytest.mark.parametrize("stream", [s for s in RELEASED if nexmark(s)])
def test_the_twins_events_of_a_stored_nexmark_stream_are_the_events_the_release_made(
    stream: dict[str, Any],
) -> None:
    stored = json.loads(stream["definition"])["config"]
    config = NexmarkConfig.from_beam_options(
        {name: int(value) if value.lstrip("-").isdigit() else value for name, value in stored.items()}
    )
    times = {"dateTime", "expires"}

    def as_json(event: NexmarkEvent) -> dict[str, Any]:
        """An event as Spark's JSON of its row has it: times in microseconds."""
        structs = {"person": event.person, "auction": event.auction, "bid": event.bid}
        return {
            "event_type": event.event_type,
            **{
                kind: None
                if fields is None
                else {k: v * 1000 if k in times else v for k, v in fields.items()}
                for kind, fields in structs.items()
            },
            "dateTime": event.date_time_ms * 1000,
        }

    made = [as_json(event) for event in nexmark_events(config, 0, len(stream["rows"]))]
    released = [json.loads(row) for row in stream["rows"]]
    assert sorted(made, key=json.dumps) == sorted(released, key=json.dumps)


def test_expected_rows_have_the_source_schema_and_any_range_is_a_slice_of_the_whole() -> None:
    options: dict[str, Any] = dict(
        seed=5, start_time_ms=1_000, rows_per_second=3, charset="unicode", max_length=9
    )
    whole = expected_rows(start=0, end=500, **options)
    assert whole.schema == pa.schema(
        [
            pa.field("value", pa.string(), nullable=False),
            pa.field("ts", pa.int64(), nullable=False),
            pa.field("offset", pa.int64(), nullable=False),
            pa.field("length", pa.int32(), nullable=False),
        ]
    )
    assert whole.column("offset").to_pylist() == list(range(500))
    assert whole.column("ts").to_pylist()[:4] == [1_000, 1_333, 1_666, 2_000]
    assert [len(v) for v in whole.column("value").to_pylist()] == whole.column("length").to_pylist()
    assert expected_rows(start=123, end=321, **options).equals(whole.slice(123, 198))
    assert expected_rows(start=7, end=7, **options).num_rows == 0


def test_expected_rows_refuses_bad_arguments_with_the_source_messages() -> None:
    with pytest.raises(ValueError, match=r"Invalid value '0' for option 'rowsPerSecond': out of range"):
        expected_rows(seed=1, start=0, end=1, rows_per_second=0)
    with pytest.raises(ValueError, match=r"'zipfExponent' is 2.0, but 'valueDistribution' is not zipf"):
        expected_rows(seed=1, start=0, end=1, zipf_exponent=2.0)
    with pytest.raises(TypeError, match=r"'total_rows', which changes no row"):
        expected_rows(seed=1, start=0, end=1, total_rows=5)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"Did you mean 'max_length'\?"):
        expected_rows(seed=1, start=0, end=1, max_lenght=5)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"seed must be int, got str '1'"):
        expected_rows(seed="1", start=0, end=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"\[5, 2\) must have 0 <= start <= end"):
        expected_rows(seed=1, start=5, end=2)


@pytest.mark.parametrize(
    "case", [c for c in INVALID["cases"] if set(c) == {"name", "options", "expect"}], ids=lambda c: c["name"]
)
def test_the_python_options_refuse_each_invalid_input_with_the_source_message(case: dict[str, Any]) -> None:
    with pytest.raises(ValueError) as refused:
        parse_options(case["options"])
    for word in case["expect"]:
        assert word in str(refused.value)


def test_stream_definition_names_what_is_missing_or_ambiguous(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="has started"):
        stream_definition(tmp_path)
    text = (
        '{"version":1,"seed":3,"startTimeMs":9,"rowsPerSecond":10,"minLength":0,"maxLength":4,'
        '"characters":"charset=hex"}'
    )
    checkpoint_with(tmp_path, {0: text, 2: text.replace('"seed":3', '"seed":4')})
    with pytest.raises(ValueError, match=r"sources \[0, 2\]: pass source="):
        stream_definition(tmp_path)
    assert stream_definition(tmp_path, source=2) == dict(
        seed=4, start_time_ms=9, rows_per_second=10, min_length=0, max_length=4, charset="hex"
    )
    with pytest.raises(FileNotFoundError, match=r"as source 1; it holds sources \[0, 2\]"):
        stream_definition(tmp_path, source=1)
    (tmp_path / "sources" / "0" / DEFINITION_FILE).write_text(text.replace('"seed":3', '"seed":"x"'))
    with pytest.raises(ValueError, match=r"corrupt or truncated \('seed' is not a whole number\)"):
        stream_definition(f"file:{tmp_path}", source=0)


def _doubles(count: int, seed: int) -> list[float]:
    """Arguments like the Zipf draw's: logs of ranks, and small and large exponents."""
    draw = random.Random(seed)
    values = []
    for i in range(count):
        kind = i % 4
        if kind == 0:
            values.append(1.0 + draw.random() * 20)
        elif kind == 1:
            values.append(draw.randrange(1, 2**31) + 0.5)
        elif kind == 2:
            values.append((draw.random() - 0.5) * 4)
        else:
            values.append((draw.random() - 0.5) * draw.choice([1e-6, 1e-3, 50.0]))
    return values


def _bits(values: Any) -> list[int]:
    return [struct.unpack("<q", struct.pack("<d", v))[0] for v in values]


def test_the_python_strict_math_is_the_jvms_to_the_bit(spark: SparkSession) -> None:

    # Spark's ln, log1p and expm1 are java.lang.StrictMath's.
    values = _doubles(60_000, 17)
    df = spark.createDataFrame([(v,) for v in values], "x double").selectExpr(
        "x", "ln(x) AS ln", "log1p(x) AS log1p", "expm1(x) AS expm1"
    )
    rows = df.collect()
    x = np.array([row.x for row in rows])
    for name, ours in (("ln", strict.log), ("log1p", strict.log1p), ("expm1", strict.expm1)):
        defined = np.array([row[name] is not None for row in rows])
        jvm = [row[name] for row in rows if row[name] is not None]
        assert len(jvm) > 30_000
        assert _bits(ours(x[defined])) == _bits(jvm), name
    # The source's own e^x, through Py4J.
    portable = spark.sparkContext._jvm.io.github.sparkrandomstrings.randomness.PortableMath  # type: ignore[union-attr]
    exponents = [(random.Random(3).random() - 0.5) * 1400 for _ in range(1)] + _doubles(1_500, 5)
    assert _bits(strict.portable_exp(np.array(exponents))) == _bits(portable.exp(v) for v in exponents)


def drawn_profile(draw: random.Random) -> str:
    """A valid rate profile: one to four phases, steady or ramps, of 1 ms to 2 min, at rates from
    0 to the largest allowed, repeating or not."""
    while True:
        phases = []
        for _ in range(draw.randrange(1, 5)):
            duration = draw.choice(["1ms", "250ms", "1s", "1500ms", "3s", "2m"])
            rates = [draw.choice([0, 1, 7, 1000, 123456, 1_000_000_000]) for _ in range(2)]
            phases.append(f"{duration}@{rates[0]}" + (f"..{rates[1]}" if draw.random() < 0.5 else ""))
        text = ", ".join(phases + (["repeat"] if draw.random() < 0.5 else []))
        try:
            parse_rate_profile(text)
            return text
        except ValueError:
            continue


def drawn_bounds(draw: random.Random) -> dict[str, str]:
    """How much of a stream a query reads, and in how many batches and partitions: 20 to 159
    rows, at least a quarter of them a batch, in 1 to 4 partitions."""
    total = draw.randrange(20, 160)
    return {
        "totalRows": str(total),
        "maxRowsPerTrigger": str(draw.randrange(total // 4 + 1, total + 1)),
        "numPartitions": str(draw.randrange(1, 5)),
    }


def drawn_disorder(draw: random.Random, shaping: int) -> dict[str, str]:
    """The row options that move event times and repeat rows, as ``shaping`` (0 to 4) says: 2
    out-of-order and late rows, 3 repeated rows, 4 both, else none."""
    options: dict[str, str] = {}
    if shaping in (2, 4):
        options |= {"maxOutOfOrderMs": str(draw.choice([1, 500, 5000]))}
        if draw.random() < 0.7:
            options |= {
                "lateRowFraction": str(draw.choice([0.05, 0.5, 1])),
                "lateByMs": str(draw.choice([1, 60000])),
            }
    if shaping in (3, 4):
        options |= {"duplicateFraction": str(draw.choice([0.01, 0.3, 0.9]))}
        if draw.random() < 0.5:
            options |= {"maxDuplicateDistance": str(draw.choice([1, 3, 50]))}
    return options


def drawn_times(draw: random.Random, i: int, options: dict[str, str]) -> dict[str, str]:
    """Definition ``i``'s fixed event-time start (one in four) and rate profile in place of its
    rowsPerSecond (one in six)."""
    times: dict[str, str] = {}
    if i % 4 == 1:
        times |= {"startTimestamp": str(draw.choice([0, -5_000_000_000_000, 1_767_225_600_000, 2**40]))}
    if i % 6 == 2:
        del options["rowsPerSecond"]
        times |= {"rateProfile": drawn_profile(draw)}
    return times


def drawn_definitions(count: int) -> list[dict[str, str]]:
    """``count`` source option sets drawn with a fixed seed: every charset, alphabets beyond
    the Basic Multilingual Plane, lengths 0 to 300 and one of 100,000, each shaping option, and
    the timestamp column, fixed event-time starts and rate profiles."""
    draw = random.Random(20261123)
    alphabets = ["ab", "x", "日本語の文字", "😀😃😄😁🙂", "a😀b\U0001d538c", "𐍈𐌰\U0010fffd\ue000", "01"]
    charsets = ["alphanumeric", "letters", "digits", "hex", "ascii", "unicode"]
    definitions = []
    for i in range(count):
        options = {
            "seed": str(draw.randrange(-(2**63), 2**63)),
            "rowsPerSecond": str(draw.choice([1, 7, 10, 1000, 123456])),
        }
        if i % 8 == 7:
            options["alphabet"] = draw.choice(alphabets)
        else:
            options["charset"] = charsets[i % 6]
        low = draw.choice([0, 0, 1, 5, 40])
        high = draw.choice([low, low + 3, low + 20, 300]) if low <= 300 else low
        options |= {"minLength": str(low), "maxLength": str(max(low, high))}
        options |= drawn_bounds(draw)
        if i % 5 == 1:
            fits = pool_capacity(low, max(low, high), len(options.get("alphabet", "")) or 10)
            options |= {"distinctValues": str(min(draw.choice([1, 7, 100, 5000]), fits))}
            if draw.random() < 0.5:
                options |= {"valueDistribution": "zipf", "zipfExponent": str(draw.choice([0.3, 1, 1.2, 2.5]))}
        options |= drawn_disorder(draw, i % 5)
        if i % 3 == 0:
            options |= {"timestampColumn": "true"}
        options |= drawn_times(draw, i, options)
        definitions.append(options)
    # A stream of long strings: a few rows of 100,000 characters.
    definitions.append(
        {"seed": "99", "minLength": "100000", "maxLength": "100000", "charset": "unicode", "totalRows": "3"}
    )
    for options in definitions:  # Each is valid.
        parse_options(options)
    return definitions


@pytest.mark.slow
def test_expected_rows_equal_the_jvm_source_on_drawn_definitions_across_batches_and_partitions(
    spark: SparkSession, tmp_path: Path, query_name: str
) -> None:
    definitions = drawn_definitions(DRAWN_COUNT)
    streams = []
    for i, options in enumerate(definitions):
        df = spark.readStream.format(FORMAT).options(**options).load()
        # The timestamp column as microseconds, so that streams with and without it union.
        timestamp = unix_micros("timestamp") if "timestampColumn" in options else lit(None).cast("long")
        streams.append(
            df.select("value", "ts", "offset", "length", timestamp.alias("micros"), lit(i).alias("stream"))
        )
    union = streams[0]
    for stream in streams[1:]:
        union = union.unionByName(stream)
    checkpoint = tmp_path / "checkpoint"
    # Each source still makes its rows in its own numPartitions slices (each slice is computed on
    # its own, as a partition of its batch's RDD); two tasks a batch compute them all, where one
    # task a slice (hundreds a batch) spent most of the test scheduling tasks.
    query = (
        union.coalesce(2)
        .writeStream.format("memory")
        .queryName(query_name)
        .trigger(availableNow=True)
        .option("checkpointLocation", str(checkpoint))
        .start()
    )
    assert query.awaitTermination(300) and query.exception() is None
    # (A progress report cannot tell 201 sources' rows apart; the commit log counts batches.)
    # Each bounded stream is read whole, at most maxRowsPerTrigger rows a batch: the query runs
    # as many batches as the stream that needs the most.
    batches = [f for f in (checkpoint / "commits").iterdir() if f.name.isdigit()]
    needed = max(
        -(-int(o["totalRows"]) // int(o.get("maxRowsPerTrigger", o["totalRows"]))) for o in definitions
    )
    assert needed == 4, "the streams were read across batch boundaries"
    assert len(batches) == needed
    made: dict[int, list[list[Any]]] = {i: [] for i in range(len(definitions))}
    micros: dict[int, list[int | None]] = {i: [] for i in range(len(definitions))}
    for row in spark.table(query_name).orderBy("stream", "offset").collect():
        made[row.stream].append([row.value, row.ts, row.offset, row.length])
        micros[row.stream].append(row.micros)

    by_seed = {int(options["seed"]): i for i, options in enumerate(definitions)}
    for source in range(len(definitions)):
        definition = stream_definition(checkpoint, source=source)
        i = by_seed[definition["seed"]]
        total = int(definitions[i]["totalRows"])
        assert len(made[i]) == total
        expected = expected_rows(**definition, start=0, end=total)
        assert as_lists(expected.select(["value", "ts", "offset", "length"])) == made[i], definitions[i]
        if "timestampColumn" in definitions[i]:
            assert expected["timestamp"].cast(pa.int64()).to_pylist() == micros[i], definitions[i]
        else:
            assert "timestamp" not in expected.column_names and set(micros[i]) == {None}


def drawn_typed_definitions(count: int) -> list[tuple[str, dict[str, str]]]:
    """``count`` declared streams drawn with a fixed seed, each a schema (DDL) and its options:
    columns of every type, kind and property, nested and with nulls (``helpers.typed_draws``),
    with the row options the plain definitions draw (bounds, disorder and repeats, fixed
    event-time starts and rate profiles)."""
    draw = random.Random(20261124)
    definitions = []
    for i in range(count):
        declared = draw_declared(draw)
        options = {
            "seed": str(draw.randrange(-(2**63), 2**63)),
            "rowsPerSecond": str(draw.choice([1, 7, 10, 1000, 123456])),
        }
        options |= drawn_bounds(draw) | drawn_disorder(draw, i % 5)
        options |= drawn_times(draw, i, options)
        definitions.append((declared.ddl, options | declared.fields))
    for ddl, options in definitions:  # Each is valid.
        parse_options(options, ddl)
    return definitions


@pytest.mark.parametrize("count", [TYPED_COUNT])
def test_the_drawn_typed_definitions_hold_every_type_kind_and_property(count: int) -> None:
    definitions = drawn_typed_definitions(count)
    ddl = " ".join(d for d, _ in definitions).upper()
    for name in (*ATOMS, "ARRAY<", "STRUCT<", "NOT NULL"):
        assert name in ddl, name
    # DECIMALs wider than a long, however spelt, with arrays of structs and structs of arrays.
    assert re.search(r"\b(DECIMAL|DEC|NUMERIC)\((19|[23][0-9]),", ddl)
    assert "ARRAY<STRUCT<" in ddl and re.search(r"STRUCT<[^>]*ARRAY<", ddl)
    written = {
        (
            name.rsplit(".", 1)[1].lower(),
            value.lower() if name.lower().endswith((".kind", ".distribution")) else "",
        )
        for _, options in definitions
        for name, value in options.items()
        if name.startswith(("fields.", "FIELDS."))
    }
    properties = {name for name, _ in written}
    assert properties >= {
        p.lower()
        for p in (
            "kind",
            "nullRate",
            "min",
            "max",
            "distribution",
            "zipfExponent",
            "mean",
            "stddev",
            "minLength",
            "maxLength",
            "charset",
            "alphabet",
            "distinctValues",
            "valueDistribution",
            "pattern",
            "minSize",
            "maxSize",
            "start",
            "step",
            "end",
            "values",
            "weights",
        )
    }
    kinds = {value for name, value in written if name == "kind"}
    assert kinds == {"random", "sequence", "offset", "eventtime", "values"}
    distributions = {value for name, value in written if name == "distribution"}
    assert distributions == {"uniform", "zipf", "normal", "exponential"}
    nested = [name for _, options in definitions for name in options if ".element." in name.lower()]
    assert nested
    rows = {name for _, options in definitions for name in options if not name.lower().startswith("fields.")}
    assert rows >= {
        "duplicateFraction",
        "maxOutOfOrderMs",
        "lateRowFraction",
        "rateProfile",
        "startTimestamp",
    }


@pytest.mark.slow
def test_expected_rows_equal_the_jvm_source_on_drawn_typed_definitions_across_batches_and_partitions(
    spark: SparkSession, tmp_path: Path, query_name: str
) -> None:
    definitions = drawn_typed_definitions(TYPED_COUNT)
    schemas, streams = [], []
    for k, (ddl, options) in enumerate(definitions):
        df = spark.readStream.format(FORMAT).schema(ddl).options(**options).load()
        schemas.append(df.schema)
        streams.append(df.select(json_row(df).alias("row"), lit(k).alias("stream")))
    union = streams[0]
    for stream in streams[1:]:
        union = union.union(stream)
    checkpoint = tmp_path / "checkpoint"
    query = (
        union.coalesce(2)
        .writeStream.format("memory")
        .queryName(query_name)
        .trigger(availableNow=True)
        .option("checkpointLocation", str(checkpoint))
        .start()
    )
    assert query.awaitTermination(300) and query.exception() is None
    batches = [f for f in (checkpoint / "commits").iterdir() if f.name.isdigit()]
    needed = max(-(-int(o["totalRows"]) // int(o["maxRowsPerTrigger"])) for _, o in definitions)
    assert needed == 4, "the streams were read across batch boundaries"
    assert len(batches) == needed
    made: dict[int, list[str]] = {k: [] for k in range(len(definitions))}
    for row in spark.table(query_name).collect():
        cells = from_json_cell(json.loads(row.row, parse_float=str), schemas[row.stream])
        made[row.stream].append(repr(cells))

    by_seed = {int(options["seed"]): k for k, (_, options) in enumerate(definitions)}
    assert len(by_seed) == len(definitions)
    for source in range(len(definitions)):
        definition = stream_definition(checkpoint, source=source)
        k = by_seed[definition["seed"]]
        total = int(definitions[k][1]["totalRows"])
        expected = expected_rows(**definition, start=0, end=total)
        want = sorted(repr(canonical(row, schemas[k])) for row in expected.to_pylist())
        got = sorted(made[k])
        assert got == want, f"{definitions[k]}: {differences(got, want)}"


def test_stream_definition_of_a_live_query_gives_the_rows_its_sink_holds(
    spark: SparkSession, tmp_path: Path
) -> None:
    checkpoint = tmp_path / "checkpoint"
    with SteppedClock(spark) as clock:
        df = stepped_stream(
            spark,
            clock,
            rows_per_second=200,
            max_length=12,
            charset="letters",
            distinct_values=300,
            max_out_of_order_ms=250,
        )
        batches = Batches(clock, ["value", "ts", "offset", "length"])
        query = start_stepped(df, checkpoint, batches)
        try:
            clock.advance(1500)  # 300 rows at 200 rows/s, and the query still running
            query.processAllAvailable()
        finally:
            query.stop()
    assert [len(batch.rows) for batch in batches.kept] == [300]
    sink = [[r["value"], r["ts"], r["offset"], r["length"]] for r in batches.kept[0].rows]
    sink.sort(key=lambda row: row[2])
    definition = stream_definition(checkpoint)
    assert definition["distinct_values"] == 300 and definition["max_out_of_order_ms"] == 250
    assert as_lists(expected_rows(**definition, start=0, end=len(sink))) == sink
