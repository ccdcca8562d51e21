"""The schema a user declared with ``.schema(...)``, and the ``fields.`` options that say how each
column is made (the JVM source's ``DeclaredSchema.scala``): the part of a stream's definition that
replaces the ``value`` column and its string options. The cell specs are read from them
(``typed.columns.parse``) wherever the definition is, so a definition read back from a
checkpoint makes the same cells.
"""

from __future__ import annotations

from dataclasses import dataclass

from spark_random_strings.options.ranges import java_equals_ignore_case, java_sort_key
from spark_random_strings.typed.cells.spec import CellSpec, StructType
from spark_random_strings.typed.columns import parse
from spark_random_strings.typed.schema.sql_types import FieldMetadata, to_ddl


@dataclass(frozen=True)
class DeclaredSchema:
    """A declared schema and its ``fields.`` options.

    Attributes:
        schema: the declared columns, in order, with their types and nullability.
        fields: each ``fields.`` option, its name as the user wrote it, and its value.
        metadata: the schema's fields' metadata (their comments), which Spark's texts of the
            schema show (``typed.schema.sql_types``).
    """

    schema: StructType
    fields: tuple[tuple[str, str], ...]
    metadata: FieldMetadata = ()

    @property
    def cells(self) -> tuple[CellSpec, ...]:
        """Each column's cells: read once where the definition is (kept; not a cached_property,
        whose lock Python 3.11 cannot pickle, and the definition travels to Python workers).

        Raises:
            ValueError: as ``typed.columns.parse`` refuses the schema or an option.
        """
        cells: tuple[CellSpec, ...] | None = self.__dict__.get("_cells")
        if cells is None:
            cells = parse(self.schema, self.fields, self.metadata)
            object.__setattr__(self, "_cells", cells)
        return cells

    def to_ddl(self) -> str:
        """The schema as Spark's ``StructType.toDDL`` writes it (``a BIGINT NOT NULL,b STRING``)."""
        return to_ddl(self.schema, self.metadata)

    def normalized_fields(self) -> dict[str, str]:
        """The options by their lowercase names, which is how two declarations compare."""
        return {name.lower(): value for name, value in self.fields}

    def differences_from(self, other: DeclaredSchema) -> list[str]:
        """How ``other`` differs from this, as the restart check says it: the schema, if its DDL
        changed, and each ``fields.`` option whose value did; empty if they make the same
        cells."""
        changes = []
        if self.to_ddl() != other.to_ddl():
            changes.append(f"schema: the checkpoint has {self.to_ddl()}, the query declares {other.to_ddl()}")
        was, now = self.normalized_fields(), other.normalized_fields()
        for name in sorted(was.keys() | now.keys(), key=java_sort_key):
            if was.get(name) != now.get(name):
                shown = next(n for n, _ in (*self.fields, *other.fields) if java_equals_ignore_case(n, name))
                changes.append(
                    f"{shown}: the checkpoint has {was.get(name, 'none')}, the query sets "
                    f"{now.get(name, 'none')}"
                )
        return changes
