"""The Nexmark queries' exact answers, for any engine's run: the events of a bounded ``nexmark``
stream (``nexmark_events``) and what each query writes for them (``nexmark_answers``), computed in
plain Python by the generator's twin and ``nexmark.answers``.

A Nexmark implementation on Spark, Flink or anything else that reads the same events (this
package's source, or Beam's generator with the same options) can be checked against the answers
row for row. The events can also come back from the engine as rows of Flink's Nexmark table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, Unpack

from spark_random_strings.nexmark.answer_basics import Answer
from spark_random_strings.nexmark.answers import ANSWERS, UPDATE_ANSWERS
from spark_random_strings.nexmark.generator import AUCTION, BID, PERSON, NexmarkEvent
from spark_random_strings.nexmark.generator import nexmark_events as _numbered_events
from spark_random_strings.nexmark.options import parse_nexmark_options
from spark_random_strings.nexmark.table import NEXMARK_OPTIONS, NexmarkKeywords

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_STRUCTS = {PERSON: "person", AUCTION: "auction", BID: "bid"}
#: The fields of the structs that are times (epoch ms in the answers).
_TIMES = ("dateTime", "expires")


def nexmark_events(**options: Unpack[NexmarkKeywords]) -> list[NexmarkEvent]:
    """The events of the bounded ``nexmark`` stream that ``read_nexmark(spark, **options)`` reads,
    numbered 0 to ``num_events - 1``, as Apache Beam's generator makes them.

    Examples:
        >>> events = nexmark_events(num_events=3)
        >>> [(e.event_type, e.date_time_ms) for e in events]
        [(0, 1436918400000), (1, 1436918400000), (1, 1436918400000)]

    Args:
        **options: the ``read_nexmark`` keywords that say which events the stream makes
            ([`NexmarkKeywords`][spark_random_strings.nexmark.NexmarkKeywords]), with the
            source's defaults: ``num_events`` 100,000 unless given, and not 0 (an endless
            stream). Those of how Spark reads them (``num_partitions``,
            ``max_events_per_trigger``, ``real_time``) change no event.

    Raises:
        TypeError: a keyword is unknown or has the wrong Python type.
        ValueError: ``num_events`` is 0 (an endless stream), or a value is out of range: the
            ``nexmark`` source's message, with the keyword's name.
    """
    given = NEXMARK_OPTIONS.options(options, "nexmark_events")
    try:
        parsed = parse_nexmark_options(given)
    except ValueError as error:
        raise ValueError(NEXMARK_OPTIONS.renamed(str(error), lambda row: row.keyword)) from None
    if parsed.num_events is None:
        raise ValueError(
            "nexmark_events: num_events is 0, an endless stream; give the bounded stream's length, "
            "as read_nexmark reads it (default: 100000)."
        )
    return list(_numbered_events(parsed.config, 0, parsed.num_events))


def nexmark_answers(
    events: Iterable[object],
    queries: Sequence[str] | None = None,
    *,
    output_mode: Literal["append", "update"] = "append",
) -> dict[str, Answer]:
    """The rows each Nexmark query writes when it reads ``events`` to their end, exactly.

    The answer is what the query writes for a bounded stream read to its end (Spark's
    ``Trigger.AvailableNow``, in append mode): the events in one batch, then a batch without
    data whose watermark is the final one, the least over the views the query reads of the
    view's latest event time less 4 s. A window is written when its end is at or before that
    watermark; q4's and q9's auctions when their expiry is before it. q18 and q19 write upserts
    (update mode): their answer is the table the upserts leave. ``docs/nexmark.md`` gives each
    query's columns and how Spark runs it.

    With ``output_mode="update"``, the answer is the table that a run's upserts leave, in any
    number of batches, as an engine that updates its rows (Flink's retractions) ends with them:
    for q5_counts every window's final count and for q15 to q17 every day's final row, closed or
    not; the stateless queries, q18 and q19 as in append mode.

    Examples:
        >>> events = nexmark_events(num_events=1000)
        >>> answers = nexmark_answers(events, ["q0", "q5"])
        >>> len(answers["q0"]), answers["q0"][0][:4]
        (920, (1000, 1001, 32530001, 1436918400000))

    Args:
        events: the stream's events in order of their number: ``nexmark_events``'s, or rows of
            Flink's Nexmark table as any engine gives them back (``event_type``, the ``person``,
            ``auction`` and ``bid`` structs, ``dateTime``), as pyspark ``Row``s or mappings, with
            times as ``datetime`` or epoch milliseconds.
        queries: the queries to answer, by name (``spark_random_strings.nexmark_queries``'s
            ``QUERY_NAMES`` but q12, which counts by the wall clock, and ``"q4"`` for q4's
            averages); None for all of those the output mode answers.
        output_mode: ``"append"``, or ``"update"`` for the table of a run in update mode (the
            stateless queries, q5_counts and q15 to q19).

    Returns:
        Each query's rows, as tuples of its columns in their order, in no particular order of rows:
        times as epoch milliseconds, prices in euros as ``Decimal``.

    Raises:
        ValueError: a query that has no answer here (in that output mode), an output mode other
            than those two, or an event that is not one of the table.

    The answers are computed in plain Python, one event at a time, on one core: what that costs
    is in the Nexmark guide (docs/nexmark.md, "Checking an implementation").
    """
    answers = {"append": ANSWERS, "update": UPDATE_ANSWERS}.get(output_mode)
    if answers is None:
        raise ValueError(f"nexmark_answers: output_mode is {output_mode!r}; give 'append' or 'update'.")
    names = list(answers) if queries is None else list(queries)
    unknown = [name for name in names if name not in answers]
    if unknown:
        raise ValueError(
            f"nexmark_answers: no answer for {', '.join(map(repr, unknown))} in {output_mode} mode; the "
            f"queries answered: {', '.join(answers)}."
        )
    table = [event if isinstance(event, NexmarkEvent) else _event_of_row(event) for event in events]
    return {name: answers[name](table) for name in names}


def _event_of_row(row: object) -> NexmarkEvent:
    """An event from a row of Flink's Nexmark table, its times in epoch ms."""
    fields = _mapping(row)
    try:
        kind = int(fields["event_type"])
        struct = _mapping(fields[_STRUCTS[kind]])
        time_ms = _millis(fields["dateTime"])
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(
            f"nexmark_answers: {row!r} is not a row of Flink's Nexmark table ({error})"
        ) from None
    values = {name: _millis(value) if name in _TIMES else value for name, value in struct.items()}
    return NexmarkEvent(kind, time_ms, time_ms, **{_STRUCTS[kind]: values})


def _mapping(value: object) -> Mapping[str, Any]:
    if isinstance(value, Mapping):
        return value
    as_dict = getattr(value, "asDict", None)  # a pyspark Row
    if as_dict is None:
        raise TypeError(f"{type(value).__name__} is neither a mapping nor a Row")
    return as_dict()  # type: ignore[no-any-return]


def _millis(value: object) -> int:
    """A time as epoch ms: a ``datetime`` (naive ones in the local time zone, as pyspark gives
    them) or a whole number of ms already."""
    if isinstance(value, datetime):
        aware = value if value.tzinfo is not None else value.astimezone()
        return (aware - _EPOCH) // timedelta(milliseconds=1)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise TypeError(f"the time {value!r} is neither a datetime nor epoch milliseconds")
