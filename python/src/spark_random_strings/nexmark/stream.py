"""One Nexmark stream of the Python data source (the JVM's ``NexmarkStream`` and
``NexmarkStore``): which events and when it first started, when each event comes to exist, the
JSON the jar's source keeps in ``nexmark-source.json`` (which every offset of the Python source
holds), the restart check, and a partition's events as Arrow record batches of Flink's Nexmark
table, made by the generator's Python twin. Nothing here needs pyspark's Python data sources, so
it loads on every Spark line; ``nexmark.reader`` plans the batches.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
from pyspark.sql.pandas.types import from_arrow_schema
from pyspark.sql.types import StructType

from spark_random_strings.nexmark.config import NexmarkConfig
from spark_random_strings.nexmark.generator import nexmark_events
from spark_random_strings.nexmark.options import EVENT_NAMES, config_settings, parse_nexmark_options
from spark_random_strings.nexmark.timeline import nexmark_timeline
from spark_random_strings.offsets.corrupt import CorruptDefinitionError, corrupt
from spark_random_strings.offsets.kept_settings import refuse_changed

#: The checkpoint file's layout, as the jar's source writes it.
STORE_VERSION = 1
#: How many events an endless stream may reach: 2^50, as the jar's source caps it.
ENDLESS_CAP = 1 << 50
#: Events per Arrow record batch.
BATCH_EVENTS = 4096

_TIME = pa.timestamp("us", tz="UTC")


def _fields(*named: tuple[str, pa.DataType]) -> list[pa.Field]:
    return [pa.field(name, kind, nullable=False) for name, kind in named]


PERSON_FIELDS = _fields(
    ("id", pa.int64()), ("name", pa.string()), ("emailAddress", pa.string()), ("creditCard", pa.string()),
    ("city", pa.string()), ("state", pa.string()), ("dateTime", _TIME), ("extra", pa.string()),
)  # fmt: skip
AUCTION_FIELDS = _fields(
    ("id", pa.int64()), ("itemName", pa.string()), ("description", pa.string()), ("initialBid", pa.int64()),
    ("reserve", pa.int64()), ("dateTime", _TIME), ("expires", _TIME), ("seller", pa.int64()),
    ("category", pa.int64()), ("extra", pa.string()),
)  # fmt: skip
BID_FIELDS = _fields(
    ("auction", pa.int64()), ("bidder", pa.int64()), ("price", pa.int64()), ("channel", pa.string()),
    ("url", pa.string()), ("dateTime", _TIME), ("extra", pa.string()),
)  # fmt: skip
#: Flink's Nexmark table (``NEXMARK_DDL``) in Arrow: the structs nullable, nothing else.
NEXMARK_ARROW_SCHEMA = pa.schema(
    [
        pa.field("event_type", pa.int32(), nullable=False),
        pa.field("person", pa.struct(PERSON_FIELDS)),
        pa.field("auction", pa.struct(AUCTION_FIELDS)),
        pa.field("bid", pa.struct(BID_FIELDS)),
        pa.field("dateTime", _TIME, nullable=False),
    ]
)
_STRUCTS = (("person", PERSON_FIELDS), ("auction", AUCTION_FIELDS), ("bid", BID_FIELDS))
#: What a null struct's fields hold (Arrow keeps a value under every null).
_FILLER: dict[pa.DataType, object] = {pa.int64(): 0, pa.string(): "", _TIME: 0}


def nexmark_schema() -> StructType:
    """The source's schema, as Spark types it (the jar's ``Nexmark.Schema``)."""
    return from_arrow_schema(NEXMARK_ARROW_SCHEMA)


def event_batches(config: NexmarkConfig, start: int, end: int) -> Iterator[pa.RecordBatch]:
    """Events ``[start, end)`` of ``config`` as record batches of :data:`NEXMARK_ARROW_SCHEMA`,
    at most :data:`BATCH_EVENTS` each; times in µs, as Spark's ``TIMESTAMP`` holds them."""
    for first in range(start, end, BATCH_EVENTS):
        events = list(nexmark_events(config, first, min(end, first + BATCH_EVENTS)))
        columns: list[pa.Array] = [pa.array([e.event_type for e in events], pa.int32())]
        for struct, fields in _STRUCTS:
            present = [getattr(e, struct) for e in events]
            children = []
            for field in fields:
                scale = 1000 if field.type == _TIME else 1
                filler = _FILLER[field.type]
                values = [
                    filler if p is None else p[field.name] * scale if scale > 1 else p[field.name]
                    for p in present
                ]
                children.append(pa.array(values, field.type))
            mask = pa.array([p is None for p in present])
            columns.append(pa.StructArray.from_arrays(children, fields=fields, mask=mask))
        columns.append(pa.array([e.date_time_ms * 1000 for e in events], _TIME))
        yield pa.RecordBatch.from_arrays(columns, schema=NEXMARK_ARROW_SCHEMA)


