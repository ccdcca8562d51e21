"""The one table of options, ``table.json`` beside this module: every option of the jar's three
sources and every property of a declared column, with its name, keyword, kind, allowed range or
values, default, help line and placeholder, its role (which reads take it, whether the checkpoint
keeps it, whether it shapes rows), and for the properties where each applies (the typed columns
guide's rows). The jar carries the same file, which
``OptionTable.scala`` reads; the parsers of both engines take their names, ranges and defaults
from it, so the words of each refusal (made from the range) are the same on both. The keywords'
Python types stay written in ``SourceKeywords`` and ``NexmarkKeywords``, for type checkers, and
are checked against the table when they are read.

This module imports nothing of the package but the kinds of range and the shared refusals.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from spark_random_strings.options.ranges import Real, Whole, java_equals_ignore_case, java_trim
from spark_random_strings.options.suggestions import boolean, closest

#: Each kind of option, and the Python type its keyword takes.
KINDS: dict[str, type] = {"whole": int, "decimal": float, "text": str, "choice": str, "boolean": bool}


def _text(value: object) -> str:
    """A value as an option's text: ``true``/``false`` for a boolean, as Spark writes them."""
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class Option:
    """One row of the table: an option of a source, or a property of a declared column."""

    #: The source's option name, as given to ``spark.readStream.option``.
    name: str
    #: The value the source takes when the option is not given; ``None`` where there is none or
    #: it is decided when the stream starts (``unset`` says which).
    value: int | float | str | bool | None
    #: What the option does, in a few words: its line in the docs and the command-line help.
    help: str
    #: The placeholder of its value in the command-line help.
    metavar: str = "N"
    #: What the documentation says for a default that is not a value.
    unset: str = "none"
    #: Its keyword (``read_random_strings``'s, ``read_nexmark``'s); empty for a property.
    keyword: str = ""
    #: ``whole``, ``decimal``, ``text``, ``choice`` or ``boolean``; ``None`` for a property whose
    #: kind is its column's type.
    kind: str | None = None
    #: The whole or decimal numbers it allows.
    range: Whole | Real | None = None
    #: The values of a choice, as the documentation writes them.
    values: tuple[str, ...] = ()
    #: Which reads take a source's option: ``stream`` (a batch read refuses it), ``batch`` (a
    #: stream refuses it) or ``both``. Only the ``changes`` source has a batch read; every option
    #: of the other two is ``stream``. Empty for a property.
    reads: str = ""
    #: Whether the checkpoint keeps the option: a restart that changes it is refused, naming it.
    kept: bool = False
    #: Whether the option shapes rows, and so is a keyword of the oracles; else it is one of
    #: delivery alone (how many rows a batch reads, in how many tasks, in which order).
    shapes: bool = False

    @property
    def default(self) -> str:
        """The default, as the documentation states it: the value, or what happens without one."""
        return self.unset if self.value is None else _text(self.value)

    @property
    def whole(self) -> Whole:
        """The whole numbers a ``whole`` option allows."""
        assert isinstance(self.range, Whole), f"{self.name} is not a whole-number option"
        return self.range

    @property
    def real(self) -> Real:
        """The decimal numbers a ``decimal`` option allows."""
        assert isinstance(self.range, Real), f"{self.name} is not a decimal option"
        return self.range

    def parse(self, text: str) -> int | float | bool | str:
        """The value of this option written as ``text``, by its kind (the jar's ``OptionRow.parse``):
        a whole or a decimal number in its range, true or false, one of a choice's values as the
        table spells it, or text as written.

        Raises:
            ValueError: naming the option, the value and what is allowed.
        """
        if self.kind == "whole":
            return self.whole.parse(self.name, text)
        if self.kind == "decimal":
            return self.real.parse(self.name, text)
        if self.kind == "boolean":
            return boolean(self.name, text)
        if self.kind == "choice":
            return self.choice(text)
        return text

    def choice(self, text: str) -> str:
        """The value of a ``choice`` that ``text`` names, case-insensitive and trimmed, as the
        table spells it.

        Raises:
            ValueError: any other text, with the closest value.
        """
        found = next((v for v in self.values if java_equals_ignore_case(v, java_trim(text))), None)
        if found is None:
            near = closest(java_trim(text), self.values)
            hint = f" Did you mean '{near}'?" if near else ""
            raise ValueError(
                f"Invalid value '{text}' for option '{self.name}'.{hint} Allowed: {', '.join(self.values)} "
                "(case-insensitive)."
            )
        return found

    def typed(self, value: object) -> int | float | bool | str:
        """``value`` as a value of this option's kind holds it (the jar's ``OptionRow.typed``): an
        int for a whole option, a float for a decimal one (a whole number widened), a bool, or a
        str for text and choices.

        Raises:
            ValueError: a value of another type.
        """
        kind = self.kind
        if kind == "whole" and type(value) is int:
            return value
        if kind == "decimal" and type(value) in (int, float):
            return float(value)  # type: ignore[arg-type]
        if kind == "boolean" and type(value) is bool:
            return value
        if kind in ("text", "choice") and type(value) is str:
            return value
        raise ValueError(f"Option '{self.name}' is {kind}, and {_text(value)} is not.")

    @property
    def default_value(self) -> int | float | bool | str | None:
        """The default as a value of the option's kind (:meth:`typed`), if it has one."""
        return None if self.value is None else self.typed(self.value)


