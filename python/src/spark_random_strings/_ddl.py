"""A declared schema as Spark reads and shows it, without the JVM: the DDL that
``StructType.fromDDL`` reads (``.schema("id BIGINT NOT NULL, tags ARRAY<STRING>")``), the JSON of
``StructType.json`` (which the definition in a checkpoint holds), a pyspark ``StructType``, and
the texts Spark makes of them, ``DataType.sql`` and ``StructType.toDDL`` (Spark 4's, which the
messages and the restart check show). Python alone: the JVM source has Spark's own types.

The types are ``_cell_spec``'s. A type that no column may have (MAP, INTERVAL, VARIANT, CHAR(n),
a collated STRING, ...) is read too, as an :class:`AtomicType` named as Spark's ``sql`` names
it, so that ``_typed_columns`` refuses it with the JVM's message. What a field carries besides
its name, type and nullability (its COMMENT, and whatever metadata a pyspark field holds) is
kept beside the types, by position (:data:`FieldMetadata`), for the texts and the JSON.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping

from spark_random_strings._cell_spec import ArrayType, AtomicType, DataType, StructField, StructType
from spark_random_strings._jackson import Json, read_tree, to_string

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
_JSON_NAMES: dict[str, AtomicType] = {
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
_NAMES_BY_SQL = {t.sql: name for name, t in _JSON_NAMES.items()}
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


# JSON.


def json_name(t: AtomicType | DataType) -> str:
    """An atomic type's JSON name (``DataType.typeName``): ``integer``, ``decimal(10,2)``."""
    if not isinstance(t, AtomicType):
        raise TypeError(f"not an atomic type: {t!r}")
    if is_decimal(t):
        return f"decimal({t.precision},{t.scale})"
    return _NAMES_BY_SQL.get(t.sql, t.sql.lower())


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
        if name in _JSON_NAMES:
            return _JSON_NAMES[name]
        if name == "decimal":
            return decimal(10, 0)
        if match := _DECIMAL_JSON.fullmatch(name):
            return _checked_decimal(int(match[1]), int(match[2]))
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


def _checked_decimal(precision: int, scale: int) -> AtomicType:
    """DECIMAL(precision, scale), if Spark's ``DecimalType`` allows it."""
    if scale > precision:
        raise ValueError(f"Decimal scale ({scale}) cannot be greater than precision ({precision}).")
    if precision > MAX_PRECISION:
        raise ValueError(f"Decimal precision {precision} exceeds max precision {MAX_PRECISION}.")
    return decimal(precision, scale)


def to_schema(schema: object) -> tuple[StructType, FieldMetadata]:
    """A declared schema, however it was given: DDL text, a pyspark ``StructType`` (read through
    its ``jsonValue()``, which needs no JVM), or a ``_cell_spec`` :class:`StructType`.

    Raises:
        ValueError: the DDL does not parse, or the schema is not a STRUCT.
    """
    if isinstance(schema, str):
        return parse_ddl(schema)
    if isinstance(schema, StructType):
        return schema, ()
    json_value: Callable[[], Json] | None = getattr(schema, "jsonValue", None)
    if json_value is not None:
        t, metadata = from_json(json_value())
        if isinstance(t, StructType):
            return t, metadata
        raise ValueError(f"The schema is {simple_string(t)}, not a STRUCT.")
    raise TypeError(f"not a schema: {schema!r}; give DDL text or a pyspark StructType")


# DDL.


_SPACES = " \t\n\f\r\u000b\u00a0\u1680\u2028\u2029\u202f\u205f\u3000" + "".join(
    map(chr, range(0x2000, 0x200B))
)
_PUNCTUATION = "<>,:()!"


def _is_word_char(c: str) -> bool:
    """Whether ``c`` may be in a word of DDL: a letter, an ASCII digit or ``_`` (Spark's lexer's
    ``IDENTIFIER``)."""
    return c == "_" or "0" <= c <= "9" or unicodedata.category(c).startswith("L")