@dataclass(frozen=True)
class NexmarkStream:
    """One Nexmark stream as a checkpoint fixes it (the JVM's ``NexmarkStream``): which events,
    and when it first started. Event ``n`` comes to exist ``timestamp(n) - timestamp(0)`` after it."""

    #: Which events (its ``num_events`` at the default: how many is the query's, not the stream's).
    config: NexmarkConfig
    start_time_ms: int

    def events_available_at(self, now_ms: int) -> int:
        """How many events exist at wall-clock ``now_ms``: those whose timestamps have come
        (``NexmarkTimeline.eventsWithin``), at most :data:`ENDLESS_CAP`."""
        timeline = nexmark_timeline(self.config)
        elapsed = now_ms - self.start_time_ms
        if elapsed < 0:
            return 0

        def exists(number: int) -> bool:
            return timeline.timestamp_ms(number) - timeline.base_time_ms <= elapsed

        high = 1
        while high < ENDLESS_CAP and exists(high):
            high = min(ENDLESS_CAP, high * 2)
        if high >= ENDLESS_CAP and exists(ENDLESS_CAP - 1):
            return ENDLESS_CAP
        low = 0  # event 0 exists
        while high - low > 1:
            mid = (low + high) // 2
            low, high = (mid, high) if exists(mid) else (low, mid)
        return low + 1


def stream_to_json(stream: NexmarkStream) -> dict[str, Any]:
    """The stream as the jar's source writes ``nexmark-source.json``."""
    return {
        "version": STORE_VERSION,
        "startTimeMs": stream.start_time_ms,
        "config": dict(config_settings(stream.config)),
    }


def stream_from_json(stored: object, where: str) -> NexmarkStream:
    """The stream in ``stored``, read as the jar's source reads ``nexmark-source.json``.

    Raises:
        CorruptDefinitionError: ``stored`` is not such a stream, or its configuration is invalid.
    """

    def bad(why: str) -> CorruptDefinitionError:
        return corrupt(where, why)

    if not isinstance(stored, dict):
        raise bad("not a JSON object")
    version = stored.get("version")
    if version != STORE_VERSION or isinstance(version, bool):
        shown = version if "version" in stored else "missing"
        raise bad(f"its version is {shown}, and this source reads {STORE_VERSION}")
    start = stored.get("startTimeMs")
    if not isinstance(start, int) or isinstance(start, bool):
        raise bad("'startTimeMs' is missing")
    config = stored.get("config")
    if not isinstance(config, dict):
        raise bad("'config' is missing")
    missing = [name for name in EVENT_NAMES if name not in config]
    if missing:
        raise bad(f"'config' has no {', '.join(missing)}")
    try:
        parsed = parse_nexmark_options({name: str(config[name]) for name in EVENT_NAMES}).config
    except ValueError as error:
        raise bad(f"'config' is invalid: {error}") from None
    return NexmarkStream(parsed, start)


def check_restart(stored: NexmarkStream, requested: NexmarkConfig, location: str) -> None:
    """Refuse a restart whose options change which events the stream makes (the jar's
    ``NexmarkStore.checkRestart``, with its message).

    Raises:
        ValueError: naming each option, the stored value and the value given.
    """
    refuse_changed(
        config_settings(stored.config),
        config_settings(requested),
        stream="Nexmark stream",
        makes="which events the stream makes",
        names=EVENT_NAMES,
        location=location,
    )
