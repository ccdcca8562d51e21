"""How the cells of one declared column are made (the JVM source's ``CellSpec.scala``, and the
nodes of ``PatternPlan.scala``): a pure function of (seed, path, original offset), drawn from the
column's own random stream, so that adding, removing or reordering other columns changes none of
its values. ``typed.columns`` makes these from a declared schema and its ``fields.`` options;
``typed.cells.maker`` makes the cells.

Types are named as Spark's SQL names them (``DataType.sql``): ``BOOLEAN``, ``TINYINT``,
``SMALLINT``, ``INT``, ``BIGINT``, ``FLOAT``, ``DOUBLE``, ``DECIMAL(p,s)``, ``STRING``, ``BINARY``,
``DATE``, ``TIMESTAMP``, ``TIMESTAMP_NTZ``, and :class:`ArrayType` and :class:`StructType` of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from spark_random_strings.text.string_values import StringValues

# Types.


@dataclass(frozen=True)
class AtomicType:
    """A type that is not a container: its SQL name, e.g. ``INT`` or ``DECIMAL(10,2)``."""

    sql: str
    #: For DECIMAL: its precision and scale.
    precision: int = 0
    scale: int = 0


@dataclass(frozen=True)
class ArrayType:
    element: DataType
    contains_null: bool = True

    @property
    def sql(self) -> str:
        return f"ARRAY<{self.element.sql}>"


@dataclass(frozen=True)
class StructField:
    name: str
    data_type: DataType
    nullable: bool = True


@dataclass(frozen=True)
class StructType:
    fields: tuple[StructField, ...]

    @property
    def sql(self) -> str:
        return "STRUCT<" + ", ".join(f"{f.name}: {f.data_type.sql}" for f in self.fields) + ">"


DataType = AtomicType | ArrayType | StructType

# How numbers spread over [min, max].


@dataclass(frozen=True)
class Uniform:
    pass


@dataclass(frozen=True)
class Zipf:
    """min + k with probability proportional to 1 / (k + 1)^exponent (whole numbers only)."""

    exponent: float


@dataclass(frozen=True)
class Normal:
    """Normal with ``mean`` and ``stddev`` (in the type's units), drawn again until in range."""

    mean: float
    stddev: float


@dataclass(frozen=True)
class Exponential:
    """min + an exponential of ``mean``, cut at max (by inversion)."""

    mean: float


Distribution = Uniform | Zipf | Normal | Exponential

# How a ``values`` cell picks its value.


@dataclass(frozen=True)
class PickUniform:
    pass


@dataclass(frozen=True)
class PickWeighted:
    """Value i with probability weights[i] / sum; ``cumulative`` holds the running sums."""

    weights: tuple[float, ...]
    cumulative: tuple[float, ...]


@dataclass(frozen=True)
class PickZipf:
    exponent: float


Pick = PickUniform | PickWeighted | PickZipf

# A pattern's plan (``PatternPlan.scala``).


@dataclass(frozen=True)
class Literal:
    code_point: int


@dataclass(frozen=True)
class AnyOf:
    """One character, uniform over ``code_points`` (in code point order)."""

    code_points: tuple[int, ...]


@dataclass(frozen=True)
class Sequence:
    parts: tuple[PatternPlan, ...]


@dataclass(frozen=True)
class Either:
    alternatives: tuple[PatternPlan, ...]


@dataclass(frozen=True)
class Repeat:
    part: PatternPlan
    min: int
    max: int


PatternPlan = Literal | AnyOf | Sequence | Either | Repeat

# The kinds of cells (``CellKind``). Whole numbers are of the type's unit: 1, 10^-scale, a day,
# a microsecond.


@dataclass(frozen=True)
class Wholes:
    min: int
    max: int
    distribution: Distribution


@dataclass(frozen=True)
class Reals:
    min: float
    max: float
    distribution: Distribution


@dataclass(frozen=True)
class Booleans:
    pass


@dataclass(frozen=True)
class SequenceKind:
    """start + step * (instance mod count): a function of the original's offset, no draw."""

    start: int
    step: int
    count: int


@dataclass(frozen=True)
class RowOffset:
    pass


@dataclass(frozen=True)
class EventTime:
    """The row's event time: microseconds (TIMESTAMP, TIMESTAMP_NTZ) or milliseconds (BIGINT)."""

    micros: bool


@dataclass(frozen=True)
class Values:
    """One of ``values`` (Python values of the column's type), picked as ``pick`` says;
    ``texts`` are their JSON texts, which is how two declarations compare."""

    values: tuple[object, ...]
    texts: tuple[str, ...]
    pick: Pick


@dataclass(frozen=True)
class Strings:
    values: StringValues


@dataclass(frozen=True)
class Patterned:
    pattern: str
    plan: PatternPlan


@dataclass(frozen=True)
class Bytes:
    min_length: int
    max_length: int


@dataclass(frozen=True)
class Arrays:
    min_size: int
    max_size: int
    element: CellSpec


@dataclass(frozen=True)
class Structs:
    fields: tuple[CellSpec, ...]


CellKind = (
    Wholes
    | Reals
    | Booleans
    | SequenceKind
    | RowOffset
    | EventTime
    | Values
    | Strings
    | Patterned
    | Bytes
    | Arrays
    | Structs
)


@dataclass(frozen=True)
class CellSpec:
    """The cells of one declared column, or of a field or the elements of one.

    ``path`` is the column's name, then a STRUCT field's name or ``element``; ``null_rate`` is 0
    unless ``nullable``."""

    path: tuple[str, ...]
    data_type: DataType
    nullable: bool
    null_rate: float
    kind: CellKind
