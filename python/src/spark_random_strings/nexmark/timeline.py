"""When each Nexmark event happens: Beam's ``GeneratorConfig`` timeline, in exact integer
arithmetic (Java ``long``s, whose values stay positive here, so Python's ``//`` and ``%`` are
Java's ``/`` and ``%``).

The rate is a cycle of inter-event delays in microseconds: one delay when the first and next
rates are equal, else two (``SQUARE``: the first rate, then the next) or ten steps of a cosine from
the first rate to the next and back (``SINE``). Each step lasts ``step_length_sec``; the events of
one whole cycle (an *epoch*) and its length in milliseconds repeat, so the time of any event
number is computed directly. Events come out of order in groups of ``out_of_order_group_size``:
event number n gets the time and id of the *adjusted* number ``(n // g) * g + (n * 953) % g``, and
its watermark is the time of its group's first number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from spark_random_strings.nexmark.config import SHAPE_STEPS, US_PER_UNIT
from spark_random_strings.nexmark.java_random import java_round
from spark_random_strings.nexmark.memo import memoized

if TYPE_CHECKING:
    from spark_random_strings.nexmark.config import NexmarkConfig

#: The multiplier that scatters the event numbers of an out-of-order group.
_OUT_OF_ORDER_SCATTER = 953


def rate_to_period_us(rate: int, rate_unit: str) -> int:
    """The inter-event delay, in µs, of ``rate`` events a unit, rounded to the nearest µs
    (``RateUnit.rateToPeriodUs``)."""
    return (US_PER_UNIT[rate_unit] + rate // 2) // rate


def inter_event_delays_us(config: NexmarkConfig) -> tuple[int, ...]:
    """Each step's delay between two events of one generator, in µs
    (``RateShape.interEventDelayUs``): the delay at each step's rate, times the generators."""
    first, next_rate = config.first_event_rate, config.next_event_rate
    unit, generators = config.rate_unit, config.num_event_generators
    if first == next_rate:
        return (rate_to_period_us(first, unit) * generators,)
    if config.rate_shape == "SQUARE":
        return tuple(rate_to_period_us(rate, unit) * generators for rate in (first, next_rate))
    steps = SHAPE_STEPS["SINE"]
    mid = (first + next_rate) / 2.0
    amplitude = (first - next_rate) / 2.0  # negative when the rate rises
    return tuple(
        rate_to_period_us(java_round(mid + amplitude * math.cos((2.0 * math.pi * i) / steps)), unit)
        * generators
        for i in range(steps)
    )


@dataclass(frozen=True)
class NexmarkTimeline:
    """The timeline of one configuration (what Beam's ``GeneratorConfig`` computes up front)."""

    #: The delays of the rate cycle's steps, in µs.
    inter_event_delays_us: tuple[int, ...]
    #: How long each step of the cycle lasts, in seconds: the rate period over the steps, rounded up.
    step_length_sec: int
    #: The events of one whole cycle of steps (0 for a constant rate).
    events_per_epoch: int
    #: The length of one whole cycle, in ms, as the sum of its steps' whole milliseconds.
    epoch_period_ms: int
    #: The event time of event number 0, in epoch ms.
    base_time_ms: int
    #: The size of the groups that events are shuffled in.
    out_of_order_group_size: int

    def events_in_step(self, delay_us: int) -> int:
        """How many events one step with this delay holds."""
        return (self.step_length_sec * 1_000_000) // delay_us

    def timestamp_ms(self, event_number: int) -> int:
        """The event time of ``event_number``, in epoch ms
        (``GeneratorConfig.timestampAndInterEventDelayUsForEvent``)."""
        delays = self.inter_event_delays_us
        if len(delays) == 1:
            return self.base_time_ms + (event_number * delays[0]) // 1000
        epoch, n = divmod(event_number, self.events_per_epoch)
        offset_in_epoch_ms = 0
        for delay_us in delays:
            in_step = self.events_in_step(delay_us)
            if n < in_step:
                epoch_start_ms = self.base_time_ms + epoch * self.epoch_period_ms
                return epoch_start_ms + offset_in_epoch_ms + n * delay_us // 1000
            n -= in_step
            offset_in_epoch_ms += (in_step * delay_us) // 1000
        raise AssertionError("events_per_epoch is the sum of the steps' events")  # pragma: no cover

    def adjusted_number(self, event_number: int) -> int:
        """The number whose id and time ``event_number`` takes: scattered within its group
        (``GeneratorConfig.nextAdjustedEventNumber``)."""
        g = self.out_of_order_group_size
        return (event_number // g) * g + (event_number * _OUT_OF_ORDER_SCATTER) % g

    def watermark_number(self, event_number: int) -> int:
        """The first number of ``event_number``'s group, whose time is its watermark
        (``GeneratorConfig.nextEventNumberForWatermark``)."""
        g = self.out_of_order_group_size
        return (event_number // g) * g


@memoized
def nexmark_timeline(config: NexmarkConfig) -> NexmarkTimeline:
    """The timeline of ``config`` (computed once for each configuration)."""
    delays = inter_event_delays_us(config)
    steps = SHAPE_STEPS[config.rate_shape]
    step_length_sec = (config.rate_period_sec + steps - 1) // steps
    events_per_epoch = epoch_period_ms = 0
    if len(delays) > 1:
        for delay_us in delays:
            in_step = (step_length_sec * 1_000_000) // delay_us
            events_per_epoch += in_step
            epoch_period_ms += (in_step * delay_us) // 1000
        if events_per_epoch == 0:  # Beam divides by it, and fails
            raise ValueError(
                f"rate_period_sec {config.rate_period_sec} is too short for one event in any step"
            )
    return NexmarkTimeline(
        inter_event_delays_us=delays,
        step_length_sec=step_length_sec,
        events_per_epoch=events_per_epoch,
        epoch_period_ms=epoch_period_ms,
        base_time_ms=config.base_time_ms,
        out_of_order_group_size=config.out_of_order_group_size,
    )
