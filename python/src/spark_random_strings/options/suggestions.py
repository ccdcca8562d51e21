"""The refusals every source's options share (the JVM's ``Suggestions.scala``): an unknown option,
named with the nearest known one, and a boolean that is neither true nor false."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spark_random_strings.options.ranges import java_trim


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


def closest(name: str, known: Sequence[str]) -> str | None:
    """The entry of ``known`` nearest to ``name`` by Levenshtein distance, case-insensitive (the
    first of the nearest), if near enough to be a typo: at most max(2, a third of its length)
    edits, counted in UTF-16 code units as Commons Text counts them."""
    if not known:
        return None
    lower = utf16(name.lower())
    best, edits = min(((k, _levenshtein(lower, utf16(k.lower()))) for k in known), key=lambda pair: pair[1])
    return best if edits <= max(2, len(utf16(best)) // 2 // 3) else None  # 2 bytes a code unit


def utf16(text: str) -> bytes:
    return text.encode("utf-16-be", "surrogatepass")


def _levenshtein(a: bytes, b: bytes) -> int:
    """The edit distance of two UTF-16-BE texts, in code units."""
    x = [a[i : i + 2] for i in range(0, len(a), 2)]
    y = [b[i : i + 2] for i in range(0, len(b), 2)]
    previous = list(range(len(y) + 1))
    for i, cx in enumerate(x, 1):
        current = [i]
        for j, cy in enumerate(y, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (cx != cy)))
        previous = current
    return previous[-1]
