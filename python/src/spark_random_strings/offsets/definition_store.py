"""A stream's definition in a checkpoint (the JVM source's ``DefinitionStore.scala``): the JSON
file the jar's source keeps in its folder of the checkpoint, versions 1 to 4, read and written
here as the JVM reads and writes it; and the stream that an offset of the Python data source
holds, in the same JSON. Version 4 is written for a stream with a declared schema only, and adds
``schema`` (its JSON, as Spark writes a ``StructType``) and ``fields`` (each ``fields.`` option's
name and value); every other stream's is still version 3, field for field.

A definition read back passes the rules a new one passes (``StreamDefinition.validated``); what
fails is reported as a corrupt file.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from spark_random_strings.offsets.corrupt import CorruptDefinitionError
from spark_random_strings.options import (
    DISTINCT_VALUES,
    DUPLICATE_FRACTION,
    LATE_BY_MS,
    LATE_ROW_FRACTION,
    MAX_DUPLICATE_DISTANCE,
    MAX_OUT_OF_ORDER_MS,
    RATE_PROFILE,
    START_TIMESTAMP,
    TIMESTAMP_COLUMN,
    VALUE_DISTRIBUTION,
    ZIPF_EXPONENT,
)
from spark_random_strings.options.ranges import LONG_MAX, LONG_MIN
from spark_random_strings.rows.definition import RowShape, StreamDefinition
from spark_random_strings.text.character_set import CharacterSet, alphabet_set, named_set
from spark_random_strings.text.string_values import DEFAULT_VALUES
from spark_random_strings.time.rate_profile import parse_rate_profile
from spark_random_strings.typed.cells.spec import StructType
from spark_random_strings.typed.declared_schema import DeclaredSchema
from spark_random_strings.typed.schema.sql_types import simple_string
from spark_random_strings.typed.schema.struct_json import from_json, to_json

#: The definition file's name in the source's folder of a checkpoint, and its newest layout:
#: version 2 added the shaping options, version 3 the options of time and the timestamp column,
#: version 4 a declared schema and its ``fields.`` options (written only for such a stream).
DEFINITION_FILE = "random-strings-source.json"
DEFINITION_VERSION = 4
#: The layout of a stream without a declared schema, which is still written as it was.
CLASSIC_VERSION = 3


def read_definition(path: Path) -> StreamDefinition:
    """The definition stored in the file at ``path`` (version 1 to 4), checked as the JVM source
    checks it on a restart.

    Raises:
        CorruptDefinitionError: the file is empty, not JSON, or a field is missing or invalid.
    """
    raw = path.read_text(encoding="utf-8")
    where = f"The source metadata file {path}"
    if not raw.strip():
        raise CorruptDefinitionError(f"{where} is corrupt or truncated (the file is empty).")
    try:
        stored = json.loads(raw)
    except json.JSONDecodeError as error:
        raise CorruptDefinitionError(f"{where} is corrupt or truncated (not valid JSON: {error}).") from None
    return definition_from_json(stored, where)


def definition_to_json(definition: StreamDefinition) -> dict[str, object]:
    """A definition as the JSON object the JVM source stores in its checkpoint: version 3, or 4
    with a declared schema (its ``schema`` as Spark's ``StructType.json``, keys in Spark's
    order, and its ``fields``)."""
    declared = definition.declared
    stored: dict[str, object] = {
        "version": CLASSIC_VERSION if declared is None else DEFINITION_VERSION,
        "seed": definition.seed,
        "startTimeMs": definition.start_time_ms,
        "rowsPerSecond": definition.rows_per_second,
        "minLength": definition.strings.min_length,
        "maxLength": definition.strings.max_length,
        "characters": definition.strings.characters.description,
    }
    stored.update(definition.shape_settings())
    if declared is not None:
        stored["schema"] = to_json(declared.schema, declared.metadata)
        stored["fields"] = dict(declared.fields)
    return stored


class _StoredFields:
    """The fields of a stored definition's JSON object, each read as its kind or refused as corrupt."""

    def __init__(self, stored: dict[str, Any], where: str) -> None:
        self.stored = stored
        self.where = where

    def corrupt(self, why: str) -> CorruptDefinitionError:
        return CorruptDefinitionError(f"{self.where} is corrupt or truncated ({why}).")

    def get(self, name: str) -> Any:
        if name not in self.stored:
            raise self.corrupt(f"the field '{name}' is missing")
        return self.stored[name]

    def whole(self, name: str, optional: bool = False) -> Any:
        value = self.get(name)
        if optional and value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not LONG_MIN <= value <= LONG_MAX:
            raise self.corrupt(f"'{name}' is not a whole number")
        return value

    def number(self, name: str) -> float:
        value = self.get(name)
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise self.corrupt(f"'{name}' is not a number")
        return float(value)

    def optional_text(self, name: str) -> str | None:
        value = self.get(name)
        if value is not None and not isinstance(value, str):
            raise self.corrupt(f"'{name}' is not a string")
        return value

    def boolean(self, name: str) -> bool:
        value = self.get(name)
        if not isinstance(value, bool):
            raise self.corrupt(f"'{name}' is not true or false")
        return value

    def characters(self) -> CharacterSet:
        described = self.get("characters")
        if isinstance(described, str) and described.startswith("charset="):
            return named_set("characters", described.removeprefix("charset="))
        if isinstance(described, str) and described.startswith("alphabet="):
            return alphabet_set("characters", described.removeprefix("alphabet="))
        raise self.corrupt(f"'characters' is '{described}', neither a charset nor an alphabet")

    def declared(self) -> DeclaredSchema:
        try:
            schema, metadata = from_json(self.get("schema"))
        except ValueError as error:
            raise self.corrupt(f"'schema' is not a schema: {error}") from None
        fields = self.get("fields")
        if not isinstance(fields, dict):
            raise self.corrupt("'fields' is not an object")
        if not isinstance(schema, StructType):
            raise self.corrupt(f"'schema' is {simple_string(schema)}, not a STRUCT")
        for name, value in fields.items():
            if not isinstance(value, str):
                raise self.corrupt(f"the value of '{name}' in 'fields' is not a string")
        return DeclaredSchema(schema, tuple(fields.items()), metadata)


