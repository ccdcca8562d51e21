"""A regular expression read as a recipe for strings that match it: the ``pattern`` of a string
column (the JVM source's ``PatternPlan.scala``). It makes the plan nodes of ``typed.cells.spec``
(:class:`Literal`, :class:`AnyOf`, :class:`Sequence`, :class:`Either`, :class:`Repeat`).

What it reads, and how a string is drawn from it (each draw from the cell's stream, in this
order, left to right):

- a literal character, or an escaped one (``\\.``, ``\\-``, ``\\\\``, ...), and ``\\t``,
  ``\\n``, ``\\r``: itself, no draw;
- a class, ``[a-z0-9_]``, ``[^...]`` (the printable ASCII characters, space to ``~``, not in
  it), ``\\d`` (0-9), ``\\w`` (a-z, A-Z, 0-9, _), ``\\s`` (space, \\t, \\n, \\r) and ``.``
  (printable ASCII): one character, uniform over the class's characters;
- ``a|b|c``: one alternative, uniform;
- a repeat, ``x?``, ``x{n}``, ``x{m,n}``, and the open ones, ``x*`` = ``x{0,8}``, ``x+`` =
  ``x{1,8}``, ``x{m,}`` = ``x{m,m+8}`` (:data:`OPEN_REPEAT_EXTRA` more at most): how many
  times, uniform over its range, then each time in turn;
- groups, ``(...)`` and ``(?:...)``, only group.

Anything else (anchors ``^`` ``$`` ``\\b``, lookaround, back-references, named groups, flags,
possessive and lazy repeats, classes such as ``\\p{...}``) cannot be generated and is refused,
naming its position (in code points).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from spark_random_strings.options import LENGTH_CAP
from spark_random_strings.text.utf8 import utf8_length
from spark_random_strings.typed.cells.spec import AnyOf, Either, Literal, PatternPlan, Repeat, Sequence

#: How many more times than their least an open repeat (``*``, ``+``, ``{m,}``) goes at most.
OPEN_REPEAT_EXTRA = 8
#: The most code points a pattern's strings may hold.
MAX_LENGTH = LENGTH_CAP
#: The characters of ``.`` and of a negated class: printable ASCII, space to ``~``.
PRINTABLE: tuple[int, ...] = tuple(range(0x20, 0x7F))

_DIGITS = tuple(range(ord("0"), ord("9") + 1))
_WORD = tuple(sorted([*_DIGITS, *range(ord("A"), ord("Z") + 1), ord("_"), *range(ord("a"), ord("z") + 1)]))
_SPACE = (ord("\t"), ord("\n"), ord("\r"), ord(" "))
_LETTER_OR_DIGIT = {"Lu", "Ll", "Lt", "Lm", "Lo", "Nd"}


def most(plan: PatternPlan, size: Callable[[int], int]) -> int:
    """The most a string of ``plan`` measures, each character counted as ``size`` of its code
    point (``PatternPlan.most``): exact, as repeats of repeats may multiply past any 64-bit
    number."""
    match plan:
        case Literal(code_point):
            return size(code_point)
        case AnyOf(code_points):
            return max(size(c) for c in code_points)
        case Sequence(parts):
            return sum(most(part, size) for part in parts)
        case Either(alternatives):
            return max(most(a, size) for a in alternatives)
        case Repeat(part, _, times):
            return most(part, size) * times
    raise TypeError(f"not a pattern plan: {plan!r}")


def max_length(plan: PatternPlan) -> int:
    """The most code points a string of ``plan`` holds (``PatternPlan.maxLength``)."""
    return most(plan, lambda _: 1)


def max_utf8_bytes(plan: PatternPlan) -> int:
    """The most UTF-8 bytes a string of ``plan`` takes (``PatternPlan.maxUtf8Bytes``)."""
    return most(plan, utf8_length)


def parse(option: str, pattern: str) -> PatternPlan:
    """The plan of ``pattern``, the value of option ``option``.

    Raises:
        ValueError: naming the option, the position and what it cannot generate.
    """
    plan = _Parser(option, pattern).parse()
    longest = max_length(plan)
    if longest > MAX_LENGTH:
        raise ValueError(
            f"Invalid value '{pattern}' for option '{option}': its strings may be {longest} "
            f"characters long, and the longest allowed is {MAX_LENGTH}. Lower its repeats."
        )
    return plan


class _Parser:
    """A recursive descent over the pattern's code points; ``at`` is the next one's index."""

    def __init__(self, option: str, pattern: str) -> None:
        self.option = option
        self.pattern = pattern
        self.points = [ord(c) for c in pattern]
        self.at = 0

    def refuse(self, why: str, position: int | None = None) -> ValueError:
        return ValueError(
            f"Invalid value '{self.pattern}' for option '{self.option}': {why} at position "
            f"{self.at if position is None else position}. A pattern may hold literals, escapes, "
            "classes ([a-z], \\d, \\w, \\s, .), groups, alternation (|) and repeats (?, *, +, {n}, "
            "{m,n}); anchors, lookaround and back-references cannot be generated."
        )

    @property
    def more(self) -> bool:
        return self.at < len(self.points)

    @property
    def peek(self) -> int:
        return self.points[self.at]

    def parse(self) -> PatternPlan:
        plan = self.alternatives()
        if self.more:
            raise self.refuse(f"an unmatched '{chr(self.peek)}'")
        return plan

    def alternatives(self) -> PatternPlan:
        options = [self.sequence()]
        while self.more and self.peek == ord("|"):
            self.at += 1
            options.append(self.sequence())
        return options[0] if len(options) == 1 else Either(tuple(options))

    def sequence(self) -> PatternPlan:
        parts: list[PatternPlan] = []
        while self.more and self.peek not in (ord("|"), ord(")")):
            parts.append(self.repeated(self.atom()))
        return parts[0] if len(parts) == 1 else Sequence(tuple(parts))

    def atom(self) -> PatternPlan:
        start = self.at
        c = chr(self.peek)
        self.at += 1
        if c == "(":
            if self.more and self.peek == ord("?"):
                if self.at + 1 < len(self.points) and self.points[self.at + 1] == ord(":"):
                    self.at += 2
                else:
                    raise self.refuse("a group with '?' (lookaround, a named group or flags)", start)
            inner = self.alternatives()
            if not self.more or self.peek != ord(")"):
                raise self.refuse("a group that does not close", start)
            self.at += 1
            return inner
        if c == "[":
            return self.bracket_class(start)
        if c == ".":
            return AnyOf(PRINTABLE)
        if c == "\\":
            return self.escape(start, in_class=False)
        if c in "^$":
            raise self.refuse(f"the anchor '{c}'", start)
        if c in "*+?{":
            raise self.refuse(f"a repeat '{c}' with nothing before it", start)
        if c == ")":
            raise self.refuse("an unmatched ')'", start)
        return Literal(ord(c))

    def escape(self, start: int, in_class: bool) -> PatternPlan:
        """The escape after a backslash at ``start``: a literal or a class."""
        if not self.more:
            raise self.refuse("a backslash at the end", start)
        c = chr(self.peek)
        self.at += 1
        if c == "d":
            return AnyOf(_DIGITS)
        if c == "w":
            return AnyOf(_WORD)
        if c == "s":
            return AnyOf(_SPACE)
        if c in "tnr":
            return Literal(ord({"t": "\t", "n": "\n", "r": "\r"}[c]))
        if c in "bBAzZG":
            raise self.refuse(f"the anchor '\\{c}'", start)
        if "1" <= c <= "9" and not in_class:
            raise self.refuse("a back-reference", start)
        if unicodedata.category(c) in _LETTER_OR_DIGIT:
            raise self.refuse(f"the escape '\\{c}'", start)
        return Literal(ord(c))

    def bracket_class(self, start: int) -> PatternPlan:
        negated = self.more and self.peek == ord("^")
        if negated:
            self.at += 1
        members: set[int] = set()
        first = True
        while self.more and (self.peek != ord("]") or first):
            first = False
            low = self.class_member(start)
            if (
                self.more
                and self.peek == ord("-")
                and self.at + 1 < len(self.points)
                and self.points[self.at + 1] != ord("]")
            ):
                self.at += 1
                high = self.class_member(start)
                if isinstance(low, Literal) and isinstance(high, Literal):
                    if low.code_point > high.code_point:
                        raise self.refuse("a range whose end is before its start", self.at - 1)
                    members.update(range(low.code_point, high.code_point + 1))
                else:
                    raise self.refuse("a range with a class as an end", self.at - 1)
            elif isinstance(low, Literal):
                members.add(low.code_point)
            elif isinstance(low, AnyOf):
                members.update(low.code_points)
        if not self.more:
            raise self.refuse("a class that does not close", start)
        self.at += 1
        chosen = tuple(p for p in PRINTABLE if p not in members) if negated else tuple(sorted(members))
        if not chosen:
            raise self.refuse("a class with no character in it", start)
        return AnyOf(chosen)

    def class_member(self, start: int) -> PatternPlan:
        c = self.peek
        self.at += 1
        if c == ord("\\"):
            return self.escape(self.at - 1, in_class=True)
        if c == ord("[") and self.more and self.peek in (ord(":"), ord("="), ord(".")):
            raise self.refuse("a POSIX class", self.at - 1)
        return Literal(c)

    def repeated(self, part: PatternPlan) -> PatternPlan:
        if not self.more:
            return part
        start = self.at
        c = chr(self.peek)
        if c == "?":
            self.at += 1
            least, most = 0, 1
        elif c == "*":
            self.at += 1
            least, most = 0, OPEN_REPEAT_EXTRA
        elif c == "+":
            self.at += 1
            least, most = 1, 1 + OPEN_REPEAT_EXTRA
        elif c == "{":
            least, most = self.braces(start)
        else:
            return part
        if self.more and self.peek in (ord("?"), ord("+")):
            raise self.refuse("a lazy or possessive repeat", self.at)
        if self.more and self.peek in (ord("*"), ord("{")):
            raise self.refuse("a repeat of a repeat", self.at)
        return part if least == 1 and most == 1 else Repeat(part, least, most)

    def number(self) -> int | None:
        begin = self.at
        while self.more and ord("0") <= self.peek <= ord("9"):
            self.at += 1
        if self.at == begin:
            return None
        digits = self.pattern[begin : self.at]
        if len(digits) > 7:
            raise self.refuse("a repeat count above 1000000", begin)
        return int(digits)

    def braces(self, start: int) -> tuple[int, int]:
        self.at += 1
        least = self.number()
        if least is None:
            raise self.refuse("a '{' that is not a repeat such as {3} or {2,5}", start)
        most = least
        if self.more and self.peek == ord(","):
            self.at += 1
            given = self.number()
            most = least + OPEN_REPEAT_EXTRA if given is None else given
        if not self.more or self.peek != ord("}"):
            raise self.refuse("a repeat that does not close with '}'", start)
        self.at += 1
        if most < least:
            raise self.refuse(f"a repeat whose most ({most}) is below its least ({least})", start)
        return least, most
