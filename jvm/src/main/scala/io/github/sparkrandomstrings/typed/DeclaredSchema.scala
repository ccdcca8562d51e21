package io.github.sparkrandomstrings.typed

import java.util.Locale

import org.apache.spark.sql.types.StructType

import io.github.sparkrandomstrings.typed.cells.CellSpec

/**
 * The schema a user declared with `.schema(...)`, and the `fields.` options that say how each
 * column is made: the part of a stream's definition that replaces the `value` column and its
 * string options. The [[cells.CellSpec]]s are read from them ([[TypedColumns.parse]]) wherever the
 * definition is, so a definition read back from a checkpoint makes the same cells.
 *
 * @param schema the declared columns, in order, with their types and nullability
 * @param fields each `fields.` option, its name as the user wrote it, and its value
 */
final case class DeclaredSchema(schema: StructType, fields: Seq[(String, String)]) {

  /** Each column's cells: read once where the definition is (on the driver, in each task). */
  @transient lazy val cells: IndexedSeq[CellSpec] = TypedColumns.parse(schema, fields)

  /** The options by their lowercase names, which is how two declarations compare. */
  def normalizedFields: Map[String, String] = fields.map { case (k, v) => k.toLowerCase(Locale.ROOT) -> v }.toMap

  /**
   * How `other` differs from this, as the restart check says it: the schema (its DDL) if it
   * changed, and each `fields.` option whose value did; empty if they make the same cells.
   */
  def differencesFrom(other: DeclaredSchema): Seq[String] = {
    val schemaChange =
      if (schema.toDDL == other.schema.toDDL) Nil
      else Seq(s"schema: the checkpoint has ${schema.toDDL}, the query declares ${other.schema.toDDL}")
    val (was, now) = (normalizedFields, other.normalizedFields)
    val optionChanges = (was.keySet ++ now.keySet).toSeq.sorted.collect {
      case name if was.get(name) != now.get(name) =>
        val shown =
          fields.find(_._1.equalsIgnoreCase(name)).orElse(other.fields.find(_._1.equalsIgnoreCase(name))).get._1
        s"$shown: the checkpoint has ${was.getOrElse(name, "none")}, the query sets ${now.getOrElse(name, "none")}"
    }
    schemaChange ++ optionChanges
  }
}
