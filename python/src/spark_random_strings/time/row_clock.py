"""When rows exist and their in-order event times (the JVM source's ``RowClock.scala``), in exact
integer arithmetic that saturates at the 64-bit bounds as the JVM's does: at one rate here, by a
rate profile in ``time.rate_profile``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from spark_random_strings.options.ranges import LONG_MAX
from spark_random_strings.randomness.counter_random import I64

if TYPE_CHECKING:
    from spark_random_strings.time.rate_profile import RateProfile


def rows_available(elapsed_ms: int, rows_per_second: int) -> int:
    """How many rows exist ``elapsed_ms`` after the stream started (``RowClock.rowsAvailable``):
    floor(elapsed * rowsPerSecond / 1000), none before the start."""
    return min(max(0, elapsed_ms) * rows_per_second // 1000, LONG_MAX)


def event_times(
    origin_ms: int, offsets: I64, rows_per_second: int, profile: RateProfile | None = None
) -> I64:
    """Each offset's in-order event time: origin + floor(offset * 1000 / rowsPerSecond), or by
    the profile (``RateProfile.opens``)."""
    since_origin = (
        mul_div_floor(offsets, 1000, rows_per_second) if profile is None else profile.opens(offsets)
    )
    return saturated_add(origin_ms, since_origin)


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
