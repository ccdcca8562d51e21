"""The whole and decimal numbers an option allows, and the messages that say so (the JVM source's
``OptionRange.scala``).

A value is parsed from the text a user gave (``parse``) or checked as it is (``check``, for a
stored definition); either way a value outside the range fails with the same message, which names
the option, the value and what is allowed.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

LONG_MIN, LONG_MAX, INT_MAX = -(2**63), 2**63 - 1, 2**31 - 1


def java_trim(text: str) -> str:
    """Java's ``String.trim``: strips the characters up to the space, and no other."""
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]


_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


@dataclass(frozen=True)
class Whole:
    """The whole numbers an option allows, from ``low`` to ``high`` inclusive."""

    low: int
    high: int = LONG_MAX

    @property
    def allowed(self) -> str:
        """What is allowed, as the messages say it."""
        if self.high == LONG_MAX and self.low == LONG_MIN:
            return "a whole number (a 64-bit long)"
        if self.high == LONG_MAX:
            return f"a whole number >= {self.low}"
        return f"a whole number from {self.low} to {self.high}"

    def parse(self, name: str, text: str) -> int:
        """The value of option ``name`` given as ``text``, if it is a whole number in range."""
        if not _WHOLE.fullmatch(java_trim(text)):
            raise ValueError(
                f"Invalid value '{text}' for option '{name}': not a whole number. Allowed: {self.allowed}."
            )
        return self.check(name, int(java_trim(text)), text)

    def check(self, name: str, value: int, text: str | None = None) -> int:
        """``value`` of option ``name`` (shown as ``text``), if it is in range."""
        if not self.low <= value <= self.high:
            shown = str(value) if text is None else text
            raise ValueError(
                f"Invalid value '{shown}' for option '{name}': out of range. Allowed: {self.allowed}."
            )
        return value


@dataclass(frozen=True)
class Real:
    """The decimal numbers an option allows, between ``low`` and ``high``, each bound included or
    not; NaN, infinities and hexadecimal are refused."""

    low: float
    low_included: bool
    high: float
    high_included: bool

    @property
    def allowed(self) -> str:
        """What is allowed, as the messages say it."""
        low = f">= {_shown(self.low)}" if self.low_included else f"> {_shown(self.low)}"
        high = f"<= {_shown(self.high)}" if self.high_included else f"< {_shown(self.high)}"
        return f"a decimal number {low} and {high}"

    def parse(self, name: str, text: str) -> float:
        """The value of option ``name`` given as ``text``, if it is a decimal number in range."""
        if not _DECIMAL.fullmatch(java_trim(text)):
            raise ValueError(
                f"Invalid value '{text}' for option '{name}': not a decimal number. Allowed: {self.allowed}."
            )
        return self.check(name, float(java_trim(text)), text)

    def check(self, name: str, value: float, text: str | None = None) -> float:
        """``value`` of option ``name`` (shown as ``text``), if it is in range."""
        above = value >= self.low if self.low_included else value > self.low
        below = value <= self.high if self.high_included else value < self.high
        if not (above and below):
            shown = str(value) if text is None else text
            raise ValueError(
                f"Invalid value '{shown}' for option '{name}': out of range. Allowed: {self.allowed}."
            )
        return value


def _shown(bound: float) -> str:
    """A bound as ``OptionRange.scala`` shows it: a whole one as a long (``toLong``, which
    saturates), any other as Java's ``Double.toString``."""
    if bound == round(bound):
        return str(min(max(int(bound), LONG_MIN), LONG_MAX))
    return java_double(bound)


def java_double(value: float) -> str:
    """Java's ``Double.toString`` (and Scala's ``toString`` of a Double): ``1.0``, ``0.5``,
    ``1.0E20``, ``1.0E-5``, ``Infinity``, ``NaN``; the shortest digits that read back as
    ``value`` (as Java 19 and later give them)."""
    return _java_decimal(value, repr(float(value)), float)


def to_float32(value: float) -> float:
    """``value`` rounded to the nearest float (Java's ``toFloat``), as a Python float: infinite
    beyond the largest float."""
    try:
        return float(struct.unpack("<f", struct.pack("<f", value))[0])
    except OverflowError:
        return math.copysign(math.inf, value)


def java_float(value: float) -> str:
    """Java's ``Float.toString`` of ``value`` rounded to a float: the shortest digits that read
    back as that float, laid out as :func:`java_double` lays out a double's."""
    single = to_float32(value)
    if not math.isfinite(single) or single == 0:
        return _java_decimal(single, repr(single), float)
    digits = next(text for text in (f"{single:.{p}e}" for p in range(9)) if to_float32(float(text)) == single)
    return _java_decimal(single, digits, lambda d: to_float32(float(d)))


def _java_decimal(value: float, digits_text: str, read: Callable[[Decimal], float]) -> str:
    """``value`` laid out as Java lays out doubles and floats, its digits read from
    ``digits_text`` (Python's shortest text of it; where that is one digit, Java's two digits
    closest to the value, if they read back as it through ``read``): plain from 10^-3 up to
    10^7, else ``d.dddE±n``."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0:
        return sign + "0.0"
    shortest = Decimal(digits_text.lstrip("-")).normalize()
    if len(shortest.as_tuple().digits) == 1:
        exact = Decimal(abs(value))
        two = exact.quantize(Decimal(1).scaleb(exact.adjusted() - 1), rounding=ROUND_HALF_EVEN)
        if read(two) == abs(value):
            shortest = two.normalize()
    _, digit_tuple, exponent = shortest.as_tuple()
    digits = "".join(map(str, digit_tuple))
    scientific = len(digits) - 1 + int(exponent)  # value = d.ddd * 10^scientific
    if 1e-3 <= abs(value) < 1e7:
        if scientific >= 0:
            whole = digits[: scientific + 1].ljust(scientific + 1, "0")
            fraction = digits[scientific + 1 :] or "0"
        else:
            whole, fraction = "0", "0" * (-scientific - 1) + digits
        return f"{sign}{whole}.{fraction}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{scientific}"


def java_sort_key(text: str) -> bytes:
    """A key that orders strings as Java's ``String.compareTo`` does: by UTF-16 code units."""
    return text.encode("utf-16-be", "surrogatepass")


def java_equals_ignore_case(a: str, b: str) -> bool:
    """Java's ``String.equalsIgnoreCase``: the same length, and each pair of characters equal,
    or equal in upper case or in lower case (character by character, no longer mappings)."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if x == y:
            continue
        upper_x, upper_y = x.upper(), y.upper()
        if len(upper_x) == 1 and upper_x == upper_y:
            continue
        if len(upper_x) == 1 and len(upper_y) == 1 and upper_x.lower() == upper_y.lower():
            continue
        return False
    return True
