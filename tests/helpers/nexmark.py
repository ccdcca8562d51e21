"""The Nexmark tests' shared pieces: the configuration most of them run, the twin's events of a
stream, and Spark's rows with the oracle's times."""

from __future__ import annotations

from pyspark.sql import DataFrame
from pyspark.sql import functions as f
from pyspark.sql.types import TimestampType

from spark_random_strings.nexmark import NEXMARK_OPTIONS, NexmarkKeywords
from spark_random_strings.nexmark.config import NexmarkConfig
from spark_random_strings.nexmark.generator import NexmarkEvent, nexmark_events

#: Half a minute of event time at 1000 events a second, with small extras to keep it fast.
HALF_MINUTE_EVENTS = 30_000
HALF_MINUTE: NexmarkKeywords = {
    "num_events": HALF_MINUTE_EVENTS,
    "first_event_rate": 1000,
    "next_event_rate": 1000,
    "avg_person_byte_size": 40,
    "avg_auction_byte_size": 60,
    "avg_bid_byte_size": 40,
    "num_partitions": 2,
}


def twin_events(options: NexmarkKeywords) -> list[NexmarkEvent]:
    """The twin's events of the stream that ``read_nexmark(**options)`` reads."""
    beam = {row.name: options[row.keyword] for row in NEXMARK_OPTIONS.rows if row.keyword in options}  # type: ignore[literal-required]
    for how_spark_reads in ("numPartitions", "maxEventsPerTrigger"):  # not what the events are
        beam.pop(how_spark_reads, None)
    config = NexmarkConfig.from_beam_options(beam)
    return list(nexmark_events(config, 0, config.num_events))


def millis(df: DataFrame) -> DataFrame:
    """``df`` with each timestamp column as epoch milliseconds, the oracle's times."""
    return df.select(
        *(
            f.unix_millis(f.col(field.name)).alias(field.name)
            if isinstance(field.dataType, TimestampType)
            else f.col(field.name)
            for field in df.schema.fields
        )
    )
