"""The rows a stream holds, computed in Python: for asserts, notebooks and checking a sink."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Required, TypedDict, Unpack, cast

from spark_random_strings.offsets.corrupt import CorruptDefinitionError
from spark_random_strings.offsets.definition_store import DEFINITION_FILE, python_stream, read_definition
from spark_random_strings.options import FORMAT, source_options
from spark_random_strings.options.table import SOURCES
from spark_random_strings.rows.definition import StreamDefinition
from spark_random_strings.rows.options import parse_options
from spark_random_strings.typed.fields.options import flattened, shown, split

if TYPE_CHECKING:
    import pyarrow as pa

#: Keywords of ``read_random_strings`` that change no row (the table's ``shapes``): ``expected_rows``
#: refuses them.
NOT_ROW_SHAPING: tuple[str, ...] = SOURCES[FORMAT].delivery


class StreamDefinitionKeywords(TypedDict, total=False):
    """A stream's definition as the keywords of
    [`expected_rows`][spark_random_strings.expected_rows], and what
    [`stream_definition`][spark_random_strings.stream_definition] returns: the seed, the start
    time, and the options that shape rows under their ``read_random_strings`` keywords
    ([`SourceKeywords`][spark_random_strings.options.SourceKeywords] says what each does).
    ``stream_definition`` leaves out the options at their defaults."""

    seed: Required[int]
    start_time_ms: int
    rows_per_second: int
    min_length: int
    max_length: int
    charset: str
    alphabet: str
    distinct_values: int
    value_distribution: str
    zipf_exponent: float
    max_out_of_order_ms: int
    late_row_fraction: float
    late_by_ms: int
    duplicate_fraction: float
    max_duplicate_distance: int
    timestamp_column: bool
    start_timestamp: int
    rate_profile: str
    #: Typed columns: the declared schema (DDL) and how each column is made (``read_random_strings``'s).
    schema: str
    fields: Mapping[str, Mapping[str, object]]


def expected_rows(*, start: int, end: int, **definition: Unpack[StreamDefinitionKeywords]) -> pa.Table:
    """The rows at offsets ``[start, end)`` of the stream that ``seed``, ``start_time_ms`` and the
    options define, computed here, without Spark: the same values, event times, offsets and
    lengths that the ``InMemoryRandomStrings`` source makes for that stream.

    A row is a pure function of (seed, offset) and of the stream's definition, so a test can
    assert exact results: give the seed the query read with and, unless the stream fixed its
    event times with ``start_timestamp``, the time it first started (``ts`` of row 0), which
    [`stream_definition`][spark_random_strings.stream_definition] reads from the query's
    checkpoint with the rest of the definition.

    Examples:
        >>> rows = expected_rows(seed=42, start=0, end=3, max_length=8, charset="hex")
        >>> rows.to_pylist()  # doctest: +ELLIPSIS
        [{'value': '9', 'ts': 0, 'offset': 0, 'length': 1}, {'value': '5ad', 'ts': 100, ...}, ...]

        Typed columns, with the schema and fields the query reads with:

        >>> expected_rows(
        ...     seed=42, start=0, end=3,
        ...     schema="id BIGINT NOT NULL, user_id INT NOT NULL, status STRING",
        ...     fields={"id": {"kind": "offset"},
        ...             "user_id": {"min": 1, "max": 100, "distribution": "zipf"},
        ...             "status": {"values": ["new", "paid"], "nullRate": 0.5}},
        ... ).to_pylist()
        [{'id': 0, 'user_id': 68, 'status': None}, {'id': 1, 'user_id': 1, 'status': 'paid'},
         {'id': 2, 'user_id': 1, 'status': None}]

    Args:
        start: the first offset, >= 0.
        end: the offset after the last one, >= start.
        **definition: ``seed`` (required: the stream's seed, a 64-bit integer),
            ``start_time_ms`` (when the stream first started, in epoch milliseconds: row 0's
            ``ts`` unless ``start_timestamp`` is given; default 0) and the options that shape
            rows, under their ``read_random_strings`` keywords: ``rows_per_second`` or
            ``rate_profile`` (they space the event times), ``min_length``, ``max_length``,
            ``charset``, ``alphabet``, ``distinct_values`` to ``max_duplicate_distance``,
            ``timestamp_column`` and ``start_timestamp``
            ([`StreamDefinitionKeywords`][spark_random_strings.StreamDefinitionKeywords]); and for
            typed columns ``schema`` and ``fields``, as ``read_random_strings`` takes them
            (docs/typed-columns.md).

    Returns:
        A ``pyarrow.Table`` of ``end - start`` rows in offset order, with the source's columns:
        ``value`` (string), ``ts`` (int64), ``offset`` (int64) and ``length`` (int32), and with
        ``timestamp_column``, ``timestamp`` (timestamp[us, UTC]); none nullable. With ``schema``,
        the declared columns, nullable as declared, in the Arrow types of their Spark types
        (DECIMAL as decimal128, DATE as date32, TIMESTAMP as timestamp[us, UTC], TIMESTAMP_NTZ
        as timestamp[us], ARRAY as a list, STRUCT as a struct).

    Raises:
        TypeError: ``seed`` is missing, or a keyword is unknown, changes no row (``num_partitions``,
            ``max_rows_per_trigger``, ``total_rows``, ``real_time``), or has the wrong type.
        ValueError: a value is out of range or options do not fit together; the message is the
            source's own, naming the option, the value and what is allowed.
    """
    from spark_random_strings.rows.generator import expected_table

    options: dict[str, object] = dict(definition)
    if "seed" not in options:
        raise TypeError(
            "expected_rows() missing the keyword 'seed': the seed of the stream, as the query read it"
        )
    seed, start_time_ms = options.pop("seed"), options.pop("start_time_ms", 0)
    schema, fields = options.pop("schema", None), options.pop("fields", None)
    return expected_table(_definition(seed, start, end, start_time_ms, options, schema, fields), start, end)


def _definition(
    seed: object,
    start: object,
    end: object,
    start_time_ms: object,
    options: dict[str, object],
    schema: object = None,
    fields: object = None,
) -> StreamDefinition:
    for name, value in (("seed", seed), ("start", start), ("end", end), ("start_time_ms", start_time_ms)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"expected_rows: {name} must be int, got {type(value).__name__} {value!r}")
    for keyword in NOT_ROW_SHAPING:
        if keyword in options:
            raise TypeError(
                f"expected_rows() got the keyword {keyword!r}, which changes no row: the rows at "
                "[start, end) are the same whatever it is. Leave it out."
            )
    assert isinstance(seed, int) and isinstance(start, int) and isinstance(end, int)
    assert isinstance(start_time_ms, int)
    if start < 0 or end < start:
        raise ValueError(
            f"expected_rows: offsets [start, end) = [{start}, {end}) must have 0 <= start <= end."
        )
    if not -(2**63) <= seed < 2**63 or not -(2**63) <= start_time_ms < 2**63 or end >= 2**63:
        raise ValueError("expected_rows: seed, start_time_ms and end must fit a 64-bit signed integer.")
    given = source_options(options, caller="expected_rows")
    if fields is not None:
        given.update(flattened(cast("Mapping[str, Mapping[str, object]]", fields)))
    return parse_options(given, schema).definition(seed, start_time_ms)


def stream_definition(
    checkpoint_location: str | os.PathLike[str], source: int | None = None
) -> StreamDefinitionKeywords:
    """The definition of the stream a query read, from its checkpoint: its seed, its start time
    and the options that shape its rows, as keywords of
    [`expected_rows`][spark_random_strings.expected_rows].

    Examples:
        >>> definition = stream_definition("/tmp/checkpoints/q1")  # doctest: +SKIP
        >>> expected_rows(**definition, start=0, end=100)  # doctest: +SKIP

    Args:
        checkpoint_location: the query's ``checkpointLocation``: a local folder (or ``file:``
            URI) where the query has started at least once.
        source: which of the query's sources, by the number Spark gives it (the folder
            ``sources/<n>`` in the checkpoint); needed only when it read more than one
            ``InMemoryRandomStrings`` stream.

    Returns:
        ``seed``, ``start_time_ms`` and each option of the stream that is not at its default;
        for typed columns, ``schema`` (as Spark's ``toDDL`` writes it) and ``fields`` (column
        path to its properties, each value as the option's text).

    Raises:
        FileNotFoundError: the checkpoint holds no such stream's definition.
        ValueError: the query read several streams and ``source`` says none of them; or the
            stored definition is corrupt (the message says how).
    """
    folder = Path(str(os.fspath(checkpoint_location)).removeprefix("file:"))
    if "://" in str(folder):
        raise ValueError(
            f"stream_definition reads local checkpoints only, not {checkpoint_location}: copy its "
            f"sources/<n>/{DEFINITION_FILE} (or, for the Python data source, its offsets folder) "
            "to a local folder of the same layout."
        )
    try:
        streams = _stored_streams(folder)
    except CorruptDefinitionError as error:
        raise ValueError(str(error)) from None
    numbers = sorted(streams)
    if source is not None:
        if source not in streams:
            raise FileNotFoundError(
                f"{folder} holds no {FORMAT} stream as source {source}"
                + (f"; it holds sources {numbers}." if numbers else ".")
            )
        return definition_keywords(streams[source])
    if len(streams) == 1:
        return definition_keywords(streams[numbers[0]])
    if not streams:
        raise FileNotFoundError(
            f"{folder} holds no {FORMAT} stream ({folder}/sources/<n>/{DEFINITION_FILE}, "
            "or an offset of the Python data source in its offsets folder): is it the "
            "checkpointLocation of a query that has started?"
        )
    raise ValueError(f"{folder} holds several {FORMAT} streams, sources {numbers}: pass source=.")


def _stored_streams(folder: Path) -> dict[int, StreamDefinition]:
    """Every stream a checkpoint holds, by source number: the JVM source's definition files, and
    the Python data source's offsets in the newest file of the offset log (the line of source
    ``n`` is line ``n + 2``, after the log's version and the batch's metadata)."""
    streams = {
        int(path.parent.name): read_definition(path)
        for path in folder.glob(f"sources/*/{DEFINITION_FILE}")
        if path.parent.name.isdigit()
    }
    batches = [path for path in folder.glob("offsets/*") if path.name.isdigit()]
    if batches:
        newest = max(batches, key=lambda path: int(path.name))
        for number, line in enumerate(newest.read_text(encoding="utf-8").splitlines()[2:]):
            stream = python_stream(line, f"The offset of source {number} in {newest}")
            if stream is not None:
                streams.setdefault(number, stream)
    return streams


def definition_keywords(definition: StreamDefinition) -> StreamDefinitionKeywords:
    """A definition as ``expected_rows`` keywords, leaving out what is at its default."""
    strings, shape = definition.strings, definition.shape
    keywords = StreamDefinitionKeywords(
        seed=definition.seed,
        start_time_ms=definition.start_time_ms,
        rows_per_second=definition.rows_per_second,
    )
    declared = definition.declared
    if declared is not None:
        keywords["schema"] = declared.to_ddl()
        fields: dict[str, dict[str, object]] = {}
        for name, value in declared.fields:
            path, property_name = split(name)
            fields.setdefault(shown(path), {})[property_name] = value
        keywords["fields"] = fields
    else:
        keywords["min_length"] = strings.min_length
        keywords["max_length"] = strings.max_length
        kind, _, text = strings.characters.description.partition("=")
        keywords["charset" if kind == "charset" else "alphabet"] = text
    if declared is None and strings.distinct_values is not None:
        keywords["distinct_values"] = strings.distinct_values
        keywords["value_distribution"] = strings.value_distribution
        if strings.is_zipf:
            keywords["zipf_exponent"] = strings.zipf_exponent
    if shape.max_out_of_order_ms:
        keywords["max_out_of_order_ms"] = shape.max_out_of_order_ms
    if shape.late_row_fraction > 0.0:
        keywords["late_row_fraction"] = shape.late_row_fraction
        if shape.late_by_ms is not None:
            keywords["late_by_ms"] = shape.late_by_ms
    if shape.duplicate_fraction > 0.0:
        keywords["duplicate_fraction"] = shape.duplicate_fraction
        keywords["max_duplicate_distance"] = shape.max_duplicate_distance
    if definition.timestamp_column:
        keywords["timestamp_column"] = True
    if definition.start_timestamp is not None:
        keywords["start_timestamp"] = definition.start_timestamp
    if definition.rate_profile is not None:
        keywords["rate_profile"] = definition.rate_profile.text
        del keywords["rows_per_second"]
    return keywords
