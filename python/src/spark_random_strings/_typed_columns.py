"""A declared schema and its ``fields.<column>.<property>`` options, read into the
``CellSpec`` of each column (the JVM source's ``TypedColumns.scala``): every property checked
against the column's type and kind, with the JVM's message, which names the option, the value
and what is allowed. The checks run in the JVM's order, so that options with several faults are
refused for the same one.

Numbers in messages are shown as Scala shows them (a Long as its digits, a Double as Java's
``Double.toString``); JSON values as Jackson shows them (``_jackson``); types as Spark's
``DataType.sql`` (``_ddl.sql``).
"""

from __future__ import annotations

import base64
import binascii
import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from spark_random_strings import _field_options as field_options
from spark_random_strings import _pattern_plan as pattern_plan
from spark_random_strings._cell_spec import (
    Arrays,
    ArrayType,
    AtomicType,
    Booleans,
    Bytes,
    CellKind,
    CellSpec,
    DataType,
    Distribution,
    EventTime,
    Exponential,
    Normal,
    Patterned,
    Pick,
    PickUniform,
    PickWeighted,
    PickZipf,
    Reals,
    RowOffset,
    SequenceKind,
    Strings,
    Structs,
    StructType,
    Uniform,
    Values,
    Wholes,
    Zipf,
)
from spark_random_strings._character_set import alphabet_set, named_set
from spark_random_strings._ddl import (
    BIGINT,
    BINARY,
    BOOLEAN,
    DATE,
    DOUBLE,
    ELEMENT,
    FLOAT,
    INT,
    SMALLINT,
    STRING,
    TIMESTAMP,
    TIMESTAMP_NTZ,
    TINYINT,
    FieldMetadata,
    Position,
    is_decimal,
    sql,
)
from spark_random_strings._jackson import Json, as_double, as_text, is_number, read_tree, to_string
from spark_random_strings._option_range import (
    LONG_MAX,
    LONG_MIN,
    Real,
    Whole,
    java_double,
    java_equals_ignore_case,
    java_float,
    java_sort_key,
    java_trim,
    to_float32,
)
from spark_random_strings._string_values import (
    DEFAULT_VALUES,
    STRING_VALUE_OPTIONS,
    validate_pool,
    validate_values,
)
from spark_random_strings.options import (
    ALPHABET,
    CHARSET,
    DISTINCT_VALUES,
    DISTINCT_VALUES_RANGE,
    DISTRIBUTIONS,
    FORMAT,
    LENGTH_RANGE,
    MAX_LENGTH,
    MIN_LENGTH,
    VALUE_DISTRIBUTION,
    ZIPF,
    ZIPF_EXPONENT,
    ZIPF_EXPONENT_RANGE,
)

KIND = "kind"
NULL_RATE = "nullRate"
MIN = "min"
MAX = "max"
DISTRIBUTION = "distribution"
MEAN = "mean"
STDDEV = "stddev"
START = "start"
STEP = "step"
END = "end"
VALUES = "values"
WEIGHTS = "weights"
PATTERN = "pattern"
MIN_SIZE = "minSize"
MAX_SIZE = "maxSize"

#: The path part that names an ARRAY's elements.
ELEMENT_NAME = "element"

RANDOM_KIND = "random"
SEQUENCE_KIND = "sequence"
OFFSET_KIND = "offset"
EVENT_TIME_KIND = "eventTime"
VALUES_KIND = "values"
KINDS = (RANDOM_KIND, SEQUENCE_KIND, OFFSET_KIND, EVENT_TIME_KIND, VALUES_KIND)

UNIFORM_DISTRIBUTION = "uniform"
ZIPF_DISTRIBUTION = "zipf"
NORMAL_DISTRIBUTION = "normal"
EXPONENTIAL_DISTRIBUTION = "exponential"
#: A normal's ``stddev`` may be at most this many times its range's width (in whole units, the
#: width plus one): a value is drawn again until it falls within [min, max], at least once in 250
#: tries on average then; a wider one would take millions of tries, or never end.
NORMAL_SPREAD = 100.0

#: The default sizes of an ARRAY, and the most elements one may hold.
DEFAULT_MIN_SIZE = 0
DEFAULT_MAX_SIZE = 4
MAX_SIZE_LIMIT = 1 << 16
#: The default lengths of BINARY values, in bytes.
DEFAULT_MIN_BYTES = 0
DEFAULT_MAX_BYTES = 16
#: The default range of DATE values, and of TIMESTAMP and TIMESTAMP_NTZ ones.
DEFAULT_MIN_DATE = "2000-01-01"
DEFAULT_MAX_DATE = "2030-12-31"
DEFAULT_MIN_TIMESTAMP = "2000-01-01 00:00:00"
DEFAULT_MAX_TIMESTAMP = "2030-12-31 23:59:59.999999"

_NULL_RATE_RANGE = Real(0.0, True, 1.0, True)
_DOUBLE_MAX = 1.7976931348623157e308
_FLOAT_MAX = 3.4028234663852886e38  # Float.MaxValue
_MIN_POSITIVE = 5e-324
_STRING_PROPERTIES = STRING_VALUE_OPTIONS
_INTEGRALS = {
    TINYINT.sql: (-(2**7), 2**7 - 1),
    SMALLINT.sql: (-(2**15), 2**15 - 1),
    INT.sql: (-(2**31), 2**31 - 1),
}
_INTEGRALS[BIGINT.sql] = (LONG_MIN, LONG_MAX)
_TIMESTAMPS = (TIMESTAMP.sql, TIMESTAMP_NTZ.sql)
_GENERATED = {
    t.sql
    for t in (
        BOOLEAN,
        TINYINT,
        SMALLINT,
        INT,
        BIGINT,
        FLOAT,
        DOUBLE,
        STRING,
        BINARY,
        DATE,
        TIMESTAMP,
        TIMESTAMP_NTZ,
    )
}


