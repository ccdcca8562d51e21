"""A declared schema and its ``fields.<column>.<property>`` options, read into the
``CellSpec`` of each column (the JVM source's ``TypedColumns.scala``): every property checked
against the column's type and kind, with the JVM's message, which names the option, the value
and what is allowed. The checks run in the JVM's order, so that options with several faults are
refused for the same one. The property names and the checks common to every column are in
``typed.fields.properties``; the kinds' own properties in ``typed.fields.numbers``,
``typed.fields.values`` and ``typed.fields.strings``; the types' units in ``typed.fields.units``.

Numbers in messages are shown as Scala shows them (a Long as its digits, a Double as Java's
``Double.toString``); JSON values as Jackson shows them (``typed.schema.jackson``); types as Spark's
``DataType.sql`` (``typed.schema.sql_types.sql``).
"""

from __future__ import annotations

from collections.abc import Sequence

from spark_random_strings.options import (
    FORMAT,
    MAX_LENGTH,
    MIN_LENGTH,
)
from spark_random_strings.options.ranges import (
    Whole,
    java_equals_ignore_case,
    java_sort_key,
    java_trim,
)
from spark_random_strings.options.suggestions import closest
from spark_random_strings.typed.cells import row_bytes
from spark_random_strings.typed.cells.spec import (
    Arrays,
    ArrayType,
    AtomicType,
    Booleans,
    Bytes,
    CellKind,
    CellSpec,
    DataType,
    EventTime,
    RowOffset,
    Structs,
    StructType,
)
from spark_random_strings.typed.fields import options as field_options
from spark_random_strings.typed.fields.numbers import reals, sequence, wholes
from spark_random_strings.typed.fields.properties import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_SIZE,
    DEFAULT_MIN_BYTES,
    DEFAULT_MIN_SIZE,
    ELEMENT_NAME,
    EVENT_TIME_KIND,
    GENERATED,
    INTEGRALS,
    KIND,
    KINDS,
    MAX_SIZE,
    MAX_SIZE_LIMIT,
    MIN_SIZE,
    NULL_RATE,
    NULL_RATE_RANGE,
    OFFSET_KIND,
    SEQUENCE_KIND,
    TIMESTAMPS,
    VALUES_KIND,
    Given,
    Properties,
)
from spark_random_strings.typed.fields.strings import strings
from spark_random_strings.typed.fields.values import values
from spark_random_strings.typed.schema.sql_types import (
    BIGINT,
    BINARY,
    BOOLEAN,
    DOUBLE,
    ELEMENT,
    FLOAT,
    STRING,
    FieldMetadata,
    Position,
    is_decimal,
    sql,
)


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
        ValueError: naming the column, the option, the value and what is allowed; or a column
            whose rows may not fit in Spark's (``typed.cells.row_bytes``).
    """
    return _Parser(schema, options, metadata).parse()


class _Parser:
    """One declared schema and its options, read into cell specs."""

    def __init__(
        self, schema: StructType, options: Sequence[tuple[str, str]], metadata: FieldMetadata
    ) -> None:
        self.schema = schema
        self.options = options
        self.metadata = metadata
        self.by_path: dict[tuple[str, ...], dict[str, Given]] = {}

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
        cells = tuple(
            self.spec((f.name,), (i,), f.data_type, f.nullable) for i, f in enumerate(self.schema.fields)
        )
        row_bytes.check(cells)
        return cells

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
        if isinstance(t, AtomicType) and (t.sql in GENERATED or is_decimal(t)):
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
            resolved.append((self.resolve(path, name), property_name, Given(name, value)))
        # In the order of the options' names, so that of several faults the first is always refused.
        seen: dict[tuple[tuple[str, ...], str], Given] = {}
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
        p = Properties(path, self.type_name(t, at), t, self.by_path.get(path, {}))
        null_rate = 0.0
        rate = p.get(NULL_RATE)
        if rate is not None:
            if not nullable:
                raise ValueError(
                    f"Option '{rate.option}' sets nulls on column '{p.shown_path}', which is NOT NULL. "
                    f"Declare the column nullable (remove NOT NULL), or remove '{rate.option}'."
                )
            null_rate = NULL_RATE_RANGE.parse(rate.option, rate.value)
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

    def kind_of(self, p: Properties, kind: str, path: tuple[str, ...], at: Position, t: DataType) -> CellKind:
        name = t.sql if isinstance(t, AtomicType) else ""
        if kind == OFFSET_KIND:
            if name != BIGINT.sql:
                raise p.kind_only(OFFSET_KIND, "BIGINT")
            p.only(())
            return RowOffset()
        if kind == EVENT_TIME_KIND:
            if name in TIMESTAMPS or name == BIGINT.sql:
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
            if name not in INTEGRALS:
                raise p.kind_only(SEQUENCE_KIND, "TINYINT, SMALLINT, INT or BIGINT")
            return sequence(p)
        if kind == VALUES_KIND:
            if isinstance(t, ArrayType | StructType):
                raise p.kind_only(VALUES_KIND, "a type other than ARRAY and STRUCT")
            return values(p)
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
            return strings(p)
        if name == BINARY.sql:
            p.only((MIN_LENGTH, MAX_LENGTH))
            least, most = p.range(
                MIN_LENGTH, MAX_LENGTH, Whole(0, MAX_SIZE_LIMIT), DEFAULT_MIN_BYTES, DEFAULT_MAX_BYTES
            )
            return Bytes(least, most)
        if name in (FLOAT.sql, DOUBLE.sql):
            return reals(p)
        return wholes(p)


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
