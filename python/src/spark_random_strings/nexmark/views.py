"""Flink's three Nexmark views of the ``nexmark`` stream, with Nexmark's watermark."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from pyspark.sql import Column, DataFrame

#: How far Nexmark's watermark trails the event time: Flink's ``dateTime - INTERVAL '4' SECOND``.
WATERMARK_DELAY = "4 seconds"


class NexmarkViews(NamedTuple):
    """The three views of Flink's ``ddl_views.sql``, each with Nexmark's watermark on ``dateTime``."""

    person: DataFrame
    auction: DataFrame
    bid: DataFrame


def nexmark_views(events: DataFrame) -> NexmarkViews:
    """Split the ``nexmark`` stream into Flink's ``person``, ``auction`` and ``bid`` views.

    Each view is its struct's columns, in its order, with the table's ``dateTime`` (the event's
    time) in the struct's own and a watermark 4 s behind it (Flink's ``WATERMARK FOR dateTime AS
    dateTime - INTERVAL '4' SECOND``).
    """
    from pyspark.sql import functions as f
    from pyspark.sql.types import StructType

    def view(event_type: int, struct: str) -> DataFrame:
        kind = events.schema[struct].dataType
        assert isinstance(kind, StructType), f"{struct} is a struct of the nexmark source's schema"
        # Flink's views take the table's dateTime (the watermarked column) where the struct has its own.
        columns = [
            f.col("dateTime") if name == "dateTime" else f.col(f"{struct}.{name}").alias(name)
            for name in kind.fieldNames()
        ]
        selected = events.where(f.col("event_type") == event_type).select(*columns)
        return selected.withWatermark("dateTime", WATERMARK_DELAY)

    return NexmarkViews(view(0, "person"), view(1, "auction"), view(2, "bid"))


def latest_event(latest: bool) -> list[Column]:
    """The aggregation of ``dateTime`` that a query's ``latest=True`` adds: the newest event's time."""
    from pyspark.sql import functions as f

    return [f.max("dateTime").alias("dateTime")] if latest else []


def latest_column(latest: bool) -> list[str]:
    """The column that ``latest_event`` adds, to select after the query's own."""
    return ["dateTime"] if latest else []
