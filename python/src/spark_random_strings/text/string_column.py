"""A string column's cells made with numpy (the JVM source's ``StringColumnWriter.scala``): each
row's value, drawn as its ``StringValues`` say, as an Arrow string array, the same strings the JVM
writes.

How a fresh value is drawn, from the row's own random stream (``randomness.counter_random``; the stream of
``seed``, keyed by the row's original): first its length, uniform over [minLength, maxLength],
then each character, uniform over the character set. With ``distinctValues``, a row's value is the
pool entry (``text.value_pool``) that it picks, uniformly or by Zipf's law (``randomness.zipf_sampler``) from
the stream of picks; the entry's own characters come from a stream of the entry, not of the row.
A repeated row carries its original's value: the draws are keyed by the originals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from spark_random_strings.randomness.counter_random import (
    I64,
    PICKS,
    POOL_CHARACTERS,
    U64,
    bounded,
    bounded_at,
    derived_seed,
    draws32,
    longs,
    stream_keys,
)
from spark_random_strings.randomness.zipf_sampler import ZipfSampler
from spark_random_strings.text.utf8 import string_array
from spark_random_strings.text.value_pool import ValuePool

#: Values shorter than this may be drawn as a table (``StringColumn.short_indexes``): a row's draws
#: fit a few cache lines, and a table of a batch's rows stays a small multiple of its strings.
SHORT_VALUES = 64

if TYPE_CHECKING:
    from spark_random_strings.columns.maker import RowDraw
    from spark_random_strings.text.string_values import StringValues


class StringColumn:
    """Makes a string column's cells, for arrays of rows: its values drawn as ``values`` say,
    from the random streams of ``seed`` (the stream's seed, for the ``value`` column)."""

    def __init__(self, seed: int, values: StringValues) -> None:
        self.seed = seed
        self.values = values
        size, characters = values.distinct_values or 0, values.characters.size
        self.pool = (
            None
            if values.is_fresh
            else ValuePool.of(seed, size, values.min_length, values.max_length, characters)
        )
        self.zipf = (
            ZipfSampler(values.distinct_values, values.zipf_exponent)
            if values.distinct_values is not None and values.is_zipf
            else None
        )
        self.pool_characters_seed = derived_seed(seed, POOL_CHARACTERS)
        self.picks_seed = derived_seed(seed, PICKS)
        #: The lengths, in code points, of the values made last (``make``).
        self.last_lengths: I64 = np.zeros(0, np.int64)

    def make(self, rows: RowDraw) -> pa.Array:
        """The cells of ``rows``: each one's original's value (see :meth:`values_at`)."""
        self.last_lengths, strings = self.values_at(rows.originals)
        return strings

    def values_at(self, originals: I64) -> tuple[I64, pa.Array]:
        """The values of the rows at ``originals``, and their lengths in code points."""
        if self.pool is None:
            return self.fresh_values(originals)
        return self.pool_values(self.entries(originals))

    def fresh_values(self, offsets: I64) -> tuple[I64, pa.Array]:
        """Each row's own value: its length, then its characters, from the row's stream."""
        keys = stream_keys(self.seed, offsets)
        v = self.values
        # The table pays where most of it is used, or where its rows are long enough that the
        # general path's per-character index arithmetic costs more than the unused cells.
        short = v.max_length < SHORT_VALUES and (2 * v.min_length >= v.max_length or v.max_length >= 16)
        lengths, indexes = self.short_indexes(keys) if short else self.drawn_indexes(keys)
        return lengths, self.strings(lengths, indexes)

    def drawn_indexes(self, keys: U64) -> tuple[I64, I64]:
        """The lengths and characters (indexes into the set, all rows' one after another) of the
        values of the streams ``keys``, draw by draw for all rows at once, and the rows with a
        rejected draw made again one by one."""
        v = self.values
        choices = v.max_length - v.min_length + 1
        drawn, rejected = bounded(draws32(keys, np.zeros(len(keys), np.int64)), choices)
        lengths = v.min_length + drawn
        first_draw = np.ones(len(keys), np.int64)
        for i in np.flatnonzero(rejected):
            value, first_draw[i] = bounded_at(int(keys[i]), 0, choices)
            lengths[i] = v.min_length + value
        return lengths, self.character_indexes(keys, first_draw, lengths)

    def short_indexes(self, keys: U64) -> tuple[I64, I64]:
        """:meth:`drawn_indexes` of values shorter than :data:`SHORT_VALUES`, drawn as a table: row
        i's draws 0 to ``max_length`` (its length, then its characters) from the numbers of its
        stream, each 64-bit number mixed once for its two 32-bit draws, where the general path mixes
        it for each. A row with a rejected draw (Lemire's method, rarely: below
        ``(max_length + 1) * size / 2^32`` a row), which shifts its later draws, is made by the
        general path."""
        v = self.values
        numbers = longs(keys[:, None], np.arange((v.max_length + 2) // 2, dtype=np.uint64)[None, :])
        # Draw 2t is number t's low half and draw 2t + 1 its high half: its 32-bit words in order.
        draws = numbers.astype("<u8", copy=False).view("<u4")[:, : v.max_length + 1]
        drawn, bad = bounded(draws[:, 0].astype(np.uint64), v.max_length - v.min_length + 1)
        lengths = v.min_length + drawn
        # Each row's first `length` characters, row after row (every one where all have one length).
        used = None if v.min_length == v.max_length else np.arange(v.max_length)[None, :] < lengths[:, None]
        characters = draws[:, 1:] if used is None else draws[:, 1:][used]
        indexes, rejected = bounded(characters.astype(np.uint64).reshape(-1), v.characters.size)
        bad[np.repeat(np.arange(len(keys)), lengths)[rejected]] = True
        if not bad.any():
            return lengths, indexes
        good = np.repeat(~bad, lengths)
        lengths[bad], remade = self.drawn_indexes(keys[bad])
        merged = np.empty(int(lengths.sum()), np.int64)
        kept = np.repeat(~bad, lengths)
        merged[kept], merged[~kept] = indexes[good], remade
        return lengths, merged

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
        base = self.values.characters.size
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
        size = self.values.characters.size
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
        characters = self.values.characters
        return string_array(lengths, characters.code_points(indexes), characters.is_ascii)


def max_value_bytes(values: StringValues) -> int:
    """The most bytes a value of ``values`` takes in Spark's row: ``max_length`` characters of
    the set's widest UTF-8, rounded up to whole 8-byte words (``StringColumnWriter.maxValueBytes``,
    the room the JVM's writer reserves before it draws one)."""
    return (values.max_length * values.characters.max_utf8_bytes + 7) // 8 * 8
