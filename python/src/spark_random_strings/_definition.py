"""A stream's definition on the Python side: the source's options parsed and validated with the
JVM source's rules and messages (its ``SourceOptions``), and the definition a query stored in its
checkpoint (its ``DefinitionStore``).

This module, like ``_rows``, ``_strictmath`` and ``options``, imports nothing of pyspark: rows
can be made where numpy and pyarrow are, with or without Spark.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from spark_random_strings.options import OPTIONS

SHORT_NAME = "InMemoryRandomStrings"
#: The Python data source's name (``_source``): the same stream without the jar.
PYTHON_FORMAT = f"{SHORT_NAME}Python"

ROWS_PER_SECOND = "rowsPerSecond"
MIN_LENGTH = "minLength"
MAX_LENGTH = "maxLength"
CHARSET = "charset"
ALPHABET = "alphabet"
SEED = "seed"
NUM_PARTITIONS = "numPartitions"
MAX_ROWS_PER_TRIGGER = "maxRowsPerTrigger"
TOTAL_ROWS = "totalRows"
DISTINCT_VALUES = "distinctValues"
VALUE_DISTRIBUTION = "valueDistribution"
ZIPF_EXPONENT = "zipfExponent"
MAX_OUT_OF_ORDER_MS = "maxOutOfOrderMs"
LATE_ROW_FRACTION = "lateRowFraction"
LATE_BY_MS = "lateByMs"
DUPLICATE_FRACTION = "duplicateFraction"
MAX_DUPLICATE_DISTANCE = "maxDuplicateDistance"

#: Every option, in the documentation's order: the option table's (``options.OPTIONS``).
NAMES = tuple(row.name for row in OPTIONS)

LONG_MIN, LONG_MAX, INT_MAX = -(2**63), 2**63 - 1, 2**31 - 1
LENGTH_CAP = 1 << 20
UNIFORM, ZIPF = "uniform", "zipf"
DISTRIBUTIONS = (UNIFORM, ZIPF)
#: The definition file's name in the source's folder of a checkpoint, and its newest layout.
DEFINITION_FILE = "random-strings-source.json"
DEFINITION_VERSION = 2


def _trim(text: str) -> str:
    """Java's ``String.trim``: strips the characters up to the space, and no other."""
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]


_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


@dataclass(frozen=True)
class Whole:
    """The whole numbers an option allows, from ``low`` to ``high`` inclusive."""

    low: int
    high: int = LONG_MAX

    @property
    def allowed(self) -> str:
        if self.high == LONG_MAX and self.low == LONG_MIN:
            return "a whole number (a 64-bit long)"
        if self.high == LONG_MAX:
            return f"a whole number >= {self.low}"
        return f"a whole number from {self.low} to {self.high}"

    def parse(self, name: str, text: str) -> int:
        if not _WHOLE.fullmatch(_trim(text)):
            raise ValueError(
                f"Invalid value '{text}' for option '{name}': not a whole number. Allowed: {self.allowed}."
            )
        return self.check(name, int(_trim(text)), text)

    def check(self, name: str, value: int, text: str | None = None) -> int:
        if not self.low <= value <= self.high:
            shown = str(value) if text is None else text
            raise ValueError(
                f"Invalid value '{shown}' for option '{name}': out of range. Allowed: {self.allowed}."
            )
        return value


@dataclass(frozen=True)
class Real:
    """The decimal numbers an option allows, between ``low`` and ``high``, each bound included or
    not; NaN, infinities and hexadecimal are refused."""

    low: float
    low_included: bool
    high: float
    high_included: bool

    @property
    def allowed(self) -> str:
        low = f">= {_shown(self.low)}" if self.low_included else f"> {_shown(self.low)}"
        high = f"<= {_shown(self.high)}" if self.high_included else f"< {_shown(self.high)}"
        return f"a decimal number {low} and {high}"

    def parse(self, name: str, text: str) -> float:
        if not _DECIMAL.fullmatch(_trim(text)):
            raise ValueError(
                f"Invalid value '{text}' for option '{name}': not a decimal number. Allowed: {self.allowed}."
            )
        return self.check(name, float(_trim(text)), text)

    def check(self, name: str, value: float, text: str) -> float:
        above = value >= self.low if self.low_included else value > self.low
        below = value <= self.high if self.high_included else value < self.high
        if not (above and below):
            raise ValueError(
                f"Invalid value '{text}' for option '{name}': out of range. Allowed: {self.allowed}."
            )
        return value


