"""`make bench`'s typed-columns section: one schema of typed columns, the same columns made by
this source, by dbldatagen and by hand-written Spark SQL on rate-micro-batch.

The schema (COLUMNS): a sequence key, a Zipf INT key, a DECIMAL with 5% nulls, a weighted
choice of four strings, a string of a pattern and the row's event time. Pipelines, each into the
noop sink, with batches of the same number of rows:
  typed ours        this source (the JVM source): .schema(SCHEMA) and its fields. options,
                    maxRowsPerTrigger = the batch size
  typed dbldatagen  dbldatagen (pinned in requirements.txt), a DataGenerator of the same column
                    specs, build(withStreaming=True); its stream is Spark's `rate` source, whose
                    batches grow with the time the last one took, so EqualBatches puts the same
                    expressions on rate-micro-batch's fixed rowsPerBatch instead (README.md)
  typed SQL         the Spark SQL a user would write for the same columns on rate-micro-batch
                    (rand, CASE WHEN, element_at, lpad, chr)
  typed python      this source's Python data source (engine="python"), the same schema and fields
  typed floor       this source with nothing drawn (FLOOR_FIELDS): the sequence and the event time
                    as in `typed ours`, every other column one value of the same width. What this
                    source spends writing rows of the schema, under any draws: its rate against
                    dbldatagen's bounds what any columns of this schema reach against it
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

import dbldatagen
from pyspark.sql import DataFrame, SparkSession

from spark_random_strings import Engine, read_random_strings

SCHEMA = (
    "order_id BIGINT NOT NULL, user_id INT NOT NULL, amount DECIMAL(10,2), status STRING NOT NULL, "
    "code STRING NOT NULL, event_time TIMESTAMP NOT NULL"
)
#: The Zipf key's law, which dbldatagen has no distribution for: both peers draw it by inverting
#: the continuous power law 1/x^1.2 on [1, 100001) and flooring, a one-line approximation of it.
ZIPF_SQL = "CAST(floor(pow(1 - rand() * (1 - pow(100001, -0.2)), -5)) AS INT)"


@dataclass(frozen=True)
class Column:
    """One column of the schema, and how each pipeline makes it."""

    name: str
    #: This source's properties of the column: fields.<name>.<property>.
    fields: dict[str, object]
    #: dbldatagen's withColumn(name, type, **spec).
    dbldatagen_type: str
    dbldatagen_spec: dict[str, Any]
    #: The hand-written pipeline's expression, on rate-micro-batch's `value` and `timestamp`.
    sql: str


COLUMNS = [
    Column("order_id", {"kind": "sequence", "start": 1}, "long", {"expr": "id + 1"}, "value + 1"),
    Column(
        "user_id",
        {"min": 1, "max": 100000, "distribution": "zipf", "zipfExponent": 1.2},
        "int",
        {"expr": ZIPF_SQL},
        ZIPF_SQL,
    ),
    Column(
        "amount",
        {"min": "0.50", "max": "999.99", "nullRate": 0.05},
        "decimal(10,2)",
        {"minValue": 0.5, "maxValue": 999.99, "step": 0.01, "random": True, "percentNulls": 0.05},
        "CASE WHEN rand() < 0.05 THEN NULL "
        "ELSE CAST((50 + floor(rand() * 99950)) / 100 AS DECIMAL(10,2)) END",
    ),
    Column(
        "status",
        {"kind": "values", "values": '["new", "paid", "shipped", "cancelled"]', "weights": "[2, 6, 1, 1]"},
        "string",
        {"values": ["new", "paid", "shipped", "cancelled"], "weights": [2, 6, 1, 1], "random": True},
        # The weights as repeats: one draw picks among ten entries.
        "element_at(array('new', 'new', 'paid', 'paid', 'paid', 'paid', 'paid', 'paid', 'shipped', "
        "'cancelled'), CAST(rand() * 10 AS INT) + 1)",
    ),
    Column(
        "code",
        {"pattern": "ORD-[0-9]{4}-[A-Z]{3}"},
        "string",
        # A template: d a digit, A an upper-case letter; D (a digit from 1) escaped to a literal.
        {"template": r"OR\D-dddd-AAA"},
        "concat('ORD-', lpad(CAST(CAST(rand() * 10000 AS INT) AS STRING), 4, '0'), '-', "
        "chr(65 + CAST(rand() * 26 AS INT)), chr(65 + CAST(rand() * 26 AS INT)), "
        "chr(65 + CAST(rand() * 26 AS INT)))",
    ),
    Column("event_time", {"kind": "eventTime"}, "timestamp", {"expr": "timestamp"}, "timestamp"),
]
FIELDS = {column.name: column.fields for column in COLUMNS}
#: The floor's columns: the sequence and the event time as drawn, every other one its single value
#: (`kind` values), as wide as the column's typical value, with no nulls.
FLOOR_FIELDS: dict[str, dict[str, object]] = {
    **FIELDS,
    "user_id": {"kind": "values", "values": "[1]"},
    "amount": {"kind": "values", "values": '["500.00"]'},
    "status": {"kind": "values", "values": '["paid"]'},
    "code": {"kind": "values", "values": '["ORD-1234-ABC"]'},
}
DBLDATAGEN = f"dbldatagen {version('dbldatagen')}"


def ours(
    spark: SparkSession,
    rows: int,
    engine: Engine = "jvm",
    partitions: int | None = None,
    fields: dict[str, dict[str, object]] = FIELDS,
) -> DataFrame:
    # A rate no batch can reach: maxRowsPerTrigger alone sets the batch size.
    return read_random_strings(
        spark,
        engine=engine,
        schema=SCHEMA,
        fields=fields,
        rows_per_second=10**12,
        max_rows_per_trigger=rows,
        seed=1,
        num_partitions=partitions,
    )


def python_engine(spark: SparkSession, rows: int) -> DataFrame:
    return ours(spark, rows, engine="python", partitions=2)


def floor(spark: SparkSession, rows: int) -> DataFrame:
    return ours(spark, rows, fields=FLOOR_FIELDS)


class EqualBatches(dbldatagen.DataGenerator):  # type: ignore[misc]
    """A dbldatagen DataGenerator whose stream is rate-micro-batch's: ``rows_per_batch`` rows a
    batch, in ``partitions`` partitions, with the columns of the `rate` source that
    ``build(withStreaming=True)`` reads (``timestamp``, and ``value`` renamed to the seed column)."""

    def __init__(self, spark: SparkSession, rows_per_batch: int, partitions: int) -> None:
        super().__init__(spark, partitions=partitions, randomSeedMethod="hash_fieldname")
        self.rows_per_batch = rows_per_batch

    def _getBaseDataFrame(self, startId: int = 0, streaming: bool = False, options: Any = None) -> DataFrame:
        assert streaming, "the benchmark builds dbldatagen's stream only"
        spark: SparkSession = self.sparkSession
        return (
            spark.readStream.format("rate-micro-batch")
            .option("rowsPerBatch", self.rows_per_batch)
            .option("numPartitions", self.partitions)
            .load()
            .withColumnRenamed("value", self._seedColumnName)
        )


def dbldatagen_stream(spark: SparkSession, rows: int) -> DataFrame:
    generator = EqualBatches(spark, rows, partitions=2)
    for column in COLUMNS:
        generator = generator.withColumn(column.name, column.dbldatagen_type, **column.dbldatagen_spec)
    df: DataFrame = generator.build(withStreaming=True)
    return df


def hand_written_sql(spark: SparkSession, rows: int) -> DataFrame:
    rate = spark.readStream.format("rate-micro-batch").option("rowsPerBatch", rows).load()
    return rate.selectExpr(*[f"{column.sql} AS {column.name}" for column in COLUMNS])


PIPELINES: dict[str, Callable[[SparkSession, int], DataFrame]] = {
    "typed ours": ours,
    "typed dbldatagen": dbldatagen_stream,
    "typed SQL": hand_written_sql,
    "typed python": python_engine,
    "typed floor": floor,
}
DESCRIPTIONS = {
    "typed ours": "this source, typed columns",
    "typed dbldatagen": f"{DBLDATAGEN}, the same columns",
    "typed SQL": "hand-written SQL on rate-micro-batch, the same columns",
    "typed python": "this source's Python data source (engine=python), typed columns",
    "typed floor": "this source, the same schema with nothing drawn (the floor)",
}
#: The pipelines whose batches take seconds (dbldatagen's template runs in Python workers too):
#: fewer of their batches are measured.
IN_PYTHON = ("typed dbldatagen", "typed python")


def same_columns(spark: SparkSession) -> None:
    """Fail unless every pipeline makes the schema's columns: names, in order, and types."""
    expected = [(field.name, field.dataType) for field in ours(spark, 1).schema]
    for name, make in PIPELINES.items():
        made = [(field.name, field.dataType) for field in make(spark, 1).schema]
        if made != expected:
            raise RuntimeError(f"the {name} pipeline makes {made}, not the schema's {expected}")


def column_table() -> list[tuple[str, str, str, str]]:
    """Per column: this source's fields. options, dbldatagen's withColumn and the SQL expression."""
    return [
        (
            column.name,
            ", ".join(f"{key}={value}" for key, value in column.fields.items()),
            ", ".join(
                [repr(column.dbldatagen_type), *(f"{k}={v!r}" for k, v in column.dbldatagen_spec.items())]
            ),
            column.sql,
        )
        for column in COLUMNS
    ]