def _row(entry: dict[str, Any]) -> Option:
    kind = entry.get("kind")
    allowed: Whole | Real | None = None
    if kind == "whole":
        allowed = Whole(entry["min"], entry["max"])
    elif kind == "decimal":
        allowed = Real(float(entry["min"]), entry["minIncluded"], float(entry["max"]), entry["maxIncluded"])
    return Option(
        name=entry["name"],
        value=entry.get("default"),
        help=entry.get("help", ""),
        metavar=entry.get("metavar", "N"),
        unset=entry.get("unset", "none"),
        keyword=entry.get("keyword", ""),
        kind=kind,
        range=allowed,
        values=tuple(entry.get("values", ())),
        reads=entry.get("reads", ""),
        kept=bool(entry.get("kept")),
        shapes=bool(entry.get("shapes")),
    )


#: The role of a source's option, which every row of a source states (``OptionTable.scala`` reads it
#: as strictly).
ROLES = ("reads", "kept", "shapes")


def _source_row(entry: dict[str, Any]) -> Option:
    missing = [role for role in ROLES if role not in entry]
    if missing:
        raise ValueError(f"table.json: option '{entry['name']}' has no '{missing[0]}'")
    return _row(entry)


@dataclass(frozen=True)
class OptionRows:
    """A source's options, or a declared column's properties, in the documentation's order."""

    rows: tuple[Option, ...]

    def __getitem__(self, name: str) -> Option:
        """The row called ``name``, exactly."""
        found = next((row for row in self.rows if row.name == name), None)
        if found is None:
            raise KeyError(f"table.json has no option '{name}'")
        return found

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(row.name for row in self.rows)


@dataclass(frozen=True)
class SourceTable(OptionRows):
    """One source's options."""

    #: The options tests use and users never see: accepted, but not listed.
    internal: tuple[str, ...] = ()
    #: The options of the random strings' own columns, which a declared schema replaces.
    own_columns: tuple[str, ...] = ()

    def read(self, reads: str) -> tuple[str, ...]:
        """The names of the options that ``reads`` says ``reads``, in the table's order."""
        return tuple(row.name for row in self.rows if row.reads == reads)

    @property
    def kept(self) -> tuple[str, ...]:
        """The names of the options the checkpoint keeps, in the table's order."""
        return tuple(row.name for row in self.rows if row.kept)

    @property
    def delivery(self) -> tuple[str, ...]:
        """The keywords of the stream's options that shape no row, in the table's order: the
        oracles refuse them."""
        return tuple(row.keyword for row in self.rows if not row.shapes and row.reads != "batch")


@dataclass(frozen=True)
class GuideRow:
    """A row of the typed columns' guide (``docs/typed-columns.md``, "Per-column options"): some
    properties, where they apply, their default and what they do, as the guide writes them."""

    properties: tuple[str, ...]
    #: The types, kinds or distributions the properties go with.
    where: str
    default: str
    help: str


@dataclass(frozen=True)
class FieldTable(OptionRows):
    """The properties of a declared column, and the defaults that are no property's."""

    #: The path part that names an ARRAY's elements.
    element: str = "element"
    #: A STRING column's properties, which are the stream's options of the same names.
    string_properties: tuple[str, ...] = ()
    #: BINARY's lengths, DATE's and TIMESTAMP's ranges.
    defaults: tuple[tuple[str, Any], ...] = ()
    #: How many times its range's width a normal's ``stddev`` may be.
    normal_spread: float = 0.0
    #: Where each property applies, its default and its line in the guide.
    guide: tuple[GuideRow, ...] = ()

    def default(self, name: str) -> Any:
        """The default called ``name`` (``binaryMaxLength``, ``minDate``, ...)."""
        return dict(self.defaults)[name]


def _load() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("table.json").read_text(encoding="utf-8")
    table: dict[str, Any] = json.loads(text)
    return table


_TABLE = _load()

#: Each source's options, by the source's short name: ``InMemoryRandomStrings``, ``nexmark`` and
#: ``changes``.
SOURCES: dict[str, SourceTable] = {
    name: SourceTable(
        tuple(_source_row(entry) for entry in source["options"]),
        tuple(source.get("internal", ())),
        tuple(source.get("ownColumns", ())),
    )
    for name, source in _TABLE["sources"].items()
}
_FIELDS = _TABLE["fields"]
#: The properties of a declared column.
FIELDS = FieldTable(
    tuple(_row(entry) for entry in _FIELDS["properties"]),
    _FIELDS["element"],
    tuple(_FIELDS["stringProperties"]),
    tuple(_FIELDS["defaults"].items()),
    float(_FIELDS["normalSpread"]),
    tuple(GuideRow(tuple(r["properties"]), r["where"], r["default"], r["help"]) for r in _FIELDS["guide"]),
)
