"""The source's rows made with numpy: the same values, event times, offsets and lengths as the
JVM source's ``RowGenerator`` makes for the same definition, as Arrow arrays.

Row ``o`` is a pure function of (definition, o), made of draws from counter-based random streams
(the JVM source's ``CounterRandom``): stream ``key`` is a SplitMix64 key, its t-th 64-bit number
is ``mix(key + (t + 1) * Gamma)``, and its d-th 32-bit draw is the low half of number d // 2 for
an even d and the high half for an odd d. So any draw of any row is computed directly, for whole
arrays of rows and characters at once.

Bounded draws reject a number now and then (Lemire's method: with probability below n / 2^32;
the 63-bit draws of ``nextLongUpTo`` below n / 2^63), which shifts the draws after it. The arrays
assume no rejection and flag the rows where one happened; those rare rows are made again one by
one, draw by draw, exactly as the JVM makes them. A Zipf pick is itself a rejection loop: it runs
over all rows at once, each round over the rows still drawing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from spark_random_strings import _strictmath as strict
from spark_random_strings._definition import LONG_MAX, ZIPF, StreamDefinition, strings_of_length

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

_MASK = (1 << 64) - 1
_GAMMA_INT = 0x9E3779B97F4A7C15
GAMMA = np.uint64(_GAMMA_INT)
_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_UNIT = 1.0 / (1 << 53)

# The random streams of a definition besides the rows' own (the JVM's ``RandomStreams``).
POOL_SLOTS, POOL_CODES, POOL_CHARACTERS, PICKS, DELAYS, LATENESS, REPEATS = 1, 2, 3, 4, 5, 6, 7

#: The source's columns, as Arrow types them (Spark's string, long, long, int; none nullable).
SCHEMA = pa.schema(
    [
        pa.field("value", pa.string(), nullable=False),
        pa.field("ts", pa.int64(), nullable=False),
        pa.field("offset", pa.int64(), nullable=False),
        pa.field("length", pa.int32(), nullable=False),
    ]
)


def mix(z: U64) -> U64:
    """SplitMix64's finaliser, on each element."""
    # In place after the first step, which makes the result's array: no temporaries but shifts.
    z = z ^ (z >> np.uint64(30))
    z *= _M1
    z ^= z >> np.uint64(27)
    z *= _M2
    z ^= z >> np.uint64(31)
    return z


def mix_int(z: int) -> int:
    """SplitMix64's finaliser of one 64-bit word (a Python int in [0, 2^64))."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def derived_seed(seed: int, stream: int) -> int:
    """The seed of a definition's random stream number ``stream`` (``CounterRandom.derivedSeed``)."""
    return mix_int(mix_int(seed & _MASK) ^ mix_int((stream * _GAMMA_INT) & _MASK))


def stream_keys(seed: int, offsets: I64) -> U64:
    """The keys of the streams that ``CounterRandom(seed).reset(o)`` starts, for each o."""
    with np.errstate(over="ignore"):
        return mix(np.uint64(mix_int(seed & _MASK)) + offsets.astype(np.uint64) * GAMMA)


def longs(keys: U64, index: int | U64) -> U64:
    """Number ``index`` (0-based) of each stream: its ``index + 1``-th ``nextLong``."""
    with np.errstate(over="ignore"):
        return mix(keys + (np.asarray(index, np.uint64) + np.uint64(1)) * GAMMA)


def draws32(keys: U64, index: I64) -> U64:
    """32-bit draw ``index`` of each stream (``nextUnsignedInt`` calls in a row)."""
    numbers = longs(keys, (index >> 1).astype(np.uint64))
    # The low half for an even draw, the high half for an odd one.
    numbers >>= ((index & 1) << 5).astype(np.uint64)
    numbers &= _LOW32
    return numbers


def bounded(draws: U64, bound: int | U64) -> tuple[I64, npt.NDArray[np.bool_]]:
    """Lemire's draw in [0, bound) from each 32-bit draw, and whether it is rejected."""
    n = np.asarray(bound, np.uint64)
    product = draws * n
    threshold = (np.uint64(1 << 32) - n) % n
    return (product >> np.uint64(32)).astype(np.int64), (product & _LOW32) < threshold


def unit_doubles(numbers: U64) -> npt.NDArray[np.float64]:
    """``nextUnitDouble`` of each 64-bit number: its top 53 bits as a fraction of 1."""
    return (numbers >> np.uint64(11)).astype(np.float64) * _UNIT


# One stream draw by draw, with Python ints: the rare rows with a rejected draw.


