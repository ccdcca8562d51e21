"""The ``nexmark`` source's options, parsed once and checked whole (the JVM's
``NexmarkOptions.scala``): names matched case-insensitively, the same ranges, in the same order,
with the same messages, so that the Python data source refuses at ``load()`` what the jar's does.

The option names and defaults are those of
[`NexmarkKeywords`][spark_random_strings.nexmark.NexmarkKeywords]; the configuration's are the
fields of ``NexmarkConfig``, whose snake_case names are the keywords.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from spark_random_strings.nexmark.config import SHAPE_STEPS, US_PER_UNIT, NexmarkConfig
from spark_random_strings.nexmark.table import NEXMARK_FORMAT, NEXMARK_OPTIONS, NEXMARK_PYTHON_FORMAT
from spark_random_strings.nexmark.timeline import inter_event_delays_us
from spark_random_strings.options import MANUAL_CLOCK, real_time_refused
from spark_random_strings.options.ranges import INT_MAX, Whole, java_equals_ignore_case, java_trim
from spark_random_strings.options.suggestions import boolean, reject_unknown
from spark_random_strings.time.manual_clock import ManualClock, manual

#: The source's name in the messages of the Python data source.
#: The highest rate per second: Beam's delays are whole microseconds, so 1 µs apart at most.
MAX_RATE_PER_SECOND = 1_000_000

_ROWS = NEXMARK_OPTIONS.by_keyword
#: The configuration's keywords, in the order the options are read: the options the checkpoint keeps
#: (the table's ``kept``), as the documentation lists them, so the rates and their unit and shape
#: come first (a rate's most depends on its unit).
EVENT_KEYWORDS: tuple[str, ...] = tuple(row.keyword for row in NEXMARK_OPTIONS.rows if row.option.kept)
#: The options that say which events the stream makes: Beam's names, kept in the checkpoint.
EVENT_NAMES: tuple[str, ...] = tuple(_ROWS[keyword].name for keyword in EVENT_KEYWORDS)
#: Every option, in the documentation's order.
NAMES: tuple[str, ...] = tuple(row.name for row in NEXMARK_OPTIONS.rows)

#: The values each whole-number option allows (the table of options' ranges), by keyword.
RANGES: dict[str, Whole] = {
    row.keyword: row.option.whole for row in NEXMARK_OPTIONS.rows if row.option.kind == "whole"
}


@dataclass(frozen=True)
class NexmarkOptions:
    """The ``nexmark`` source's options, parsed and checked once."""

    #: Which events the stream makes (its ``num_events`` left at the default: not the stream's).
    config: NexmarkConfig
    #: How many events the stream has; None: endless (``numEvents`` 0).
    num_events: int | None
    num_partitions: int | None
    max_events_per_trigger: int | None
    real_time: bool
    #: Where the stream reads the time: ``None``, the system clock; in tests, a manual clock.
    clock: ManualClock | None = None


def config_settings(config: NexmarkConfig) -> list[tuple[str, str]]:
    """The configuration by Beam's option names, as the checkpoint keeps it (``NexmarkConfig.settings``)."""
    return [(_ROWS[keyword].name, str(getattr(config, keyword))) for keyword in EVENT_KEYWORDS]


