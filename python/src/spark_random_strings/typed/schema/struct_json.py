"""A schema's JSON as Spark writes and reads it (``StructType.json``, ``DataType.fromJson``, a
pyspark type's ``jsonValue()``): what the definition in a checkpoint holds, and how a pyspark
``StructType`` is read without the JVM. Python alone: the JVM source has Spark's own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from spark_random_strings.typed.cells.spec import ArrayType, AtomicType, DataType, StructField, StructType
from spark_random_strings.typed.schema.jackson import Json, to_string
from spark_random_strings.typed.schema.sql_types import (
    ELEMENT,
    KEY,
    MAX_PRECISION,
    STRING,
    TYPES_BY_JSON_NAME,
    VALUE,
    FieldMetadata,
    Position,
    decimal,
    json_name,
    metadata_at,
    sql,
)


def to_json(t: DataType, metadata: FieldMetadata = (), at: Position = ()) -> Json:
    """``t`` as Spark's ``DataType.jsonValue``, its keys in Spark's order: what
    ``StructType.json`` writes."""
    match t:
        case ArrayType(element, contains_null):
            return {
                "type": "array",
                "elementType": to_json(element, metadata, (*at, ELEMENT)),
                "containsNull": contains_null,
            }
        case StructType(fields):
            return {
                "type": "struct",
                "fields": [
                    {
                        "name": f.name,
                        "type": to_json(f.data_type, metadata, (*at, i)),
                        "nullable": f.nullable,
                        "metadata": metadata_at(metadata, (*at, i)),
                    }
                    for i, f in enumerate(fields)
                ],
            }
    return json_name(t)


def schema_json(schema: StructType, metadata: FieldMetadata = ()) -> str:
    """The schema's JSON text as the JVM source's definition file holds it: Spark's
    ``StructType.json``, compact, written again by Jackson."""
    return to_string(to_json(schema, metadata))


_DECIMAL_JSON = re.compile(r"decimal\(\s*(\d+)\s*,\s*(-?\d+)\s*\)")
_SIZED_JSON = re.compile(r"(char|varchar|time)\(\s*(\d+)\s*\)")


def from_json(value: Json) -> tuple[DataType, FieldMetadata]:
    """The type a JSON value of Spark's (``DataType.fromJson``, a pyspark type's
    ``jsonValue()``) describes, and its fields' metadata.

    Raises:
        ValueError: it describes no type.
    """
    metadata: list[tuple[Position, str]] = []
    t = _type_from_json(value, (), metadata, None, "")
    return t, tuple(metadata)


def _type_from_json(
    value: Json,
    at: Position,
    metadata: list[tuple[Position, str]],
    collations: Mapping[str, Json] | None,
    path: str,
) -> DataType:
    if isinstance(value, str):
        name = value.strip().lower()
        if name == "string" and collations is not None and isinstance(collations.get(path), str):
            collation = str(collations[path]).rsplit(".", 1)[-1]
            return STRING if collation.upper() == "UTF8_BINARY" else AtomicType(f"STRING COLLATE {collation}")
        if name in TYPES_BY_JSON_NAME:
            return TYPES_BY_JSON_NAME[name]
        if name == "decimal":
            return decimal(10, 0)
        if match := _DECIMAL_JSON.fullmatch(name):
            return checked_decimal(int(match[1]), int(match[2]))
        if match := _SIZED_JSON.fullmatch(name):
            return AtomicType(f"{match[1].upper()}({match[2]})")
        if name.startswith("string collate "):
            return AtomicType("STRING COLLATE " + value.strip()[len("string collate ") :])
        if name.startswith(("interval ", "geometry(", "geography(")):
            return AtomicType(name.upper())
        raise ValueError(f"Failed to convert the JSON string '{value}' to a data type.")
    if isinstance(value, dict):
        kind = value.get("type")
        try:
            if kind == "array":
                element = _type_from_json(
                    value["elementType"], (*at, ELEMENT), metadata, collations, f"{path}.element"
                )
                return ArrayType(element, _boolean(value["containsNull"]))
            if kind == "map":
                key = _type_from_json(value["keyType"], (*at, KEY), metadata, collations, f"{path}.key")
                val = _type_from_json(value["valueType"], (*at, VALUE), metadata, collations, f"{path}.value")
                _boolean(value["valueContainsNull"])
                known = tuple(metadata)
                return AtomicType(f"MAP<{sql(key, known, (*at, KEY))}, {sql(val, known, (*at, VALUE))}>")
            if kind == "struct":
                fields = value["fields"]
                if not isinstance(fields, list):
                    raise ValueError("'fields' is not a list")
                return StructType(
                    tuple(_field_from_json(f, (*at, i), metadata) for i, f in enumerate(fields))
                )
        except KeyError as missing:
            raise ValueError(
                f"Failed to convert the JSON string '{to_string(value)}' to a data type: no {missing}."
            ) from None
    raise ValueError(f"Failed to convert the JSON string '{to_string(value)}' to a data type.")


def _field_from_json(value: Json, at: Position, metadata: list[tuple[Position, str]]) -> StructField:
    if not isinstance(value, dict) or not isinstance(value.get("name"), str) or "type" not in value:
        raise ValueError(f"Failed to convert the JSON string '{to_string(value)}' to a field.")
    name = value["name"]
    field_metadata = value.get("metadata", {})
    if not isinstance(field_metadata, dict):
        raise ValueError(f"Failed to convert the JSON string '{to_string(value)}' to a field.")
    collations = field_metadata.get("__COLLATIONS")
    rest = {k: v for k, v in field_metadata.items() if k != "__COLLATIONS"}
    t = _type_from_json(
        value["type"], at, metadata, collations if isinstance(collations, dict) else None, name
    )
    if rest:
        metadata.append((at, to_string(rest)))
    return StructField(name, t, _boolean(value.get("nullable")))


def _boolean(value: Json) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{to_string(value)} is not true or false")
    return value


def checked_decimal(precision: int, scale: int) -> AtomicType:
    """DECIMAL(precision, scale), if Spark's ``DecimalType`` allows it."""
    if scale > precision:
        raise ValueError(f"Decimal scale ({scale}) cannot be greater than precision ({precision}).")
    if precision > MAX_PRECISION:
        raise ValueError(f"Decimal precision {precision} exceeds max precision {MAX_PRECISION}.")
    return decimal(precision, scale)
