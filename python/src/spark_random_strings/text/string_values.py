"""What a string column's values are drawn from (the JVM source's ``StringValues.scala``): their
lengths and characters, and, with ``distinctValues``, the bounded pool they come from and how rows
pick from it. It is the part of a stream's definition that belongs to its string column
(``value``); what belongs to the whole row (disorder, lateness, repeats) is the ``RowShape``
(``rows.definition``). How a value is drawn is said in ``text.string_column``.

The rules these values pass are :func:`validate_values` and :func:`validate_pool`, which the one
``validate`` of ``rows.definition`` runs in its order, with the options' messages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from spark_random_strings.options import (
    CHARSET,
    DISTINCT_VALUES,
    DISTINCT_VALUES_RANGE,
    DISTRIBUTIONS,
    LENGTH_RANGE,
    MAX_LENGTH,
    MIN_LENGTH,
    VALUE_DISTRIBUTION,
    ZIPF,
    ZIPF_EXPONENT,
    ZIPF_EXPONENT_RANGE,
    default,
)
from spark_random_strings.options.table import FIELDS
from spark_random_strings.text.character_set import NAMED_SETS, CharacterSet
from spark_random_strings.text.value_pool import pool_capacity

#: The options that say what a string column is drawn from: the stream's own, and a declared
#: STRING column's properties of the same names.
STRING_VALUE_OPTIONS: tuple[str, ...] = FIELDS.string_properties


@dataclass(frozen=True)
class StringValues:
    """What a string column's values are drawn from: strings of ``min_length`` to ``max_length``
    code points of ``characters``; with ``distinct_values``, the entries of a pool of that many,
    which rows pick by ``value_distribution`` (``uniform``, or ``zipf``: entry k with probability
    proportional to 1 / (k + 1)^``zipf_exponent``). The pool's defaults are the option table's."""

    min_length: int
    max_length: int
    characters: CharacterSet
    distinct_values: int | None = None
    value_distribution: str = cast(str, default(VALUE_DISTRIBUTION))
    zipf_exponent: float = cast(float, default(ZIPF_EXPONENT))

    @property
    def is_zipf(self) -> bool:
        """Whether rows pick pool entries by Zipf's law."""
        return self.value_distribution == ZIPF

    @property
    def is_fresh(self) -> bool:
        """Whether every value is drawn fresh for its row, as 0.1.0 drew them: no pool."""
        return self.distinct_values is None

    def pool_settings(self) -> list[tuple[str, object]]:
        """The pool's options' names and values, as the checkpoint's file holds them (None: not
        set)."""
        return [
            (DISTINCT_VALUES, self.distinct_values),
            (VALUE_DISTRIBUTION, self.value_distribution),
            (ZIPF_EXPONENT, self.zipf_exponent),
        ]


#: The values of a stream with none of the string options: 0 to 4 alphanumeric characters.
DEFAULT_VALUES = StringValues(
    cast(int, default(MIN_LENGTH)), cast(int, default(MAX_LENGTH)), NAMED_SETS[cast(str, default(CHARSET))]
)


def validate_values(
    values: StringValues, shown: Callable[[str, object], str], given: Callable[[str], bool]
) -> None:
    """The rules a string column's values pass, in order: the lengths in range and in order, and
    the pool's size, distribution and exponent in range. (That the pool fits the lengths and
    characters is :func:`validate_pool`, checked after the row's own options.)

    Args:
        shown: ``shown(name, value)``, the value of option ``name`` as the user wrote it, or else
            the value's text.
        given: whether the user gave option ``name`` (a message says when a default applies).

    Raises:
        ValueError: naming the option, the value and what is allowed (the options' messages).
    """
    min_length, max_length = values.min_length, values.max_length
    LENGTH_RANGE.check(MIN_LENGTH, min_length, shown(MIN_LENGTH, min_length))
    LENGTH_RANGE.check(MAX_LENGTH, max_length, shown(MAX_LENGTH, max_length))
    if min_length > max_length:

        def stated(name: str, value: int) -> str:
            return f"'{name}' is {value}" + ("" if given(name) else " (its default)")

        raise ValueError(
            f"Invalid lengths: {stated(MIN_LENGTH, min_length)} and {stated(MAX_LENGTH, max_length)}. "
            f"The option '{MIN_LENGTH}' must be less than or equal to '{MAX_LENGTH}'."
        )
    if values.distinct_values is not None:
        DISTINCT_VALUES_RANGE.check(
            DISTINCT_VALUES, values.distinct_values, shown(DISTINCT_VALUES, values.distinct_values)
        )
    if values.value_distribution not in DISTRIBUTIONS:
        raise ValueError(distribution_error(shown(VALUE_DISTRIBUTION, values.value_distribution)))
    ZIPF_EXPONENT_RANGE.check(ZIPF_EXPONENT, values.zipf_exponent, shown(ZIPF_EXPONENT, values.zipf_exponent))


def validate_pool(values: StringValues, shown: Callable[[str, object], str]) -> None:
    """The rule that a pool fits the strings its lengths and characters make: checked after the
    row's own options, as it always was.

    Raises:
        ValueError: naming ``distinctValues``, its value and how many strings the others allow.
    """
    if values.distinct_values is None:
        return
    min_length, max_length, size = values.min_length, values.max_length, values.characters.size
    allowed_strings = pool_capacity(min_length, max_length, size)
    if allowed_strings < values.distinct_values:
        raise ValueError(
            f"Invalid value '{shown(DISTINCT_VALUES, values.distinct_values)}' for option "
            f"'{DISTINCT_VALUES}': the other options allow only {allowed_strings} distinct strings "
            f"(lengths {min_length} to {max_length} of {size} characters). Lower "
            f"'{DISTINCT_VALUES}', or allow more strings with a larger '{MAX_LENGTH}' or more "
            "characters."
        )


def distribution_error(text: str) -> str:
    """The message for ``text``, given for ``valueDistribution``, which names none of the
    distributions."""
    return (
        f"Invalid value '{text}' for option '{VALUE_DISTRIBUTION}'. Allowed: "
        f"{' or '.join(DISTRIBUTIONS)} (case-insensitive)."
    )