def _draw32(key: int, index: int) -> int:
    number = mix_int((key + (index // 2 + 1) * _GAMMA_INT) & _MASK)
    return number & 0xFFFFFFFF if index % 2 == 0 else number >> 32


def _bounded_at(key: int, index: int, bound: int) -> tuple[int, int]:
    """``nextBounded(bound)`` from draw ``index`` on: the value and the next draw's index."""
    threshold = ((1 << 32) - bound) % bound
    while True:
        product = _draw32(key, index) * bound
        index += 1
        if product & 0xFFFFFFFF >= threshold:
            return product >> 32, index


def _long_up_to(key: int, index: int, most: int) -> int:
    """``nextLongUpTo(most)`` from 64-bit number ``index`` on."""
    if most == LONG_MAX:
        return mix_int((key + (index + 1) * _GAMMA_INT) & _MASK) >> 1
    bound = most + 1
    limit = LONG_MAX - (LONG_MAX % bound + 1) % bound
    while True:
        bits = mix_int((key + (index + 1) * _GAMMA_INT) & _MASK) >> 1
        index += 1
        if bits <= limit:
            return bits % bound


def long_up_to(keys: U64, index: int, most: int | I64) -> I64:
    """``nextLongUpTo(most)`` of each stream from 64-bit number ``index`` on (most >= 0)."""
    numbers = longs(keys, index) >> np.uint64(1)
    most_array = np.broadcast_to(np.asarray(most, np.int64), keys.shape)
    bound = most_array.astype(np.uint64) + np.uint64(1)  # 2^63 for the largest most
    limit = np.uint64(LONG_MAX) - (np.uint64(LONG_MAX) % bound + np.uint64(1)) % bound
    result = (numbers % bound).astype(np.int64)
    every = most_array == LONG_MAX
    result = np.where(every, numbers.astype(np.int64), result)
    for i in np.flatnonzero(~every & (numbers > limit)):
        result[i] = _long_up_to(int(keys[i]), index, int(most_array[i]))
    return result


@dataclass(frozen=True)
class _Pool:
    """The ``distinctValues`` pool (the JVM source's ``ValuePool``): entry k's length and code."""

    size: int
    min_length: int
    max_length: int
    characters: int
    slot_key: int
    code_key: int
    full_counts: tuple[int, ...]
    spread_from: int
    spread_slots: int

    @staticmethod
    def of(definition: StreamDefinition) -> _Pool:
        size = definition.shape.distinct_values or 0
        low, high, characters = definition.min_length, definition.max_length, definition.characters.size
        counts: list[int] = []
        length, remaining = low, size
        while length <= high:
            strings = strings_of_length(length, characters)
            if strings < -(-remaining // (high - length + 1)):
                counts.append(strings)
                remaining -= strings
                length += 1
            else:
                break
        return _Pool(
            size,
            low,
            high,
            characters,
            derived_seed(definition.seed, POOL_SLOTS),
            derived_seed(definition.seed, POOL_CODES),
            tuple(counts),
            length,
            remaining,
        )

    def locate(self, entries: I64) -> tuple[I64, I64, I64]:
        """Each entry's length, how many of its last characters spell its code, and the code."""
        slot = permute(entries, np.full(entries.shape, self.size, np.int64), np.uint64(self.slot_key))
        full_slots = self.size - self.spread_slots
        spread_lengths = self.max_length - self.spread_from + 1
        length = np.empty_like(slot)
        index = np.empty_like(slot)
        count = np.empty_like(slot)
        full = slot < full_slots
        if full.any():
            bounds = np.cumsum(self.full_counts)
            which = np.searchsorted(bounds, slot[full], side="right")
            length[full] = self.min_length + which
            index[full] = slot[full] - (bounds[which] - np.asarray(self.full_counts)[which])
            count[full] = np.asarray(self.full_counts, np.int64)[which]
        spread = ~full
        if spread.any():
            t = slot[spread] - full_slots
            position = t * spread_lengths // self.spread_slots
            first = -(-(position * self.spread_slots) // spread_lengths)
            length[spread] = self.spread_from + position
            index[spread] = t - first
            count[spread] = -(-((position + 1) * self.spread_slots) // spread_lengths) - first
        digits = np.empty_like(count)
        codes = np.empty_like(count)
        for each in np.unique(count):
            d, c = 0, 1
            while c < each:
                c *= self.characters
                d += 1
            digits[count == each] = d
            codes[count == each] = c
        keys = np.uint64(self.code_key) ^ (length.astype(np.uint64) * GAMMA)
        return length, digits, permute(index, codes, keys)


_FEISTEL_MULTIPLIER = np.uint64(0xBF58476D1CE4E5B9)


def permute(index: I64, size: I64, key: np.uint64 | U64) -> I64:
    """Each index's image under the keyed permutation of [0, size) (``KeyedPermutation``):
    4 Feistel rounds on the smallest power-of-4 domain holding size, with cycle walking."""
    bits = np.zeros(size.shape, np.int64)
    below = size - 1
    for b in range(63):
        bits = np.where((below >> b) > 0, b + 1, bits)
    half = ((bits + 1) // 2).astype(np.uint64)
    keys = np.broadcast_to(np.asarray(key, np.uint64), size.shape)
    # A domain of one element (half width 0) is the identity, as on the JVM.
    x = np.where(half == 0, index.astype(np.uint64), feistel(index.astype(np.uint64), half, keys))
    outside = x >= size.astype(np.uint64)
    while outside.any():
        x[outside] = feistel(x[outside], half[outside], keys[outside])
        outside = x >= size.astype(np.uint64)
    return x.astype(np.int64)


def feistel(x: U64, half: U64, keys: U64) -> U64:
    """One pass of the permutation's network, each element with its own half width and key."""
    mask = (np.uint64(1) << half) - np.uint64(1)
    shift = np.where(half == 0, np.uint64(63), np.uint64(64) - half)
    left, right = x >> half, x & mask
    for r in range(1, 5):
        round_key = keys + np.uint64((r * _GAMMA_INT) & _MASK)
        left, right = right, left ^ (((right ^ round_key) * _FEISTEL_MULTIPLIER) >> shift)
    return (left << half) | right


class _Zipf:
    """Ranks in [1, n] with probability proportional to 1 / k^s (the JVM's ``ZipfSampler``)."""

    def __init__(self, n: int, exponent: float) -> None:
        self.n, self.exponent = n, exponent
        self.one_minus_s = 1.0 - exponent
        self.h_integral_x1 = float(self.h_integral(np.array([1.5]))[0]) - 1.0
        self.h_integral_n = float(self.h_integral(np.array([n + 0.5]))[0])
        two = float(self.h_integral(np.array([2.5]))[0]) - float(self.h(np.array([2.0]))[0])
        self.squeeze = 2.0 - float(self.h_integral_inverse(np.array([two]))[0])

    def h(self, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        return strict.portable_exp(-self.exponent * strict.log(x))

    def h_integral(self, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        log_x = strict.log(x)
        return _expm1_over_x(self.one_minus_s * log_x) * log_x

    def h_integral_inverse(self, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        t = np.maximum(x * self.one_minus_s, -1.0)
        return strict.portable_exp(_log1p_over_x(t) * x)

    def sample(self, keys: U64) -> I64:
        """The rank each stream draws (its numbers 0, 1, ... until one is accepted)."""
        ranks = np.zeros(keys.shape, np.int64)
        todo = np.arange(len(keys))
        number = 0
        while len(todo):
            u = self.h_integral_n + unit_doubles(longs(keys[todo], number)) * (
                self.h_integral_x1 - self.h_integral_n
            )
            x = self.h_integral_inverse(u)
            k = np.clip(np.trunc(np.nan_to_num(x + 0.5)), 1.0, float(self.n))
            with np.errstate(invalid="ignore", divide="ignore"):
                accepted = (k - x <= self.squeeze) | (u >= self.h_integral(k + 0.5) - self.h(k))
            ranks[todo[accepted]] = k[accepted].astype(np.int64)
            todo = todo[~accepted]
            number += 1
        return ranks


def _expm1_over_x(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(np.abs(x) > 1e-8, strict.expm1(x) / x, 1.0 + x * 0.5 * (1.0 + x / 3.0))


def _log1p_over_x(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(np.abs(x) > 1e-8, strict.log1p(x) / x, 1.0 - x * (0.5 - x / 3.0))


class RowMaker:
    """Makes the rows of one stream definition, as Arrow record batches."""

    #: About how many characters one batch holds at most, and how many rows.
    CHARACTERS_PER_BATCH = 1 << 22
    ROWS_PER_BATCH = 1 << 20

    def __init__(self, definition: StreamDefinition) -> None:
        self.definition = definition
        shape = definition.shape
        self.pool = _Pool.of(definition) if shape.distinct_values is not None else None
        self.zipf = (
            _Zipf(shape.distinct_values, shape.zipf_exponent)
            if shape.distinct_values is not None and shape.value_distribution == ZIPF
            else None
        )
        seed = definition.seed
        self.pool_characters_seed = derived_seed(seed, POOL_CHARACTERS)
        self.picks_seed = derived_seed(seed, PICKS)
        self.delays_seed = derived_seed(seed, DELAYS)
        self.lateness_seed = derived_seed(seed, LATENESS)
        self.repeats_seed = derived_seed(seed, REPEATS)

    def batches(self, start: int, end: int) -> Iterator[pa.RecordBatch]:
        """The rows at offsets [start, end), in order, as record batches of the source's schema."""
        step = max(
            1, min(self.ROWS_PER_BATCH, self.CHARACTERS_PER_BATCH // max(1, self.definition.max_length))
        )
        for first in range(start, end, step):
            yield self.batch(np.arange(first, min(first + step, end), dtype=np.int64))

    def batch(self, offsets: I64) -> pa.RecordBatch:
        """The rows at ``offsets`` as one record batch."""
        shape = self.definition.shape
        originals = self.originals(offsets) if shape.duplicate_fraction > 0.0 else offsets
        if self.pool is None:
            lengths, values = self.fresh_values(originals)
        else:
            lengths, values = self.pool_values(self.entries(originals))
        return pa.RecordBatch.from_arrays(
            [
                values,
                pa.array(self.event_times(originals), pa.int64()),
                pa.array(offsets),
                pa.array(lengths.astype(np.int32)),
            ],
            schema=SCHEMA,
        )

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
            value, first_draw[i] = _bounded_at(int(keys[i]), 0, choices)
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
            entries[i] = _bounded_at(int(keys[i]), 0, self.pool.size)[0]
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
                    indexes[starts[i] + j], draw = _bounded_at(key, draw, size)
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

    # Event times, disorder and repeats.

    def event_times(self, originals: I64) -> I64:
        """Each original's event time: in order, then moved back as the shape says."""
        d = self.definition
        in_order = saturated_add(d.start_time_ms, mul_div_floor(originals, 1000, d.rows_per_second))
        shape = d.shape
        if shape.max_out_of_order_ms == 0 and shape.late_row_fraction == 0.0:
            return in_order
        times = in_order
        if shape.max_out_of_order_ms > 0:
            delays = long_up_to(stream_keys(self.delays_seed, originals), 0, shape.max_out_of_order_ms)
            times = saturated_add(times, -delays)
        if shape.late_row_fraction > 0.0:
            late = (
                unit_doubles(longs(stream_keys(self.lateness_seed, originals), 0)) < shape.late_row_fraction
            )
            times = np.where(late, saturated_add(times, -(shape.late_by_ms or 0)), times)
        return times

    def repeated_offsets(self, offsets: I64) -> I64:
        """The earlier offset each row repeats, or -1 for an original (``RowDisorder``)."""
        shape = self.definition.shape
        keys = stream_keys(self.repeats_seed, offsets)
        repeats = (offsets >= 1) & (unit_doubles(longs(keys, 0)) < shape.duplicate_fraction)
        earlier = np.full(offsets.shape, -1, np.int64)
        if repeats.any():
            most = np.minimum(shape.max_duplicate_distance, offsets[repeats]) - 1
            earlier[repeats] = offsets[repeats] - 1 - long_up_to(keys[repeats], 1, most)
        return earlier

    def originals(self, offsets: I64) -> I64:
        """The original whose value and event time each row carries, following repeats back."""
        current = offsets.copy()
        todo = np.arange(len(offsets))
        while len(todo):
            earlier = self.repeated_offsets(current[todo])
            moved = earlier >= 0
            current[todo[moved]] = earlier[moved]
            todo = todo[moved]
        return current


def mul_div_floor(a: I64, b: int, c: int) -> I64:
    """floor(a * b / c) for a, b >= 0 and c > 0, saturating at 2^63 - 1 (``RowClock``)."""
    if len(a) == 0 or int(a.max()) <= LONG_MAX // max(b, 1):
        return a * b // c
    return np.array([min(int(x) * b // c, LONG_MAX) for x in a], np.int64)


def saturated_add(a: int | I64, b: int | I64) -> I64:
    """a + b, saturating at the 64-bit bounds (``RowClock.saturatedAdd``)."""
    x, y = np.asarray(a, np.int64), np.asarray(b, np.int64)
    total = x + y  # wraps around on overflow, as the JVM's does
    overflow = ((x ^ total) & (y ^ total)) < 0
    return np.where(overflow, np.where(x < 0, np.int64(-(2**63)), np.int64(LONG_MAX)), total)


def utf8(points: I64) -> tuple[npt.NDArray[np.uint8], I64]:
    """The UTF-8 bytes of code points, one after another, and each one's size in bytes."""
    sizes = 1 + (points >= 0x80) + (points >= 0x800) + (points >= 0x10000)
    sizes = sizes.astype(np.int64)
    at = np.cumsum(sizes) - sizes
    data = np.empty(int(sizes.sum()), np.uint8)
    for size, lead in ((1, 0x00), (2, 0xC0), (3, 0xE0), (4, 0xF0)):
        chosen = sizes == size
        p, where = points[chosen], at[chosen]
        data[where] = lead | (p >> (6 * (size - 1)))
        for k in range(1, size):
            data[where + k] = 0x80 | ((p >> (6 * (size - 1 - k))) & 0x3F)
    return data, sizes


def expected_table(definition: StreamDefinition, start: int, end: int) -> pa.Table:
    """The rows at offsets [start, end) of the stream ``definition`` describes."""
    return pa.Table.from_batches(list(RowMaker(definition).batches(start, end)), schema=SCHEMA)
