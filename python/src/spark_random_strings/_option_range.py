"""The whole and decimal numbers an option allows, and the messages that say so (the JVM source's
``OptionRange.scala``).

A value is parsed from the text a user gave (``parse``) or checked as it is (``check``, for a
stored definition); either way a value outside the range fails with the same message, which names
the option, the value and what is allowed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
    return str(int(bound)) if bound == round(bound) else repr(bound)
