"""The ``fields.<column>.<property>`` options' names, kinds, distributions and defaults, and the
properties given to one declared column (``Properties``): looked up case-insensitively and
checked against the ones its type and kind allow, with the JVM's messages
(``FieldProperties.scala``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spark_random_strings.options.ranges import (
    LONG_MAX,
    LONG_MIN,
    Whole,
    java_double,
    java_sort_key,
    java_trim,
)
from spark_random_strings.options.suggestions import closest
from spark_random_strings.options.table import FIELDS
from spark_random_strings.text.string_values import STRING_VALUE_OPTIONS
from spark_random_strings.typed.cells.spec import DataType
from spark_random_strings.typed.fields import options as field_options
from spark_random_strings.typed.schema.sql_types import (
    BIGINT,
    BINARY,
    BOOLEAN,
    DATE,
    DOUBLE,
    FLOAT,
    INT,
    SMALLINT,
    STRING,
    TIMESTAMP,
    TIMESTAMP_NTZ,
    TINYINT,
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
ELEMENT_NAME = FIELDS.element

#: The kinds of column (``kind``), in the table's order.
KINDS = FIELDS[KIND].values
RANDOM_KIND, SEQUENCE_KIND, OFFSET_KIND, EVENT_TIME_KIND, VALUES_KIND = KINDS
#: The distributions of a number (``distribution``), in the table's order.
DISTRIBUTIONS = FIELDS[DISTRIBUTION].values
UNIFORM_DISTRIBUTION, ZIPF_DISTRIBUTION, NORMAL_DISTRIBUTION, EXPONENTIAL_DISTRIBUTION = DISTRIBUTIONS
#: A normal's ``stddev`` may be at most this many times its range's width (in whole units, the
#: width plus one): a value is drawn again until it falls within [min, max], at least once in 250
#: tries on average then; a wider one would take millions of tries, or never end.
NORMAL_SPREAD = FIELDS.normal_spread

#: The default sizes of an ARRAY, and the most elements one may hold.
DEFAULT_MIN_SIZE = int(FIELDS[MIN_SIZE].value or 0)
DEFAULT_MAX_SIZE = int(FIELDS[MAX_SIZE].value or 0)
MAX_SIZE_LIMIT = FIELDS[MAX_SIZE].whole.high
#: The default lengths of BINARY values, in bytes.
DEFAULT_MIN_BYTES: int = FIELDS.default("binaryMinLength")
DEFAULT_MAX_BYTES: int = FIELDS.default("binaryMaxLength")
#: The default range of DATE values, and of TIMESTAMP and TIMESTAMP_NTZ ones.
DEFAULT_MIN_DATE: str = FIELDS.default("minDate")
DEFAULT_MAX_DATE: str = FIELDS.default("maxDate")
DEFAULT_MIN_TIMESTAMP: str = FIELDS.default("minTimestamp")
DEFAULT_MAX_TIMESTAMP: str = FIELDS.default("maxTimestamp")
NULL_RATE_RANGE = FIELDS[NULL_RATE].real
DOUBLE_MAX = 1.7976931348623157e308
FLOAT_MAX = 3.4028234663852886e38  # Float.MaxValue
MIN_POSITIVE = 5e-324
STRING_PROPERTIES = STRING_VALUE_OPTIONS
INTEGRALS = {
    TINYINT.sql: (-(2**7), 2**7 - 1),
    SMALLINT.sql: (-(2**15), 2**15 - 1),
    INT.sql: (-(2**31), 2**31 - 1),
}
INTEGRALS[BIGINT.sql] = (LONG_MIN, LONG_MAX)
TIMESTAMPS = (TIMESTAMP.sql, TIMESTAMP_NTZ.sql)
GENERATED = {
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


def scala_text(value: object) -> str:
    """A value as Scala's ``toString`` shows it: a Double as Java writes it."""
    return java_double(value) if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class Given:
    """A property as the user wrote it: the option's name and its value."""

    option: str
    value: str


class Properties:
    """The properties given to one column, checked against the ones its type and kind allow."""

    def __init__(
        self, path: tuple[str, ...], type_name: str, data_type: DataType, given: dict[str, Given]
    ) -> None:
        self.path = path
        self.data_type = data_type
        self.type_name = type_name
        self.given = given
        self.shown_path = field_options.shown(path)

    def get(self, name: str) -> Given | None:
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
