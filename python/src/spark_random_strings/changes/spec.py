"""What makes a stream's changes besides its rows' definition (the jar's ``ChangeSpec.scala``): the
keyspace, the key column and the lifecycle, fixed when a query first starts and kept in its
checkpoint (``changes.store``).

A spec holds each option it keeps under its name, as a value of the kind its row of the table of
options gives it (``Option.typed``): :data:`STORED` says which, in their order. So a spec is built
by name, written and read back by name and compared on a restart by name, and a new kept option
needs no code here: the draw that reads it asks for it by name and kind (:meth:`ChangeSpec.whole`,
:meth:`~ChangeSpec.decimal`, :meth:`~ChangeSpec.flag`, :meth:`~ChangeSpec.text`), and a name or
kind the table does not give it is refused. The named properties are the options the lifecycle,
the images and the envelopes have read since 0.7.0.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import cast

from spark_random_strings.changes.keywords import (
    CHANGES_TABLE,
    DELETE_FRACTION,
    ENVELOPE,
    HOT_KEY_FRACTION,
    HOT_KEYS,
    KEY,
    KEYS,
    OWN_NAMES,
    SNAPSHOT,
    UPDATE_COLUMNS,
)
from spark_random_strings.options import TOTAL_ROWS
from spark_random_strings.options.table import Option

#: The options a spec's settings may hold, in their order (the jar's ``ChangeSpec.Stored``): the
#: kept change options of the table, then ``totalRows``, which untidy delivery fixes (an option
#: without a default is held only when set).
STORED: tuple[str, ...] = (*(name for name in CHANGES_TABLE.kept if name in OWN_NAMES), TOTAL_ROWS)
_ROWS: dict[str, Option] = {name: CHANGES_TABLE[name] for name in STORED}
#: Each stored option by its keyword (``keys``, ``delete_fraction``), for :meth:`ChangeSpec.of_keywords`.
_BY_KEYWORD: dict[str, str] = {_ROWS[name].keyword: name for name in STORED}


def _row(name: str) -> Option:
    if name not in _ROWS:
        raise ValueError(
            f"'{name}' is no option a change stream keeps. The kept options: {', '.join(STORED)}."
        )
    return _ROWS[name]


@dataclass(frozen=True)
class ChangeSpec:
    """The change options of a stream, each under its option's name (:meth:`of` builds one)."""

    #: Each option's name and value, in the order of :data:`STORED`, as the checkpoint's file holds
    #: them; an option without a default only when set, so that a stream without
    #: ``updateColumns`` or untidy delivery keeps the file it always had.
    kept: tuple[tuple[str, object], ...]

    @classmethod
    def of(cls, settings: Mapping[str, object]) -> ChangeSpec:
        """The spec whose settings are ``settings``, by name, and every other option's default (an
        option without one stays unset): for every spec, ``ChangeSpec.of(dict(spec.settings())) ==
        spec``.

        Raises:
            ValueError: a name that is no kept option, or a value not of its kind.
        """
        for name in settings:
            _row(name)
        kept = []
        for name in STORED:
            value = _ROWS[name].typed(settings[name]) if name in settings else _ROWS[name].default_value
            if value is not None:
                kept.append((name, value))
        return cls(tuple(kept))

    @classmethod
    def of_keywords(cls, **keywords: object) -> ChangeSpec:
        """The spec of these options given by keyword (``keys=7, snapshot=True``): :meth:`of`."""
        unknown = [k for k in keywords if k not in _BY_KEYWORD]
        if unknown:
            raise ValueError(
                f"'{unknown[0]}' is no keyword of a kept change option: {', '.join(_BY_KEYWORD)}."
            )
        return cls.of({_BY_KEYWORD[k]: v for k, v in keywords.items()})

    def settings(self) -> list[tuple[str, object]]:
        """Each option's name and value, in the order of :data:`STORED`."""
        return list(self.kept)

    def updated(self, name: str, value: object | None) -> ChangeSpec:
        """This spec with option ``name`` set to ``value``, or unset (``None``: an option without a
        default)."""
        settings = {n: v for n, v in self.kept if n != name}
        if value is not None:
            settings[name] = value
        return ChangeSpec.of(settings)

    def _value(self, name: str, *kinds: str) -> object | None:
        row = _row(name)
        if row.kind not in kinds:
            raise ValueError(
                f"Option '{name}' is {row.kind} in the table of options, not {' or '.join(kinds)}."
            )
        return next((value for n, value in self.kept if n == name), None)

    def _required(self, name: str, *kinds: str) -> object:
        value = self._value(name, *kinds)
        if value is None:
            raise ValueError(
                f"Option '{name}' has no default in the table of options: read it with "
                f"{_ROWS[name].kind}_if_set."
            )
        return value

    def whole(self, name: str) -> int:
        """The value of the kept whole option ``name``, which has a default."""
        return cast(int, self._required(name, "whole"))

    def decimal(self, name: str) -> float:
        """The value of the kept decimal option ``name``, which has a default."""
        return cast(float, self._required(name, "decimal"))

    def flag(self, name: str) -> bool:
        """The value of the kept boolean option ``name``, which has a default."""
        return cast(bool, self._required(name, "boolean"))

    def text(self, name: str) -> str:
        """The value of the kept text or choice option ``name``, which has a default."""
        return cast(str, self._required(name, "text", "choice"))

    def whole_if_set(self, name: str) -> int | None:
        """The value of the kept whole option ``name``, if set: one without a default."""
        return cast("int | None", self._value(name, "whole"))

    def text_if_set(self, name: str) -> str | None:
        """The value of the kept text or choice option ``name``, if set: one without a default."""
        return cast("str | None", self._value(name, "text", "choice"))

    @property
    def key(self) -> str:
        """The declared column that holds each change's key, as declared."""
        return self.text(KEY)

    @property
    def keys(self) -> int:
        """How many keys: a change's key is one of 0 to keys - 1."""
        return self.whole(KEYS)

    @property
    def delete_fraction(self) -> float:
        """The probability that a change to a present key deletes it."""
        return self.decimal(DELETE_FRACTION)

    @property
    def hot_keys(self) -> int:
        """How many keys are hot (keys 0 to hot_keys - 1), when ``hot_key_fraction`` > 0."""
        return self.whole(HOT_KEYS)

    @property
    def hot_key_fraction(self) -> float:
        """The share of the live changes that go to the hot keys."""
        return self.decimal(HOT_KEY_FRACTION)

    @property
    def snapshot(self) -> bool:
        """Whether the stream begins with an insert of every key, in key order."""
        return self.flag(SNAPSHOT)

    @property
    def envelope(self) -> str:
        """The format of the rows: one of the table's ``envelope`` values."""
        return self.text(ENVELOPE)

    @property
    def update_columns(self) -> str | None:
        """The declared columns an update changes, in the declared order and spelling,
        comma-separated; every other column keeps the cell of the key's last image, which is its
        insert's (None: an update changes every column)."""
        return self.text_if_set(UPDATE_COLUMNS)

    @property
    def updated_columns(self) -> tuple[str, ...] | None:
        """The declared columns an update changes, if not every one."""
        columns = self.update_columns
        return None if columns is None else tuple(columns.split(","))

    @property
    def end(self) -> int | None:
        """With untidy delivery (``changes.delivery``), ``totalRows``: the changes delivered are 0 to
        end - 1, and where the windows are cut depends on it, so it is fixed too (None otherwise)."""
        return self.whole_if_set(TOTAL_ROWS)

    def validate(self, written: Callable[[str], str | None]) -> None:
        """The rules between the change options' values (each is in its range already): hot keys
        leave at least one cold key.

        Args:
            written: the text of an option as the user wrote it, or None where not given (its
                default applies).

        Raises:
            ValueError: naming both options and their values.
        """
        if self.hot_key_fraction > 0.0 and self.hot_keys >= self.keys:

            def shown(name: str, value: int) -> str:
                text = written(name)
                return f"{value} (its default)" if text is None else text

            raise ValueError(
                f"Options that do not fit together: '{HOT_KEYS}' is {shown(HOT_KEYS, self.hot_keys)} and "
                f"'{KEYS}' is {shown(KEYS, self.keys)}: the hot keys are keys 0 to hotKeys - 1, and the "
                f"other changes need a key that is not hot. Set '{HOT_KEYS}' below '{KEYS}'."
            )


#: The spec of a stream that sets no change option: every default.
DEFAULT_SPEC = ChangeSpec.of({})