def parse_nexmark_options(parameters: Mapping[str, str]) -> NexmarkOptions:
    """Read the options Spark passes (case-insensitive names), with Beam's defaults for the ones
    not given, as the jar's source does at ``load()``.

    Raises:
        ValueError: naming the option, the value given and what is allowed.
    """
    reject_unknown(NEXMARK_FORMAT, NAMES, NEXMARK_OPTIONS.internal, parameters)
    given = {name.lower(): (name, value) for name, value in parameters.items()}

    def text(keyword: str) -> str | None:
        found = given.get(_ROWS[keyword].name.lower())
        return None if found is None else found[1]

    def whole(keyword: str) -> int | None:
        value = text(keyword)
        return None if value is None else RANGES[keyword].parse(_ROWS[keyword].name, value)

    def one_of(keyword: str, allowed: Mapping[str, int]) -> str | None:
        value = text(keyword)
        if value is None:
            return None
        found = next((name for name in allowed if java_equals_ignore_case(name, java_trim(value))), None)
        if found is None:
            raise ValueError(
                f"Invalid value '{value}' for option '{_ROWS[keyword].name}'. Allowed: "
                f"{' or '.join(allowed)} (case-insensitive)."
            )
        return found

    defaults = NexmarkConfig()
    rate_unit = one_of("rate_unit", US_PER_UNIT) or defaults.rate_unit

    def rate(keyword: str) -> int:
        value = whole(keyword)
        if value is None:
            return int(getattr(defaults, keyword))
        most = MAX_RATE_PER_SECOND * US_PER_UNIT[rate_unit] // 1_000_000
        if value > most:
            raise ValueError(
                f"Invalid value '{text(keyword)}' for option '{_ROWS[keyword].name}': out of range. Events "
                f"are at least 1 µs apart, so the rate is at most {most} events "
                f"{rate_unit.lower().replace('_', ' ')}. Allowed: a whole number from 1 to {most}."
            )
        return value

    values: dict[str, object] = {"rate_unit": rate_unit}
    values["first_event_rate"] = rate("first_event_rate")
    values["next_event_rate"] = rate("next_event_rate")
    values["rate_shape"] = one_of("rate_shape", SHAPE_STEPS) or defaults.rate_shape
    for keyword in (keyword for keyword in EVENT_KEYWORDS if keyword not in values):
        parsed = whole(keyword)
        values[keyword] = getattr(defaults, keyword) if parsed is None else parsed
    config = NexmarkConfig(**values)  # type: ignore[arg-type]
    check_rate_period(config, text("rate_period_sec"))
    num_events = whole("num_events")
    real_time = text("real_time")
    clock = given.get(MANUAL_CLOCK.lower())
    return NexmarkOptions(
        config=config,
        num_events=defaults.num_events if num_events is None else (num_events or None),
        num_partitions=whole("num_partitions"),
        max_events_per_trigger=whole("max_events_per_trigger"),
        real_time=False if real_time is None else boolean(_ROWS["real_time"].name, real_time),
        clock=None if clock is None else manual(MANUAL_CLOCK, clock[1]),
    )


def check_rate_period(config: NexmarkConfig, given: str | None) -> None:
    """Refuse a rate period whose steps are all shorter than the time between two events: Beam
    counts the events of one cycle of the steps and divides by it.

    Raises:
        ValueError: naming ``ratePeriodSec`` (``given``, or its default), the least period these
            rates allow, and what else would do.
    """
    delays = inter_event_delays_us(config)
    steps = SHAPE_STEPS[config.rate_shape]
    step_sec = (config.rate_period_sec + steps - 1) // steps
    shortest = min(delays)
    if len(delays) == 1 or step_sec * 1_000_000 >= shortest:
        return
    least_step_sec = -(-shortest // 1_000_000)
    least = (least_step_sec - 1) * steps + 1
    name = _ROWS["rate_period_sec"].name
    raise ValueError(
        f"Invalid value '{given or config.rate_period_sec}' for option '{name}': too short for these "
        f"rates. Each of the {config.rate_shape} shape's {steps} steps lasts {step_sec} s, and events "
        f"are at least {shortest} µs apart, so no step would hold an event. Allowed: a whole number "
        f"from {least} to {INT_MAX}, or higher rates."
    )


def python_real_time_error() -> ValueError:
    """Why the Nexmark Python data source refuses ``realTime=true``: Spark runs real-time mode on
    JVM DSv2 streams only."""
    return real_time_refused(NEXMARK_PYTHON_FORMAT, f"{NEXMARK_FORMAT} source")