def parse(
    schema: StructType, options: Sequence[tuple[str, str]], metadata: FieldMetadata = ()
) -> tuple[CellSpec, ...]:
    """The cells of ``schema``'s columns, in order, as the per-column ``options`` say.

    Args:
        schema: the schema the user declared.
        options: each ``fields.`` option, its name as the user wrote it, and its value.
        metadata: the schema's fields' metadata (their comments), which the types in messages
            show as Spark's ``sql`` does.

    Raises:
        ValueError: naming the column, the option, the value and what is allowed.
    """
    return _Parser(schema, options, metadata).parse()


def closest(name: str, known: Sequence[str]) -> str | None:
    """The entry of ``known`` nearest to ``name`` by Levenshtein distance, case-insensitive (the
    first of the nearest), if near enough to be a typo: at most max(2, a third of its length)
    edits, counted in UTF-16 code units as Commons Text counts them."""
    if not known:
        return None
    lower = _utf16(name.lower())
    best, edits = min(((k, _levenshtein(lower, _utf16(k.lower()))) for k in known), key=lambda pair: pair[1])
    return best if edits <= max(2, len(_utf16(best)) // 2 // 3) else None  # 2 bytes a code unit


def _utf16(text: str) -> bytes:
    return text.encode("utf-16-be", "surrogatepass")


def _levenshtein(a: bytes, b: bytes) -> int:
    """The edit distance of two UTF-16-BE texts, in code units."""
    x = [a[i : i + 2] for i in range(0, len(a), 2)]
    y = [b[i : i + 2] for i in range(0, len(b), 2)]
    previous = list(range(len(y) + 1))
    for i, cx in enumerate(x, 1):
        current = [i]
        for j, cy in enumerate(y, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (cx != cy)))
        previous = current
    return previous[-1]


def scala_text(value: object) -> str:
    """A value as Scala's ``toString`` shows it: a Double as Java writes it."""
    return java_double(value) if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class _Given:
    """A property as the user wrote it: the option's name and its value."""

    option: str
    value: str


@dataclass(frozen=True)
class _Units:
    """The smallest and largest whole unit of a type, how a bound's text reads as one, and what
    the messages say is allowed; and how a distribution's spread (``stddev``, an exponential's
    ``mean``) is given: in ``spread_name``, ``spread`` units each. A normal's ``mean`` is a value
    of the column where ``mean_is_value`` (a date, a time), else a number in ``spread_name``."""

    low: int
    high: int
    read: Callable[[str], int | None]
    allowed: str
    spread: float = 1.0
    spread_name: str = "the column's units"
    mean_is_value: bool = False


class _Properties:
    """The properties given to one column, checked against the ones its type and kind allow."""

    def __init__(
        self,
        parser: _Parser,
        path: tuple[str, ...],
        at: Position,
        data_type: DataType,
        given: dict[str, _Given],
    ) -> None:
        self.path = path
        self.data_type = data_type
        self.type_name = parser.type_name(data_type, at)
        self.given = given
        self.shown_path = field_options.shown(path)

    def get(self, name: str) -> _Given | None:
        return self.given.get(name.lower())

    def only(self, allowed: Sequence[str]) -> None:
        """Refuses the first property given (in the options' order) that is neither one of
        ``allowed`` nor common to every column."""
        every = [KIND, NULL_RATE, *allowed]
        lowered = {a.lower() for a in every}
        for key, g in sorted(self.given.items(), key=lambda item: java_sort_key(item[1].option)):
            if key in lowered:
                continue
            property_name = field_options.split(g.option)[1]
            near = closest(property_name, every)
            hint = f" Did you mean '{near}'?" if near else ""
            given_kind = self.get(KIND)
            kind = self.implied_kind() if given_kind is None else java_trim(given_kind.value)
            raise ValueError(
                f"Unknown or misplaced property '{property_name}' in option '{g.option}': column "
                f"'{self.shown_path}' ({self.type_name}, kind {kind}) takes {', '.join(every)}.{hint}"
            )

    def implied_kind(self) -> str:
        """The kind of a column whose ``kind`` is not given: ``values`` if its ``values`` are,
        else ``random``."""
        return RANDOM_KIND if self.get(VALUES) is None else VALUES_KIND

    def kind_only(self, kind: str, types: str) -> ValueError:
        given = self.get(KIND)
        if given is None:
            values = self.get(VALUES)
            assert values is not None
            return ValueError(
                f"Invalid option '{values.option}': column '{self.shown_path}' is {self.type_name}, "
                f"and values (kind {kind}) make {types}."
            )
        return ValueError(
            f"Invalid value '{given.value}' for option '{given.option}': column '{self.shown_path}' "
            f"is {self.type_name}, and kind {kind} makes {types}."
        )

    def range(
        self, min_name: str, max_name: str, allowed: Whole, min_default: int, max_default: int
    ) -> tuple[int, int]:
        """The whole numbers ``min_name`` and ``max_name`` of ``allowed`` (defaults given),
        refused if min > max."""
        given_min, given_max = self.get(min_name), self.get(max_name)
        least = min_default if given_min is None else allowed.parse(given_min.option, given_min.value)
        most = max_default if given_max is None else allowed.parse(given_max.option, given_max.value)
        self.in_order(min_name, max_name, least, most)
        return least, most

    def in_order(self, min_name: str, max_name: str, least: float, most: float) -> None:
        if least > most:

            def stated(name: str, value: float) -> str:
                g = self.get(name)
                if g is None:
                    return f"'fields.{self.shown_path}.{name}' is {scala_text(value)} (its default)"
                return f"'{g.option}' is {g.value}"

            raise ValueError(
                f"Invalid range for column '{self.shown_path}': {stated(min_name, least)} and "
                f"{stated(max_name, most)}. '{min_name}' must be less than or equal to '{max_name}'."
            )

    def option(self, name: str) -> str:
        g = self.get(name)
        return f"fields.{self.shown_path}.{name}" if g is None else g.option


