"""Counter-based random draws (the JVM source's ``CounterRandom.scala``), for whole arrays of rows.

Stream ``key`` is a SplitMix64 key: its t-th 64-bit number is ``mix(key + (t + 1) * GAMMA)``, and
its d-th 32-bit draw is the low half of number d // 2 for an even d and the high half for an odd
d. So any draw of any row is computed directly, for whole arrays of rows and characters at once.

Bounded draws reject a number now and then (Lemire's method: with probability below n / 2^32;
the 63-bit draws of ``nextLongUpTo`` below n / 2^63), which shifts the draws after it. The arrays
assume no rejection and flag the rows where one happened; those rare rows are made again one by
one, draw by draw, exactly as the JVM makes them (the ``*_at`` functions, on Python ints).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from spark_random_strings.options.ranges import LONG_MAX

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

MASK = (1 << 64) - 1
#: SplitMix64's constants: the step between a stream's numbers, and the finaliser's multipliers.
GAMMA_INT = 0x9E3779B97F4A7C15
MIX_1, MIX_2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
GAMMA = np.uint64(GAMMA_INT)
_M1, _M2 = np.uint64(MIX_1), np.uint64(MIX_2)
_LOW32 = np.uint64(0xFFFFFFFF)
_UNIT = 1.0 / (1 << 53)

# The random streams of a definition besides the rows' own (the JVM's ``RandomStreams``).
POOL_SLOTS, POOL_CODES, POOL_CHARACTERS, PICKS, DELAYS, LATENESS, REPEATS = 1, 2, 3, 4, 5, 6, 7
# A change stream's (``changes.lifecycle``): which cold key each round visits at each position, per
# round; whether a change to a present key deletes it, per (occurrence, key); which hot key each
# hot round visits at each position, per round.
CHANGE_KEYS, CHANGE_DELETES, CHANGE_HOT_KEYS = 9, 10, 11
# A change stream's delivery (``changes.delivery``): the order of each window's changes and which of
# them are late, per window; which change a copy repeats, per position.
CHANGE_ORDER, CHANGE_LATE, CHANGE_COPIES = 12, 13, 14


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
    z = ((z ^ (z >> 30)) * MIX_1) & MASK
    z = ((z ^ (z >> 27)) * MIX_2) & MASK
    return z ^ (z >> 31)


def derived_seed(seed: int, stream: int) -> int:
    """The seed of a definition's random stream number ``stream`` (``CounterRandom.derivedSeed``)."""
    return mix_int(mix_int(seed & MASK) ^ mix_int((stream * GAMMA_INT) & MASK))


def derived_seeds(seed: int, streams: I64) -> U64:
    """``derived_seed(seed, s)`` for each s of ``streams`` (``CounterRandom.derivedSeed``): the seeds
    of a concern's streams numbered by a whole array, such as a change stream's rounds."""
    with np.errstate(over="ignore"):
        return mix(np.uint64(mix_int(seed & MASK)) ^ mix(streams.astype(np.uint64) * GAMMA))


def stream_keys(seed: int, offsets: I64) -> U64:
    """The keys of the streams that ``CounterRandom(seed).reset(o)`` starts, for each o."""
    with np.errstate(over="ignore"):
        return mix(np.uint64(mix_int(seed & MASK)) + offsets.astype(np.uint64) * GAMMA)


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


def _draw32_at(key: int, index: int) -> int:
    number = mix_int((key + (index // 2 + 1) * GAMMA_INT) & MASK)
    return number & 0xFFFFFFFF if index % 2 == 0 else number >> 32


def bounded_at(key: int, index: int, bound: int) -> tuple[int, int]:
    """``nextBounded(bound)`` from draw ``index`` on: the value and the next draw's index."""
    threshold = ((1 << 32) - bound) % bound
    while True:
        product = _draw32_at(key, index) * bound
        index += 1
        if product & 0xFFFFFFFF >= threshold:
            return product >> 32, index


def _long_up_to_at(key: int, index: int, most: int) -> int:
    """``nextLongUpTo(most)`` from 64-bit number ``index`` on."""
    if most == LONG_MAX:
        return mix_int((key + (index + 1) * GAMMA_INT) & MASK) >> 1
    bound = most + 1
    limit = LONG_MAX - (LONG_MAX % bound + 1) % bound
    while True:
        bits = mix_int((key + (index + 1) * GAMMA_INT) & MASK) >> 1
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
        result[i] = _long_up_to_at(int(keys[i]), index, int(most_array[i]))
    return result
