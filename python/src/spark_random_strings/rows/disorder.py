"""Which rows repeat earlier rows, and how far each row's event time moves back from its in-order
time (the JVM source's ``RowDisorder.scala``): pure functions of (seed, offset) and the row shape,
each drawn from its own random stream, so that changing one option changes no other draw.

- Out of order: the row's event time moves back by a delay uniform over [0, maxOutOfOrderMs].
- Late: with probability lateRowFraction, it moves back by lateByMs more.
- Repeated: with probability duplicateFraction, a row at offset o >= 1 repeats the row d offsets
  before it, d uniform over [1, min(maxDuplicateDistance, o)]: the row emitted there, so if that
  one is itself a repeat, the row it repeats, and so on back to an original. A repeat carries its
  original's value and event time.
"""

from __future__ import annotations

import numpy as np

from spark_random_strings.randomness.counter_random import (
    DELAYS,
    I64,
    LATENESS,
    REPEATS,
    derived_seed,
    long_up_to,
    longs,
    stream_keys,
    unit_doubles,
)
from spark_random_strings.rows.definition import RowShape
from spark_random_strings.time.row_clock import saturated_add


class RowDisorder:
    """The repeats and the event-time moves of one stream, for arrays of offsets."""

    def __init__(self, seed: int, shape: RowShape) -> None:
        self.shape = shape
        self.delays_seed = derived_seed(seed, DELAYS)
        self.lateness_seed = derived_seed(seed, LATENESS)
        self.repeats_seed = derived_seed(seed, REPEATS)

    @property
    def has_repeats(self) -> bool:
        return self.shape.duplicate_fraction > 0.0

    def event_times(self, in_order: I64, originals: I64) -> I64:
        """Each original's event time, given its in-order time: moved back as the shape says."""
        shape = self.shape
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
        """The earlier offset each row repeats, or -1 for an original."""
        shape = self.shape
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
