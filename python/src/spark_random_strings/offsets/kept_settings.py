"""The options a checkpoint keeps, as its source's file holds them (the jar's ``KeptSettings.scala``):
each under its own name, read back by its row of the table of options, whose kind says how to
read it and whose range what it may be, and a restart's options compared with them by name. The
change stream's store keeps its change options so (``changes.store``), and the Nexmark stream's
restart is checked so (``nexmark.stream``): a new kept option needs no code here or there. The
settings' JSON is the dict of their pairs, each value as Python's ``json`` writes it, which is how
the jar's ``KeptSettings.write`` writes it.

Numbers too large for a float (a decimal stored as ``1`` and 400 zeros) read as infinite, as
Jackson reads them, and so fail the range, with the jar's message."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from spark_random_strings.offsets.corrupt import CorruptDefinitionError, corrupt
from spark_random_strings.options.ranges import LONG_MAX, LONG_MIN, java_double
from spark_random_strings.options.table import Option


def shown(value: object) -> str:
    """A setting's value as the jar's messages show it (Scala's ``toString``: ``true``, ``0.1``,
    ``1.0E-5``)."""
    if isinstance(value, bool):
        return str(value).lower()
    return java_double(value) if isinstance(value, float) else str(value)


def read_settings(
    stored: Mapping[str, object],
    rows: Sequence[Option],
    where: str,
    values: Mapping[str, Callable[[str], object]] | None = None,
) -> list[tuple[str, object]]:
    """The settings of ``rows`` in ``stored``, in the rows' order, each read as its kind says and
    checked against its range before the next is read, so that a file with several bad values is
    refused naming the first, as the jar refuses it. An option whose default is none is optional:
    absent from the file, it is absent from the settings. A text or choice option named in
    ``values`` is given to its reader there, whose refusal says what is allowed; any other is taken as stored.

    Raises:
        CorruptDefinitionError: a setting is missing, of another kind, or out of range.
    """

    def bad(why: str) -> CorruptDefinitionError:
        return corrupt(where, why)

    readers = values or {}
    settings: list[tuple[str, object]] = []
    for row in rows:
        name = row.name
        if row.value is None and name not in stored:
            continue
        if name not in stored:
            raise bad(f"the field '{name}' is missing")
        value = stored[name]
        try:
            if row.kind == "whole":
                if type(value) is not int or not LONG_MIN <= value <= LONG_MAX:
                    raise bad(f"'{name}' is not a whole number")
                value = row.whole.check(name, value, str(value))
            elif row.kind == "decimal":
                if type(value) not in (int, float):
                    raise bad(f"'{name}' is not a number")
                try:
                    value = float(value)  # type: ignore[arg-type]
                except OverflowError:  # an int beyond a double, which Jackson reads as infinite
                    value = float("inf") if value > 0 else float("-inf")  # type: ignore[operator]
                value = row.real.check(name, value, java_double(value))
            elif row.kind == "boolean":
                if not isinstance(value, bool):
                    raise bad(f"'{name}' is not true or false")
            else:
                if not isinstance(value, str):
                    raise bad(f"'{name}' is not a string")
                reader = readers.get(name)
                value = value if reader is None else reader(value)
        except CorruptDefinitionError:
            raise
        except ValueError as error:
            raise bad(str(error)) from None
        settings.append((name, value))
    return settings


def refuse_changed(
    stored: Sequence[tuple[str, object]],
    requested: Sequence[tuple[str, object]],
    *,
    stream: str,
    makes: str,
    names: Sequence[str],
    location: str,
) -> None:
    """Refuse a restart whose options change a kept one, naming each with the checkpoint's value and
    the query's (``none`` where one has none), the stored settings' order first: the jar's message.

    Args:
        stream: what the checkpoint holds, for the message: ``change stream``.
        makes: what the kept options say, for the message: ``which changes the stream makes``.
        names: the kept options, as the message lists them.

    Raises:
        ValueError: naming each option that differs, with both values.
    """
    was, now = dict(stored), dict(requested)
    every = [*was, *(name for name in now if name not in was)]

    def setting(value: object) -> str:
        return "none" if value is None else shown(value)

    contradictions = [
        f"{name}: the checkpoint has {setting(was.get(name))}, the query sets {setting(now.get(name))}"
        for name in every
        if was.get(name) != now.get(name)
    ]
    if contradictions:
        raise ValueError(
            f"The options of this query contradict the {stream} stored in its checkpoint ({location}): "
            + "; ".join(contradictions)
            + f". The options that say {makes} ({', '.join(names)}) are fixed when its query first starts, "
            "so that every batch can be replayed identically. Restart with the stored values, or use a new "
            "checkpoint location to start a different stream."
        )