def definition_from_json(stored: object, where: str) -> StreamDefinition:
    """The definition a JSON object (parsed) holds, as :func:`definition_to_json` or the JVM
    source writes it, version 1 to 4 (an older version reads as none of the later options
    set), checked as the JVM source checks it on a restart.

    Args:
        stored: the parsed JSON.
        where: what holds it, for the message ("The source metadata file ...").

    Raises:
        CorruptDefinitionError: it is not an object, or a field is missing or invalid.
    """
    if not isinstance(stored, dict):
        raise CorruptDefinitionError(f"{where} is corrupt or truncated (not a JSON object).")
    fields = _StoredFields(stored, where)
    version = fields.whole("version")
    if version not in range(1, DEFINITION_VERSION + 1):
        raise fields.corrupt(
            f"version {version} is not 1 to {DEFINITION_VERSION}, the versions this source reads"
        )
    try:
        definition = _definition(fields, version).validated()
    except CorruptDefinitionError:
        raise
    except ValueError as error:
        raise fields.corrupt(str(error)) from None
    return definition


def _definition(fields: _StoredFields, version: int) -> StreamDefinition:
    """The definition of a stored ``version``, its fields read in the order that makes a file with
    several bad ones name the one it always named: the characters, the shaping options (the pool's,
    then the row's), then the seed to the lengths, then version 3's and 4's."""
    characters = fields.characters()
    pool, shape = DEFAULT_VALUES, RowShape()
    if version >= 2:
        pool = replace(
            pool,
            distinct_values=fields.whole(DISTINCT_VALUES, optional=True),
            value_distribution=str(fields.get(VALUE_DISTRIBUTION)),
            zipf_exponent=fields.number(ZIPF_EXPONENT),
        )
        shape = RowShape(
            max_out_of_order_ms=fields.whole(MAX_OUT_OF_ORDER_MS),
            late_row_fraction=fields.number(LATE_ROW_FRACTION),
            late_by_ms=fields.whole(LATE_BY_MS, optional=True),
            duplicate_fraction=fields.number(DUPLICATE_FRACTION),
            max_duplicate_distance=fields.whole(MAX_DUPLICATE_DISTANCE),
        )
    definition = StreamDefinition(
        fields.whole("seed"),
        fields.whole("startTimeMs"),
        fields.whole("rowsPerSecond"),
        replace(
            pool,
            characters=characters,
            min_length=fields.whole("minLength"),
            max_length=fields.whole("maxLength"),
        ),
        shape,
    )
    if version >= 3:
        profile = fields.optional_text(RATE_PROFILE)
        definition = replace(
            definition,
            timestamp_column=fields.boolean(TIMESTAMP_COLUMN),
            start_timestamp=fields.whole(START_TIMESTAMP, optional=True),
            rate_profile=None if profile is None else parse_rate_profile(profile),
        )
    if version >= 4:
        definition = replace(definition, declared=fields.declared())
    return definition


def python_stream(offset_line: str, where: str) -> StreamDefinition | None:
    """The stream an offset of the Python data source holds (``{"offset": n, "stream": {...}}``,
    one line of a checkpoint's offset log); None for another source's offset."""
    try:
        offset = json.loads(offset_line)
    except json.JSONDecodeError:
        return None
    if not isinstance(offset, dict) or "stream" not in offset or "offset" not in offset:
        return None
    return definition_from_json(offset["stream"], where)
