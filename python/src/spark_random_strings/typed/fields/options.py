"""The ``fields.<column>.<property>`` options (the JVM source's ``FieldOptions.scala``, Flink
DataGen's convention): each one's column path and property, read from the option's name.

A path names a column of the declared schema, then a field of a STRUCT by its name, the
elements of an ARRAY by ``element``; the last part is the property. A name with dots or
backticks is quoted in backticks, a backtick in it doubled, as in Spark SQL: ``fields.`a.b`.min``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

#: What every per-column option's name starts with, case-insensitive.
PREFIX = "fields."


def is_field_option(name: str) -> bool:
    """Whether option ``name`` is a per-column option."""
    return name.lower().startswith(PREFIX)


def split(name: str) -> tuple[tuple[str, ...], str]:
    """The parts of ``name`` after :data:`PREFIX`: the column path and the property, its last
    part.

    Raises:
        ValueError: naming the option, if its backticks do not close or it has fewer than a
            column and a property. A position counts UTF-16 code units, as the JVM's does.
    """
    rest = name[len(PREFIX) :]

    def refuse(why: str) -> ValueError:
        return ValueError(
            f"Invalid option name '{name}': {why}. A per-column option is named "
            f"'{PREFIX}<column>.<property>', with '.' between the names of nested fields and "
            "backticks around a name that holds a dot, e.g. 'fields.`a.b`.min'."
        )

    parts: list[str] = []
    part: list[str] = []
    quoted = False
    i = 0  # in code points
    position = len(PREFIX)  # of rest[i], in UTF-16 code units
    while i < len(rest):
        c = rest[i]
        if quoted:
            if c == "`":
                if i + 1 < len(rest) and rest[i + 1] == "`":
                    part.append("`")
                    i += 1
                    position += 1
                else:
                    quoted = False
            else:
                part.append(c)
        elif c == "`":
            if part:
                raise refuse(f"a backtick in the middle of a name, at position {position}")
            quoted = True
        elif c == ".":
            if not part:
                raise refuse(f"an empty name at position {position}")
            parts.append("".join(part))
            part = []
        else:
            part.append(c)
        position += 2 if ord(c) > 0xFFFF else 1
        i += 1
    if quoted:
        raise refuse("a backtick that does not close")
    if not part:
        raise refuse("it ends without a property")
    parts.append("".join(part))
    if len(parts) < 2:
        raise refuse("it names no column, or no property")
    return tuple(parts[:-1]), parts[-1]


def shown(path: Sequence[str]) -> str:
    """``path`` as the messages show it: names joined by dots, quoted in backticks where
    needed."""
    return ".".join("`" + p.replace("`", "``") + "`" if not p or "." in p or "`" in p else p for p in path)


def flattened(fields: Mapping[str, Mapping[str, object]]) -> dict[str, str]:
    """The ``fields.`` options that a mapping of column path to properties says, as the source
    takes them (Python alone: the keyword ``fields`` of ``read_random_strings`` and
    ``expected_rows``). A path is written as in an option's name (``"shipping.zip"``,
    ``"`a.b`"``); a value becomes its text: booleans ``true``/``false``, lists and tuples JSON.

    Examples:
        >>> flattened({"user_id": {"min": 1, "distribution": "zipf"}, "tags.element": {"values": ["a"]}})
        ... # doctest: +NORMALIZE_WHITESPACE
        {'fields.user_id.min': '1', 'fields.user_id.distribution': 'zipf',
         'fields.tags.element.values': '["a"]'}

    Raises:
        TypeError: ``fields`` is not a mapping of column paths to mappings of properties.
    """
    import json

    if not isinstance(fields, Mapping):
        raise TypeError(
            f"fields must be a mapping of column paths to properties, got {type(fields).__name__}"
        )
    options: dict[str, str] = {}
    for path, properties in fields.items():
        if not isinstance(path, str) or not isinstance(properties, Mapping):
            raise TypeError(
                "fields must map each column path (a str) to a mapping of its properties, e.g. "
                f"{{'user_id': {{'min': 1}}}}; got {path!r}: {properties!r}"
            )
        for name, value in properties.items():
            if isinstance(value, bool):
                text = "true" if value else "false"
            elif isinstance(value, list | tuple):
                text = json.dumps(list(value), ensure_ascii=False)
            else:
                text = str(value)
            options[f"{PREFIX}{path}.{name}"] = text
    return options
