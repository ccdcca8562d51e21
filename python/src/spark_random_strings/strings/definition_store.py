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
from spark_random_strings.text.character_set import alphabet_set, named_set
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

    def corrupt(why: str) -> CorruptDefinitionError:
        return CorruptDefinitionError(f"{where} is corrupt or truncated ({why}).")

    if not isinstance(stored, dict):
        raise corrupt("not a JSON object")

    def get(name: str) -> Any:
        if name not in stored:
            raise corrupt(f"the field '{name}' is missing")
        return stored[name]

    def whole(name: str, optional: bool = False) -> Any:
        value = get(name)
        if optional and value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not LONG_MIN <= value <= LONG_MAX:
            raise corrupt(f"'{name}' is not a whole number")
        return value

    def number(name: str) -> float:
        value = get(name)
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise corrupt(f"'{name}' is not a number")
        return float(value)

    def optional_text(name: str) -> str | None:
        value = get(name)
        if value is not None and not isinstance(value, str):
            raise corrupt(f"'{name}' is not a string")
        return value

    def boolean(name: str) -> bool:
        value = get(name)
        if not isinstance(value, bool):
            raise corrupt(f"'{name}' is not true or false")
        return value

    def declared() -> DeclaredSchema:
        try:
            schema, metadata = from_json(get("schema"))
        except ValueError as error:
            raise corrupt(f"'schema' is not a schema: {error}") from None
        fields = get("fields")
        if not isinstance(fields, dict):
            raise corrupt("'fields' is not an object")
        if not isinstance(schema, StructType):
            raise corrupt(f"'schema' is {simple_string(schema)}, not a STRUCT")
        for name, value in fields.items():
            if not isinstance(value, str):
                raise corrupt(f"the value of '{name}' in 'fields' is not a string")
        return DeclaredSchema(schema, tuple(fields.items()), metadata)

    version = whole("version")
    if version not in range(1, DEFINITION_VERSION + 1):
        raise corrupt(f"version {version} is not 1 to {DEFINITION_VERSION}, the versions this source reads")
    described = get("characters")
    try:
        if isinstance(described, str) and described.startswith("charset="):
            characters = named_set("characters", described.removeprefix("charset="))
        elif isinstance(described, str) and described.startswith("alphabet="):
            characters = alphabet_set("characters", described.removeprefix("alphabet="))
        else:
            raise corrupt(f"'characters' is '{described}', neither a charset nor an alphabet")
        # The fields are read in this order, so that a file with several bad ones names the one it
        # always named: the shaping options (the pool's, then the row's), then the seed to the lengths.
        pool, shape = DEFAULT_VALUES, RowShape()
        if version >= 2:
            pool = replace(
                pool,
                distinct_values=whole(DISTINCT_VALUES, optional=True),
                value_distribution=str(get(VALUE_DISTRIBUTION)),
                zipf_exponent=number(ZIPF_EXPONENT),
            )
            shape = RowShape(
                max_out_of_order_ms=whole(MAX_OUT_OF_ORDER_MS),
                late_row_fraction=number(LATE_ROW_FRACTION),
                late_by_ms=whole(LATE_BY_MS, optional=True),
                duplicate_fraction=number(DUPLICATE_FRACTION),
                max_duplicate_distance=whole(MAX_DUPLICATE_DISTANCE),
            )
        definition = StreamDefinition(
            whole("seed"),
            whole("startTimeMs"),
            whole("rowsPerSecond"),
            replace(
                pool, characters=characters, min_length=whole("minLength"), max_length=whole("maxLength")
            ),
            shape,
        )
        if version >= 3:
            profile = optional_text(RATE_PROFILE)
            definition = replace(
                definition,
                timestamp_column=boolean(TIMESTAMP_COLUMN),
                start_timestamp=whole(START_TIMESTAMP, optional=True),
                rate_profile=None if profile is None else parse_rate_profile(profile),
            )
        if version >= 4:
            definition = replace(definition, declared=declared())
        definition = definition.validated()
    except CorruptDefinitionError:
        raise
    except ValueError as error:
        raise corrupt(str(error)) from None
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
