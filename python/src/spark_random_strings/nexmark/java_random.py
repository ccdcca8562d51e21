"""``java.util.Random`` to the bit, and the few ``java.lang.Math`` / ``Integer`` operations that
Beam's Nexmark generator applies to its draws, on Python ints.

``java.util.Random`` is a 48-bit linear congruential generator: the seed is scrambled with the
multiplier 0x5DEECE66D, each step is ``seed = seed * 0x5DEECE66D + 0xB (mod 2^48)``, and a draw of
``bits`` bits is the step's top ``bits`` bits. The draws here wrap around to 32- or 64-bit signed
numbers exactly where Java's ``int`` and ``long`` arithmetic does, so a ``JavaRandom(seed)`` gives
the numbers that ``new java.util.Random(seed)`` gives, in the same order.
"""

from __future__ import annotations

import math

_MULTIPLIER = 0x5DEECE66D
_ADDEND = 0xB
_SEED_MASK = (1 << 48) - 1
_DOUBLE_UNIT = 1.0 / (1 << 53)

INT_MIN = -(1 << 31)
INT_MAX = (1 << 31) - 1


def to_int(value: int) -> int:
    """``value`` wrapped around to a signed 32-bit number, as Java's ``(int)`` cast does."""
    return ((value + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


def to_long(value: int) -> int:
    """``value`` wrapped around to a signed 64-bit number, as Java's ``long`` arithmetic does."""
    return ((value + (1 << 63)) & 0xFFFFFFFFFFFFFFFF) - (1 << 63)


def java_div(a: int, b: int) -> int:
    """Java's integer ``a / b``: the quotient truncated toward zero (Python's ``//`` floors)."""
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def java_rem(a: int, b: int) -> int:
    """Java's integer ``a % b``: it takes the sign of ``a`` (Python's ``%`` takes ``b``'s)."""
    return a - b * java_div(a, b)


def java_round(x: float) -> int:
    """``Math.round(double)``: the nearest integer, ties toward positive infinity (for the finite,
    in-range arguments the generator passes). Exact: ``x - floor(x)`` loses no bits, unlike
    ``floor(x + 0.5)``, which rounds 0.49999999999999994 up."""
    whole = math.floor(x)
    return whole + 1 if x - whole >= 0.5 else whole


def java_int_reverse(value: int) -> int:
    """``Integer.reverse``: the 32 bits of ``value`` in reverse order, as a signed ``int``."""
    bits = format(value & 0xFFFFFFFF, "032b")
    return to_int(int(bits[::-1], 2))


def java_int_abs(value: int) -> int:
    """``Math.abs(int)``: which leaves ``Integer.MIN_VALUE`` negative, since -2^31 has no
    positive ``int``."""
    return to_int(abs(value))


class JavaRandom:
    """A ``java.util.Random`` started with ``seed`` (any Java ``long``): the same numbers, in the
    same order, for the methods Nexmark's generator calls."""

    __slots__ = ("_seed",)

    def __init__(self, seed: int) -> None:
        self._seed = (seed ^ _MULTIPLIER) & _SEED_MASK

    def next_bits(self, bits: int) -> int:
        """``next(bits)``: one step's top ``bits`` bits (1 to 32), as a signed ``int``."""
        self._seed = (self._seed * _MULTIPLIER + _ADDEND) & _SEED_MASK
        return to_int(self._seed >> (48 - bits))

    def next_int(self) -> int:
        """``nextInt()``: 32 random bits as a signed ``int``."""
        return self.next_bits(32)

    def next_int_below(self, bound: int) -> int:
        """``nextInt(bound)``: a number in [0, bound). A power-of-two bound takes the top bits of
        one draw; any other rejects the draws from the incomplete top block of 31-bit numbers
        (where Java's ``u - r + (bound - 1)`` overflows an ``int``) and draws again."""
        if bound <= 0:
            raise ValueError(f"bound must be positive, got {bound}")
        r = self.next_bits(31)
        if bound & (bound - 1) == 0:
            return (bound * r) >> 31
        u = r
        while True:
            r = u % bound
            if u - r + (bound - 1) <= INT_MAX:
                return r
            u = self.next_bits(31)

    def next_long(self) -> int:
        """``nextLong()``: two 32-bit draws, the first shifted up, added as Java ``long``s."""
        high = self.next_bits(32)
        return to_long((high << 32) + self.next_bits(32))

    def next_double(self) -> float:
        """``nextDouble()``: 53 random bits (26 then 27) as a fraction of 2^53, in [0, 1)."""
        high = self.next_bits(26)
        return ((high << 27) + self.next_bits(27)) * _DOUBLE_UNIT
