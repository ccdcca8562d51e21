"""Spark's data types as a declared schema holds them, without the JVM, and the texts Spark makes
of them: ``DataType.sql`` and ``StructType.toDDL`` (Spark 4's, which the messages and the restart
check show), ``DataType.simpleString`` and the JSON names (``DataType.typeName``).

The types are ``typed.cells.spec``'s. A type that no column may have (MAP, INTERVAL, VARIANT, CHAR(n),
a collated STRING, ...) is an :class:`AtomicType` named as Spark's ``sql`` names it, so that
``typed.columns`` refuses it with the JVM's message. What a field carries besides its name, type
and nullability (its COMMENT, and whatever metadata a pyspark field holds) is kept beside the
types, by position (:data:`FieldMetadata`). ``typed.schema.ddl`` reads DDL into them,
``typed.schema.struct_json`` reads and writes their JSON. Python alone: the JVM source has Spark's own types.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from spark_random_strings.typed.cells.spec import ArrayType, AtomicType, DataType, StructField, StructType
from spark_random_strings.typed.schema.jackson import Json, read_tree

#: The parts of a :data:`Position` that step into an ARRAY's elements, a MAP's keys and values.
ELEMENT, KEY, VALUE = -1, -2, -3
#: Where a field is in a schema: its index in the top-level struct, then in each nested struct,
#: with :data:`ELEMENT` for an ARRAY's elements.
Position = tuple[int, ...]
#: Each field's metadata that is not empty, as JSON text (Jackson's), by position.
FieldMetadata = tuple[tuple[Position, str], ...]

BOOLEAN = AtomicType("BOOLEAN")
TINYINT = AtomicType("TINYINT")
SMALLINT = AtomicType("SMALLINT")
INT = AtomicType("INT")
BIGINT = AtomicType("BIGINT")
FLOAT = AtomicType("FLOAT")
DOUBLE = AtomicType("DOUBLE")
STRING = AtomicType("STRING")
BINARY = AtomicType("BINARY")
DATE = AtomicType("DATE")
TIMESTAMP = AtomicType("TIMESTAMP")
TIMESTAMP_NTZ = AtomicType("TIMESTAMP_NTZ")
#: The largest precision of a DECIMAL.
MAX_PRECISION = 38


def decimal(precision: int, scale: int) -> AtomicType:
    """DECIMAL(precision, scale)."""
    return AtomicType(f"DECIMAL({precision},{scale})", precision, scale)


def is_decimal(t: DataType) -> bool:
    """Whether ``t`` is a DECIMAL."""
    return isinstance(t, AtomicType) and t.sql.startswith("DECIMAL(")


# The JSON names of the types (``DataType.typeName``), and back.
TYPES_BY_JSON_NAME: dict[str, AtomicType] = {
    "boolean": BOOLEAN,
    "byte": TINYINT,
    "short": SMALLINT,
    "integer": INT,
    "long": BIGINT,
    "float": FLOAT,
    "double": DOUBLE,
    "string": STRING,
    "binary": BINARY,
    "date": DATE,
    "timestamp": TIMESTAMP,
    "timestamp_ntz": TIMESTAMP_NTZ,
    "void": AtomicType("VOID"),
    "variant": AtomicType("VARIANT"),
    "interval": AtomicType("INTERVAL"),
}
_NAMES_BY_SQL = {t.sql: name for name, t in TYPES_BY_JSON_NAME.items()}
# ``DataType.simpleString`` where it is not the JSON name.
_SIMPLE_NAMES = {"integer": "int", "long": "bigint", "short": "smallint", "byte": "tinyint"}


# Texts.


_PLAIN_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")


def quote_if_needed(name: str) -> str:
    """A name as Spark's ``QuotingUtils.quoteIfNeeded`` writes it: as it is if it is a plain
    identifier, else in backticks, a backtick in it doubled."""
    return name if _PLAIN_NAME.fullmatch(name) else "`" + name.replace("`", "``") + "`"


def escape_single_quoted(text: str) -> str:
    """``QuotingUtils.escapeSingleQuotedString``: a backslash and a single quote escaped."""
    return text.replace("\\", "\\\\").replace("'", "\\'")


def metadata_at(metadata: FieldMetadata, at: Position) -> dict[str, Json]:
    """The metadata of the field at ``at`` (empty if none)."""
    for position, text in metadata:
        if position == at:
            ok, value = read_tree(text)
            return value if ok and isinstance(value, dict) else {}
    return {}


def _field_tail(nullable: bool, metadata: Mapping[str, Json]) -> str:
    """What follows a field's type in Spark's texts: `` NOT NULL``, `` DEFAULT ...``,
    `` COMMENT '...'``."""
    tail = "" if nullable else " NOT NULL"
    default = metadata.get("CURRENT_DEFAULT")
    if isinstance(default, str):
        tail += " DEFAULT " + default
    comment = metadata.get("comment")
    if isinstance(comment, str):
        tail += " COMMENT '" + escape_single_quoted(comment) + "'"
    return tail


def sql(t: DataType, metadata: FieldMetadata = (), at: Position = ()) -> str:
    """``t`` as Spark 4's ``DataType.sql`` shows it (the messages' types): ``DECIMAL(10,2)``,
    ``ARRAY<STRING>``, ``STRUCT<city: STRING, `a b`: INT NOT NULL COMMENT 'x'>``. ``at`` is
    where ``t`` is in the schema whose ``metadata`` holds its fields' comments."""
    match t:
        case AtomicType(name, _, _):
            return name
        case ArrayType(element, _):
            return f"ARRAY<{sql(element, metadata, (*at, ELEMENT))}>"
        case StructType(fields):
            return (
                "STRUCT<"
                + ", ".join(_field_sql(f, metadata, (*at, i), ": ") for i, f in enumerate(fields))
                + ">"
            )
    raise TypeError(f"not a data type: {t!r}")


def _field_sql(f: StructField, metadata: FieldMetadata, at: Position, separator: str) -> str:
    field_metadata = metadata_at(metadata, at)
    return (
        quote_if_needed(f.name)
        + separator
        + sql(f.data_type, metadata, at)
        + _field_tail(f.nullable, field_metadata)
    )


def to_ddl(schema: StructType, metadata: FieldMetadata = ()) -> str:
    """``StructType.toDDL``: each column as ``name TYPE[ NOT NULL][ COMMENT '...']``, joined by
    commas without a space."""
    return ",".join(_field_sql(f, metadata, (i,), " ") for i, f in enumerate(schema.fields))


def simple_string(t: DataType) -> str:
    """``DataType.simpleString``: ``int``, ``array<string>``, ``struct<a:int>``."""
    match t:
        case ArrayType(element, _):
            return f"array<{simple_string(element)}>"
        case StructType(fields):
            return "struct<" + ",".join(f"{f.name}:{simple_string(f.data_type)}" for f in fields) + ">"
    name = json_name(t)
    return _SIMPLE_NAMES.get(name, name)


def json_name(t: AtomicType | DataType) -> str:
    """An atomic type's JSON name (``DataType.typeName``): ``integer``, ``decimal(10,2)``."""
    if not isinstance(t, AtomicType):
        raise TypeError(f"not an atomic type: {t!r}")
    if is_decimal(t):
        return f"decimal({t.precision},{t.scale})"
    return _NAMES_BY_SQL.get(t.sql, t.sql.lower())
