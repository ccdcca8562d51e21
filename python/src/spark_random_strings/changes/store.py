"""A change stream as its checkpoint keeps it (the jar's ``ChangeStore.scala``): the rows'
definition as the random strings keep theirs (``offsets.definition_store``), and the change
options as the jar's source writes ``changes-source.json``::

    {"version": 1, "key": "id", "keys": 1000, "deleteFraction": 0.1, "hotKeys": 10,
     "hotKeyFraction": 0.0, "snapshot": false, "envelope": "flat"}

The Python data source keeps both in every offset (``changes.reader``); a restart's options are
checked against them with the jar's message, naming each option that differs.
"""

from __future__ import annotations

import json
from typing import Any

from spark_random_strings.changes.keywords import (
    DELETE_FRACTION,
    DELETE_FRACTION_RANGE,
    ENVELOPE,
    HOT_KEY_FRACTION,
    HOT_KEY_FRACTION_RANGE,
    HOT_KEYS,
    HOT_KEYS_RANGE,
    KEY,
    KEYS,
    KEYS_RANGE,
    SNAPSHOT,
    UPDATE_COLUMNS,
)
from spark_random_strings.changes.options import ChangeOptions, ChangeSpec, envelope_named
from spark_random_strings.changes.rows import ChangeStream
from spark_random_strings.offsets.corrupt import CorruptDefinitionError
from spark_random_strings.offsets.definition_store import definition_from_json, definition_to_json
from spark_random_strings.options import TOTAL_ROWS, TOTAL_ROWS_RANGE
from spark_random_strings.options.ranges import LONG_MAX, LONG_MIN, java_double
from spark_random_strings.rows.definition import check_restart as check_definition

#: The version of the change options' JSON that the jar's source writes and reads.
STORE_VERSION = 1


def shown(value: object) -> str:
    """A setting's value as the jar's messages show it (Scala's ``toString``: ``true``, ``0.1``,
    ``1.0E-5``)."""
    if isinstance(value, bool):
        return str(value).lower()
    return java_double(value) if isinstance(value, float) else str(value)


def _shown_setting(value: object) -> str:
    """A setting as a restart's message shows it: ``none`` where the stream has none."""
    return "none" if value is None else shown(value)


def spec_to_json(spec: ChangeSpec) -> dict[str, Any]:
    """The change options as the jar's source writes ``changes-source.json``."""
    return {"version": STORE_VERSION, **dict(spec.settings())}


def spec_from_json(stored: object, where: str) -> ChangeSpec:
    """The change options in ``stored``, read as the jar's source reads ``changes-source.json``:
    the same checks in the same order, with its messages.

    Raises:
        CorruptDefinitionError: ``stored`` is not such an object, or a value is out of range.
    """

    def corrupt(why: str) -> CorruptDefinitionError:
        return CorruptDefinitionError(f"{where} is corrupt: {why}")

    if not isinstance(stored, dict):
        raise corrupt("not a JSON object")

    def field(name: str) -> object:
        if name not in stored:
            raise corrupt(f"the field '{name}' is missing")
        return stored[name]

    version = field("version")
    if type(version) is not int or version != STORE_VERSION:
        raise corrupt(f"its version is {json.dumps(version)}, and this source reads {STORE_VERSION}")

    def text(name: str) -> str:
        value = field(name)
        if not isinstance(value, str):
            raise corrupt(f"'{name}' is not a string")
        return value

    def whole(name: str) -> int:
        value = field(name)
        if type(value) is not int or not LONG_MIN <= value <= LONG_MAX:
            raise corrupt(f"'{name}' is not a whole number")
        return value

    def real(name: str) -> float:
        value = field(name)
        if type(value) not in (int, float):
            raise corrupt(f"'{name}' is not a number")
        return float(value)  # type: ignore[arg-type]

    def boolean(name: str) -> bool:
        value = field(name)
        if not isinstance(value, bool):
            raise corrupt(f"'{name}' is not true or false")
        return value

    try:  # in the jar's order: each value read, then checked, before the next
        key = text(KEY)
        keys = KEYS_RANGE.check(KEYS, whole(KEYS), str(whole(KEYS)))
        delete_fraction = real(DELETE_FRACTION)
        delete_fraction = DELETE_FRACTION_RANGE.check(
            DELETE_FRACTION, delete_fraction, java_double(delete_fraction)
        )
        hot_keys = HOT_KEYS_RANGE.check(HOT_KEYS, whole(HOT_KEYS), str(whole(HOT_KEYS)))
        hot_key_fraction = real(HOT_KEY_FRACTION)
        hot_key_fraction = HOT_KEY_FRACTION_RANGE.check(
            HOT_KEY_FRACTION, hot_key_fraction, java_double(hot_key_fraction)
        )
        snapshot = boolean(SNAPSHOT)
        envelope = envelope_named(text(ENVELOPE))
        update_columns = text(UPDATE_COLUMNS) if UPDATE_COLUMNS in stored else None
        end = None
        if TOTAL_ROWS in stored:
            total = whole(TOTAL_ROWS)
            end = TOTAL_ROWS_RANGE.check(TOTAL_ROWS, total, str(total))
        spec = ChangeSpec(
            key=key,
            keys=keys,
            delete_fraction=delete_fraction,
            hot_keys=hot_keys,
            hot_key_fraction=hot_key_fraction,
            snapshot=snapshot,
            envelope=envelope,
            update_columns=update_columns,
            end=end,
        )
        spec.validate(lambda name: shown(dict(spec.settings())[name]))
    except CorruptDefinitionError:
        raise
    except ValueError as error:
        raise corrupt(str(error)) from None
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
        raise CorruptDefinitionError(
            f"{where} is corrupt: not a change stream's definition and change options"
        )
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
    was, now = dict(stored.spec.settings()), dict(options.spec.settings())
    names = [*was, *(name for name in now if name not in was)]
    contradictions = [
        f"{name}: the checkpoint has {_shown_setting(was.get(name))}, "
        f"the query sets {_shown_setting(now.get(name))}"
        for name in names
        if was.get(name) != now.get(name)
    ]
    if contradictions:
        raise ValueError(
            f"The options of this query contradict the change stream stored in its checkpoint ({location}): "
            + "; ".join(contradictions)
            + f". The options that say which changes the stream makes ({', '.join(was)}) are fixed "
            "when its query first starts, so that every batch can be replayed identically. Restart with the "
            "stored values, or use a new checkpoint location to start a different stream."
        )