class _Parser:
    """One declared schema and its options, read into cell specs."""

    def __init__(
        self, schema: StructType, options: Sequence[tuple[str, str]], metadata: FieldMetadata
    ) -> None:
        self.schema = schema
        self.options = options
        self.metadata = metadata
        self.by_path: dict[tuple[str, ...], dict[str, _Given]] = {}

    def type_name(self, t: DataType, at: Position) -> str:
        """The declared column's type, as messages name it (``DataType.sql``)."""
        return sql(t, self.metadata, at)

    def parse(self) -> tuple[CellSpec, ...]:
        if not self.schema.fields:
            raise ValueError(
                f"The {FORMAT} source was given a schema with no column. Declare at least one, "
                'e.g. .schema("id BIGINT, name STRING").'
            )
        self.check_names(self.schema, ())
        for i, f in enumerate(self.schema.fields):
            self.check_type((f.name,), (i,), f.data_type)
        self.group()
        return tuple(
            self.spec((f.name,), (i,), f.data_type, f.nullable) for i, f in enumerate(self.schema.fields)
        )

    def check_names(self, struct: StructType, parent: tuple[str, ...]) -> None:
        lower = [f.name.lower() for f in struct.fields]
        # The first column, in the schema's order, that another one names again.
        for first, name in zip(struct.fields, lower, strict=True):
            if lower.count(name) > 1:
                raise ValueError(
                    "The declared schema has two columns named "
                    f"'{field_options.shown((*parent, first.name))}' (names are case-insensitive). Give "
                    "each column its own name."
                )

    def check_type(self, path: tuple[str, ...], at: Position, t: DataType) -> None:
        """Refuses a type no generator makes, naming the column."""
        if isinstance(t, AtomicType) and (t.sql in _GENERATED or is_decimal(t)):
            return
        if isinstance(t, ArrayType):
            self.check_type((*path, ELEMENT_NAME), (*at, ELEMENT), t.element)
            return
        if isinstance(t, StructType):
            if not t.fields:
                raise ValueError(
                    f"Column '{field_options.shown(path)}' is a STRUCT with no field. Declare at least one "
                    "field."
                )
            self.check_names(t, path)
            for i, f in enumerate(t.fields):
                self.check_type((*path, f.name), (*at, i), f.data_type)
            return
        raise ValueError(
            f"Column '{field_options.shown(path)}' has type {self.type_name(t, at)}, which this source "
            "cannot generate. Allowed: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p,s), "
            "STRING, BINARY, DATE, TIMESTAMP, TIMESTAMP_NTZ, and ARRAY and STRUCT of them."
        )

    def group(self) -> None:
        """The options grouped by the column path they name, each path as the schema spells it;
        a path that names no column, or a property given twice, is refused."""
        resolved = []
        for name, value in self.options:
            path, property_name = field_options.split(name)
            resolved.append((self.resolve(path, name), property_name, _Given(name, value)))
        # In the order of the options' names, so that of several faults the first is always refused.
        seen: dict[tuple[tuple[str, ...], str], _Given] = {}
        for path, property_name, given in sorted(resolved, key=lambda r: java_sort_key(r[2].option)):
            key = (path, property_name.lower())
            first = seen.get(key)
            if first is not None:
                raise ValueError(
                    f"Options '{first.option}' and '{given.option}' set the same property of column "
                    f"'{field_options.shown(path)}'. Keep one."
                )
            seen[key] = given
        for (path, property_name), given in seen.items():
            self.by_path.setdefault(path, {})[property_name] = given

    def resolve(self, path: tuple[str, ...], option: str) -> tuple[str, ...]:
        """``path`` as the schema spells it (names match case-insensitively)."""
        current: DataType = self.schema
        at: Position = ()
        resolved: list[str] = []
        for i, part in enumerate(path):
            found: tuple[str, DataType, int] | None = None
            if isinstance(current, StructType):
                found = next(
                    (
                        (f.name, f.data_type, j)
                        for j, f in enumerate(current.fields)
                        if java_equals_ignore_case(f.name, part)
                    ),
                    None,
                )
            elif isinstance(current, ArrayType) and java_equals_ignore_case(part, ELEMENT_NAME):
                found = (ELEMENT_NAME, current.element, ELEMENT)
            if found is None:
                prefix = path[:i]
                known = [field_options.shown(p) for p in _paths_of(self.schema, ())]
                wanted = field_options.shown((*prefix, part))
                near = closest(wanted, known)
                hint = f" Did you mean '{near}'?" if near else ""
                where = (
                    "the declared schema has no such column"
                    if not prefix
                    else f"'{field_options.shown(prefix)}' ({self.type_name(current, at)}) has no part "
                    f"'{part}'"
                )
                raise ValueError(
                    f"Unknown column '{wanted}' in option '{option}': {where}.{hint} Columns: "
                    f"{', '.join(known)}."
                )
            name, current, step = found
            at = (*at, step)
            resolved.append(name)
        return tuple(resolved)

    def spec(self, path: tuple[str, ...], at: Position, t: DataType, nullable: bool) -> CellSpec:
        """The cell spec of the column at ``path``, with the properties given to it."""
        p = _Properties(self, path, at, t, self.by_path.get(path, {}))
        null_rate = 0.0
        rate = p.get(NULL_RATE)
        if rate is not None:
            if not nullable:
                raise ValueError(
                    f"Option '{rate.option}' sets nulls on column '{p.shown_path}', which is NOT NULL. "
                    f"Declare the column nullable (remove NOT NULL), or remove '{rate.option}'."
                )
            null_rate = _NULL_RATE_RANGE.parse(rate.option, rate.value)
        kind = p.implied_kind()
        kind_given = p.get(KIND)
        if kind_given is not None:
            text = java_trim(kind_given.value)
            found = next((k for k in KINDS if java_equals_ignore_case(k, text)), None)
            if found is None:
                raise ValueError(
                    f"Invalid value '{kind_given.value}' for option '{kind_given.option}'. Allowed: "
                    f"{', '.join(KINDS)} (case-insensitive)."
                )
            kind = found
        return CellSpec(path, t, nullable, null_rate, self.kind_of(p, kind, path, at, t))

    def kind_of(
        self, p: _Properties, kind: str, path: tuple[str, ...], at: Position, t: DataType
    ) -> CellKind:
        name = t.sql if isinstance(t, AtomicType) else ""
        if kind == OFFSET_KIND:
            if name != BIGINT.sql:
                raise p.kind_only(OFFSET_KIND, "BIGINT")
            p.only(())
            return RowOffset()
        if kind == EVENT_TIME_KIND:
            if name in _TIMESTAMPS or name == BIGINT.sql:
                p.only(())
                return EventTime(micros=name != BIGINT.sql)
            raise p.kind_only(EVENT_TIME_KIND, "TIMESTAMP, TIMESTAMP_NTZ or BIGINT (epoch ms)")
        if kind == SEQUENCE_KIND and ELEMENT in at:
            g = p.get(KIND)
            assert g is not None
            raise ValueError(
                f"Invalid value '{g.value}' for option '{g.option}': a sequence counts rows, and column "
                f"'{p.shown_path}' is inside an ARRAY, whose elements are no rows. Use kind sequence "
                "on a column of the row, or another kind here."
            )
        if kind == SEQUENCE_KIND:
            if name not in _INTEGRALS:
                raise p.kind_only(SEQUENCE_KIND, "TINYINT, SMALLINT, INT or BIGINT")
            return _sequence(p)
        if kind == VALUES_KIND:
            if isinstance(t, ArrayType | StructType):
                raise p.kind_only(VALUES_KIND, "a type other than ARRAY and STRUCT")
            return _values(p)
        if isinstance(t, ArrayType):
            p.only((MIN_SIZE, MAX_SIZE))
            least, most = p.range(
                MIN_SIZE, MAX_SIZE, Whole(0, MAX_SIZE_LIMIT), DEFAULT_MIN_SIZE, DEFAULT_MAX_SIZE
            )
            element = self.spec((*path, ELEMENT_NAME), (*at, ELEMENT), t.element, t.contains_null)
            return Arrays(least, most, element)
        if isinstance(t, StructType):
            p.only(())
            return Structs(
                tuple(
                    self.spec((*path, f.name), (*at, i), f.data_type, f.nullable)
                    for i, f in enumerate(t.fields)
                )
            )
        if name == BOOLEAN.sql:
            p.only(())
            return Booleans()
        if name == STRING.sql:
            return _strings(p)
        if name == BINARY.sql:
            p.only((MIN_LENGTH, MAX_LENGTH))
            least, most = p.range(
                MIN_LENGTH, MAX_LENGTH, Whole(0, MAX_SIZE_LIMIT), DEFAULT_MIN_BYTES, DEFAULT_MAX_BYTES
            )
            return Bytes(least, most)
        if name in (FLOAT.sql, DOUBLE.sql):
            return _reals(p)
        return _wholes(p)


