"""The declared columns the ``changes`` source's options name (the jar's ``ChangeOptions.scala``:
its ``keyColumn``, ``checkKeyColumn`` and ``updatedColumns``): the key column, found
case-insensitively and checked for its type, width and nullability, and the columns an update
changes (``updateColumns``). Each refusal is the jar's message."""

from __future__ import annotations

from spark_random_strings.changes.keywords import KEY, KEY_TYPES, KEYS, UPDATE_COLUMNS
from spark_random_strings.options.ranges import java_equals_ignore_case, java_trim
from spark_random_strings.options.suggestions import closest
from spark_random_strings.typed.cells.spec import AtomicType, StructField


def updated_columns(fields: tuple[StructField, ...], key_field: StructField, text: str) -> str:
    """The declared columns ``text`` (``updateColumns``) names, comma-separated and
    case-insensitive, as the spec keeps them: in the declared order and spelling, joined by commas.

    Raises:
        ValueError: a name is empty, the key column's, or no declared top-level column's.
    """
    columns = [f.name for f in fields]
    named = [java_trim(name) for name in text.split(",")]
    for name in named:
        if not name:
            raise ValueError(
                f"Option '{UPDATE_COLUMNS}' is '{text}', which has an empty column name. Give the declared "
                "columns an update changes, separated by commas."
            )
        if java_equals_ignore_case(name, key_field.name):
            raise ValueError(
                f"Option '{UPDATE_COLUMNS}' names the key column '{key_field.name}', which no update "
                "changes: it is the change's key. Remove it."
            )
        if not any(java_equals_ignore_case(name, column) for column in columns):
            near = closest(name, [column for column in columns if column != key_field.name])
            hint = f" Did you mean '{near}'?" if near else ""
            raise ValueError(
                f"Option '{UPDATE_COLUMNS}' names '{name}', which is no declared column.{hint} The declared "
                f"columns: {', '.join(columns)}."
            )
    return ",".join(column for column in columns if any(java_equals_ignore_case(column, n) for n in named))


def key_column(fields: tuple[StructField, ...], key: str, key_given: bool) -> int:
    """The index of the declared top-level column ``key`` names, case-insensitive.

    Raises:
        ValueError: no column has that name; the closest one is suggested.
    """
    columns = [f.name for f in fields]
    index = next((i for i, name in enumerate(columns) if java_equals_ignore_case(name, key)), None)
    if index is None:
        said = f"Option '{KEY}' is '{key}', which"
        if not key_given:
            said = f"Option '{KEY}' is not set, and its default '{key}'"
        near = closest(key, columns)
        hint = f" Did you mean '{near}'?" if near else ""
        raise ValueError(
            f"{said} names no declared column.{hint} The declared columns: {', '.join(columns)}. Set "
            f"'{KEY}' to the column that holds each change's key."
        )
    return index


def check_key_column(field: StructField, type_sql: str, keys: int, keys_text: str | None) -> None:
    """The key column is one of ``KEY_TYPES``, holds ``keys`` distinct keys, and is NOT NULL.

    Raises:
        ValueError: naming the option and the column.
    """
    most = dict(KEY_TYPES).get(field.data_type.sql) if isinstance(field.data_type, AtomicType) else None
    if most is None:
        raise ValueError(
            f"Option '{KEY}' is '{field.name}', a {type_sql} column. A key column is "
            f"{', '.join(name for name, _ in KEY_TYPES)}: declare it as one of them."
        )
    if keys > most:
        shown = f"{keys} (its default)" if keys_text is None else keys_text
        wider = "" if type_sql == "STRING" else " (BIGINT holds 2^62)"
        raise ValueError(
            f"Option '{KEYS}' is {shown}, and the key column '{field.name}' is {type_sql}, whose values hold "
            f"at most {most} keys (0 to {most - 1}). Lower '{KEYS}', or declare a wider key type{wider}."
        )
    if field.nullable:
        raise ValueError(
            f"Option '{KEY}' is '{field.name}', a nullable column: every change has a key. Declare it "
            f"{field.name} {type_sql} NOT NULL."
        )
