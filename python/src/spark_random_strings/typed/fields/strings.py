"""The properties of a STRING column (``FieldStrings.scala``): a ``pattern``, or the stream's
string options per column (lengths, characters, a pool of distinct values and its
distribution)."""

from __future__ import annotations

from dataclasses import replace

from spark_random_strings.options import (
    ALPHABET,
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
)
from spark_random_strings.options.ranges import (
    java_equals_ignore_case,
    java_trim,
)
from spark_random_strings.text.character_set import alphabet_set, named_set
from spark_random_strings.text.string_values import (
    DEFAULT_VALUES,
    validate_pool,
    validate_values,
)
from spark_random_strings.typed.cells import pattern_plan as pattern_plan
from spark_random_strings.typed.cells.spec import (
    CellKind,
    Patterned,
    Strings,
)
from spark_random_strings.typed.fields.properties import (
    PATTERN,
    STRING_PROPERTIES,
    Properties,
    scala_text,
)


def strings(p: Properties) -> CellKind:
    pattern = p.get(PATTERN)
    if pattern is not None:
        p.only((PATTERN,))
        return Patterned(pattern.value, pattern_plan.parse(pattern.option, pattern.value))
    # pattern is allowed here too (it is not given): the message lists every property.
    p.only((*STRING_PROPERTIES, PATTERN))

    def length(name: str, default: int) -> int:
        g = p.get(name)
        return default if g is None else LENGTH_RANGE.parse(g.option, g.value)

    given_alphabet, given_charset = p.get(ALPHABET), p.get(CHARSET)
    if given_alphabet is not None:
        characters = alphabet_set(given_alphabet.option, given_alphabet.value)
    elif given_charset is not None:
        characters = named_set(given_charset.option, given_charset.value)
    else:
        characters = DEFAULT_VALUES.characters
    if given_alphabet is not None and given_charset is not None:
        raise ValueError(
            f"Options that do not fit together: '{p.option(ALPHABET)}' and '{p.option(CHARSET)}' both "
            f"say which characters column '{p.shown_path}' draws. Keep one."
        )
    distribution: str | None = None
    given_distribution = p.get(VALUE_DISTRIBUTION)
    if given_distribution is not None:
        distribution = next(
            (d for d in DISTRIBUTIONS if java_equals_ignore_case(d, java_trim(given_distribution.value))),
            None,
        )
        if distribution is None:
            raise ValueError(
                f"Invalid value '{given_distribution.value}' for option '{given_distribution.option}'. "
                f"Allowed: {' or '.join(DISTRIBUTIONS)} (case-insensitive)."
            )
    given_distinct = p.get(DISTINCT_VALUES)
    distinct = (
        None
        if given_distinct is None
        else DISTINCT_VALUES_RANGE.parse(given_distinct.option, given_distinct.value)
    )
    if distribution is not None and distinct is None:
        raise ValueError(
            f"Options that do not fit together: '{p.option(VALUE_DISTRIBUTION)}' is set, but "
            f"'{p.option(DISTINCT_VALUES)}' is not. A distribution picks among a pool of values: set it too."
        )
    exponent = p.get(ZIPF_EXPONENT)
    if exponent is not None and distribution != ZIPF:
        raise ValueError(
            f"Options that do not fit together: '{p.option(ZIPF_EXPONENT)}' is set, but "
            f"'{p.option(VALUE_DISTRIBUTION)}' is not zipf. Set it to zipf, or remove "
            f"'{p.option(ZIPF_EXPONENT)}'."
        )
    values = replace(
        DEFAULT_VALUES,
        min_length=length(MIN_LENGTH, DEFAULT_VALUES.min_length),
        max_length=length(MAX_LENGTH, DEFAULT_VALUES.max_length),
        characters=characters,
        distinct_values=distinct,
        value_distribution=distribution or DEFAULT_VALUES.value_distribution,
        zipf_exponent=(
            DEFAULT_VALUES.zipf_exponent
            if exponent is None
            else ZIPF_EXPONENT_RANGE.parse(exponent.option, exponent.value)
        ),
    )

    def written(name: str, value: object) -> str:
        g = p.get(name)
        return scala_text(value) if g is None else g.value

    try:
        validate_values(values, written, lambda name: p.get(name) is not None)
        validate_pool(values, written)
    except ValueError as error:
        raise ValueError(f"Column '{p.shown_path}': {error}") from error
    return Strings(values)
