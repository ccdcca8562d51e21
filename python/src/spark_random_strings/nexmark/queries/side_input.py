"""Nexmark's q13 and its side input: a small table that the bids are joined to, as Flink's
benchmark makes it, here made by Spark instead of read from a file."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spark_random_strings.nexmark.views import nexmark_views

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

#: The rows of Flink's side input: ``bin/side_input_gen.sh`` runs its ``SideInputGenerator`` with
#: ``--num 10000``.
SIDE_INPUT_ROWS = 10_000


def nexmark_side_input(spark: SparkSession, rows: int = SIDE_INPUT_ROWS) -> DataFrame:
    """The side input of q13: ``key`` from 0 to ``rows - 1``, each with its ``value``, the key's
    decimal digits.

    Flink's benchmark writes it as a file (``data/side_input.txt``, by its ``SideInputGenerator``):
    the line ``i,i`` for each ``i`` from 0 to 9,999, read as a CSV table of a ``key BIGINT`` and a
    ``value VARCHAR``. This is that table, made by Spark; to give Flink the same file, write it as
    CSV without a header.

    Examples:
        >>> nexmark_side_input(spark).orderBy("key").limit(3).collect()  # doctest: +SKIP
        [Row(key=0, value='0'), Row(key=1, value='1'), Row(key=2, value='2')]

    Raises:
        ValueError: ``rows`` is not a whole number of at least 1.
    """
    from pyspark.sql import functions as f

    if isinstance(rows, bool) or not isinstance(rows, int) or rows < 1:
        raise ValueError(
            f"nexmark_side_input: rows is {rows!r}; give a whole number of at least 1 (Flink's: 10000)."
        )
    return spark.range(rows).select(f.col("id").alias("key"), f.col("id").cast("string").alias("value"))


def q13(events: DataFrame, side_input: DataFrame | None = None) -> DataFrame:
    """Bounded side input join: every bid with the side input's ``value`` for the key
    ``auction mod 10000`` (Flink's q13), a stream-static inner join.

    Flink joins ``FOR SYSTEM_TIME AS OF`` each bid's processing time, a lookup of the table as it
    is then; the side input never changes, so every bid finds the same row in any engine, and the
    answer is exact. Spark reads the static side (``nexmark_side_input`` by default, else the
    table given, such as Flink's file read as CSV) once per batch. A bid whose key the table lacks
    is left out, as Flink's inner join leaves it.

    Columns: ``auction``, ``bidder``, ``price``, ``dateTime``, ``value``.
    """
    from pyspark.sql import functions as f

    table = side_input if side_input is not None else nexmark_side_input(events.sparkSession)
    bid = nexmark_views(events).bid
    joined = bid.join(table.alias("S"), (f.col("auction") % SIDE_INPUT_ROWS) == f.col("S.key"))
    return joined.select("auction", "bidder", "price", "dateTime", f.col("S.value").alias("value"))
