"""Typed columns under declarations that Hypothesis draws, valid and broken (issue 38, item 5).

Every outcome is one of two: the query runs and its rows are exactly the ones ``expected_rows``
computes from its checkpoint, or ``load()`` refuses the declaration with an
IllegalArgumentException whose message names the column (or the option) at fault, the same
message from the jar's source, the Python parser and the Python data source. Never an error, or a
hang, once the query runs.

The declarations come from ``helpers.typed_draws``, drawn from a ``random.Random`` that
Hypothesis controls: every type and kind and property, nested, with nulls; or one of them with a
fault (an unknown column or property, a value not of the column's type, min above max, weights
that do not match the values, nullRate on a NOT NULL column, a distinctValues that cannot be
made, a DECIMAL bound outside its precision, a pattern it cannot generate, a row too large for
Spark's, ...). Spark is slow per query, so the examples are few and small: a fixed, derandomized
set of them, a few rows each.
"""

from __future__ import annotations

import json
import random
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pyspark.errors import IllegalArgumentException
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.types import StructType

from helpers.typed_draws import FAULTS, Broken, draw_broken, draw_declared, draw_every_type, option_path
from helpers.typed_rows import canonical, differences, from_json_cell, json_row
from spark_random_strings import FORMAT, expected_rows, read_random_strings, stream_definition
from spark_random_strings.engine.choice import pyspark_line
from spark_random_strings.offsets.definition_store import DEFINITION_FILE, definition_to_json, read_definition
from spark_random_strings.rows.options import parse_options
from spark_random_strings.strings.read import _python_stream
from spark_random_strings.typed.fields.options import split

#: How many declarations Hypothesis draws: about 0.7 s of Spark for each valid one, 0.1 s for a
#: broken one (60, to keep make test within its 15 minutes).
EXAMPLES = 60

SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@dataclass
class Case:
    """A declared stream: its schema (DDL) and every option; ``broken``, its fault, if any."""

    ddl: str
    options: dict[str, str]
    broken: Broken | None = None

    @property
    def total(self) -> int:
        return int(self.options["totalRows"])


