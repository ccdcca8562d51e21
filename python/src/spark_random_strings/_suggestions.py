"""The refusals every source's options share (the JVM's ``Suggestions.scala``): an unknown option,
named with the nearest known one, and a boolean that is neither true nor false."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spark_random_strings._field_properties import closest
from spark_random_strings._option_range import java_trim


def reject_unknown(source: str, known: Sequence[str], internal: Sequence[str], names: Iterable[str]) -> None:
    """Refuse the first of ``names`` that is neither one of ``known`` nor of ``internal`` (names the
    documentation does not list), case-insensitive, naming ``source`` and the nearest known name.

    Raises:
        ValueError: with the JVM source's message.
    """
    all_names = {name.lower() for name in (*known, *internal)}
    for unknown in names:
        if unknown.lower() in all_names:
            continue
        if unknown.lower() == "path":
            hint = " This source makes its own rows and reads no path: call load() without one."
        else:
            near = closest(unknown, known)
            hint = f" Did you mean '{near}'?" if near else ""
        raise ValueError(
            f"Unknown option '{unknown}' for the {source} source.{hint} Known options "
            f"(case-insensitive): {', '.join(known)}."
        )


def boolean(name: str, text: str) -> bool:
    """The value of boolean option ``name`` given as ``text``: true or false, case-insensitive."""
    value = {"true": True, "false": False}.get(java_trim(text).lower())
    if value is None:
        raise ValueError(
            f"Invalid value '{text}' for option '{name}'. Allowed: true or false (case-insensitive)."
        )
    return value
