"""JSON as the JVM source's Jackson reads and writes it, where a message or a file shows it: the
``values`` and ``weights`` of a declared column (``TypedColumns.scala``), a field's metadata and
a declared schema in a checkpoint's definition (``DefinitionStore.scala``). Python alone: the
JVM source has Jackson's ``ObjectMapper``.

A tree is read as ``ObjectMapper.readTree`` reads it: the first JSON value of the text (what
follows it is not read), no NaN or infinities, integers as Python ints and numbers with a point
or an exponent as floats (Jackson's ``DoubleNode``). It is written as a node's ``toString``
writes it: compact, doubles as Java writes them (non-finite ones quoted), every character as it
is but the quote, the backslash and the controls.
"""

from __future__ import annotations

import json
import math
from typing import Any

from spark_random_strings.options.ranges import java_double

#: A JSON value as Python holds it: None, bool, int, float, str, list or dict.
Json = Any


class _NotJson(ValueError):
    """The text is not JSON."""


def _no_constant(name: str) -> object:
    raise _NotJson(f"{name} is not JSON")


_WHITESPACE = " \t\n\r"


def read_tree(text: str) -> tuple[bool, Json]:
    """``(True, value)`` for the first JSON value of ``text``, as ``ObjectMapper.readTree``
    reads it; ``(False, None)`` if the text holds none (empty, or not JSON)."""
    start = len(text) - len(text.lstrip(_WHITESPACE))
    if start == len(text):
        return False, None
    try:
        # A decoder per call: the package's modules travel pickled to the Python workers, and a
        # module-level decoder (its C scanner) does not pickle.
        value, _ = json.JSONDecoder(parse_constant=_no_constant).raw_decode(text, start)
    except (ValueError, RecursionError):
        return False, None
    return True, value


def is_number(value: Json) -> bool:
    """Whether ``value`` is a JSON number (Jackson's ``isNumber``: not a boolean)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def as_double(value: Json) -> float:
    """A number's ``asDouble``: an integer too large for a double is infinite, as
    ``BigInteger.doubleValue`` makes it."""
    try:
        return float(value)
    except OverflowError:
        return math.copysign(math.inf, value)


def as_text(value: Json) -> str:
    """A node's ``asText``: a string as it is, a number or a boolean as its text, ``null`` for
    null, and an empty string for an array or an object."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return java_double(value)
    return "null" if value is None else ""


def to_string(value: Json) -> str:
    """A node's ``toString`` (and ``writeValueAsString``): compact JSON as Jackson writes it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = java_double(value)
        return text if math.isfinite(value) else quoted(text)
    if isinstance(value, str):
        return quoted(value)
    if isinstance(value, list | tuple):
        return "[" + ",".join(to_string(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{quoted(str(k))}:{to_string(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"not a JSON value: {value!r}")


_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def quoted(text: str) -> str:
    """``text`` as a JSON string, escaped as Jackson escapes it: the quote, the backslash, the
    short escapes, and any other control character as ``\\u00XX`` (upper-case hex)."""
    out = ['"']
    for c in text:
        escape = _SHORT_ESCAPES.get(c)
        if escape is not None:
            out.append(escape)
        elif c < " ":
            out.append(f"\\u{ord(c):04X}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)
