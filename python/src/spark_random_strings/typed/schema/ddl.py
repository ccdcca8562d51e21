"""A declared schema read from however it was given: the DDL that ``StructType.fromDDL`` reads
(``.schema("id BIGINT NOT NULL, tags ARRAY<STRING>")``), a pyspark ``StructType`` (through its
JSON, ``typed.schema.struct_json``), or the types of ``typed.schema.sql_types``. A type that no
column may have is read too, named as Spark's ``sql`` names it, so that ``typed.columns`` refuses
it with the JVM's message; a field's COMMENT is kept in its metadata. Python alone: the JVM source
has Spark's own parser.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from spark_random_strings.typed.cells.spec import ArrayType, AtomicType, DataType, StructField, StructType
from spark_random_strings.typed.schema.jackson import Json, to_string
from spark_random_strings.typed.schema.sql_types import (
    BIGINT,
    BINARY,
    BOOLEAN,
    DATE,
    DOUBLE,
    ELEMENT,
    FLOAT,
    INT,
    KEY,
    SMALLINT,
    STRING,
    TIMESTAMP,
    TIMESTAMP_NTZ,
    TINYINT,
    VALUE,
    FieldMetadata,
    Position,
    simple_string,
    sql,
)
from spark_random_strings.typed.schema.struct_json import checked_decimal, from_json


def to_schema(schema: object) -> tuple[StructType, FieldMetadata]:
    """A declared schema, however it was given: DDL text, a pyspark ``StructType`` (read through
    its ``jsonValue()``, which needs no JVM), or a ``typed.cells.spec`` :class:`StructType`.

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
                return checked_decimal(precision, numbers[1] if len(numbers) == 2 else 0)
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