class _Token:
    """One token of DDL: a ``word`` (upper-cased in ``upper``), a ``name`` in backticks, a
    ``string`` literal, an ``int``, or a punctuation mark (its own text); ``at`` is its position."""

    __slots__ = ("at", "kind", "text")

    def __init__(self, kind: str, text: str, at: int) -> None:
        self.kind, self.text, self.at = kind, text, at

    @property
    def upper(self) -> str:
        return self.text.upper() if self.kind == "word" else ""


def parse_ddl(text: str) -> tuple[StructType, FieldMetadata]:
    """The schema DDL ``text`` declares, as ``StructType.fromDDL`` reads it: ``name TYPE
    [NOT NULL] [COMMENT '...']``, comma-separated; names plain or in backticks (a backtick in
    one doubled); type names case-insensitive, with Spark's synonyms (INTEGER, LONG, SHORT,
    BYTE, REAL, DEC and NUMERIC, DECIMAL alone DECIMAL(10,0)); ``STRUCT<a: INT, b STRING>``,
    ``ARRAY<...>``, ``MAP<..., ...>``. Comments are kept in the metadata.

    Raises:
        ValueError: the text is not such a schema, naming the position (in code points).
    """
    return _DdlParser(text).schema()


class _DdlParser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = self.tokenize()
        self.i = 0
        self.metadata: list[tuple[Position, str]] = []

    def refuse(self, why: str, at: int | None = None) -> ValueError:
        position = self.peek.at if at is None else at
        return ValueError(f"Invalid schema '{self.text}': {why} at position {position}.")

    def tokenize(self) -> list[_Token]:
        text, tokens, i = self.text, [], 0
        while i < len(text):
            c = text[i]
            if c in _SPACES:
                i += 1
            elif text.startswith("--", i):
                end = text.find("\n", i)
                i = len(text) if end < 0 else end + 1
            elif text.startswith("/*", i):
                depth, j = 1, i + 2
                while j < len(text) and depth:
                    if text.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                    else:
                        j += 1
                if depth:
                    raise ValueError(
                        f"Invalid schema '{text}': a comment that does not close at position {i}."
                    )
                i = j
            elif c == "`":
                name, j = [], i + 1
                while True:
                    if j >= len(text):
                        raise ValueError(
                            f"Invalid schema '{text}': a backtick that does not close at position {i}."
                        )
                    if text[j] == "`":
                        if text.startswith("``", j):
                            name.append("`")
                            j += 2
                            continue
                        break
                    name.append(text[j])
                    j += 1
                tokens.append(_Token("name", "".join(name), i))
                i = j + 1
            elif c in "'\"" or (c in "rR" and i + 1 < len(text) and text[i + 1] in "'\""):
                value, i2 = self.string_literal(i)
                tokens.append(_Token("string", value, i))
                i = i2
            elif text.startswith("<>", i):
                tokens.append(_Token("<", "<", i))
                tokens.append(_Token(">", ">", i + 1))
                i += 2
            elif c in _PUNCTUATION:
                tokens.append(_Token(c, c, i))
                i += 1
            elif _is_word_char(c):
                j = i
                while j < len(text) and _is_word_char(text[j]):
                    j += 1
                word = text[i:j]
                tokens.append(_Token("int" if word.isascii() and word.isdigit() else "word", word, i))
                i = j
            else:
                raise ValueError(f"Invalid schema '{text}': an unexpected '{c}' at position {i}.")
        tokens.append(_Token("end", "", len(text)))
        return tokens

    def string_literal(self, i: int) -> tuple[str, int]:
        """The value of the string literal at ``i`` (``'...'``, ``"..."``, raw ``R'...'``), as
        Spark unescapes it, and the position after it."""
        text = self.text
        raw = text[i] in "rR"
        start = i + 1 if raw else i
        quote = text[start]
        out: list[str] = []
        j = start + 1
        while j < len(text):
            c = text[j]
            if c == quote:
                if not raw and text.startswith(quote * 2, j):
                    out.append(quote)
                    j += 2
                    continue
                return "".join(out), j + 1
            if c == "\\" and not raw and j + 1 < len(text):
                j = self.escape(j + 1, out)
                continue
            out.append(c)
            j += 1
        raise ValueError(f"Invalid schema '{text}': a string that does not close at position {i}.")

    def escape(self, j: int, out: list[str]) -> int:
        """Reads the escape after a backslash, at ``j``, into ``out`` (``unescapeSQLString``)."""
        text = self.text
        c = text[j]
        if c == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", text[j + 1 : j + 5]):
            out.append(chr(int(text[j + 1 : j + 5], 16)))
            return j + 5
        if c == "U" and re.fullmatch(r"[0-9a-fA-F]{8}", text[j + 1 : j + 9]):
            out.append(chr(int(text[j + 1 : j + 9], 16)))
            return j + 9
        if re.fullmatch(r"[0-3][0-7][0-7]", text[j : j + 3]):
            out.append(chr(int(text[j : j + 3], 8)))
            return j + 3
        out.append(
            {"0": "\0", "b": "\b", "n": "\n", "r": "\r", "t": "\t", "Z": "\x1a", "%": "\\%", "_": "\\_"}.get(
                c, c
            )
        )
        return j + 1

    @property
    def peek(self) -> _Token:
        return self.tokens[self.i]

    def take(self) -> _Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def expect(self, kind: str, what: str) -> _Token:
        if self.peek.kind != kind:
            raise self.refuse(f"{what} expected, not {self.shown(self.peek)}")
        return self.take()

    @staticmethod
    def shown(token: _Token) -> str:
        return "the end" if token.kind == "end" else f"'{token.text}'"

    def schema(self) -> tuple[StructType, FieldMetadata]:
        fields: list[StructField] = []
        if self.peek.kind != "end":
            fields.append(self.column((len(fields),), colon=False))
            while self.peek.kind == ",":
                self.take()
                fields.append(self.column((len(fields),), colon=False))
        if self.peek.kind != "end":
            raise self.refuse(f"',' or the end expected, not {self.shown(self.peek)}")
        return StructType(tuple(fields)), tuple(self.metadata)

    def column(self, at: Position, colon: bool) -> StructField:
        """``name [:] TYPE [NOT NULL] [COMMENT '...']``; the colon only in a STRUCT."""
        if self.peek.kind not in ("word", "name"):
            raise self.refuse(f"a column name expected, not {self.shown(self.peek)}")
        name = self.take().text
        if colon and self.peek.kind == ":":
            self.take()
        t = self.data_type(at)
        nullable = True
        if self.peek.upper == "NOT" or self.peek.kind == "!":
            self.take()
            if self.peek.upper != "NULL":
                raise self.refuse(f"NULL expected, not {self.shown(self.peek)}")
            self.take()
            nullable = False
        if self.peek.upper == "COMMENT":
            self.take()
            parts = [self.expect("string", "a string").text]
            while self.peek.kind == "string":
                parts.append(self.take().text)
            self.metadata.append((at, to_string({"comment": "".join(parts)})))
        return StructField(name, t, nullable)

    def data_type(self, at: Position) -> DataType:
        token = self.expect("word", "a type")
        word = token.upper
        if word in ("ARRAY", "MAP", "STRUCT"):
            if self.peek.kind != "<":
                raise self.refuse(f"{word} needs the type of its parts: {word}<...>", token.at)
            self.take()
            t: DataType
            if word == "ARRAY":
                t = ArrayType(self.data_type((*at, ELEMENT)))
            elif word == "MAP":
                key = self.data_type((*at, KEY))
                self.expect(",", "','")
                value = self.data_type((*at, VALUE))
                known = tuple(self.metadata)
                t = AtomicType(f"MAP<{sql(key, known, (*at, KEY))}, {sql(value, known, (*at, VALUE))}>")
            else:
                fields: list[StructField] = []
                if self.peek.kind != ">":
                    fields.append(self.column((*at, 0), colon=True))
                    while self.peek.kind == ",":
                        self.take()
                        fields.append(self.column((*at, len(fields)), colon=True))
                t = StructType(tuple(fields))
            self.expect(">", "'>'")
            return t
        return self.primitive(token)

    def integers(self) -> list[int]:
        """``(n[, n...])`` after a type's name, if there."""
        if self.peek.kind != "(":
            return []
        self.take()
        values = [int(self.expect("int", "a whole number").text)]
        while self.peek.kind == ",":
            self.take()
            values.append(int(self.expect("int", "a whole number").text))
        self.expect(")", "')'")
        return values

    def words(self, *expected: str) -> bool:
        """Whether the next words are ``expected`` (then they are read)."""
        upper = [t.upper for t in self.tokens[self.i : self.i + len(expected)]]
        if upper == list(expected):
            self.i += len(expected)
            return True
        return False

    def primitive(self, token: _Token) -> DataType:
        word = token.upper
        simple = {
            "BOOLEAN": BOOLEAN,
            "TINYINT": TINYINT,
            "BYTE": TINYINT,
            "SMALLINT": SMALLINT,
            "SHORT": SMALLINT,
            "INT": INT,
            "INTEGER": INT,
            "BIGINT": BIGINT,
            "LONG": BIGINT,
            "FLOAT": FLOAT,
            "REAL": FLOAT,
            "DOUBLE": DOUBLE,
            "DATE": DATE,
            "BINARY": BINARY,
            "TIMESTAMP_LTZ": TIMESTAMP,
            "TIMESTAMP_NTZ": TIMESTAMP_NTZ,
            "VOID": AtomicType("VOID"),
            "VARIANT": AtomicType("VARIANT"),
        }
        if word in simple:
            return simple[word]
        if word in ("DECIMAL", "DEC", "NUMERIC"):
            numbers = self.integers()
            if len(numbers) > 2:
                raise self.refuse("DECIMAL takes a precision and a scale", token.at)
            try:
                precision = numbers[0] if numbers else 10
                return _checked_decimal(precision, numbers[1] if len(numbers) == 2 else 0)
            except ValueError as error:
                raise self.refuse(str(error).rstrip("."), token.at) from None
        if word == "STRING":
            return self.collated(STRING)
        if word in ("CHAR", "CHARACTER", "VARCHAR"):
            numbers = self.integers()
            if len(numbers) != 1:
                raise self.refuse(f"{token.text} needs a length, e.g. {word}(10)", token.at)
            return self.collated(AtomicType(f"{'VARCHAR' if word == 'VARCHAR' else 'CHAR'}({numbers[0]})"))
        if word == "TIMESTAMP":
            if self.words("WITHOUT", "TIME", "ZONE"):
                return TIMESTAMP_NTZ
            self.words("WITH", "LOCAL", "TIME", "ZONE")
            return TIMESTAMP
        if word == "TIME":
            numbers = self.integers()
            self.words("WITHOUT", "TIME", "ZONE")
            return AtomicType(f"TIME({numbers[0] if numbers else 6})")
        if word == "INTERVAL":
            return self.interval(token)
        raise self.refuse(f"the unsupported data type '{token.text}'", token.at)

    def collated(self, t: AtomicType) -> AtomicType:
        if self.peek.upper != "COLLATE":
            return t
        self.take()
        name = self.expect("word", "a collation name").text
        if t == STRING and name.upper() == "UTF8_BINARY":
            return t
        return AtomicType(f"{t.sql} COLLATE {name}")

    def interval(self, token: _Token) -> DataType:
        year_month, day_time = ["YEAR", "MONTH"], ["DAY", "HOUR", "MINUTE", "SECOND"]
        start = self.peek.upper
        units = year_month if start in year_month else day_time if start in day_time else None
        if units is None:
            return AtomicType("INTERVAL")
        self.take()
        if self.peek.upper != "TO":
            return AtomicType(f"INTERVAL {start}")
        self.take()
        end_token = self.expect("word", "an interval unit")
        end = end_token.upper
        if end not in units or units.index(end) <= units.index(start):
            raise self.refuse(f"the interval INTERVAL {start} TO {end_token.text}", token.at)
        return AtomicType(f"INTERVAL {start} TO {end}")
