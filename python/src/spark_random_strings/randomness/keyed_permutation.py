"""A keyed permutation of [0, n) (the JVM source's ``KeyedPermutation.scala``): which pool slot
an entry takes, which code a slot's string carries, and which key each place of a change stream's
round visits; and its inverse, which finds the place of a key in a round."""

from __future__ import annotations

import numpy as np

from spark_random_strings.randomness.counter_random import GAMMA_INT, I64, MASK, MIX_1, U64

#: A round's multiplier: SplitMix64's first.
_MULTIPLIER = np.uint64(MIX_1)
#: The network's rounds (``KeyedPermutation.Rounds``).
_ROUNDS = 4


def permute(index: I64, size: I64, key: np.uint64 | U64) -> I64:
    """Each index's image under the keyed permutation of [0, size) (``KeyedPermutation``):
    4 Feistel rounds on the smallest power-of-4 domain holding size, with cycle walking."""
    half = _half_widths(size)
    keys = np.broadcast_to(np.asarray(key, np.uint64), size.shape)
    # A domain of one element (half width 0) is the identity, as on the JVM.
    x = np.where(half == 0, index.astype(np.uint64), feistel(index.astype(np.uint64), half, keys))
    outside = x >= size.astype(np.uint64)
    while outside.any():
        x[outside] = feistel(x[outside], half[outside], keys[outside])
        outside = x >= size.astype(np.uint64)
    return x.astype(np.int64)


def unpermute(image: I64, size: I64, key: np.uint64 | U64) -> I64:
    """Each image's index under the keyed permutation of [0, size) that ``key`` picks
    (``KeyedPermutation.inverse``): :func:`permute` undone, so that
    ``unpermute(permute(i, size, key), size, key) == i`` for every i in [0, size).

    The network runs backwards (round 4 down to round 1), and the cycle walk is walked back: the
    walk forward from an index passes only values at or beyond ``size`` before it lands, so
    undoing passes from the image until a value falls inside [0, size) stops at the index. A
    domain of one element is the identity, as forward.

    Examples:
        >>> size, key = np.full(5, 1000, np.int64), np.uint64(12345)
        >>> index = np.array([0, 1, 2, 500, 999], np.int64)
        >>> unpermute(permute(index, size, key), size, key).tolist()
        [0, 1, 2, 500, 999]

    Args:
        image: the images, each in [0, its size).
        size: each image's domain size, 1 to 2^62 (an array of the images' shape).
        key: the permutation's key, one for all or one per image.

    Returns:
        The indexes, int64, in the images' order.
    """
    half = _half_widths(size)
    keys = np.broadcast_to(np.asarray(key, np.uint64), size.shape)
    x = np.where(half == 0, image.astype(np.uint64), unfeistel(image.astype(np.uint64), half, keys))
    outside = x >= size.astype(np.uint64)
    while outside.any():
        x[outside] = unfeistel(x[outside], half[outside], keys[outside])
        outside = x >= size.astype(np.uint64)
    return x.astype(np.int64)


def _half_widths(size: I64) -> U64:
    """Each domain's half width: half the bits of the smallest power of 4 holding ``size``."""
    bits = np.zeros(size.shape, np.int64)
    below = size - 1
    for b in range(63):
        bits = np.where((below >> b) > 0, b + 1, bits)
    return ((bits + 1) // 2).astype(np.uint64)


def feistel(x: U64, half: U64, keys: U64) -> U64:
    """One pass of the permutation's network, each element with its own half width and key."""
    mask = (np.uint64(1) << half) - np.uint64(1)
    shift = np.where(half == 0, np.uint64(63), np.uint64(64) - half)
    left, right = x >> half, x & mask
    for r in range(1, _ROUNDS + 1):
        round_key = keys + np.uint64((r * GAMMA_INT) & MASK)
        left, right = right, left ^ (((right ^ round_key) * _MULTIPLIER) >> shift)
    return (left << half) | right


def unfeistel(x: U64, half: U64, keys: U64) -> U64:
    """One pass of the network backwards (``KeyedPermutation.unfeistel``): round r undone, from
    the last round to the first; ``unfeistel(feistel(x)) == x``."""
    mask = (np.uint64(1) << half) - np.uint64(1)
    shift = np.where(half == 0, np.uint64(63), np.uint64(64) - half)
    left, right = x >> half, x & mask
    for r in range(_ROUNDS, 0, -1):
        round_key = keys + np.uint64((r * GAMMA_INT) & MASK)
        left, right = right ^ (((left ^ round_key) * _MULTIPLIER) >> shift), left
    return (left << half) | right