def row_options(draw: random.Random) -> dict[str, str]:
    """A few rows (1 to 24) in one to three batches and partitions, in event-time order or not,
    repeated or not, at a rate or by a profile, from a fixed start or the query's."""
    total = draw.randrange(1, 25)
    options = {
        "seed": str(draw.randrange(-(2**63), 2**63)),
        "totalRows": str(total),
        "maxRowsPerTrigger": str(max(1, -(-total // draw.randrange(1, 4)))),
        "numPartitions": str(draw.randrange(1, 4)),
    }
    options |= draw.choice(
        [
            {},
            {"maxOutOfOrderMs": "500"},
            {"lateRowFraction": "0.5", "lateByMs": "60000"},
            {"duplicateFraction": "0.5"},
            {"duplicateFraction": "0.3", "maxDuplicateDistance": "2", "maxOutOfOrderMs": "20"},
        ]
    )
    options |= draw.choice(
        [{"rowsPerSecond": "1000"}, {"rowsPerSecond": "3"}, {"rateProfile": "1s@5, 2s@0..20"}]
    )
    if draw.random() < 0.4:
        options["startTimestamp"] = str(draw.choice([0, 1_767_225_600_000, -5_000_000_000_000]))
    return options


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """A declared stream, valid or (about half the time) with one fault."""
    rnd = draw(st.randoms(use_true_random=False))
    options = row_options(rnd)
    if draw(st.booleans()):
        broken = draw_broken(rnd, draw(st.sampled_from(FAULTS)))
        return Case(broken.declared.ddl, options | broken.options | broken.declared.fields, broken)
    declared = draw_declared(rnd, max_columns=4, max_depth=2)
    return Case(declared.ddl, options | declared.fields)


def names(message: str, named: str) -> bool:
    """Whether ``message`` names the column (or the option) ``named``: quoted, or as the column
    part of an option it quotes."""
    lower, name = message.lower(), named.lower()
    return f"'{name}'" in lower or f"'fields.{name}." in lower or f"'{name}." in lower


def python_refusal(case: Case) -> str | None:
    """The Python parser's message for the case, or None if it takes it."""
    try:
        parse_options(case.options, case.ddl)
    except ValueError as error:
        return str(error)
    return None


def run(df: DataFrame, checkpoint: Path, table: str) -> list[str]:
    """The rows of a bounded stream read to its end, each as ``from_json_cell`` reads it (its
    ``repr``); the query must end, without an error, within a minute."""
    query = (
        df.select(json_row(df).alias("row"))
        .writeStream.format("memory")
        .queryName(table)
        .trigger(availableNow=True)
        .option("checkpointLocation", str(checkpoint))
        .start()
    )
    try:
        assert query.awaitTermination(60), "the query still runs after a minute"
        assert query.exception() is None, query.exception()
    finally:
        query.stop()
    return [
        repr(from_json_cell(json.loads(r.row, parse_float=str), df.schema))
        for r in df.sparkSession.table(table).collect()
    ]


def expected(checkpoint: Path, schema: StructType, total: int) -> list[str]:
    """The rows ``expected_rows`` computes from the query's checkpoint, as ``canonical`` has them."""
    definition = stream_definition(checkpoint)
    return [
        repr(canonical(row, schema)) for row in expected_rows(**definition, start=0, end=total).to_pylist()
    ]


def python_reader_rows(case: Case, schema: StructType, checkpoint: Path) -> list[str]:
    """The rows the Python data source's reader makes for the stream the JVM's query read (its
    definition, from the checkpoint, as a restarted Python query adopts it from its offsets),
    batch by batch and partition by partition, as Spark asks for them: with no Spark, cheap.
    Spark hands the reader the schema as declared, with its comments, as the JVM source's
    ``df.schema`` keeps them."""
    from spark_random_strings.strings.reader import stream_reader  # pyspark 4.0 and later

    declared = StructType.fromDDL(case.ddl)
    assert isinstance(declared, StructType)
    reader = stream_reader(case.options, declared)
    reader.prepareForTriggerAvailableNow()
    definition = definition_to_json(read_definition(checkpoint / "sources" / "0" / DEFINITION_FILE))
    start: dict[str, Any] = {"offset": 0, "stream": definition}
    rows = []
    while start["offset"] < case.total:
        end = reader.latestOffset(start, reader.getDefaultReadLimit())
        assert end["offset"] > start["offset"]
        for partition in reader.partitions(start, end):
            for batch in reader.read(partition):
                rows += [repr(canonical(row, schema)) for row in batch.to_pylist()]
        start = end
    return rows


def load(spark: SparkSession, case: Case) -> DataFrame | None:
    """The JVM source's stream of ``case``; or None, once it is refused at ``load()`` as the
    case expects: an IllegalArgumentException naming its column, whose message the Python parser
    and the Python data source's ``load()`` give too."""
    refused = python_refusal(case)
    try:
        df = spark.readStream.format(FORMAT).schema(case.ddl).options(**case.options).load()
    except IllegalArgumentException as error:
        message = str(error)
        assert case.broken is not None, f"a valid declaration refused: {message}"
        assert names(message, case.broken.named), f"{case.broken.named} is not named in: {message}"
        assert refused == message, "the Python parser refuses it with the JVM's message"
        assert "\tat " not in message, "no JVM stack trace in the message"
        if pyspark_line() >= (4, 0):
            with pytest.raises(IllegalArgumentException) as python_engine:
                _python_stream(spark, case.options, case.ddl)
            assert str(python_engine.value) == message
        return None
    assert refused is None, f"the JVM takes a declaration Python refuses: {refused}"
    assert case.broken is None, f"load() took a declaration with {case.broken.fault}: {case}"
    return df


def test_each_fault_is_refused_at_load_naming_its_column_with_one_message_from_every_engine(
    spark: SparkSession,
) -> None:
    draw = random.Random(38)
    for i, fault in enumerate(FAULTS):
        base = draw_declared(draw, max_columns=2, max_depth=1)
        broken = fault.put(base, i, i % 3)
        case = Case(broken.declared.ddl, {"seed": "1", **broken.options, **broken.declared.fields}, broken)
        assert load(spark, case) is None, case


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    """A folder for the examples' checkpoints (Hypothesis runs every example in one call)."""
    with tempfile.TemporaryDirectory(prefix="typed-properties-") as folder:
        yield Path(folder)


_queries = iter(range(10**6))


@pytest.mark.slow
@SETTINGS
@given(case=cases())
def test_a_drawn_declaration_streams_expected_rows_or_is_refused_at_load_naming_its_column(
    spark: SparkSession, scratch: Path, case: Case
) -> None:
    df = load(spark, case)
    if df is None:
        assert case.broken is not None
        event(f"refused at load(): {case.broken.fault}")
        return
    event("streamed")
    number = next(_queries)
    checkpoint = scratch / f"checkpoint-{number}"
    got = sorted(run(df, checkpoint, f"typed_properties_{number}"))
    want = sorted(expected(checkpoint, df.schema, case.total))
    assert got == want, f"{case}: {differences(got, want)}"
    if pyspark_line() >= (4, 0):
        _python_stream(spark, case.options, case.ddl)  # its load() takes it too
        python = sorted(python_reader_rows(case, df.schema, checkpoint))
        assert python == got, f"{case}: the Python data source's reader: {differences(python, got)}"


def test_a_column_of_every_type_streams_expected_rows_through_both_engines(
    spark: SparkSession, tmp_path: Path, query_name: str
) -> None:
    if pyspark_line() < (4, 0):
        pytest.skip("Python streaming data sources need Spark 4.0")
    declared = draw_every_type(random.Random(38))
    fields: dict[str, dict[str, object]] = {}
    for name, value in declared.fields.items():
        path, property_name = split(name)
        fields.setdefault(option_path(path), {})[property_name] = value
    # A fixed start: the engines' event times are the same whenever each query starts.
    options: dict[str, Any] = dict(
        seed=38, total_rows=40, max_rows_per_trigger=20, num_partitions=2, start_timestamp=1_767_225_600_000
    )
    got = {}
    engines: tuple[Literal["jvm"], Literal["python"]] = ("jvm", "python")
    for engine in engines:
        df = read_random_strings(spark, engine=engine, schema=declared.ddl, fields=fields, **options)
        checkpoint = tmp_path / engine
        got[engine] = sorted(run(df, checkpoint, f"{query_name}_{engine}"))
        assert got[engine] == sorted(expected(checkpoint, df.schema, 40)), engine
    assert got["jvm"] == got["python"]