def _paths_of(t: DataType, prefix: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every path a ``fields.`` option may name, in the schema's order."""
    if isinstance(t, StructType):
        paths: list[tuple[str, ...]] = []
        for f in t.fields:
            paths.append((*prefix, f.name))
            paths.extend(_paths_of(f.data_type, (*prefix, f.name)))
        return paths
    if isinstance(t, ArrayType):
        return [(*prefix, ELEMENT_NAME), *_paths_of(t.element, (*prefix, ELEMENT_NAME))]
    return []


# Whole numbers: TINYINT to BIGINT, DECIMAL (in units of 10^-scale), DATE (days), TIMESTAMP (µs).

_WHOLE_TEXT = re.compile(r"[+-]?\d+")
_DECIMAL_TEXT = re.compile(r"([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?")
_DATE_TEXT = re.compile(r"(\+\d{5,10}|-\d{4,10}|\d{4})-(\d{2})-(\d{2})", re.ASCII)
_TIME_TEXT = re.compile(r"(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{0,9}))?)?", re.ASCII)
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1
_MICROS_PER_DAY = 86_400_000_000


def _epoch_day(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to a date of the proleptic Gregorian calendar (``toEpochDay``)."""
    y = year - (month <= 2)
    era = y // 400
    year_of_era = y - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def _days_in_month(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _local_date(text: str) -> tuple[int, int, int] | None:
    """The year, month and day of ``text`` as ``LocalDate.parse`` reads it (ISO, strict)."""
    match = _DATE_TEXT.fullmatch(text)
    if match is None:
        return None
    year, month, day = int(match[1]), int(match[2]), int(match[3])
    if match[1] == "-0000" or not -999_999_999 <= year <= 999_999_999:
        return None
    if not 1 <= month <= 12 or not 1 <= day <= _days_in_month(year, month):
        return None
    return year, month, day


def _date_days(text: str) -> int | None:
    date = _local_date(java_trim(text))
    return None if date is None else _epoch_day(*date)


def _timestamp_micros(text: str) -> int | None:
    """Microseconds since 1970-01-01 00:00 of ``text``, ``yyyy-MM-dd[( |T)HH:mm[:ss[.f...]]]``
    (``TypedColumns.timestampMicros``: a year from 1 to 9999, whole microseconds)."""
    t = java_trim(text).replace(" ", "T")
    if len(_utf16(t)) // 2 == 10:
        date, clock = _local_date(t), (0, 0, 0, 0)
    else:
        date_text, separator, time_text = t.partition("T") if "T" in t else t.partition("t")
        time = _TIME_TEXT.fullmatch(time_text) if separator else None
        date = _local_date(date_text) if time else None
        if time is None or date is None:
            return None
        hour, minute, second = int(time[1]), int(time[2]), int(time[3] or 0)
        if hour > 23 or minute > 59 or second > 59:
            return None
        fraction = time[4] or ""
        clock = (hour, minute, second, int(fraction.ljust(9, "0")) if fraction else 0)
    if date is None or not 1 <= date[0] <= 9999 or clock[3] % 1000 != 0:
        return None
    hour, minute, second, nanos = clock
    return (
        _epoch_day(*date) * _MICROS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1_000_000 + nanos // 1000
    )


def _decimal_units(text: str, scale: int, high: int) -> int | None:
    """``text`` as a whole number of 10^-``scale`` (``new BigDecimal(text.trim)`` then
    ``setScale``), if it has no more digits after the point and is within ``high``."""
    match = _DECIMAL_TEXT.fullmatch(java_trim(text))
    if match is None or not (match[2] or match[3]):
        return None
    sign, whole, fraction, exponent_text = match[1], match[2], match[3] or "", match[4]
    exponent = int(exponent_text) if exponent_text else 0
    if not _INT_MIN <= exponent <= _INT_MAX or not _INT_MIN <= len(fraction) - exponent <= _INT_MAX:
        return None
    mantissa: int = int(whole + fraction)
    shift = exponent - len(fraction) + scale  # the units = mantissa * 10^shift
    if mantissa == 0:
        return 0
    if shift >= 0:
        if shift > 40:
            return None
        factor: int = 10**shift
        units = mantissa * factor
    else:
        if -shift > len(str(mantissa)):
            return None
        divisor: int = 10 ** (-shift)
        units, rest = divmod(mantissa, divisor)
        if rest:
            return None
    if units > high:
        return None
    return -units if sign == "-" else units


def _integral(low: int, high: int) -> _Units:
    def read(text: str) -> int | None:
        trimmed = java_trim(text)
        if not _WHOLE_TEXT.fullmatch(trimmed):
            return None
        value = int(trimmed)
        return value if low <= value <= high else None

    return _Units(low, high, read, f"a whole number from {low} to {high}")


def _units_of(t: DataType) -> _Units:
    assert isinstance(t, AtomicType)
    if t.sql in _INTEGRALS:
        return _integral(*_INTEGRALS[t.sql])
    if is_decimal(t):
        digits = min(t.precision, 18)
        high = 10**digits - 1
        return _Units(
            -high,
            high,
            lambda text: _decimal_units(text, t.scale, high),
            f"a decimal number with at most {t.scale} digits after the point and {digits - t.scale} before it"
            + (" (bounds of up to 18 digits in all)" if t.precision > 18 else ""),
            spread=math.pow(10, t.scale),
            spread_name="the column's values",
        )
    if t.sql == DATE.sql:
        return _Units(
            _epoch_day(1, 1, 1),
            _epoch_day(9999, 12, 31),
            _date_days,
            "a date yyyy-MM-dd, from 0001-01-01 to 9999-12-31",
            spread_name="days",
            mean_is_value=True,
        )
    if t.sql in _TIMESTAMPS:
        zone = " (UTC)" if t.sql == TIMESTAMP.sql else ""
        return _Units(
            _epoch_day(1, 1, 1) * _MICROS_PER_DAY,
            _epoch_day(9999, 12, 31) * _MICROS_PER_DAY + _MICROS_PER_DAY - 1,
            _timestamp_micros,
            f"a time yyyy-MM-dd[ HH:mm:ss[.ffffff]]{zone}, from 0001-01-01 to 9999-12-31",
            spread=1e6,
            spread_name="seconds",
            mean_is_value=True,
        )
    raise RuntimeError(f"no whole units for {t.sql}")


def _defaults(t: DataType, units: _Units) -> tuple[int, int]:
    assert isinstance(t, AtomicType)
    if t.sql == DATE.sql:
        return _known(units.read(DEFAULT_MIN_DATE)), _known(units.read(DEFAULT_MAX_DATE))
    if t.sql in _TIMESTAMPS:
        return _known(units.read(DEFAULT_MIN_TIMESTAMP)), _known(units.read(DEFAULT_MAX_TIMESTAMP))
    if is_decimal(t):
        return 0, units.high
    return units.low, units.high


def _known(value: int | None) -> int:
    assert value is not None
    return value


def _whole_value(p: _Properties, units: _Units, g: _Given) -> int:
    value = units.read(g.value)
    if value is None:
        raise ValueError(
            f"Invalid value '{g.value}' for option '{g.option}': not a value of column '{p.shown_path}' "
            f"({p.type_name}). Allowed: {units.allowed}."
        )
    return value


def _wholes(p: _Properties) -> CellKind:
    units = _units_of(p.data_type)
    min_default, max_default = _defaults(p.data_type, units)
    given_min, given_max = p.get(MIN), p.get(MAX)
    least = min_default if given_min is None else _whole_value(p, units, given_min)
    most = max_default if given_max is None else _whole_value(p, units, given_max)
    p.in_order(MIN, MAX, least, most)
    distribution = _number_distribution(p, True, float(least), float(most), units)
    if isinstance(distribution, Zipf) and most - least >= LONG_MAX:
        raise ValueError(
            f"Column '{p.shown_path}': a zipf distribution needs fewer than 2^63 values between "
            f"'{p.option(MIN)}' and '{p.option(MAX)}'. Narrow the range."
        )
    return Wholes(least, most, distribution)


def _reals(p: _Properties) -> CellKind:
    allowed = Real(-_DOUBLE_MAX, True, _DOUBLE_MAX, True)
    limit = _FLOAT_MAX if p.data_type == FLOAT else _DOUBLE_MAX

    def read(g: _Given) -> float:
        v = allowed.parse(g.option, g.value)
        if abs(v) > limit:
            raise ValueError(
                f"Invalid value '{g.value}' for option '{g.option}': out of range of column '{p.shown_path}' "
                f"({p.type_name}). Allowed: a decimal number from {java_double(-limit)} to "
                f"{java_double(limit)}."
            )
        return v

    given_min, given_max = p.get(MIN), p.get(MAX)
    least = 0.0 if given_min is None else read(given_min)
    most = 1.0 if given_max is None else read(given_max)
    p.in_order(MIN, MAX, least, most)
    return Reals(least, most, _number_distribution(p, False, least, most))


def _number_distribution(
    p: _Properties, wholes: bool, least: float, most: float, units: _Units | None = None
) -> Distribution:
    """The distribution of a number column of the range [least, most] (in ``units``, if whole).
    A spread (``stddev``, an exponential's ``mean``) is given in the type's terms: days, seconds,
    a DECIMAL's values; a normal's ``mean`` is a value of the column (a date, a time) or a number
    in those terms."""
    names = (
        (UNIFORM_DISTRIBUTION, ZIPF_DISTRIBUTION, NORMAL_DISTRIBUTION, EXPONENTIAL_DISTRIBUTION)
        if wholes
        else (UNIFORM_DISTRIBUTION, NORMAL_DISTRIBUTION, EXPONENTIAL_DISTRIBUTION)
    )
    chosen = UNIFORM_DISTRIBUTION
    given = p.get(DISTRIBUTION)
    if given is not None:
        found = next((n for n in names if java_equals_ignore_case(n, java_trim(given.value))), None)
        if found is None:
            raise ValueError(
                f"Invalid value '{given.value}' for option '{given.option}'. Allowed for column "
                f"'{p.shown_path}' ({p.type_name}): {', '.join(names)} (case-insensitive)."
            )
        chosen = found
    positive = Real(0.0, False, _DOUBLE_MAX, True)

    def real(name: str, allowed: Real, default: float) -> float:
        g = p.get(name)
        return default if g is None else allowed.parse(g.option, g.value)

    spread = 1.0 if units is None else units.spread
    spread_name = "the column's units" if units is None else units.spread_name

    def spread_of(name: str, default: float) -> float:
        g = p.get(name)
        return default if g is None else positive.parse(g.option, g.value) * spread

    def mean_within(default: float) -> float:
        g = p.get(MEAN)
        if g is None:
            return default
        if units is None or not units.mean_is_value:
            return Real(least / spread, True, most / spread, True).parse(g.option, g.value) * spread
        mean = float(_whole_value(p, units, g))
        if mean < least or mean > most:

            def bound(name: str) -> str:
                b = p.get(name)
                return f"the default {name}" if b is None else f"'{b.value}'"

            raise ValueError(
                f"Invalid value '{g.value}' for option '{g.option}': outside column '{p.shown_path}''s range "
                f"[min, max]. Allowed: from {bound(MIN)} to {bound(MAX)}."
            )
        return mean

    if chosen == UNIFORM_DISTRIBUTION:
        p.only((MIN, MAX, DISTRIBUTION))
        return Uniform()
    if chosen == ZIPF_DISTRIBUTION:
        zipf = Zipf(real(ZIPF_EXPONENT, ZIPF_EXPONENT_RANGE, 1.0))
        p.only((MIN, MAX, DISTRIBUTION, ZIPF_EXPONENT))
        return zipf
    if chosen == NORMAL_DISTRIBUTION:
        mean = mean_within(least / 2 + most / 2)
        stddev = spread_of(STDDEV, max(most / 6 - least / 6, _MIN_POSITIVE))
        p.only((MIN, MAX, DISTRIBUTION, MEAN, STDDEV))
        widest = (most - least + (1.0 if wholes else 0.0)) * NORMAL_SPREAD
        given = p.get(STDDEV)
        if given is not None and stddev > widest:
            raise ValueError(
                f"Invalid value '{given.value}' for option '{given.option}': a normal distribution that "
                f"wide would rarely fall within column '{p.shown_path}''s range [min, max], and a value is "
                f"drawn again until it does. Allowed: a stddev of at most {java_double(widest / spread)} "
                f"({int(NORMAL_SPREAD)} times max - min{' + 1' if wholes else ''}, in {spread_name})."
            )
        return Normal(mean, stddev)
    mean = spread_of(MEAN, max(most / 10 - least / 10, _MIN_POSITIVE))
    p.only((MIN, MAX, DISTRIBUTION, MEAN))
    return Exponential(mean)


def _sequence(p: _Properties) -> CellKind:
    units = _units_of(p.data_type)
    given_start, given_step, given_end = p.get(START), p.get(STEP), p.get(END)
    start = 0 if given_start is None else _whole_value(p, units, given_start)
    step = 1
    if given_step is not None:
        step = Whole(LONG_MIN).parse(given_step.option, given_step.value)
        if step == 0:
            raise ValueError(
                f"Invalid value '{given_step.value}' for option '{given_step.option}': a sequence's step "
                "cannot be 0. Allowed: a whole number other than 0."
            )
    last = (units.high if step > 0 else units.low) if given_end is None else _whole_value(p, units, given_end)
    if (step > 0 and last < start) or (step < 0 and last > start):
        raise ValueError(
            f"Invalid sequence for column '{p.shown_path}': it starts at {start} and steps by {step}, so it "
            f"never reaches '{p.option(END)}' = {last}. Give an end the steps reach, or a step of the other "
            "sign."
        )
    count = abs(last - start) // abs(step) + 1
    p.only((START, STEP, END))
    return SequenceKind(start, step, min(count, LONG_MAX))


def _values(p: _Properties) -> CellKind:
    listed = p.get(VALUES)
    if listed is None:
        raise ValueError(
            f"Column '{p.shown_path}' has kind values, but '{p.option(VALUES)}' is not set. Give the values "
            """as a JSON array, e.g. '["new", "paid"]'."""
        )
    nodes = _json_array(listed)
    if not nodes:
        raise ValueError(
            f"Invalid value '{listed.value}' for option '{listed.option}': the list is empty. Allowed: a "
            "JSON array of at least one value."
        )
    parsed = [_value_of(p, listed, node, i) for i, node in enumerate(nodes)]
    weights: list[float] | None = None
    given_weights = p.get(WEIGHTS)
    if given_weights is not None:
        g = given_weights
        weights = []
        for i, node in enumerate(_json_array(g)):
            weight = as_double(node) if is_number(node) else math.nan
            if not weight >= 0.0 or math.isinf(weight):
                raise ValueError(
                    f"Invalid value '{g.value}' for option '{g.option}': its element {i} ({to_string(node)}) "
                    "is not a number >= 0. Allowed: a JSON array of numbers >= 0, one for each value."
                )
            weights.append(weight)
        if len(weights) != len(nodes):
            raise ValueError(
                f"Invalid value '{g.value}' for option '{g.option}': {len(weights)} weights for "
                f"{len(nodes)} values in '{listed.option}'. Give one weight for each value."
            )
        if not sum(weights) > 0.0:
            raise ValueError(
                f"Invalid value '{g.value}' for option '{g.option}': the weights add up to 0. Give at "
                "least one value a weight above 0."
            )
    zipf = False
    given_distribution = p.get(DISTRIBUTION)
    if given_distribution is not None:
        text = java_trim(given_distribution.value)
        if not java_equals_ignore_case(text, ZIPF_DISTRIBUTION) and not java_equals_ignore_case(
            text, UNIFORM_DISTRIBUTION
        ):
            raise ValueError(
                f"Invalid value '{given_distribution.value}' for option '{given_distribution.option}'. "
                "Allowed for kind values: uniform or zipf (case-insensitive)."
            )
        zipf = java_equals_ignore_case(text, ZIPF_DISTRIBUTION)
    if zipf and weights is not None:
        raise ValueError(
            f"Options that do not fit together: '{p.option(WEIGHTS)}' and '{p.option(DISTRIBUTION)}' = zipf "
            f"both say how column '{p.shown_path}' picks its values. Keep one."
        )
    pick: Pick
    exponent = p.get(ZIPF_EXPONENT)
    if zipf:
        pick = PickZipf(
            1.0 if exponent is None else ZIPF_EXPONENT_RANGE.parse(exponent.option, exponent.value)
        )
    else:
        if exponent is not None:
            raise ValueError(
                f"Options that do not fit together: '{p.option(ZIPF_EXPONENT)}' is set, but "
                f"'{p.option(DISTRIBUTION)}' is not zipf. Set it to zipf, or remove "
                f"'{p.option(ZIPF_EXPONENT)}'."
            )
        pick = (
            PickUniform()
            if weights is None
            else PickWeighted(tuple(weights), tuple(itertools.accumulate(weights)))
        )
    p.only((VALUES, WEIGHTS, DISTRIBUTION, ZIPF_EXPONENT))
    return Values(tuple(v for v, _ in parsed), tuple(t for _, t in parsed), pick)


def _json_array(g: _Given) -> list[Json]:
    ok, node = read_tree(g.value)
    if not ok or not isinstance(node, list):
        raise ValueError(
            f"Invalid value '{g.value}' for option '{g.option}': not a JSON array. Allowed: a JSON array, "
            """e.g. '["a", "b"]' or '[1, 2]'."""
        )
    return node


_BASE64 = re.compile(r"([A-Za-z0-9+/]*)(=*)")


def _base64(text: str) -> bytes | None:
    """``text`` decoded as Java's basic ``Base64.getDecoder`` decodes it (padding optional, but
    whole if there), or None."""
    match = _BASE64.fullmatch(text)
    if match is None:
        return None
    body, padding = match[1], match[2]
    if padding and (len(padding) > 2 or (len(body) + len(padding)) % 4 != 0):
        return None
    if len(body) % 4 == 1:
        return None
    try:
        return base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except binascii.Error:
        return None


def _value_of(p: _Properties, g: _Given, node: Json, i: int) -> tuple[object, str]:
    """Element ``i`` of a ``values`` list as a Python value of the column's type, and its
    canonical text."""

    def refuse(allowed: str) -> ValueError:
        return ValueError(
            f"Invalid value '{g.value}' for option '{g.option}': its element {i} ({to_string(node)}) is "
            f"not a value of column '{p.shown_path}' ({p.type_name}). Allowed: {allowed}."
        )

    name = p.data_type.sql if isinstance(p.data_type, AtomicType) else ""
    if name == BOOLEAN.sql:
        if not isinstance(node, bool):
            raise refuse("true or false")
        return node, to_string(node)
    if name == STRING.sql:
        if not isinstance(node, str):
            raise refuse("JSON strings")
        return node, to_string(node)
    if name == BINARY.sql:
        decoded = _base64(node) if isinstance(node, str) else None
        if decoded is None:
            raise refuse("base64 strings")
        return decoded, to_string(node)
    if name in (FLOAT.sql, DOUBLE.sql):
        if not is_number(node):
            raise refuse("JSON numbers")
        value = as_double(node)
        if name == FLOAT.sql:
            return to_float32(value), java_float(value)
        return value, java_double(value)
    units = _units_of(p.data_type)
    if not isinstance(node, str) and not is_number(node):
        raise refuse(units.allowed)
    text = as_text(node)
    read = units.read(text)
    if read is None:
        raise refuse(units.allowed)
    return read, text


def _strings(p: _Properties) -> CellKind:
    pattern = p.get(PATTERN)
    if pattern is not None:
        p.only((PATTERN,))
        return Patterned(pattern.value, pattern_plan.parse(pattern.option, pattern.value))
    # pattern is allowed here too (it is not given): the message lists every property.
    p.only((*_STRING_PROPERTIES, PATTERN))

    def length(name: str, default: int) -> int:
        g = p.get(name)
        return default if g is None else LENGTH_RANGE.parse(g.option, g.value)

    given_alphabet, given_charset = p.get(ALPHABET), p.get(CHARSET)
    if given_alphabet is not None:
        characters = alphabet_set(given_alphabet.option, given_alphabet.value)
    elif given_charset is not None:
        characters = named_set(given_charset.option, given_charset.value)
    else:
        characters = DEFAULT_VALUES.characters
    if given_alphabet is not None and given_charset is not None:
        raise ValueError(
            f"Options that do not fit together: '{p.option(ALPHABET)}' and '{p.option(CHARSET)}' both "
            f"say which characters column '{p.shown_path}' draws. Keep one."
        )
    distribution: str | None = None
    given_distribution = p.get(VALUE_DISTRIBUTION)
    if given_distribution is not None:
        distribution = next(
            (d for d in DISTRIBUTIONS if java_equals_ignore_case(d, java_trim(given_distribution.value))),
            None,
        )
        if distribution is None:
            raise ValueError(
                f"Invalid value '{given_distribution.value}' for option '{given_distribution.option}'. "
                f"Allowed: {' or '.join(DISTRIBUTIONS)} (case-insensitive)."
            )
    given_distinct = p.get(DISTINCT_VALUES)
    distinct = (
        None
        if given_distinct is None
        else DISTINCT_VALUES_RANGE.parse(given_distinct.option, given_distinct.value)
    )
    if distribution is not None and distinct is None:
        raise ValueError(
            f"Options that do not fit together: '{p.option(VALUE_DISTRIBUTION)}' is set, but "
            f"'{p.option(DISTINCT_VALUES)}' is not. A distribution picks among a pool of values: set it too."
        )
    exponent = p.get(ZIPF_EXPONENT)
    if exponent is not None and distribution != ZIPF:
        raise ValueError(
            f"Options that do not fit together: '{p.option(ZIPF_EXPONENT)}' is set, but "
            f"'{p.option(VALUE_DISTRIBUTION)}' is not zipf. Set it to zipf, or remove "
            f"'{p.option(ZIPF_EXPONENT)}'."
        )
    values = replace(
        DEFAULT_VALUES,
        min_length=length(MIN_LENGTH, DEFAULT_VALUES.min_length),
        max_length=length(MAX_LENGTH, DEFAULT_VALUES.max_length),
        characters=characters,
        distinct_values=distinct,
        value_distribution=distribution or DEFAULT_VALUES.value_distribution,
        zipf_exponent=(
            DEFAULT_VALUES.zipf_exponent
            if exponent is None
            else ZIPF_EXPONENT_RANGE.parse(exponent.option, exponent.value)
        ),
    )

    def written(name: str, value: object) -> str:
        g = p.get(name)
        return scala_text(value) if g is None else g.value

    try:
        validate_values(values, written, lambda name: p.get(name) is not None)
        validate_pool(values, written)
    except ValueError as error:
        raise ValueError(f"Column '{p.shown_path}': {error}") from error
    return Strings(values)
