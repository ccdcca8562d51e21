"""The properties of a number, date or time column (``FieldNumbers.scala``): its range, its
distribution (uniform, zipf, normal, exponential, each spread given in the type's terms) and the
``sequence`` kind."""

from __future__ import annotations

from spark_random_strings.options import (
    ZIPF_EXPONENT,
    ZIPF_EXPONENT_RANGE,
)
from spark_random_strings.options.ranges import (
    LONG_MAX,
    LONG_MIN,
    Real,
    Whole,
    java_double,
    java_equals_ignore_case,
    java_trim,
)
from spark_random_strings.typed.cells.spec import (
    CellKind,
    Distribution,
    Exponential,
    Normal,
    Reals,
    SequenceKind,
    Uniform,
    Wholes,
    Zipf,
)
from spark_random_strings.typed.fields.properties import (
    DISTRIBUTION,
    DOUBLE_MAX,
    END,
    EXPONENTIAL_DISTRIBUTION,
    FLOAT_MAX,
    MAX,
    MEAN,
    MIN,
    MIN_POSITIVE,
    NORMAL_DISTRIBUTION,
    NORMAL_SPREAD,
    START,
    STDDEV,
    STEP,
    UNIFORM_DISTRIBUTION,
    ZIPF_DISTRIBUTION,
    Given,
    Properties,
)
from spark_random_strings.typed.fields.units import Units, defaults, units_of, whole_value
from spark_random_strings.typed.schema.sql_types import FLOAT


def wholes(p: Properties) -> CellKind:
    units = units_of(p.data_type)
    min_default, max_default = defaults(p.data_type, units)
    given_min, given_max = p.get(MIN), p.get(MAX)
    least = min_default if given_min is None else whole_value(p, units, given_min)
    most = max_default if given_max is None else whole_value(p, units, given_max)
    p.in_order(MIN, MAX, least, most)
    distribution = _number_distribution(p, True, float(least), float(most), units)
    if isinstance(distribution, Zipf) and most - least >= LONG_MAX:
        raise ValueError(
            f"Column '{p.shown_path}': a zipf distribution needs fewer than 2^63 values between "
            f"'{p.option(MIN)}' and '{p.option(MAX)}'. Narrow the range."
        )
    return Wholes(least, most, distribution)


def reals(p: Properties) -> CellKind:
    allowed = Real(-DOUBLE_MAX, True, DOUBLE_MAX, True)
    limit = FLOAT_MAX if p.data_type == FLOAT else DOUBLE_MAX

    def read(g: Given) -> float:
        v = allowed.parse(g.option, g.value)
        if abs(v) > limit:
            raise ValueError(
                f"Invalid value '{g.value}' for option '{g.option}': out of range of column '{p.shown_path}' "
                f"({p.type_name}). Allowed: a decimal number from {java_double(-limit)} to "
                f"{java_double(limit)}."
            )
        return v

    given_min, given_max = p.get(MIN), p.get(MAX)
    least = 0.0 if given_min is None else read(given_min)
    most = 1.0 if given_max is None else read(given_max)
    p.in_order(MIN, MAX, least, most)
    return Reals(least, most, _number_distribution(p, False, least, most))


