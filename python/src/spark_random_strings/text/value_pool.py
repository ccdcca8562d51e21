"""The ``distinctValues`` pool (the JVM source's ``ValuePool.scala``): how many distinct strings
the lengths and characters allow, and each entry's length and code, a pure function of (seed, k).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from spark_random_strings.randomness.counter_random import GAMMA, I64, POOL_CODES, POOL_SLOTS, derived_seed
from spark_random_strings.randomness.keyed_permutation import permute

_MANY = 1 << 40


def strings_of_length(length: int, characters: int) -> int:
    """A^length, or 2^40 if more (the JVM pool's ``stringsOfLength``)."""
    if characters == 1:
        return 1
    return min(characters**length, _MANY) if length < 64 else _MANY


def pool_capacity(min_length: int, max_length: int, characters: int) -> int:
    """How many distinct strings the lengths allow, or 2^40 if more."""
    total = 0
    length = min_length
    while length <= max_length and total < _MANY:
        total = min(total + strings_of_length(length, characters), _MANY)
        length += 1
    return total


@dataclass(frozen=True)
class ValuePool:
    """The ``distinctValues`` pool: entry k's length and code."""

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
    def of(seed: int, size: int, low: int, high: int, characters: int) -> ValuePool:
        """The pool of ``size`` entries of lengths ``low`` to ``high`` drawn from ``characters``
        characters (a ``StringValues``' ``distinct_values``) in a stream of seed ``seed``."""
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
        return ValuePool(
            size,
            low,
            high,
            characters,
            derived_seed(seed, POOL_SLOTS),
            derived_seed(seed, POOL_CODES),
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
