"""`make bench`'s change-streams section: the `changes` source against the same schema's typed rows
and against the change feed a user would hand-write on rate-micro-batch, and its oracle.

Pipelines, each into the noop sink, with batches of the same number of changes (rows):
  changes ours   this source's `changes` stream (the JVM source), the flat envelope: SCHEMA's
                 columns, then _op, _seq and _ts, over KEYS keys, a change to a present key
                 deleting it with probability 0.1
  changes typed  this source's typed rows of the same SCHEMA and fields (read_random_strings), the
                 key a uniform BIGINT: what the lifecycle and the envelope cost on top
  changes envelope  the same typed rows with the flat envelope's columns as typed columns
                 (ENVELOPE_COLUMNS: `_op` drawn from the three operations at the lifecycle's long-run
                 shares, `_seq` a sequence, `_ts` the event time): every column the change stream
                 writes, without the lifecycle that says which key and operation each change has. Its
                 rate against `changes typed` bounds what any change stream of these columns can reach
  changes SQL    the best hand-written Spark SQL on rate-micro-batch for a change feed: a key from
                 rand(), an op from CASE WHEN, the same columns; no lifecycle (an update of an
                 absent key, a delete of a deleted one), so no table to check it against
The oracle: `expected_table` of KEYS keys, in Python, and the batch read `asOf` at 10^6 and at 10^8
changes over the same keys, on the executors: its time grows with the keys, not the changes.
Real-time latency: `changes ours` read with realTime at LATENCY_RATE changes/s, one partition, in
real-time batches of `long_batch_s` (30 s), each change from the moment it came to exist to its
arrival at the LatencySink, measured as bench/real_time.py measures the random strings.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import real_time
from pyspark.sql import DataFrame, SparkSession
from report import LatencyRun, LatencySettings

from spark_random_strings import expected_table, read_changes, read_random_strings

SCHEMA = "id BIGINT NOT NULL, name STRING, balance DECIMAL(12,2), tier STRING"
FIELDS: dict[str, dict[str, object]] = {
    "name": {"minLength": 3, "maxLength": 12, "charset": "letters"},
    "balance": {"min": "0", "max": "100000"},
    "tier": {"kind": "values", "values": '["free", "pro", "team"]', "weights": "[7, 2, 1]"},
}
DELETE_FRACTION = 0.1
#: The flat envelope's columns as typed columns, for `changes envelope`: a change is an insert or a
#: delete d / (1 + d) of the time each and an update (1 - d) / (1 + d) (ChangeLifecycle), so 1, 9, 1
#: at d = 0.1; its number, the offset; its commit time, the row's event time.
ENVELOPE_SCHEMA = "_op STRING NOT NULL, _seq BIGINT NOT NULL, _ts TIMESTAMP NOT NULL"
ENVELOPE_FIELDS: dict[str, dict[str, object]] = {
    "_op": {"kind": "values", "values": '["insert", "update", "delete"]', "weights": "[1, 9, 1]"},
    "_seq": {"kind": "sequence", "start": 0},
    "_ts": {"kind": "eventTime"},
}
#: The change options, as read_changes, expected_table and the batch read take them.
CHANGE_KEYWORDS: dict[str, object] = {"seed": 1, "delete_fraction": DELETE_FRACTION}
#: The hand-written feed's columns, on rate-micro-batch's `value` and `timestamp`: a key from
#: rand(), letters of random length by randstr's alphanumerics (the closest built in), the
#: balance in cents, the tier by repeats of its weights, an op from CASE WHEN.
SQL_COLUMNS = [
    "CAST(floor(rand() * {keys}) AS BIGINT) AS id",
    "randstr(8) AS name",
    "CAST(floor(rand() * 10000001) / 100 AS DECIMAL(12,2)) AS balance",
    "element_at(array('free', 'free', 'free', 'free', 'free', 'free', 'free', 'pro', 'pro', 'team'), "
    "CAST(rand() * 10 AS INT) + 1) AS tier",
    f"CASE WHEN rand() < {DELETE_FRACTION} THEN 'delete' "
    "WHEN rand() < 0.5 THEN 'insert' ELSE 'update' END AS _op",
    "value AS _seq",
    "timestamp AS _ts",
]


@dataclass(frozen=True)
class ChangeSettings:
    #: The keyspace of the throughput pipelines and of the oracle.
    keys: int
    #: The changes of the two batch reads, the second 100 times the first.
    as_of: tuple[int, int]
    #: How many times each oracle is timed; the median is reported.
    oracle_repetitions: int
    #: The real-time runs: their batches (long_batch_s, long_batches) and repetitions.
    latency: LatencySettings


FULL = ChangeSettings(keys=1_000_000, as_of=(10**6, 10**8), oracle_repetitions=3, latency=real_time.FULL)
SMOKE = ChangeSettings(keys=10_000, as_of=(10**4, 10**6), oracle_repetitions=1, latency=real_time.SMOKE)
#: The real-time runs' changes per second, as the random strings' low rate.
LATENCY_RATE = real_time.LOW_RATE


def pipelines(keys: int) -> dict[str, Callable[[SparkSession, int], DataFrame]]:
    """The section's pipelines over ``keys`` keys, each a function of the session and the batch size."""

    def ours(spark: SparkSession, rows: int) -> DataFrame:
        # A rate no batch can reach: maxRowsPerTrigger alone sets the batch size.
        return read_changes(
            spark,
            engine="jvm",
            schema=SCHEMA,
            fields=FIELDS,
            keys=keys,
            rows_per_second=10**12,
            max_rows_per_trigger=rows,
            **CHANGE_KEYWORDS,  # type: ignore[arg-type]
        )

    def typed_rows(
        schema: str, fields: dict[str, dict[str, object]]
    ) -> Callable[[SparkSession, int], DataFrame]:
        def read(spark: SparkSession, rows: int) -> DataFrame:
            return read_random_strings(
                spark,
                engine="jvm",
                schema=schema,
                fields={**fields, "id": {"min": 0, "max": keys - 1}},
                rows_per_second=10**12,
                max_rows_per_trigger=rows,
                seed=1,
            )

        return read

    def hand_written(spark: SparkSession, rows: int) -> DataFrame:
        rate = spark.readStream.format("rate-micro-batch").option("rowsPerBatch", rows).load()
        return rate.selectExpr(*[column.format(keys=keys) for column in SQL_COLUMNS])

    return {
        "changes ours": ours,
        "changes typed": typed_rows(SCHEMA, FIELDS),
        "changes envelope": typed_rows(f"{SCHEMA}, {ENVELOPE_SCHEMA}", {**FIELDS, **ENVELOPE_FIELDS}),
        "changes SQL": hand_written,
    }


