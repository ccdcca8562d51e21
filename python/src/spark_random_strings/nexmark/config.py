"""The Nexmark generator's configuration (the jar's ``NexmarkConfig.scala``): Beam's
``NexmarkConfiguration`` fields that shape the events, and the rate units and shapes they name."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

#: Microseconds in each rate unit (Beam's ``NexmarkUtils.RateUnit``).
US_PER_UNIT = {"PER_SECOND": 1_000_000, "PER_MINUTE": 60_000_000}
#: The number of steps of each rate shape's cycle (Beam's ``NexmarkUtils.RateShape``).
SHAPE_STEPS = {"SQUARE": 2, "SINE": 10}


@dataclass(frozen=True)
class NexmarkConfig:
    """The generator's options: Beam's ``NexmarkConfiguration`` fields that shape the events, in
    snake_case, with Beam's defaults except ``num_event_generators`` (1 here, 100 in Beam)."""

    first_event_rate: int = 10_000
    next_event_rate: int = 10_000
    #: ``"PER_SECOND"`` or ``"PER_MINUTE"``: the unit of the two rates.
    rate_unit: str = "PER_SECOND"
    #: ``"SQUARE"`` or ``"SINE"``: how the rate moves between the first and the next rate.
    rate_shape: str = "SINE"
    rate_period_sec: int = 600
    num_event_generators: int = 1
    avg_person_byte_size: int = 200
    avg_auction_byte_size: int = 500
    avg_bid_byte_size: int = 100
    hot_auction_ratio: int = 2
    hot_sellers_ratio: int = 4
    hot_bidders_ratio: int = 4
    num_active_people: int = 1000
    num_in_flight_auctions: int = 100
    out_of_order_group_size: int = 1
    #: How many events the stream has (0: endless); the generator itself does not use it.
    num_events: int = 100_000
    #: The event time of event number 0, in epoch ms (2015-07-15T00:00:00Z, as Beam's tests use).
    base_time_ms: int = 1436918400000

    def __post_init__(self) -> None:
        if self.rate_unit not in US_PER_UNIT:
            raise ValueError(f"rate_unit must be one of {sorted(US_PER_UNIT)}, got {self.rate_unit!r}")
        if self.rate_shape not in SHAPE_STEPS:
            raise ValueError(f"rate_shape must be one of {sorted(SHAPE_STEPS)}, got {self.rate_shape!r}")
        for name in (
            "first_event_rate", "next_event_rate", "rate_period_sec", "num_event_generators",
            "hot_auction_ratio", "hot_sellers_ratio", "hot_bidders_ratio", "out_of_order_group_size",
        ):  # fmt: skip
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.num_active_people < 0 or self.num_in_flight_auctions < 0 or self.num_events < 0:
            raise ValueError("num_active_people, num_in_flight_auctions and num_events must be >= 0")

    @classmethod
    def from_beam_options(cls, options: Mapping[str, object]) -> NexmarkConfig:
        """The configuration with Beam's camelCase options (``firstEventRate``, ``rateShape``,
        ...) set as given: ints, and the enums by name; the others keep their defaults."""
        fields = {_camel_case(f.name): f.name for f in dataclasses.fields(cls) if f.name != "base_time_ms"}
        values: dict[str, int | str] = {}
        for beam_name, value in options.items():
            name = fields.get(beam_name)
            if name is None:
                raise ValueError(f"unknown Nexmark option {beam_name!r}; known: {sorted(fields)}")
            enum = name in ("rate_unit", "rate_shape")
            if enum and not isinstance(value, str):
                raise ValueError(f"{beam_name} must be a name, got {value!r}")
            if not enum and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(f"{beam_name} must be an integer, got {value!r}")
            assert isinstance(value, int | str)
            values[name] = value
        return cls(**values)  # type: ignore[arg-type]


def _camel_case(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(word.capitalize() for word in rest)