def _number_distribution(
    p: Properties, wholes: bool, least: float, most: float, units: Units | None = None
) -> Distribution:
    """The distribution of a number column of the range [least, most] (in ``units``, if whole).
    A spread (``stddev``, an exponential's ``mean``) is given in the type's terms: days, seconds,
    a DECIMAL's values; a normal's ``mean`` is a value of the column (a date, a time) or a number
    in those terms."""
    names = (
        (UNIFORM_DISTRIBUTION, ZIPF_DISTRIBUTION, NORMAL_DISTRIBUTION, EXPONENTIAL_DISTRIBUTION)
        if wholes
        else (UNIFORM_DISTRIBUTION, NORMAL_DISTRIBUTION, EXPONENTIAL_DISTRIBUTION)
    )
    chosen = UNIFORM_DISTRIBUTION
    given = p.get(DISTRIBUTION)
    if given is not None:
        found = next((n for n in names if java_equals_ignore_case(n, java_trim(given.value))), None)
        if found is None:
            raise ValueError(
                f"Invalid value '{given.value}' for option '{given.option}'. Allowed for column "
                f"'{p.shown_path}' ({p.type_name}): {', '.join(names)} (case-insensitive)."
            )
        chosen = found
    positive = Real(0.0, False, DOUBLE_MAX, True)

    def real(name: str, allowed: Real, default: float) -> float:
        g = p.get(name)
        return default if g is None else allowed.parse(g.option, g.value)

    spread = 1.0 if units is None else units.spread
    spread_name = "the column's units" if units is None else units.spread_name

    def spread_of(name: str, default: float) -> float:
        g = p.get(name)
        return default if g is None else positive.parse(g.option, g.value) * spread

    def mean_within(default: float) -> float:
        g = p.get(MEAN)
        if g is None:
            return default
        if units is None or not units.mean_is_value:
            return Real(least / spread, True, most / spread, True).parse(g.option, g.value) * spread
        mean = float(whole_value(p, units, g))
        if mean < least or mean > most:

            def bound(name: str) -> str:
                b = p.get(name)
                return f"the default {name}" if b is None else f"'{b.value}'"

            raise ValueError(
                f"Invalid value '{g.value}' for option '{g.option}': outside column '{p.shown_path}''s range "
                f"[min, max]. Allowed: from {bound(MIN)} to {bound(MAX)}."
            )
        return mean

    if chosen == UNIFORM_DISTRIBUTION:
        p.only((MIN, MAX, DISTRIBUTION))
        return Uniform()
    if chosen == ZIPF_DISTRIBUTION:
        zipf = Zipf(real(ZIPF_EXPONENT, ZIPF_EXPONENT_RANGE, 1.0))
        p.only((MIN, MAX, DISTRIBUTION, ZIPF_EXPONENT))
        return zipf
    if chosen == NORMAL_DISTRIBUTION:
        mean = mean_within(least / 2 + most / 2)
        stddev = spread_of(STDDEV, max(most / 6 - least / 6, MIN_POSITIVE))
        p.only((MIN, MAX, DISTRIBUTION, MEAN, STDDEV))
        widest = (most - least + (1.0 if wholes else 0.0)) * NORMAL_SPREAD
        given = p.get(STDDEV)
        if given is not None and stddev > widest:
            raise ValueError(
                f"Invalid value '{given.value}' for option '{given.option}': a normal distribution that "
                f"wide would rarely fall within column '{p.shown_path}''s range [min, max], and a value is "
                f"drawn again until it does. Allowed: a stddev of at most {java_double(widest / spread)} "
                f"({int(NORMAL_SPREAD)} times max - min{' + 1' if wholes else ''}, in {spread_name})."
            )
        return Normal(mean, stddev)
    mean = spread_of(MEAN, max(most / 10 - least / 10, MIN_POSITIVE))
    p.only((MIN, MAX, DISTRIBUTION, MEAN))
    return Exponential(mean)


def sequence(p: Properties) -> CellKind:
    units = units_of(p.data_type)
    given_start, given_step, given_end = p.get(START), p.get(STEP), p.get(END)
    start = 0 if given_start is None else whole_value(p, units, given_start)
    step = 1
    if given_step is not None:
        step = Whole(LONG_MIN).parse(given_step.option, given_step.value)
        if step == 0:
            raise ValueError(
                f"Invalid value '{given_step.value}' for option '{given_step.option}': a sequence's step "
                "cannot be 0. Allowed: a whole number other than 0."
            )
    last = (units.high if step > 0 else units.low) if given_end is None else whole_value(p, units, given_end)
    if (step > 0 and last < start) or (step < 0 and last > start):
        raise ValueError(
            f"Invalid sequence for column '{p.shown_path}': it starts at {start} and steps by {step}, so it "
            f"never reaches '{p.option(END)}' = {last}. Give an end the steps reach, or a step of the other "
            "sign."
        )
    count = abs(last - start) // abs(step) + 1
    p.only((START, STEP, END))
    return SequenceKind(start, step, min(count, LONG_MAX))