def _shown(bound: float) -> str:
    return str(int(bound)) if bound == round(bound) else repr(bound)


ROWS_PER_SECOND_RANGE = Whole(1)
LENGTH_RANGE = Whole(0, LENGTH_CAP)
SEED_RANGE = Whole(LONG_MIN)
NUM_PARTITIONS_RANGE = Whole(1, INT_MAX)
MAX_ROWS_PER_TRIGGER_RANGE = Whole(1)
TOTAL_ROWS_RANGE = Whole(0)
DISTINCT_VALUES_RANGE = Whole(1, INT_MAX)
ZIPF_EXPONENT_RANGE = Real(0.0, False, 10.0, True)
MAX_OUT_OF_ORDER_MS_RANGE = Whole(0)
LATE_ROW_FRACTION_RANGE = Real(0.0, True, 1.0, True)
LATE_BY_MS_RANGE = Whole(1)
DUPLICATE_FRACTION_RANGE = Real(0.0, True, 1.0, False)
MAX_DUPLICATE_DISTANCE_RANGE = Whole(1)


#: Sets of at most this many characters map an index to its code point through a table.
_TABLE_SIZE = 1 << 16


@dataclass(frozen=True, eq=False)
class CharacterSet:
    """The characters strings are drawn from, each with equal chance: index i names the i-th
    character in code point order (the JVM source's ``CharacterSet``)."""

    #: As the checkpoint names it: ``charset=hex``, or ``alphabet=`` and its distinct characters.
    description: str
    #: Each range's first code point and, in ``first_index``, its first character's index.
    starts: npt.NDArray[np.int64]
    first_index: npt.NDArray[np.int64]
    size: int
    max_code_point: int

    @staticmethod
    def of_ranges(description: str, ranges: list[tuple[int, int]]) -> CharacterSet:
        counts = [hi - lo + 1 for lo, hi in ranges]
        first = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        return CharacterSet(
            description, np.array([lo for lo, _ in ranges], np.int64), first, sum(counts), ranges[-1][1]
        )

    @property
    def is_ascii(self) -> bool:
        return self.max_code_point < 0x80

    def code_points(self, indexes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The characters at ``indexes`` (each in [0, size)), as code points."""
        if len(self.starts) == 1:
            return np.asarray(indexes + self.starts[0], np.int64)
        if self.size <= _TABLE_SIZE:
            return self._table()[indexes]
        which = np.searchsorted(self.first_index, indexes, side="right") - 1
        return np.asarray(self.starts[which] + (indexes - self.first_index[which]), np.int64)

    def _table(self) -> npt.NDArray[np.int64]:
        """Every character's code point, by index: one lookup per character instead of a search
        among the ranges (made once per set, kept)."""
        table: npt.NDArray[np.int64] | None = self.__dict__.get("_code_point_table")
        if table is None:
            every = np.arange(self.size, dtype=np.int64)
            which = np.searchsorted(self.first_index, every, side="right") - 1
            table = np.asarray(self.starts[which] + (every - self.first_index[which]), np.int64)
            object.__setattr__(self, "_code_point_table", table)
        return table

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CharacterSet) and self.description == other.description

    def __hash__(self) -> int:
        return hash(self.description)


def _charset(name: str, *bounds: str) -> CharacterSet:
    return CharacterSet.of_ranges(f"charset={name}", [(ord(b[0]), ord(b[1])) for b in bounds])


NAMED_SETS: dict[str, CharacterSet] = {
    "alphanumeric": _charset("alphanumeric", "09", "AZ", "az"),
    "letters": _charset("letters", "AZ", "az"),
    "digits": _charset("digits", "09"),
    "hex": _charset("hex", "09", "af"),
    "ascii": _charset("ascii", " ~"),
    "unicode": CharacterSet.of_ranges("charset=unicode", [(0x20, 0x7E), (0xA0, 0xD7FF), (0xE000, 0x10FFFF)]),
}


def named_set(option: str, value: str) -> CharacterSet:
    found = NAMED_SETS.get(_trim(value).lower())
    if found is None:
        raise ValueError(
            f"Invalid value '{value}' for option '{option}': unknown character set. Allowed: "
            f"{', '.join(NAMED_SETS)}."
        )
    return found


def alphabet_set(option: str, value: str) -> CharacterSet:
    if not value:
        raise ValueError(
            f"Invalid value '' for option '{option}': the alphabet is empty. Allowed: a non-empty "
            "string of the characters to draw from."
        )
    for character in value:
        if 0xD800 <= ord(character) <= 0xDFFF:
            raise ValueError(
                f"Invalid value '{value}' for option '{option}': it holds a lone UTF-16 surrogate "
                f"(U+{ord(character):04X}), which is not a character. Allowed: a non-empty string of "
                "Unicode characters."
            )
    distinct = sorted({ord(c) for c in value})
    ranges: list[tuple[int, int]] = []
    for point in distinct:
        if ranges and ranges[-1][1] == point - 1:
            ranges[-1] = (ranges[-1][0], point)
        else:
            ranges.append((point, point))
    return CharacterSet.of_ranges("alphabet=" + "".join(map(chr, distinct)), ranges)


@dataclass(frozen=True)
class RowShape:
    """The options that shape rows (the JVM source's ``RowShape``); the defaults make the plain
    stream of 0.1.0."""

    distinct_values: int | None = None
    value_distribution: str = UNIFORM
    zipf_exponent: float = 1.0
    max_out_of_order_ms: int = 0
    late_row_fraction: float = 0.0
    late_by_ms: int | None = None
    duplicate_fraction: float = 0.0
    max_duplicate_distance: int = 1000

    @property
    def is_plain(self) -> bool:
        return self == RowShape()

    def settings(self) -> list[tuple[str, object]]:
        """Each option's name and value, as the checkpoint's file holds them (None: not set)."""
        return [
            (DISTINCT_VALUES, self.distinct_values),
            (VALUE_DISTRIBUTION, self.value_distribution),
            (ZIPF_EXPONENT, self.zipf_exponent),
            (MAX_OUT_OF_ORDER_MS, self.max_out_of_order_ms),
            (LATE_ROW_FRACTION, self.late_row_fraction),
            (LATE_BY_MS, self.late_by_ms),
            (DUPLICATE_FRACTION, self.duplicate_fraction),
            (MAX_DUPLICATE_DISTANCE, self.max_duplicate_distance),
        ]


@dataclass(frozen=True)
class StreamDefinition:
    """Everything a row depends on besides its offset (the JVM source's ``StreamDefinition``)."""

    seed: int
    start_time_ms: int
    rows_per_second: int
    min_length: int
    max_length: int
    characters: CharacterSet
    shape: RowShape = field(default_factory=RowShape)


@dataclass(frozen=True)
class SourceOptions:
    """The source's options, parsed and validated once (the JVM source's ``SourceOptions``)."""

    rows_per_second: int
    min_length: int
    max_length: int
    characters: CharacterSet
    seed: int | None
    num_partitions: int | None
    max_rows_per_trigger: int | None
    total_rows: int | None
    shape: RowShape

    def definition(self, seed: int, start_time_ms: int) -> StreamDefinition:
        """The definition of a stream of these options, with this seed and start time."""
        return StreamDefinition(
            seed,
            start_time_ms,
            self.rows_per_second,
            self.min_length,
            self.max_length,
            self.characters,
            self.shape,
        )


def check_lengths(low: int, high: int, low_given: bool = True, high_given: bool = True) -> None:
    if low > high:

        def shown(name: str, value: int, given: bool) -> str:
            return f"'{name}' is {value}" + ("" if given else " (its default)")

        raise ValueError(
            f"Invalid lengths: {shown(MIN_LENGTH, low, low_given)} and "
            f"{shown(MAX_LENGTH, high, high_given)}. "
            f"The option '{MIN_LENGTH}' must be less than or equal to '{MAX_LENGTH}'."
        )


def parse_options(parameters: Mapping[str, str]) -> SourceOptions:
    """Parse and validate source options, as the JVM source does at ``load()``: names
    case-insensitive, the same rules and the same messages.

    Raises:
        ValueError: naming the option, the value given and what is allowed.
    """
    _reject_unknown_names(parameters)
    options = {name.lower(): value for name, value in parameters.items()}

    def text(name: str) -> str | None:
        return options.get(name.lower())

    def whole(name: str, allowed: Whole) -> int | None:
        given = text(name)
        return None if given is None else allowed.parse(name, given)

    def real(name: str, allowed: Real) -> float | None:
        given = text(name)
        return None if given is None else allowed.parse(name, given)

    min_length = whole(MIN_LENGTH, LENGTH_RANGE)
    max_length = whole(MAX_LENGTH, LENGTH_RANGE)
    low = 0 if min_length is None else min_length
    high = 4 if max_length is None else max_length
    check_lengths(low, high, min_length is not None, max_length is not None)
    charset_text, alphabet_text = text(CHARSET), text(ALPHABET)
    charset = None if charset_text is None else named_set(CHARSET, charset_text)
    alphabet = None if alphabet_text is None else alphabet_set(ALPHABET, alphabet_text)
    characters = alphabet or charset or NAMED_SETS["alphanumeric"]
    rows_per_second = whole(ROWS_PER_SECOND, ROWS_PER_SECOND_RANGE)
    seed = whole(SEED, SEED_RANGE)
    num_partitions = whole(NUM_PARTITIONS, NUM_PARTITIONS_RANGE)
    max_rows = whole(MAX_ROWS_PER_TRIGGER, MAX_ROWS_PER_TRIGGER_RANGE)
    total_rows = whole(TOTAL_ROWS, TOTAL_ROWS_RANGE)

    def stated(name: str) -> str:
        return f"'{name}' is {text(name)}"

    def unfit(message: str) -> ValueError:
        return ValueError(f"Options that do not fit together: {message}.")

    distinct_values = whole(DISTINCT_VALUES, DISTINCT_VALUES_RANGE)
    distribution: str | None = None
    distribution_text = text(VALUE_DISTRIBUTION)
    if distribution_text is not None:
        distribution = next((d for d in DISTRIBUTIONS if d == _trim(distribution_text).lower()), None)
        if distribution is None:
            raise ValueError(
                f"Invalid value '{distribution_text}' for option '{VALUE_DISTRIBUTION}'. Allowed: "
                f"{' or '.join(DISTRIBUTIONS)} (case-insensitive)."
            )
    zipf_exponent = real(ZIPF_EXPONENT, ZIPF_EXPONENT_RANGE)
    late_fraction = real(LATE_ROW_FRACTION, LATE_ROW_FRACTION_RANGE)
    late_by_ms = whole(LATE_BY_MS, LATE_BY_MS_RANGE)
    duplicate_fraction = real(DUPLICATE_FRACTION, DUPLICATE_FRACTION_RANGE)
    max_distance = whole(MAX_DUPLICATE_DISTANCE, MAX_DUPLICATE_DISTANCE_RANGE)

    if distribution is not None and distinct_values is None:
        raise unfit(
            f"{stated(VALUE_DISTRIBUTION)}, but '{DISTINCT_VALUES}' is not set. A distribution picks among a "
            f"pool of values: set '{DISTINCT_VALUES}' too"
        )
    if zipf_exponent is not None and distribution != ZIPF:
        raise unfit(
            f"{stated(ZIPF_EXPONENT)}, but '{VALUE_DISTRIBUTION}' is not {ZIPF}. "
            f"Set '{VALUE_DISTRIBUTION}' to "
            f"{ZIPF}, or remove '{ZIPF_EXPONENT}'"
        )
    for dependent, fraction, value, none in (
        (LATE_BY_MS, LATE_ROW_FRACTION, late_fraction, "no row is late"),
        (MAX_DUPLICATE_DISTANCE, DUPLICATE_FRACTION, duplicate_fraction, "no row repeats"),
    ):
        if text(dependent) is not None and (value or 0.0) == 0.0:
            said = "not set" if value is None else text(fraction)
            raise unfit(
                f"{stated(dependent)}, but '{fraction}' is {said}, so {none}. Set '{fraction}' above 0, or "
                f"remove '{dependent}'"
            )
    late = late_fraction or 0.0
    if late > 0.0 and late_by_ms is None:
        raise unfit(
            f"{stated(LATE_ROW_FRACTION)}, but '{LATE_BY_MS}' is not set. Say how late a late row is, in "
            f"milliseconds: '{LATE_BY_MS}' >= 1"
        )
    if distinct_values is not None:
        allowed = pool_capacity(low, high, characters.size)
        if allowed < distinct_values:
            raise ValueError(
                f"Invalid value '{text(DISTINCT_VALUES)}' for option '{DISTINCT_VALUES}': the other options "
                f"allow only {allowed} distinct strings (lengths {low} to {high} of {characters.size} "
                f"characters). Lower '{DISTINCT_VALUES}', or allow more strings with a larger "
                f"'{MAX_LENGTH}' or more characters."
            )
    shape = RowShape(
        distinct_values=distinct_values,
        value_distribution=distribution or UNIFORM,
        zipf_exponent=1.0 if zipf_exponent is None else zipf_exponent,
        max_out_of_order_ms=whole(MAX_OUT_OF_ORDER_MS, MAX_OUT_OF_ORDER_MS_RANGE) or 0,
        late_row_fraction=late,
        late_by_ms=late_by_ms if late > 0.0 else None,
        duplicate_fraction=duplicate_fraction or 0.0,
        max_duplicate_distance=1000 if max_distance is None else max_distance,
    )
    return SourceOptions(
        rows_per_second=10 if rows_per_second is None else rows_per_second,
        min_length=low,
        max_length=high,
        characters=characters,
        seed=seed,
        num_partitions=num_partitions,
        max_rows_per_trigger=max_rows,
        total_rows=total_rows,
        shape=shape,
    )


def _reject_unknown_names(parameters: Mapping[str, str]) -> None:
    known = {name.lower() for name in NAMES}
    for unknown in parameters:
        if unknown.lower() in known:
            continue
        if unknown.lower() == "path":
            hint = " This source makes its own rows and reads no path: call load() without one."
        else:
            near = _closest(unknown)
            hint = f" Did you mean '{near}'?" if near else ""
        raise ValueError(
            f"Unknown option '{unknown}' for the {SHORT_NAME} source.{hint} Known options "
            f"(case-insensitive): {', '.join(NAMES)}."
        )


def _closest(name: str) -> str | None:
    """The known option nearest to ``name`` by Levenshtein distance, if near enough to be a typo
    (the JVM source's rule: at most max(2, a third of the option's length) edits)."""
    lower = name.lower()
    best, edits = min(((n, _levenshtein(lower, n.lower())) for n in NAMES), key=lambda pair: pair[1])
    return best if edits <= max(2, len(best) // 3) else None


def _levenshtein(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


_MANY = 1 << 40


def strings_of_length(length: int, characters: int) -> int:
    """A^length, or 2^40 if more (the JVM pool's ``stringsOfLength``)."""
    if characters == 1:
        return 1
    return min(characters**length, _MANY) if length < 64 else _MANY


def pool_capacity(min_length: int, max_length: int, characters: int) -> int:
    """How many distinct strings the lengths allow, or 2^40 if more."""
    total = 0
    length = min_length
    while length <= max_length and total < _MANY:
        total = min(total + strings_of_length(length, characters), _MANY)
        length += 1
    return total


class CorruptDefinitionError(ValueError):
    """A checkpoint's definition file cannot be read as a stream definition."""


def read_definition(path: Path) -> StreamDefinition:
    """The definition stored in the file at ``path`` (version 1 or 2), checked as the JVM source
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
    """A definition as the JSON object the JVM source stores in its checkpoint (version 2)."""
    stored: dict[str, object] = {
        "version": DEFINITION_VERSION,
        "seed": definition.seed,
        "startTimeMs": definition.start_time_ms,
        "rowsPerSecond": definition.rows_per_second,
        "minLength": definition.min_length,
        "maxLength": definition.max_length,
        "characters": definition.characters.description,
    }
    stored.update(definition.shape.settings())
    return stored


def definition_from_json(stored: object, where: str) -> StreamDefinition:
    """The definition a JSON object (parsed) holds, as :func:`definition_to_json` or the JVM
    source writes it, version 1 or 2, checked as the JVM source checks it on a restart.

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

    version = whole("version")
    if version not in (1, DEFINITION_VERSION):
        raise corrupt(
            f"version {version} is neither 1 nor {DEFINITION_VERSION}, the versions this source reads"
        )
    described = get("characters")
    try:
        if isinstance(described, str) and described.startswith("charset="):
            characters = named_set("characters", described.removeprefix("charset="))
        elif isinstance(described, str) and described.startswith("alphabet="):
            characters = alphabet_set("characters", described.removeprefix("alphabet="))
        else:
            raise corrupt(f"'characters' is '{described}', neither a charset nor an alphabet")
        shape = RowShape()
        if version == DEFINITION_VERSION:
            shape = RowShape(
                distinct_values=whole(DISTINCT_VALUES, optional=True),
                value_distribution=str(get(VALUE_DISTRIBUTION)),
                zipf_exponent=number(ZIPF_EXPONENT),
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
            whole("minLength"),
            whole("maxLength"),
            characters,
            shape,
        )
        _check_stored(definition)
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


def describe_stream(definition: StreamDefinition) -> str:
    """The Python data source's stream as the JVM source describes its own in progress reports:
    the name, the settings that make rows, and the shaping options that differ from a plain
    stream's. (Spark describes a Python stream by its own class name; the CLI shows this.)"""
    characters = definition.characters.description
    shown = characters if len(characters) <= 40 else characters[:37] + "..."
    plain = dict(RowShape().settings())
    shape = "".join(
        f", {name}={value}"
        for name, value in definition.shape.settings()
        if value is not None and value != plain[name]
    )
    return (
        f"{PYTHON_FORMAT}[rowsPerSecond={definition.rows_per_second}, "
        f"minLength={definition.min_length}, maxLength={definition.max_length}, {shown}, "
        f"seed={definition.seed}{shape}]"
    )


def check_restart(stored: StreamDefinition, options: SourceOptions, where: str) -> None:
    """Check that a restarted query's options describe the stream its checkpoint holds, as the
    JVM source's ``StreamDefinition.checkRestart`` does: the seed may be left out (the stored one
    is used); every other option that shapes rows must be the same.

    Raises:
        ValueError: naming each option that differs, with both values.
    """
    requested = options.definition(
        stored.seed if options.seed is None else options.seed, stored.start_time_ms
    )

    def shown(setting: object) -> str:
        return "none" if setting is None else str(setting)

    differences: list[tuple[str, object, object]] = [
        (SEED, stored.seed, requested.seed),
        (ROWS_PER_SECOND, stored.rows_per_second, requested.rows_per_second),
        (MIN_LENGTH, stored.min_length, requested.min_length),
        (MAX_LENGTH, stored.max_length, requested.max_length),
        ("characters", stored.characters.description, requested.characters.description),
    ]
    differences += [
        (name, shown(was), shown(now))
        for (name, was), (_, now) in zip(stored.shape.settings(), requested.shape.settings(), strict=True)
    ]
    contradictions = [
        f"{name}: the checkpoint has {was}, the query sets {now}"
        for name, was, now in differences
        if was != now
    ]
    if contradictions:
        raise ValueError(
            f"The options of this query contradict the stream stored in its checkpoint ({where}): "
            + "; ".join(contradictions)
            + ". A checkpoint's seed, rowsPerSecond, lengths, characters and the options that shape "
            "rows (distinctValues to maxDuplicateDistance) are fixed when its query first starts, so "
            "that every batch can be replayed identically. Restart with the stored values (the seed "
            "may simply be left out), or use a new checkpoint location to start a different stream."
        )


def _check_stored(definition: StreamDefinition) -> None:
    """A stored definition passes the rules the options pass."""
    shape = definition.shape
    if shape.distinct_values is not None:
        DISTINCT_VALUES_RANGE.check(DISTINCT_VALUES, shape.distinct_values)
        allowed = pool_capacity(definition.min_length, definition.max_length, definition.characters.size)
        if allowed < shape.distinct_values:
            raise ValueError(
                f"'{DISTINCT_VALUES}' is {shape.distinct_values}, but its lengths and characters "
                f"allow only {allowed}"
            )
    if shape.value_distribution not in DISTRIBUTIONS:
        raise ValueError(
            f"'{VALUE_DISTRIBUTION}' is '{shape.value_distribution}', not {' or '.join(DISTRIBUTIONS)}"
        )
    ZIPF_EXPONENT_RANGE.check(ZIPF_EXPONENT, shape.zipf_exponent, str(shape.zipf_exponent))
    MAX_OUT_OF_ORDER_MS_RANGE.check(MAX_OUT_OF_ORDER_MS, shape.max_out_of_order_ms)
    LATE_ROW_FRACTION_RANGE.check(LATE_ROW_FRACTION, shape.late_row_fraction, str(shape.late_row_fraction))
    if shape.late_by_ms is not None:
        LATE_BY_MS_RANGE.check(LATE_BY_MS, shape.late_by_ms)
    if shape.late_row_fraction > 0.0 and shape.late_by_ms is None:
        raise ValueError(f"'{LATE_ROW_FRACTION}' is above 0 without '{LATE_BY_MS}'")
    DUPLICATE_FRACTION_RANGE.check(
        DUPLICATE_FRACTION, shape.duplicate_fraction, str(shape.duplicate_fraction)
    )
    MAX_DUPLICATE_DISTANCE_RANGE.check(MAX_DUPLICATE_DISTANCE, shape.max_duplicate_distance)
    ROWS_PER_SECOND_RANGE.check(ROWS_PER_SECOND, definition.rows_per_second)
    LENGTH_RANGE.check(MIN_LENGTH, definition.min_length)
    LENGTH_RANGE.check(MAX_LENGTH, definition.max_length)
    check_lengths(definition.min_length, definition.max_length)
