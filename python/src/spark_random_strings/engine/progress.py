"""Where a running query of the source stands, read from Spark's progress reports.

A progress report is read by key (``progress["sources"][0]["endOffset"]``): pyspark 3.5 gives
plain dicts parsed from the report's JSON, and pyspark 4 gives ``StreamingQueryProgress``
objects, which are dicts with the same keys. Only offsets differ: a number in 3.5's dicts, its
JSON text in 4's objects.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyspark.sql.streaming.query import StreamingQuery

#: One query progress report, on any pyspark.
ProgressReport = Mapping[str, Any]


@dataclass(frozen=True)
class StreamPosition:
    """The source's position after one batch, in rows from the start of the stream."""

    batch_id: int
    #: Rows read before this batch (its start offset + 1).
    rows_before: int
    #: Rows read through this batch (its end offset + 1): the stream's position.
    rows_read: int
    #: Rows that exist but were not read yet (the source's ``rowsBehind`` metric).
    rows_behind: int


def _rows_through(offset: Any) -> int | None:
    """Rows up to and including an offset of the source; ``None`` when there is no offset yet.
    The jar source's offset is the last row's offset, as a number or as its JSON text; the
    Python data source's is ``{"offset": rows read, "stream": ...}``, as a dict or its JSON."""
    parsed = offset
    if offset is not None and not isinstance(offset, Mapping):
        text = str(offset).strip()
        if text.isdigit():
            return int(text) + 1
        try:
            parsed = json.loads(text)
        except ValueError:
            return None
    rows = parsed.get("offset") if isinstance(parsed, Mapping) else None
    return rows if isinstance(rows, int) and not isinstance(rows, bool) else None


def position_of(progress: ProgressReport | None) -> StreamPosition | None:
    """The position that a progress report gives; ``None`` before the first row was read."""
    if progress is None or not progress["sources"]:
        return None
    source = progress["sources"][0]
    rows_read = _rows_through(source["endOffset"])
    if rows_read is None:
        return None
    return StreamPosition(
        batch_id=int(progress["batchId"]),
        rows_before=_rows_through(source["startOffset"]) or 0,
        rows_read=rows_read,
        rows_behind=int((source["metrics"] or {}).get("rowsBehind", "0")),
    )


def current_position(query: StreamingQuery) -> StreamPosition | None:
    """The query's position after its latest batch."""
    return position_of(query.lastProgress)


def first_position(query: StreamingQuery) -> StreamPosition | None:
    """The query's position after its first batch in this run, while Spark still keeps it."""
    for progress in query.recentProgress:
        found = position_of(progress)
        if found is not None:
            return found
    return None
