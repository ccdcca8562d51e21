"""The Delta Lake recipes of ``examples/changes_merge_into_delta.py``, run as a process of their own
(a session with Delta's extension and catalog, which the tests' shared session has not):
``python delta_recipes_child.py FOLDER``.

After every batch it reads back both Delta tables and prints, as the last line, one JSON object:
each batch's number of changes applied and the two tables' rows then, sorted, each cell as JSON
can hold it (a decimal as its text, a timestamp as epoch microseconds).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pyspark.sql import SparkSession

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from helpers.support import example_module


def _rows(spark: SparkSession, path: str, order: str) -> list[list[Any]]:
    df = spark.read.format("delta").load(path)
    cells = [
        f"CAST({f.name} AS STRING)"
        if f.dataType.typeName() == "decimal"
        else f"unix_micros({f.name})"
        if f.dataType.typeName() == "timestamp"
        else f.name
        for f in df.schema.fields
    ]
    return [list(row) for row in df.selectExpr(*cells).orderBy(*order.split(", ")).collect()]


def main(folder: str) -> None:
    example = example_module("changes_merge_into_delta")
    builder = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        # Delta reads its log in 50 tasks by default: the tables here are small.
        .config("spark.databricks.delta.snapshotPartitions", "2")
    )
    spark = example.delta_session(builder)
    batches: list[dict[str, Any]] = []

    def after_batch(end: int) -> None:
        batches.append(
            {
                "end": end,
                "table": _rows(spark, f"{folder}/table", "id"),
                "history": _rows(spark, f"{folder}/history", "id, valid_from_seq"),
            }
        )

    example.apply_changes(spark, f"{folder}/checkpoint", f"{folder}/table", f"{folder}/history", after_batch)
    print(json.dumps({"batches": batches}))
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1])
