"""A rate that changes (the JVM source's ``RateProfile.scala``): phases that the stream's rate
follows from its first start, ``rateProfile`` in place of one ``rowsPerSecond``.

A profile is phases separated by commas, each ``DURATION@RATE`` (a steady rate) or
``DURATION@FROM..TO`` (a ramp), optionally ending with ``repeat``; e.g.
``60s@1000, 30s@1000..20000, 10s@20000, 20s@0, repeat``. After the last phase its last rate holds,
unless the profile repeats.

The arithmetic is exact, in integers. A ramp holds each whole second at the rate its line has in
the middle of that second, rounded down: over ``n = ceil(D / 1000)`` steps, step ``j`` runs at
``FROM + floor((TO - FROM) * (2j + 1) / (2n))``. ``C(t)``, the sum of the rate over the first
``t`` milliseconds (rows x 1000), decides everything:

- ``floor(C(t) / 1000)`` rows exist ``t`` ms after the first start;
- row ``o``'s event time is ``E(o) = min {k : C(k + 1) > 1000 o}`` ms after the origin: the
  millisecond in which its interval opens. For one steady rate ``r`` that is ``floor(1000 o / r)``,
  the plain stream's formula.

E.g. ``2s@0..1000, repeat``: steps of 250 and 750 rows/s, so 250 rows exist after 1 s, 1000 after
2 s (a whole cycle), 1250 after 3 s; row 300 opens at ``1000 + (300000 - 250000) // 750 = 1066`` ms.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from spark_random_strings.options import RATE_PROFILE
from spark_random_strings.options.ranges import java_trim

I64 = npt.NDArray[np.int64]

MAX_PHASES = 1000
MAX_DURATION_MS = 60 * 60_000
MAX_RATE = 1_000_000_000
_LONG_MAX = 2**63 - 1
_UNITS = {"ms": 1, "s": 1000, "m": 60_000}
PHASES = (
    "phases separated by commas, each DURATION@RATE or DURATION@FROM..TO, optionally ending with "
    "repeat (e.g. 60s@1000, 30s@1000..20000, 10s@0, repeat)"
)
_PHASE = re.compile(r"([0-9]+)([A-Za-z]*)@(-?[0-9]+)(?:\.\.(-?[0-9]+))?")


@dataclass(frozen=True)
class Phase:
    """``duration_ms`` at a rate from ``start_rate`` to ``end_rate`` (equal: a steady rate)."""

    duration_ms: int
    start_rate: int
    end_rate: int

    @property
    def steps(self) -> int:
        """A ramp's whole-second steps (the last one may be shorter)."""
        return -(-self.duration_ms // 1000)

    def step_rate(self, step: int) -> int:
        """The rate of step ``step`` of a ramp: its line in the middle of the step, rounded down."""
        n = self.steps
        return self.start_rate + (self.end_rate - self.start_rate) * (2 * step + 1) // (2 * n)

    @property
    def step_starts(self) -> I64:
        """``C`` at the start of each step and at the phase's end (rows x 1000, from the phase's
        start): ``n + 1`` values, ascending (made once per phase, kept; not a cached_property,
        whose lock Python 3.11 cannot pickle, and the phase travels to Python workers)."""
        starts: I64 | None = self.__dict__.get("_step_starts")
        if starts is None:
            n = self.steps
            j = np.arange(n, dtype=np.int64)
            rates = self.start_rate + ((self.end_rate - self.start_rate) * (2 * j + 1)) // (2 * n)
            lengths = np.minimum(1000, self.duration_ms - 1000 * j)
            starts = np.concatenate([[0], np.cumsum(rates * lengths)]).astype(np.int64)
            object.__setattr__(self, "_step_starts", starts)
        return starts

    @property
    def produced(self) -> int:
        """``C`` over the whole phase."""
        if self.start_rate == self.end_rate:
            return self.start_rate * self.duration_ms
        return int(self.step_starts[-1])

    def produced_by(self, elapsed_ms: int) -> int:
        """``C`` over the phase's first ``elapsed_ms`` (0 to its duration)."""
        if self.start_rate == self.end_rate:
            return self.start_rate * elapsed_ms
        step = min(elapsed_ms // 1000, self.steps - 1)
        return int(self.step_starts[step]) + self.step_rate(step) * (elapsed_ms - 1000 * step)

    def opens(self, produced: I64) -> I64:
        """``E`` within the phase, for amounts ``0 <= produced < self.produced`` (rows x 1000)."""
        if self.start_rate == self.end_rate:
            return produced // self.start_rate
        starts = self.step_starts
        # The last step that starts at or before each amount: it produces the amount's row.
        step = np.searchsorted(starts[:-1], produced, side="right") - 1
        rates = self.start_rate + ((self.end_rate - self.start_rate) * (2 * step + 1)) // (2 * self.steps)
        return 1000 * step + (produced - starts[step]) // rates


@dataclass(frozen=True)
class RateProfile:
    """A parsed, checked profile."""

    phases: tuple[Phase, ...]
    repeat: bool
    #: The canonical text: the items trimmed, joined by "," (what a checkpoint stores).
    text: str
    #: Each phase's start (ms from the profile's start) and ``C`` there, and the cycle's.
    starts_ms: tuple[int, ...] = field(init=False, repr=False, compare=False)
    starts_produced: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ms, produced = [0], [0]
        for phase in self.phases:
            ms.append(ms[-1] + phase.duration_ms)
            produced.append(produced[-1] + phase.produced)
        object.__setattr__(self, "starts_ms", tuple(ms))
        object.__setattr__(self, "starts_produced", tuple(produced))

    @property
    def cycle_ms(self) -> int:
        return self.starts_ms[-1]

    @property
    def cycle_produced(self) -> int:
        return self.starts_produced[-1]

    @property
    def last_rate(self) -> int:
        return self.phases[-1].end_rate

    def produced(self, elapsed_ms: int) -> int:
        """``C(t)``: the rate summed over the first ``elapsed_ms`` ms (rows x 1000)."""
        if elapsed_ms <= 0:
            return 0
        cycles, within = 0, elapsed_ms
        if elapsed_ms >= self.cycle_ms:
            if not self.repeat:
                return self.cycle_produced + self.last_rate * (elapsed_ms - self.cycle_ms)
            cycles, within = divmod(elapsed_ms, self.cycle_ms)
        p = _last_at_or_before(self.starts_ms, within)
        return (
            cycles * self.cycle_produced
            + self.starts_produced[p]
            + self.phases[p].produced_by(within - self.starts_ms[p])
        )

    def rows_available(self, elapsed_ms: int) -> int:
        """How many rows exist ``elapsed_ms`` after the first start."""
        return self.produced(elapsed_ms) // 1000

    def rate_at(self, elapsed_ms: int) -> int:
        """The rate ``elapsed_ms`` after the first start, in rows per second (0 before it)."""
        if elapsed_ms < 0:
            return 0
        within = elapsed_ms
        if within >= self.cycle_ms:
            if not self.repeat:
                return self.last_rate
            within %= self.cycle_ms
        p = _last_at_or_before(self.starts_ms, within)
        phase = self.phases[p]
        offset = within - self.starts_ms[p]
        return phase.start_rate if phase.start_rate == phase.end_rate else phase.step_rate(offset // 1000)

    def opens(self, offsets: I64) -> I64:
        """``E(o)`` of each offset: the ms, from the origin, in which its row's interval opens
        (at most 2^63 - 1)."""
        if len(offsets) and int(offsets.max()) > _LONG_MAX // 1000:
            return np.array([min(self.open_one(int(o)), _LONG_MAX) for o in offsets], np.int64)
        amounts = offsets * 1000
        if self.repeat:
            cycles, within = np.divmod(amounts, self.cycle_produced)
            # Past about 2^63 ms the event time saturates, as on the JVM.
            saturated = cycles > (_LONG_MAX - self.cycle_ms) // self.cycle_ms
            opens = np.where(saturated, 0, cycles) * self.cycle_ms + self._opens_within(within)
            return np.where(saturated, np.int64(_LONG_MAX), opens)
        beyond = amounts >= self.cycle_produced
        since_cycle = np.where(beyond, amounts - self.cycle_produced, 0) // self.last_rate
        saturated = since_cycle > _LONG_MAX - self.cycle_ms
        after = np.where(saturated, np.int64(_LONG_MAX), np.where(saturated, 0, since_cycle) + self.cycle_ms)
        return np.where(beyond, after, self._opens_within(np.where(beyond, 0, amounts)))

    def open_one(self, offset: int) -> int:
        """``E(o)`` of one offset, in Python's integers."""
        amount = offset * 1000
        if amount >= self.cycle_produced and not self.repeat:
            return self.cycle_ms + (amount - self.cycle_produced) // self.last_rate
        cycles, within = divmod(amount, self.cycle_produced)
        return cycles * self.cycle_ms + int(self._opens_within(np.array([within], np.int64))[0])

    def _opens_within(self, amounts: I64) -> I64:
        """``E`` within one cycle, for amounts ``0 <= a < C(cycle)``."""
        # The last phase that starts at or before each amount; a phase that makes nothing starts
        # at the same amount as the next one, so it is passed over.
        phase = np.searchsorted(np.asarray(self.starts_produced[:-1], np.int64), amounts, side="right") - 1
        result = np.empty(len(amounts), np.int64)
        for p in np.unique(phase):
            chosen = phase == p
            result[chosen] = self.starts_ms[p] + self.phases[p].opens(
                amounts[chosen] - self.starts_produced[p]
            )
        return result


def _last_at_or_before(starts: tuple[int, ...], value: int) -> int:
    """The index of the last of ``starts[:-1]`` (ascending) that is at most ``value``."""
    low, high = 0, len(starts) - 2
    while low < high:
        middle = (low + high + 1) // 2
        if starts[middle] <= value:
            low = middle
        else:
            high = middle - 1
    return low


def parse_rate_profile(text: str) -> RateProfile:
    """Parse and check a ``rateProfile`` value.

    Raises:
        ValueError: naming the option, the value, the phase at fault and what is allowed.
    """

    def invalid(why: str, allowed: str = PHASES) -> ValueError:
        return ValueError(f"Invalid value '{text}' for option '{RATE_PROFILE}': {why}. Allowed: {allowed}.")

    items = [java_trim(item) for item in text.split(",")]
    repeat = bool(items) and items[-1].lower() == "repeat"
    phases_text = items[:-1] if repeat else items
    if all(not item for item in phases_text) and len(phases_text) <= 1:
        raise invalid("no phase")
    phases: list[Phase] = []
    for number, item in enumerate(phases_text, 1):
        if item.lower() == "repeat":
            raise invalid(f"phase {number} is 'repeat', which only ends a profile")
        match = _PHASE.fullmatch(item)
        if match is None:
            raise invalid(f"phase {number}, '{item}', is not DURATION@RATE or DURATION@FROM..TO")
        amount, unit, start, end = match.groups()
        if unit not in _UNITS:
            raise invalid(
                f"phase {number}, '{item}', has the unit '{unit}'",
                "a duration in ms, s or m (e.g. 500ms, 30s, 2m)",
            )
        duration = int(amount) * _UNITS[unit]
        if not 1 <= duration <= MAX_DURATION_MS:
            raise invalid(f"phase {number}, '{item}', lasts {duration} ms", "a duration from 1ms to 60m")
        rates = [int(start), int(start if end is None else end)]
        for rate in rates:
            if not 0 <= rate <= MAX_RATE:
                raise invalid(
                    f"phase {number}, '{item}', has the rate {rate}",
                    f"rates from 0 to {MAX_RATE} rows per second",
                )
        phases.append(Phase(duration, rates[0], rates[1]))
    if len(phases) > MAX_PHASES:
        raise invalid(f"{len(phases)} phases", f"at most {MAX_PHASES} phases")
    if sum(phase.produced for phase in phases) == 0:
        raise invalid("every phase has the rate 0, so no row would ever exist", "a phase with a rate above 0")
    if not repeat and phases[-1].end_rate == 0:
        raise invalid(
            "it ends at the rate 0 without repeat, and the last rate holds, so the stream would stop "
            "for ever",
            "a last rate above 0, or repeat at the end",
        )
    return RateProfile(tuple(phases), repeat, ",".join(items))
