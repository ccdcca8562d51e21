"""A keyed permutation of [0, n) (the JVM source's ``KeyedPermutation.scala``): which pool slot
an entry takes, and which code a slot's string carries."""

from __future__ import annotations

import numpy as np

from spark_random_strings.randomness.counter_random import GAMMA_INT, I64, MASK, MIX_1, U64

#: A round's multiplier: SplitMix64's first.
_MULTIPLIER = np.uint64(MIX_1)


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
        round_key = keys + np.uint64((r * GAMMA_INT) & MASK)
        left, right = right, left ^ (((right ^ round_key) * _MULTIPLIER) >> shift)
    return (left << half) | right
