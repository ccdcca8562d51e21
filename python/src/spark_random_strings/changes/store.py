"""A change stream as its checkpoint keeps it (the jar's ``ChangeStore.scala``): the rows'
definition as the random strings keep theirs (``offsets.definition_store``), and the change
options as the jar's source writes ``changes-source.json``::

    {"version": 1, "key": "id", "keys": 1000, "deleteFraction": 0.1, "hotKeys": 10,
     "hotKeyFraction": 0.0, "snapshot": false, "envelope": "flat"}

Each option is stored under its own name and read back by its row of the table of options
(``offsets.kept_settings``), and the spec is rebuilt from them by name (``ChangeSpec.of``). The
Python data source keeps both in every offset (``changes.reader``); a restart's options are
checked against them with the jar's message, naming each option that differs.
"""

from __future__ import annotations

import json
from typing import Any

from spark_random_strings.changes.keywords import CHANGES_TABLE
from spark_random_strings.changes.options import ChangeOptions
from spark_random_strings.changes.rows import ChangeStream
from spark_random_strings.changes.spec import STORED, ChangeSpec
from spark_random_strings.offsets.corrupt import corrupt
from spark_random_strings.offsets.definition_store import definition_from_json, definition_to_json
from spark_random_strings.offsets.kept_settings import read_settings, refuse_changed, shown
from spark_random_strings.rows.definition import check_restart as check_definition

#: The version of the change options' JSON that the jar's source writes and reads.
STORE_VERSION = 1


def spec_to_json(spec: ChangeSpec) -> dict[str, Any]:
    """The change options as the jar's source writes ``changes-source.json``."""
    return {"version": STORE_VERSION, **dict(spec.settings())}


def spec_from_json(stored: object, where: str) -> ChangeSpec:
    """The change options in ``stored``, read as the jar's source reads ``changes-source.json``:
    the same checks in the same order, with its messages.

    Raises:
        CorruptDefinitionError: ``stored`` is not such an object, or a value is out of range.
    """

    if not isinstance(stored, dict):
        raise corrupt(where, "not a JSON object")
    if "version" not in stored:
        raise corrupt(where, "the field 'version' is missing")
    version = stored["version"]
    if type(version) is not int or version != STORE_VERSION:
        raise corrupt(where, f"its version is {json.dumps(version)}, and this source reads {STORE_VERSION}")
    rows = [CHANGES_TABLE[name] for name in STORED]
    settings = read_settings(
        stored, rows, where, {row.name: row.choice for row in rows if row.kind == "choice"}
    )
    try:
        spec = ChangeSpec.of(dict(settings))
        spec.validate(lambda name: shown(dict(spec.settings())[name]))
    except ValueError as error:
        raise corrupt(where, str(error)) from None
    return spec


def stream_to_json(stream: ChangeStream) -> dict[str, Any]:
    """The stream as the Python data source keeps it in every offset: the rows' definition as the
    jar's source stores it, and the change options as it stores ``changes-source.json``."""
    return {"definition": definition_to_json(stream.definition), "changes": spec_to_json(stream.spec)}


def stream_from_json(stored: object, where: str) -> ChangeStream:
    """The stream in ``stored``, as :func:`stream_to_json` writes it.

    Raises:
        CorruptDefinitionError: ``stored`` is not such a stream.
    """
    if not isinstance(stored, dict) or "definition" not in stored or "changes" not in stored:
        raise corrupt(where, "not a change stream's definition and change options")
    return ChangeStream(
        definition_from_json(stored["definition"], where), spec_from_json(stored["changes"], where)
    )


def check_restart(stored: ChangeStream, options: ChangeOptions, location: str) -> None:
    """Refuse a restart whose options change which changes the stream makes: the rows' options as
    the random strings refuse them, then the change options with the jar's message (its
    ``ChangeStore.checkRestart``).

    Raises:
        ValueError: naming each option that differs, with both values.
    """
    check_definition(stored.definition, options.rows.restarting(stored.definition), location)
    refuse_changed(
        stored.spec.settings(),
        options.spec.settings(),
        stream="change stream",
        makes="which changes the stream makes",
        names=[name for name, _ in stored.spec.settings()],
        location=location,
    )
