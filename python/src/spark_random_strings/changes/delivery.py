"""The order in which a change stream with ``maxOutOfOrderMs``, ``duplicateFraction`` or
``lateRowFraction`` delivers its changes (the jar's ``ChangeDelivery.scala``, whose Scaladoc says how
the windows are drawn): which change the read at each position is, and when each read exists.
Delivery is untidy, the changes are not: change n is the same whatever position reads it.

Window k holds the changes that come to exist in [start + kW, start + (k + 1)W), W =
max(1, maxOutOfOrderMs); it delivers its own changes but its late ones (held back L windows), the
late ones of window k - L, and copies of its own changes, in a drawn order when ``maxOutOfOrderMs``
is set. The positions before window k have a closed form, so a position finds its window by
bisection, and a range of positions is read a window at a time, vectorized.
"""

from __future__ import annotations

import math

import numpy as np

from spark_random_strings.randomness.counter_random import (
    CHANGE_COPIES,
    CHANGE_LATE,
    CHANGE_ORDER,
    I64,
    derived_seed,
    long_up_to,
    stream_keys,
)
from spark_random_strings.randomness.keyed_permutation import permute
from spark_random_strings.rows.definition import RowShape, StreamDefinition

LONG_MAX = (1 << 63) - 1


def share_before(share: float, n: int) -> int:
    """floor(share * n): how many of the first n changes a share picks, cumulatively
    (``ChangeDelivery.copiesBefore``)."""
    return 0 if share == 0.0 else math.floor(share * float(n))


def is_untidy(shape: RowShape) -> bool:
    """Whether offsets read changes out of order, late or twice: any delivery option set."""
    return shape.max_out_of_order_ms > 0 or shape.late_row_fraction > 0.0 or shape.duplicate_fraction > 0.0


class ChangeDelivery:
    """The delivery of one change stream: ``end`` is its ``totalRows`` (None: unbounded)."""

    def __init__(self, definition: StreamDefinition, end: int | None) -> None:
        shape = definition.shape
        self.definition = definition
        self.end = end
        self.window_ms = max(1, shape.max_out_of_order_ms)
        self.shuffled = shape.max_out_of_order_ms > 0
        self.late_share = shape.late_row_fraction
        self.copy_share = shape.duplicate_fraction
        by = shape.late_by_ms if shape.late_by_ms is not None else self.window_ms
        self.late_windows = 0 if self.late_share == 0.0 else -(-by // self.window_ms)
        self.order_seed = derived_seed(definition.seed, CHANGE_ORDER)
        self.late_seed = derived_seed(definition.seed, CHANGE_LATE)
        self.copies_seed = derived_seed(definition.seed, CHANGE_COPIES)

    def first_change(self, k: int) -> int:
        """The first change of window k: how many exist before it starts (0 before window 0)."""
        if k <= 0:
            return 0
        start = min(self.definition.start_time_ms + k * self.window_ms, LONG_MAX)
        existing = self.definition.rows_available_at(start - 1)
        return existing if self.end is None else min(existing, self.end)

    def first_position(self, k: int) -> int:
        """How many reads come before window k."""
        first = self.first_change(k)
        late_source = self.first_change(k - self.late_windows)
        return (
            first
            - share_before(self.late_share, first)
            + share_before(self.late_share, late_source)
            + share_before(self.copy_share, first)
        )

    def positions_available_at(self, now_ms: int) -> int:
        """How many reads exist at wall-clock time ``now_ms``: window k's are spread evenly over
        [start + (k + 1)W, start + (k + 2)W)."""
        elapsed = now_ms - self.definition.start_time_ms
        w = self.window_ms
        if elapsed < w:
            return 0
        k = elapsed // w - 1
        first = self.first_position(k)
        size = self.first_position(k + 1) - first
        since = elapsed - (k + 1) * w
        return first + size - (w - since - 1) * size // w

    def window_of(self, position: int) -> int:
        """The window whose reads include ``position``: the last k whose first read is at or
        before it."""
        low, high = 0, 1
        while self.first_position(high) <= position:
            if high == LONG_MAX:
                raise ValueError(f"the read at position {position} never comes to exist")
            low, high = high, min(high * 2, LONG_MAX)
        while high - low > 1:
            middle = low + (high - low) // 2
            if self.first_position(middle) <= position:
                low = middle
            else:
                high = middle
        return low

    def changes_at(self, start: int, end: int) -> I64:
        """The change each read of positions [start, end) delivers, in position order."""
        out = np.empty(end - start, np.int64)
        if end <= start:
            return out
        position = start
        k = self.window_of(start)
        first_position, next_position = self.first_position(k), self.first_position(k + 1)
        while True:
            hi = min(end, next_position)
            out[position - start : hi - start] = self._window(k, first_position, next_position, position, hi)
            position = hi
            if position >= end:
                return out
            # The next window, or past windows with no reads (a pause in a rate profile) by bisection.
            k, first_position = k + 1, next_position
            next_position = self.first_position(k + 1)
            if next_position == first_position:
                k = self.window_of(position)
                first_position, next_position = self.first_position(k), self.first_position(k + 1)

    def _window(self, k: int, first_position: int, next_position: int, lo: int, hi: int) -> I64:
        """The changes of window k's reads at positions [lo, hi)."""
        size = next_position - first_position
        first = self.first_change(k)
        own = self.first_change(k + 1) - first
        kept = own - (share_before(self.late_share, first + own) - share_before(self.late_share, first))
        late_first = self.first_change(k - self.late_windows)
        late_own = self.first_change(k - self.late_windows + 1) - late_first
        late = share_before(self.late_share, late_first + late_own) - share_before(
            self.late_share, late_first
        )
        positions = np.arange(lo, hi, dtype=np.int64)
        s = positions - first_position
        v = self._order(s, size, derived_seed(self.order_seed, k))
        out = np.empty(len(s), np.int64)
        mine = v < kept
        out[mine] = first + self._order(own - kept + v[mine], own, derived_seed(self.late_seed, k))
        held = ~mine & (v < kept + late)
        out[held] = late_first + self._order(
            v[held] - kept, late_own, derived_seed(self.late_seed, k - self.late_windows)
        )
        copy = ~mine & ~held
        if copy.any():
            out[copy] = first + long_up_to(stream_keys(self.copies_seed, positions[copy]), 0, own - 1)
        return out

    def _order(self, index: I64, size: int, key: int) -> I64:
        """Place ``index`` of a window's drawn order: a keyed permutation with ``maxOutOfOrderMs``,
        else the window's own order."""
        if not self.shuffled or len(index) == 0:
            return index
        return permute(index, np.full(len(index), size, np.int64), np.uint64(key))
