"""rateProfile's arithmetic, checked against an independent computation: the rate of every
millisecond written out from the profile's definition and summed with Python's integers.

The profile's own code computes C(t) from whole phases and ramp steps (O(log phases)), and E(o)
by searching them; here C is a running sum over every millisecond and E(o) a scan for the first
millisecond whose sum passes 1000 o. Where they agree at every phase boundary, inside ramps and
across repeats, the two engines (which the shared vectors and expected_rows compare) agree with
the documented definition too.
"""

from __future__ import annotations

import numpy as np
import pytest

from spark_random_strings.time.rate_profile import parse_rate_profile

PROFILES = [
    "2s@0..1000, repeat",
    "60s@1000, 30s@1000..20000, 10s@20000, 20s@0, repeat",
    "1500ms@7, 2s@3..900, 300ms@0, 1s@5",
    "3s@1000..10, 1s@0, repeat",
    "1s@1, 2500ms@0..2, repeat",
    "1ms@999999999, 7ms@0..3, 999ms@13",
    "4s@20..20",
]


def rate_of_every_ms(text: str, milliseconds: int) -> list[int]:
    """The rate during each of the first ``milliseconds`` ms, from the documented definition:
    a steady phase's rate; in a ramp of n = ceil(D / 1000) whole-second steps, step j's rate is
    FROM + floor((TO - FROM) * (2j + 1) / (2n)); after the last phase, its last rate or, with
    repeat, the profile again."""
    items = [item.strip() for item in text.split(",")]
    repeat = items[-1] == "repeat"
    cycle: list[int] = []
    last = 0
    for item in items[:-1] if repeat else items:
        duration_text, rates = item.split("@")
        unit = next(u for u in ("ms", "s", "m") if duration_text.endswith(u))
        duration = int(duration_text[: -len(unit)]) * {"ms": 1, "s": 1000, "m": 60_000}[unit]
        low, _, high = rates.partition("..")
        start, end = int(low), int(high or low)
        steps = -(-duration // 1000)
        for k in range(duration):
            j = k // 1000
            cycle.append(start + (end - start) * (2 * j + 1) // (2 * steps))
        last = end
    return [cycle[k % len(cycle)] if repeat or k < len(cycle) else last for k in range(milliseconds)]


def running_sums(rates: list[int]) -> list[int]:
    sums = [0]
    for rate in rates:
        sums.append(sums[-1] + rate)
    return sums


@pytest.mark.parametrize("text", PROFILES)
def test_the_cumulative_count_at_every_boundary_and_inside_ramps_is_exact(text: str) -> None:
    profile = parse_rate_profile(text)
    horizon = 2 * profile.cycle_ms + 3_000
    sums = running_sums(rate_of_every_ms(text, horizon))
    boundaries = set(profile.starts_ms) | {s + profile.cycle_ms for s in profile.starts_ms}
    instants = sorted(
        boundaries | set(range(0, horizon + 1, 97)) | {b + d for b in boundaries for d in (-1, 1, 999)}
    )
    for t in (t for t in instants if 0 <= t <= horizon):
        assert profile.produced(t) == sums[t], t
        assert profile.rows_available(t) == sums[t] // 1000, t


@pytest.mark.parametrize("text", PROFILES)
def test_each_rows_event_time_is_the_millisecond_in_which_its_interval_opens(text: str) -> None:
    profile = parse_rate_profile(text)
    horizon = 2 * profile.cycle_ms + 3_000
    sums = running_sums(rate_of_every_ms(text, horizon))
    rows = min(sums[-1] // 1000, 200_000)
    expected, k = [], 0
    for o in range(rows):
        while sums[k + 1] <= 1000 * o:
            k += 1
        expected.append(k)
    assert profile.opens(np.arange(rows, dtype=np.int64)).tolist() == expected
    assert [profile.open_one(o) for o in range(0, rows, max(1, rows // 50))] == expected[
        :: max(1, rows // 50)
    ]


def test_a_steady_profile_gives_the_plain_streams_event_times_and_counts() -> None:
    # One phase that holds: C(t) = r t, so E(o) = floor(1000 o / r), rowsPerSecond's formula.
    profile = parse_rate_profile("5s@7")
    offsets = np.arange(0, 5_000, dtype=np.int64)
    assert profile.opens(offsets).tolist() == [1000 * o // 7 for o in range(5_000)]
    assert [profile.rows_available(t) for t in range(0, 20_000, 333)] == [
        7 * t // 1000 for t in range(0, 20_000, 333)
    ]


def test_the_rate_now_follows_the_phases_and_the_ramp_steps() -> None:
    profile = parse_rate_profile("10s@1000, 4s@0..4000, 2s@0, repeat")
    # Ramp steps: 0 + floor(4000 (2j + 1) / 8) = 500, 1500, 2500, 3500.
    assert [profile.rate_at(t) for t in (0, 9_999, 10_000, 11_000, 12_500, 13_999, 14_000, 16_000)] == [
        1000,
        1000,
        500,
        1500,
        2500,
        3500,
        0,
        1000,
    ]


def test_the_canonical_text_trims_each_item() -> None:
    assert (
        parse_rate_profile(" 60s@1000 ,30s@1000..20000,  repeat ").text == "60s@1000,30s@1000..20000,repeat"
    )


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "no phase"),
        ("repeat", "no phase"),
        ("5s", "phase 1, '5s', is not DURATION@RATE or DURATION@FROM..TO"),
        ("1s@1, 5h@3", "phase 2, '5h@3', has the unit 'h'. Allowed: a duration in ms, s or m"),
        ("0ms@1..4", "phase 1, '0ms@1..4', lasts 0 ms. Allowed: a duration from 1ms to 60m"),
        ("61m@1", "phase 1, '61m@1', lasts 3660000 ms"),
        ("5s@-1", "phase 1, '5s@-1', has the rate -1. Allowed: rates from 0 to 1000000000 rows per second"),
        ("5s@1,repeat,5s@2", "phase 2 is 'repeat', which only ends a profile"),
        (",".join(["1s@1"] * 1001), "1001 phases. Allowed: at most 1000 phases"),
        ("5s@0, 2s@0..1, repeat", "every phase has the rate 0, so no row would ever exist"),
        ("5s@5..0", "it ends at the rate 0 without repeat"),
    ],
)
def test_a_bad_profile_names_the_phase_and_what_is_allowed(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=r"^Invalid value '.*' for option 'rateProfile': ") as error:
        parse_rate_profile(text)
    assert why in str(error.value)
    assert f"Invalid value '{text}' for option 'rateProfile'" in str(error.value)
