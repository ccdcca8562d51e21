"""The characters strings are drawn from (the JVM source's ``CharacterSet.scala``): the named sets
and alphabets, each character with equal chance, index i naming the i-th character in code point
order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from spark_random_strings.options.ranges import java_trim
from spark_random_strings.text.utf8 import utf8_length

#: Sets of at most this many characters map an index to its code point through a table.
_TABLE_SIZE = 1 << 16


@dataclass(frozen=True, eq=False)
class CharacterSet:
    """The characters strings are drawn from, each with equal chance: index i names the i-th
    character in code point order (the JVM source's ``CharacterSet``)."""

    #: As the checkpoint names it: ``charset=hex``, or ``alphabet=`` and its distinct characters.
    description: str
    #: Each range's first code point and, in ``first_index``, its first character's index.
    starts: npt.NDArray[np.int64]
    first_index: npt.NDArray[np.int64]
    size: int
    max_code_point: int

    @staticmethod
    def of_ranges(description: str, ranges: list[tuple[int, int]]) -> CharacterSet:
        counts = [hi - lo + 1 for lo, hi in ranges]
        first = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        return CharacterSet(
            description, np.array([lo for lo, _ in ranges], np.int64), first, sum(counts), ranges[-1][1]
        )

    @property
    def is_ascii(self) -> bool:
        return self.max_code_point < 0x80

    @property
    def max_utf8_bytes(self) -> int:
        """The most UTF-8 bytes a character of this set takes."""
        return utf8_length(self.max_code_point)

    def code_points(self, indexes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The characters at ``indexes`` (each in [0, size)), as code points."""
        if len(self.starts) == 1:
            return np.asarray(indexes + self.starts[0], np.int64)
        if self.size <= _TABLE_SIZE:
            return self._table()[indexes]
        which = np.searchsorted(self.first_index, indexes, side="right") - 1
        return np.asarray(self.starts[which] + (indexes - self.first_index[which]), np.int64)

    def _table(self) -> npt.NDArray[np.int64]:
        """Every character's code point, by index: one lookup per character instead of a search
        among the ranges (made once per set, kept)."""
        table: npt.NDArray[np.int64] | None = self.__dict__.get("_code_point_table")
        if table is None:
            every = np.arange(self.size, dtype=np.int64)
            which = np.searchsorted(self.first_index, every, side="right") - 1
            table = np.asarray(self.starts[which] + (every - self.first_index[which]), np.int64)
            object.__setattr__(self, "_code_point_table", table)
        return table

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CharacterSet) and self.description == other.description

    def __hash__(self) -> int:
        return hash(self.description)


def _charset(name: str, *bounds: str) -> CharacterSet:
    return CharacterSet.of_ranges(f"charset={name}", [(ord(b[0]), ord(b[1])) for b in bounds])


NAMED_SETS: dict[str, CharacterSet] = {
    "alphanumeric": _charset("alphanumeric", "09", "AZ", "az"),
    "letters": _charset("letters", "AZ", "az"),
    "digits": _charset("digits", "09"),
    "hex": _charset("hex", "09", "af"),
    "ascii": _charset("ascii", " ~"),
    "unicode": CharacterSet.of_ranges("charset=unicode", [(0x20, 0x7E), (0xA0, 0xD7FF), (0xE000, 0x10FFFF)]),
}


def named_set(option: str, value: str) -> CharacterSet:
    found = NAMED_SETS.get(java_trim(value).lower())
    if found is None:
        raise ValueError(
            f"Invalid value '{value}' for option '{option}': unknown character set. Allowed: "
            f"{', '.join(NAMED_SETS)}."
        )
    return found


def alphabet_set(option: str, value: str) -> CharacterSet:
    if not value:
        raise ValueError(
            f"Invalid value '' for option '{option}': the alphabet is empty. Allowed: a non-empty "
            "string of the characters to draw from."
        )
    for character in value:
        if 0xD800 <= ord(character) <= 0xDFFF:
            raise ValueError(
                f"Invalid value '{value}' for option '{option}': it holds a lone UTF-16 surrogate "
                f"(U+{ord(character):04X}), which is not a character. Allowed: a non-empty string of "
                "Unicode characters."
            )
    distinct = sorted({ord(c) for c in value})
    ranges: list[tuple[int, int]] = []
    for point in distinct:
        if ranges and ranges[-1][1] == point - 1:
            ranges[-1] = (ranges[-1][0], point)
        else:
            ranges.append((point, point))
    return CharacterSet.of_ranges("alphabet=" + "".join(map(chr, distinct)), ranges)
