"""The draws of declared cells, a whole batch at a time (``CellWriter.scala``'s draws, with numpy):
bounded ints in rounds of rejections, unsigned longs up to a span, normals by the polar method,
and Java's double arithmetic (a double's long, ``Math.min``, a long's two's complement)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from spark_random_strings.options.ranges import LONG_MAX, LONG_MIN
from spark_random_strings.randomness import strictmath as strict
from spark_random_strings.randomness.counter_random import (
    I64,
    MASK,
    U64,
    bounded,
    bounded_at,
    draws32,
    longs,
    unit_doubles,
)

Floats = npt.NDArray[np.float64]
TWO_TO_63 = 2.0**63


def bounded_first(keys: U64, bound: int) -> tuple[I64, I64]:
    """``nextBounded(bound)`` of each stream from its first 32-bit draw, and the index of its
    next draw (1, or more after rejections: drawn again in rounds, as a pool of nearly 2^31
    entries rejects up to half its draws)."""
    values, rejected = bounded(draws32(keys, np.zeros(len(keys), np.int64)), bound)
    following = np.ones(len(keys), np.int64)
    if rejected.any():
        again = np.flatnonzero(rejected)
        values[again] = bounded_at_cursor(keys, following, again, bound)
    return values, following


def bounded_at_cursor(keys: U64, cursor: I64, cells: I64, bound: int) -> I64:
    """``nextBounded(bound)`` of the streams ``cells`` (distinct), each from its 32-bit draw
    ``cursor[cell]`` on, in rounds until none rejects; moves their cursors past their draws."""
    values, rejected = bounded(draws32(keys[cells], cursor[cells]), bound)
    cursor[cells] += 1
    while rejected.any():
        again = np.flatnonzero(rejected)
        redrawn, rejected_again = bounded(draws32(keys[cells[again]], cursor[cells[again]]), bound)
        cursor[cells[again]] += 1
        values[again] = redrawn
        rejected = np.zeros(len(cells), np.bool_)
        rejected[again] = rejected_again
    return values


def bounded_runs(keys: U64, first_draw: I64, counts: I64, bound: int) -> I64:
    """``counts[i]`` draws ``nextBounded(bound)`` of stream ``keys[i]`` from its 32-bit draw
    ``first_draw[i]`` on, all streams' one after another."""
    total = int(counts.sum())
    starts = np.cumsum(counts) - counts
    row = np.repeat(np.arange(len(keys)), counts)
    position = np.arange(total, dtype=np.int64) - starts[row]
    values, rejected = bounded(draws32(keys[row], position + first_draw[row]), bound)
    for i in np.unique(row[rejected]):
        key, draw = int(keys[i]), int(first_draw[i])
        for j in range(int(counts[i])):
            values[starts[i] + j], draw = bounded_at(key, draw, bound)
    return values


def unsigned_up_to(keys: U64, span: int) -> U64:
    """A uniform long in [0, span], span read as unsigned (``CellWriter.unsignedUpTo``): from
    the streams' 64-bit numbers 0, 1, ... until one is accepted."""
    if span == -1:
        return longs(keys, 0)
    if span == LONG_MAX:
        return longs(keys, 0) >> np.uint64(1)
    if span >= 0:
        bound = span + 1
        limit = np.uint64(LONG_MAX - (LONG_MAX % bound + 1) % bound)
        shift = 1
    else:  # above 2^63: whole numbers, rejected above span
        bound, limit, shift = 0, np.uint64(span & MASK), 0
    result = np.empty(len(keys), np.uint64)
    todo = np.arange(len(keys))
    number = 0
    while len(todo):
        bits = longs(keys[todo], number) >> np.uint64(shift)
        accepted = bits <= limit
        chosen = bits[accepted]
        result[todo[accepted]] = chosen % np.uint64(bound) if bound else chosen
        todo = todo[~accepted]
        number += 1
    return result


def normals(keys: U64, mean: float, stddev: float, low: float, high: float, rounded: bool) -> Floats:
    """``mean + stddev * standardNormal``, rounded to a whole number with ``rounded``, drawn
    again until within [low, high]. Each try of the polar method takes two 64-bit numbers, so
    try t of every stream still drawing is its numbers 2t and 2t + 1."""
    result = np.empty(len(keys), np.float64)
    todo = np.arange(len(keys))
    number = 0
    while len(todo):
        pending = keys[todo]
        u = 2.0 * unit_doubles(longs(pending, number)) - 1.0
        v = 2.0 * unit_doubles(longs(pending, number + 1)) - 1.0
        s = u * u + v * v
        polar = np.flatnonzero((s < 1.0) & (s > 0.0))
        sp = s[polar]
        z = u[polar] * np.sqrt(-2.0 * strict.log(sp) / sp)
        with np.errstate(over="ignore"):  # beyond the doubles: infinite, and drawn again
            drawn = mean + stddev * z
        if rounded:
            drawn = np.rint(drawn)
        inside = (drawn >= low) & (drawn <= high)
        done = polar[inside]
        result[todo[done]] = drawn[inside]
        keep = np.ones(len(todo), np.bool_)
        keep[done] = False
        todo = todo[keep]
        number += 2
    return result


def exponential_cut(scaled_span: float) -> float:
    """1 - e^-x (``-StrictMath.expm1(-x)``): the share of an exponential below the span."""
    return float(-strict.expm1(np.array([-scaled_span]))[0])


# Java's arithmetic.


def signed(value: int) -> int:
    """``value`` as a 64-bit two's complement long."""
    value &= MASK
    return value - (1 << 64) if value > LONG_MAX else value


def double_to_long(x: Floats) -> I64:
    """Java's double-to-long: toward 0, saturating at the bounds, and 0 for NaN."""
    with np.errstate(invalid="ignore"):
        inside = np.where(np.isnan(x) | (x >= TWO_TO_63) | (x < -TWO_TO_63), 0.0, x)
        result = inside.astype(np.int64)
    result[x >= TWO_TO_63] = LONG_MAX
    result[x < -TWO_TO_63] = LONG_MIN
    return result


def java_min(a: Floats | float, b: Floats | float) -> Floats:
    """``Math.min`` of doubles: NaN if either is, and -0.0 below 0.0."""
    a, b = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64))
    result = np.minimum(a, b)
    zeros = (a == 0.0) & (b == 0.0)
    if zeros.any():
        result[zeros] = np.where(np.signbit(a[zeros]) | np.signbit(b[zeros]), -0.0, 0.0)
    return result
