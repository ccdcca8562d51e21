"""The whole units of a declared column's type (``FieldUnits.scala``): TINYINT to BIGINT,
DECIMAL (in units of 10^-scale), DATE (days) and TIMESTAMP/TIMESTAMP_NTZ (microseconds), each with
its bounds, its default range and how a bound's text reads as one (as Java's ``LocalDate``,
``LocalDateTime`` and ``BigDecimal`` read it)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from spark_random_strings.options.ranges import java_trim
from spark_random_strings.options.suggestions import utf16
from spark_random_strings.typed.cells.spec import (
    AtomicType,
    DataType,
)
from spark_random_strings.typed.fields.properties import (
    DEFAULT_MAX_DATE,
    DEFAULT_MAX_TIMESTAMP,
    DEFAULT_MIN_DATE,
    DEFAULT_MIN_TIMESTAMP,
    INTEGRALS,
    TIMESTAMPS,
    Given,
    Properties,
)
from spark_random_strings.typed.schema.sql_types import (
    DATE,
    TIMESTAMP,
    is_decimal,
)


@dataclass(frozen=True)
class Units:
    """The smallest and largest whole unit of a type, how a bound's text reads as one, and what
    the messages say is allowed; and how a distribution's spread (``stddev``, an exponential's
    ``mean``) is given: in ``spread_name``, ``spread`` units each. A normal's ``mean`` is a value
    of the column where ``mean_is_value`` (a date, a time), else a number in ``spread_name``."""

    low: int
    high: int
    read: Callable[[str], int | None]
    allowed: str
    spread: float = 1.0
    spread_name: str = "the column's units"
    mean_is_value: bool = False


# Whole numbers: TINYINT to BIGINT, DECIMAL (in units of 10^-scale), DATE (days), TIMESTAMP (µs).

_WHOLE_TEXT = re.compile(r"[+-]?\d+")
_DECIMAL_TEXT = re.compile(r"([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?")
_DATE_TEXT = re.compile(r"(\+\d{5,10}|-\d{4,10}|\d{4})-(\d{2})-(\d{2})", re.ASCII)
_TIME_TEXT = re.compile(r"(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{0,9}))?)?", re.ASCII)
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1
_MICROS_PER_DAY = 86_400_000_000


def _epoch_day(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to a date of the proleptic Gregorian calendar (``toEpochDay``)."""
    y = year - (month <= 2)
    era = y // 400
    year_of_era = y - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def _days_in_month(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _local_date(text: str) -> tuple[int, int, int] | None:
    """The year, month and day of ``text`` as ``LocalDate.parse`` reads it (ISO, strict)."""
    match = _DATE_TEXT.fullmatch(text)
    if match is None:
        return None
    year, month, day = int(match[1]), int(match[2]), int(match[3])
    if match[1] == "-0000" or not -999_999_999 <= year <= 999_999_999:
        return None
    if not 1 <= month <= 12 or not 1 <= day <= _days_in_month(year, month):
        return None
    return year, month, day


def _date_days(text: str) -> int | None:
    date = _local_date(java_trim(text))
    return None if date is None else _epoch_day(*date)


def _timestamp_micros(text: str) -> int | None:
    """Microseconds since 1970-01-01 00:00 of ``text``, ``yyyy-MM-dd[( |T)HH:mm[:ss[.f...]]]``
    (``FieldUnits.timestampMicros``: a year from 1 to 9999, whole microseconds)."""
    t = java_trim(text).replace(" ", "T")
    if len(utf16(t)) // 2 == 10:
        date, clock = _local_date(t), (0, 0, 0, 0)
    else:
        date_text, separator, time_text = t.partition("T") if "T" in t else t.partition("t")
        time = _TIME_TEXT.fullmatch(time_text) if separator else None
        date = _local_date(date_text) if time else None
        if time is None or date is None:
            return None
        hour, minute, second = int(time[1]), int(time[2]), int(time[3] or 0)
        if hour > 23 or minute > 59 or second > 59:
            return None
        fraction = time[4] or ""
        clock = (hour, minute, second, int(fraction.ljust(9, "0")) if fraction else 0)
    if date is None or not 1 <= date[0] <= 9999 or clock[3] % 1000 != 0:
        return None
    hour, minute, second, nanos = clock
    return (
        _epoch_day(*date) * _MICROS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1_000_000 + nanos // 1000
    )


def _decimal_units(text: str, scale: int, high: int) -> int | None:
    """``text`` as a whole number of 10^-``scale`` (``new BigDecimal(text.trim)`` then
    ``setScale``), if it has no more digits after the point and is within ``high``."""
    match = _DECIMAL_TEXT.fullmatch(java_trim(text))
    if match is None or not (match[2] or match[3]):
        return None
    sign, whole, fraction, exponent_text = match[1], match[2], match[3] or "", match[4]
    exponent = int(exponent_text) if exponent_text else 0
    if not _INT_MIN <= exponent <= _INT_MAX or not _INT_MIN <= len(fraction) - exponent <= _INT_MAX:
        return None
    mantissa: int = int(whole + fraction)
    shift = exponent - len(fraction) + scale  # the units = mantissa * 10^shift
    if mantissa == 0:
        return 0
    if shift >= 0:
        if shift > 40:
            return None
        factor: int = 10**shift
        units = mantissa * factor
    else:
        if -shift > len(str(mantissa)):
            return None
        divisor: int = 10 ** (-shift)
        units, rest = divmod(mantissa, divisor)
        if rest:
            return None
    if units > high:
        return None
    return -units if sign == "-" else units


def _integral(low: int, high: int) -> Units:
    def read(text: str) -> int | None:
        trimmed = java_trim(text)
        if not _WHOLE_TEXT.fullmatch(trimmed):
            return None
        value = int(trimmed)
        return value if low <= value <= high else None

    return Units(low, high, read, f"a whole number from {low} to {high}")


def units_of(t: DataType) -> Units:
    assert isinstance(t, AtomicType)
    if t.sql in INTEGRALS:
        return _integral(*INTEGRALS[t.sql])
    if is_decimal(t):
        digits = min(t.precision, 18)
        high = 10**digits - 1
        return Units(
            -high,
            high,
            lambda text: _decimal_units(text, t.scale, high),
            f"a decimal number with at most {t.scale} digits after the point and {digits - t.scale} before it"
            + (" (bounds of up to 18 digits in all)" if t.precision > 18 else ""),
            spread=math.pow(10, t.scale),
            spread_name="the column's values",
        )
    if t.sql == DATE.sql:
        return Units(
            _epoch_day(1, 1, 1),
            _epoch_day(9999, 12, 31),
            _date_days,
            "a date yyyy-MM-dd, from 0001-01-01 to 9999-12-31",
            spread_name="days",
            mean_is_value=True,
        )
    if t.sql in TIMESTAMPS:
        zone = " (UTC)" if t.sql == TIMESTAMP.sql else ""
        return Units(
            _epoch_day(1, 1, 1) * _MICROS_PER_DAY,
            _epoch_day(9999, 12, 31) * _MICROS_PER_DAY + _MICROS_PER_DAY - 1,
            _timestamp_micros,
            f"a time yyyy-MM-dd[ HH:mm:ss[.ffffff]]{zone}, from 0001-01-01 to 9999-12-31",
            spread=1e6,
            spread_name="seconds",
            mean_is_value=True,
        )
    raise RuntimeError(f"no whole units for {t.sql}")


def defaults(t: DataType, units: Units) -> tuple[int, int]:
    assert isinstance(t, AtomicType)
    if t.sql == DATE.sql:
        return _known(units.read(DEFAULT_MIN_DATE)), _known(units.read(DEFAULT_MAX_DATE))
    if t.sql in TIMESTAMPS:
        return _known(units.read(DEFAULT_MIN_TIMESTAMP)), _known(units.read(DEFAULT_MAX_TIMESTAMP))
    if is_decimal(t):
        return 0, units.high
    return units.low, units.high


def _known(value: int | None) -> int:
    assert value is not None
    return value


def whole_value(p: Properties, units: Units, g: Given) -> int:
    value = units.read(g.value)
    if value is None:
        raise ValueError(
            f"Invalid value '{g.value}' for option '{g.option}': not a value of column '{p.shown_path}' "
            f"({p.type_name}). Allowed: {units.allowed}."
        )
    return value