DESCRIPTIONS = {
    "changes ours": "this source's change stream (flat envelope)",
    "changes typed": "this source's typed rows of the same schema",
    "changes envelope": "the same typed rows with the envelope's columns (no lifecycle)",
    "changes SQL": "hand-written change feed on rate-micro-batch (no lifecycle)",
}


def latency_runs(spark: SparkSession, settings: ChangeSettings) -> list[LatencyRun]:
    """The flat envelope's changes in real-time mode at LATENCY_RATE changes/s, one partition,
    in batches of ``latency.long_batch_s``: one run per repetition."""
    latency = settings.latency
    runs = []
    with real_time.min_batch_duration(spark, latency.long_batch_s):
        for repetition in range(latency.repetitions):
            changes = read_changes(
                spark,
                engine="jvm",
                schema=SCHEMA,
                fields=FIELDS,
                keys=settings.keys,
                real_time=True,
                rows_per_second=LATENCY_RATE,
                num_partitions=1,
                **CHANGE_KEYWORDS,  # type: ignore[arg-type]
            )
            run = real_time.measure_latency(
                spark, LATENCY_RATE, latency.long_batch_s, latency, latency.long_batches, df=changes
            )
            runs.append(run)
            print(
                f"changes real-time at {LATENCY_RATE:,}/s, repetition {repetition + 1}: "
                f"p50 {run.p50_ms:.1f} ms, "
                f"p99 {run.p99_ms:.1f} ms, p99.9 {run.p999_ms:.1f} ms, max {run.max_ms:.1f} ms, "
                f"{run.rows_per_s:,.0f} changes/s",
                flush=True,
            )
    return runs


@dataclass(frozen=True)
class OracleTimes:
    """The oracle's times, in seconds (medians), and the sizes they are of."""

    keys: int
    #: expected_table(end=as_of[1]) in Python, and how many rows the table has.
    expected_table_s: float
    table_rows: int
    #: The batch read asOf=n, each into the noop sink: n -> seconds.
    as_of_s: dict[int, float]


def oracle_times(spark: SparkSession, settings: ChangeSettings) -> OracleTimes:
    """Time ``expected_table`` and the batch read ``asOf`` at each of ``settings.as_of``."""
    keys, end = settings.keys, settings.as_of[1]
    python: list[float] = []
    rows = 0
    for _ in range(settings.oracle_repetitions):
        started = time.perf_counter()
        rows = expected_table(end=end, keys=keys, schema=SCHEMA, fields=FIELDS, **CHANGE_KEYWORDS).num_rows  # type: ignore[arg-type]
        python.append(time.perf_counter() - started)
    options = {
        "seed": "1",
        "keys": str(keys),
        "deleteFraction": str(DELETE_FRACTION),
        **{
            f"fields.{column}.{name}": str(value)
            for column, props in FIELDS.items()
            for name, value in props.items()
        },
    }
    as_of: dict[int, float] = {}
    for n in settings.as_of:
        seconds = []
        for _ in range(settings.oracle_repetitions + 1):  # the first run warms the JIT up
            table = spark.read.format("changes").schema(SCHEMA).options(**options, asOf=str(n)).load()
            started = time.perf_counter()
            table.write.format("noop").mode("overwrite").save()
            seconds.append(time.perf_counter() - started)
        as_of[n] = statistics.median(seconds[1:])
    return OracleTimes(keys, statistics.median(python), rows, as_of)
