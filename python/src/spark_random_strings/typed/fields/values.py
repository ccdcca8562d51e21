"""The ``values`` kind of a declared column (``FieldValues.scala``): its JSON list read as the
column's type, and how one is picked (``weights``, or ``distribution`` zipf over the list's
order)."""

from __future__ import annotations

import base64
import binascii
import itertools
import math
import re

from spark_random_strings.options import (
    ZIPF_EXPONENT,
    ZIPF_EXPONENT_RANGE,
)
from spark_random_strings.options.ranges import (
    java_double,
    java_equals_ignore_case,
    java_float,
    java_trim,
    to_float32,
)
from spark_random_strings.typed.cells.spec import (
    AtomicType,
    CellKind,
    Pick,
    PickUniform,
    PickWeighted,
    PickZipf,
    Values,
)
from spark_random_strings.typed.fields.properties import (
    DISTRIBUTION,
    UNIFORM_DISTRIBUTION,
    VALUES,
    WEIGHTS,
    ZIPF_DISTRIBUTION,
    Given,
    Properties,
)
from spark_random_strings.typed.fields.units import units_of
from spark_random_strings.typed.schema.jackson import (
    Json,
    as_double,
    as_text,
    is_number,
    read_tree,
    to_string,
)
from spark_random_strings.typed.schema.sql_types import (
    BINARY,
    BOOLEAN,
    DOUBLE,
    FLOAT,
    STRING,
)


def values(p: Properties) -> CellKind:
    listed = p.get(VALUES)
    if listed is None:
        raise ValueError(
            f"Column '{p.shown_path}' has kind values, but '{p.option(VALUES)}' is not set. Give the values "
            """as a JSON array, e.g. '["new", "paid"]'."""
        )
    nodes = _json_array(listed)
    if not nodes:
        raise ValueError(
            f"Invalid value '{listed.value}' for option '{listed.option}': the list is empty. Allowed: a "
            "JSON array of at least one value."
        )
    parsed = [_value_of(p, listed, node, i) for i, node in enumerate(nodes)]
    weights: list[float] | None = None
    given_weights = p.get(WEIGHTS)
    if given_weights is not None:
        g = given_weights
        weights = []
        for i, node in enumerate(_json_array(g)):
            weight = as_double(node) if is_number(node) else math.nan
            if not weight >= 0.0 or math.isinf(weight):
                raise ValueError(
                    f"Invalid value '{g.value}' for option '{g.option}': its element {i} ({to_string(node)}) "
                    "is not a number >= 0. Allowed: a JSON array of numbers >= 0, one for each value."
                )
            weights.append(weight)
        if len(weights) != len(nodes):
            raise ValueError(
                f"Invalid value '{g.value}' for option '{g.option}': {len(weights)} weights for "
                f"{len(nodes)} values in '{listed.option}'. Give one weight for each value."
            )
        if not sum(weights) > 0.0:
            raise ValueError(
                f"Invalid value '{g.value}' for option '{g.option}': the weights add up to 0. Give at "
                "least one value a weight above 0."
            )
    zipf = False
    given_distribution = p.get(DISTRIBUTION)
    if given_distribution is not None:
        text = java_trim(given_distribution.value)
        if not java_equals_ignore_case(text, ZIPF_DISTRIBUTION) and not java_equals_ignore_case(
            text, UNIFORM_DISTRIBUTION
        ):
            raise ValueError(
                f"Invalid value '{given_distribution.value}' for option '{given_distribution.option}'. "
                "Allowed for kind values: uniform or zipf (case-insensitive)."
            )
        zipf = java_equals_ignore_case(text, ZIPF_DISTRIBUTION)
    if zipf and weights is not None:
        raise ValueError(
            f"Options that do not fit together: '{p.option(WEIGHTS)}' and '{p.option(DISTRIBUTION)}' = zipf "
            f"both say how column '{p.shown_path}' picks its values. Keep one."
        )
    pick: Pick
    exponent = p.get(ZIPF_EXPONENT)
    if zipf:
        pick = PickZipf(
            1.0 if exponent is None else ZIPF_EXPONENT_RANGE.parse(exponent.option, exponent.value)
        )
    else:
        if exponent is not None:
            raise ValueError(
                f"Options that do not fit together: '{p.option(ZIPF_EXPONENT)}' is set, but "
                f"'{p.option(DISTRIBUTION)}' is not zipf. Set it to zipf, or remove "
                f"'{p.option(ZIPF_EXPONENT)}'."
            )
        pick = (
            PickUniform()
            if weights is None
            else PickWeighted(tuple(weights), tuple(itertools.accumulate(weights)))
        )
    p.only((VALUES, WEIGHTS, DISTRIBUTION, ZIPF_EXPONENT))
    return Values(tuple(v for v, _ in parsed), tuple(t for _, t in parsed), pick)


def _json_array(g: Given) -> list[Json]:
    ok, node = read_tree(g.value)
    if not ok or not isinstance(node, list):
        raise ValueError(
            f"Invalid value '{g.value}' for option '{g.option}': not a JSON array. Allowed: a JSON array, "
            """e.g. '["a", "b"]' or '[1, 2]'."""
        )
    return node


_BASE64 = re.compile(r"([A-Za-z0-9+/]*)(=*)")


def _base64(text: str) -> bytes | None:
    """``text`` decoded as Java's basic ``Base64.getDecoder`` decodes it (padding optional, but
    whole if there), or None."""
    match = _BASE64.fullmatch(text)
    if match is None:
        return None
    body, padding = match[1], match[2]
    if padding and (len(padding) > 2 or (len(body) + len(padding)) % 4 != 0):
        return None
    if len(body) % 4 == 1:
        return None
    try:
        return base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except binascii.Error:
        return None


def _value_of(p: Properties, g: Given, node: Json, i: int) -> tuple[object, str]:
    """Element ``i`` of a ``values`` list as a Python value of the column's type, and its
    canonical text."""

    def refuse(allowed: str) -> ValueError:
        return ValueError(
            f"Invalid value '{g.value}' for option '{g.option}': its element {i} ({to_string(node)}) is "
            f"not a value of column '{p.shown_path}' ({p.type_name}). Allowed: {allowed}."
        )

    name = p.data_type.sql if isinstance(p.data_type, AtomicType) else ""
    if name == BOOLEAN.sql:
        if not isinstance(node, bool):
            raise refuse("true or false")
        return node, to_string(node)
    if name == STRING.sql:
        if not isinstance(node, str):
            raise refuse("JSON strings")
        return node, to_string(node)
    if name == BINARY.sql:
        decoded = _base64(node) if isinstance(node, str) else None
        if decoded is None:
            raise refuse("base64 strings")
        return decoded, to_string(node)
    if name in (FLOAT.sql, DOUBLE.sql):
        if not is_number(node):
            raise refuse("JSON numbers")
        value = as_double(node)
        if name == FLOAT.sql:
            return to_float32(value), java_float(value)
        return value, java_double(value)
    units = units_of(p.data_type)
    if not isinstance(node, str) and not is_number(node):
        raise refuse(units.allowed)
    text = as_text(node)
    read = units.read(text)
    if read is None:
        raise refuse(units.allowed)
    return read, text
