"""The source's rows made with numpy (the JVM source's ``RowGenerator.scala``): the same values,
event times, offsets and lengths as the JVM makes for the same definition, as Arrow arrays.

Row ``o`` is a pure function of (definition, o), made of draws from counter-based random streams
(``_counter_random``), so any draw of any row is computed directly, for whole arrays of rows and
characters at once. A fresh value draws its length, then its characters, from the row's own
stream; a pooled value is the pool entry the row picks (uniformly or by Zipf's law); event times
and repeats come from ``_row_disorder``.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pyarrow as pa

from spark_random_strings._counter_random import (
    I64,
    PICKS,
    POOL_CHARACTERS,
    U64,
    bounded,
    bounded_at,
    derived_seed,
    draws32,
    stream_keys,
)
from spark_random_strings._row_clock import event_times
from spark_random_strings._row_disorder import RowDisorder
from spark_random_strings._stream_definition import StreamDefinition
from spark_random_strings._utf8 import utf8
from spark_random_strings._value_pool import ValuePool
from spark_random_strings._zipf_sampler import ZipfSampler
from spark_random_strings.options import ZIPF, schema_of


class RowGenerator:
    """Makes the rows of one stream definition, as Arrow record batches."""

    #: About how many characters one batch holds at most, and how many rows.
    CHARACTERS_PER_BATCH = 1 << 22
    ROWS_PER_BATCH = 1 << 20

    def __init__(self, definition: StreamDefinition) -> None:
        self.definition = definition
        shape = definition.shape
        self.pool = ValuePool.of(definition) if shape.distinct_values is not None else None
        self.zipf = (
            ZipfSampler(shape.distinct_values, shape.zipf_exponent)
            if shape.distinct_values is not None and shape.value_distribution == ZIPF
            else None
        )
        seed = definition.seed
        self.pool_characters_seed = derived_seed(seed, POOL_CHARACTERS)
        self.picks_seed = derived_seed(seed, PICKS)
        self.disorder = RowDisorder(seed, shape)
        #: The columns of the rows: the source's, and ``timestamp`` if the definition asks.
        self.schema = schema_of(definition.timestamp_column)

    def batches(self, start: int, end: int) -> Iterator[pa.RecordBatch]:
        """The rows at offsets [start, end), in order, as record batches of the source's schema."""
        step = max(
            1, min(self.ROWS_PER_BATCH, self.CHARACTERS_PER_BATCH // max(1, self.definition.max_length))
        )
        for first in range(start, end, step):
            yield self.batch(np.arange(first, min(first + step, end), dtype=np.int64))

    def batch(self, offsets: I64) -> pa.RecordBatch:
        """The rows at ``offsets`` as one record batch."""
        originals = self.disorder.originals(offsets) if self.disorder.has_repeats else offsets
        if self.pool is None:
            lengths, values = self.fresh_values(originals)
        else:
            lengths, values = self.pool_values(self.entries(originals))
        ts = self.event_times(originals)
        columns = [values, pa.array(ts, pa.int64()), pa.array(offsets), pa.array(lengths.astype(np.int32))]
        if self.definition.timestamp_column:
            columns.append(as_timestamps(ts))
        return pa.RecordBatch.from_arrays(columns, schema=self.schema)

    # Values.

    def fresh_values(self, offsets: I64) -> tuple[I64, pa.Array]:
        """Each row's own value: its length, then its characters, from the row's stream."""
        d = self.definition
        keys = stream_keys(d.seed, offsets)
        choices = d.max_length - d.min_length + 1
        drawn, rejected = bounded(draws32(keys, np.zeros(len(keys), np.int64)), choices)
        lengths = d.min_length + drawn
        first_draw = np.ones(len(keys), np.int64)
        for i in np.flatnonzero(rejected):
            value, first_draw[i] = bounded_at(int(keys[i]), 0, choices)
            lengths[i] = d.min_length + value
        indexes = self.character_indexes(keys, first_draw, lengths)
        return lengths, self.strings(lengths, indexes)

    def entries(self, offsets: I64) -> I64:
        """The pool entry each row picks, from the stream of picks."""
        assert self.pool is not None
        keys = stream_keys(self.picks_seed, offsets)
        if self.zipf is not None:
            return self.zipf.sample(keys) - 1
        entries, rejected = bounded(draws32(keys, np.zeros(len(keys), np.int64)), self.pool.size)
        for i in np.flatnonzero(rejected):
            entries[i] = bounded_at(int(keys[i]), 0, self.pool.size)[0]
        return entries

    def pool_values(self, entries: I64) -> tuple[I64, pa.Array]:
        """Each entry's value: characters from the entry's stream, then its code in base A."""
        assert self.pool is not None
        lengths, digits, codes = self.pool.locate(entries)
        keys = stream_keys(self.pool_characters_seed, entries)
        drawn = self.character_indexes(keys, np.zeros(len(keys), np.int64), lengths - digits)
        total = int(lengths.sum())
        starts = np.cumsum(lengths) - lengths
        indexes = np.empty(total, np.int64)
        row_of_drawn = np.repeat(np.arange(len(lengths)), lengths - digits)
        within = np.arange(len(drawn)) - np.repeat(
            np.cumsum(lengths - digits) - (lengths - digits), lengths - digits
        )
        indexes[starts[row_of_drawn] + within] = drawn
        base = self.definition.characters.size
        rest = codes.copy()
        for place in range(int(digits.max(initial=0))):
            # The digit `place` places from the end, of the rows that have that many.
            has = np.flatnonzero(digits > place)
            indexes[starts[has] + lengths[has] - 1 - place] = rest[has] % base
            rest[has] //= base
        return lengths, self.strings(lengths, indexes)

    def character_indexes(self, keys: U64, first_draw: I64, counts: I64) -> I64:
        """``counts[i]`` characters of stream ``keys[i]`` from its draw ``first_draw[i]`` on, as
        indexes into the character set, all rows' one after another."""
        size = self.definition.characters.size
        total = int(counts.sum())
        row = np.repeat(np.arange(len(keys)), counts)
        position = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
        indexes, rejected = bounded(draws32(keys[row], position + first_draw[row]), size)
        if rejected.any():
            starts = np.cumsum(counts) - counts
            for i in np.unique(row[rejected]):
                key, draw = int(keys[i]), int(first_draw[i])
                for j in range(int(counts[i])):
                    indexes[starts[i] + j], draw = bounded_at(key, draw, size)
        return indexes

    def strings(self, lengths: I64, indexes: I64) -> pa.Array:
        """Arrow strings of ``lengths[i]`` characters each, the characters at ``indexes``."""
        points = self.definition.characters.code_points(indexes)
        if self.definition.characters.is_ascii:
            data = points.astype(np.uint8)
            byte_lengths = lengths
        else:
            data, sizes = utf8(points)
            row = np.repeat(np.arange(len(lengths)), lengths)
            byte_lengths = np.bincount(row, weights=sizes, minlength=len(lengths)).astype(np.int64)
        ends = np.cumsum(byte_lengths)
        if len(ends) and ends[-1] > 2**31 - 1:
            raise ValueError("a batch of rows holds more than 2 GiB of strings; ask for fewer rows at a time")
        offsets = np.concatenate([[0], ends]).astype(np.int32)
        return pa.StringArray.from_buffers(len(lengths), pa.py_buffer(offsets), pa.py_buffer(data))

    # Event times.

    def event_times(self, originals: I64) -> I64:
        """Each original's event time: in order, then moved back as the shape says."""
        d = self.definition
        in_order = event_times(d.event_time_origin, originals, d.rows_per_second, d.rate_profile)
        if not d.shape.moves_event_times:
            return in_order
        return self.disorder.event_times(in_order, originals)


def expected_table(definition: StreamDefinition, start: int, end: int) -> pa.Table:
    """The rows at offsets [start, end) of the stream ``definition`` describes."""
    generator = RowGenerator(definition)
    return pa.Table.from_batches(list(generator.batches(start, end)), schema=generator.schema)


def as_timestamps(ts: I64) -> pa.Array:
    """Event times in ms as Spark's TIMESTAMP: microseconds, saturating at the 64-bit bounds."""
    low, high = -(2**63 // 1000), (2**63 - 1) // 1000
    micros = np.where(ts > high, np.int64(2**63 - 1), np.where(ts < low, np.int64(-(2**63)), ts * 1000))
    return pa.array(micros, pa.timestamp("us", tz="UTC"))
