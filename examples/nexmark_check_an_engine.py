"""Checking a Nexmark implementation with the oracle, as docs/nexmark.md's "Checking an
implementation" shows: an engine reads a bounded stream of the events, and each query's rows are
compared with what `nexmark_answers` computes for the same events, row for row.

    python examples/nexmark_check_an_engine.py

The engine here is Spark running this package's q5 (in append mode) and q18 (in update mode,
its upserts applied to a table as they come); yours would be Flink, Beam or your own code, reading
the same events (this package's source, or Beam's generator with the same options). Prints one
JSON object: for each query, how many rows the engine left and whether they are the oracle's.
tests/test_nexmark_queries.py runs it.
"""

from __future__ import annotations

import json
import tempfile
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from spark_random_strings import (
    configure_spark_with_random_strings,
    nexmark_answers,
    nexmark_events,
    nexmark_queries,
    read_nexmark,
)

#: Twenty seconds of events at 1,000 a second.
OPTIONS: dict[str, Any] = {
    "num_events": 20_000,
    "first_event_rate": 1_000,
    "next_event_rate": 1_000,
}


def epoch_millis(df: DataFrame) -> DataFrame:
    """The engine's rows with their times as epoch milliseconds, as the oracle gives times."""
    return df.select(
        *(
            F.unix_millis(name).alias(name) if kind == "timestamp" else name
            for name, kind in df.dtypes
        )
    )


def engine_rows(spark: SparkSession, checkpoints: str) -> dict[str, list[tuple[Any, ...]]]:
    """What the engine (Spark, here) leaves for q5 and q18: q5's rows as written, q18's table
    after its upserts, keyed by (bidder, auction)."""
    events = read_nexmark(spark, **OPTIONS)
    q5 = (
        epoch_millis(nexmark_queries.q5(events))
        .writeStream.format("memory")
        .queryName("q5")
        .trigger(availableNow=True)
        .option("checkpointLocation", f"{checkpoints}/q5")
        .start()
    )
    latest: dict[tuple[Any, Any], tuple[Any, ...]] = {}

    def upsert(batch: DataFrame, batch_id: int) -> None:
        for row in batch.collect():
            latest[row["bidder"], row["auction"]] = tuple(row)

    q18 = (
        epoch_millis(nexmark_queries.q18(events))
        .writeStream.outputMode("update")
        .foreachBatch(upsert)
        .trigger(availableNow=True)
        .option("checkpointLocation", f"{checkpoints}/q18")
        .start()
    )
    q5.awaitTermination()
    q18.awaitTermination()
    return {
        "q5": [tuple(row) for row in spark.table("q5").collect()],
        "q18": list(latest.values()),
    }


def check(rows: dict[str, list[tuple[Any, ...]]]) -> dict[str, dict[str, Any]]:
    """Each query's rows against the oracle's, for the same events."""
    events = nexmark_events(**OPTIONS)
    expected = nexmark_answers(events, ["q5"])
    # q18 writes upserts: its answer is the table they leave, in however many batches.
    expected |= nexmark_answers(events, ["q18"], output_mode="update")
    return {
        name: {"rows": len(rows[name]), "equal": sorted(rows[name]) == sorted(expected[name])}
        for name in expected
    }


def main() -> None:
    builder = (
        SparkSession.builder.master("local[2]")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.ui.showConsoleProgress", "false")
    )
    spark = configure_spark_with_random_strings(builder).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    with tempfile.TemporaryDirectory() as checkpoints:
        print(json.dumps(check(engine_rows(spark, checkpoints)), sort_keys=True))
    spark.stop()


if __name__ == "__main__":
    main()
