package io.github.sparkrandomstrings.rows

import org.apache.spark.sql.types.{StructField, StructType}

import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.text.StringValues
import io.github.sparkrandomstrings.typed.DeclaredSchema
import io.github.sparkrandomstrings.typed.cells.CellSpec

/**
 * One column of a stream's rows: its field of the schema, and what its cells hold. A stream's
 * columns come from its definition ([[StreamDefinition.columns]]), and so does everything made
 * of them: the schema Spark is given, and the writers that make each row ([[RowGenerator]]).
 *
 * @param field   the column's name, type and nullability, as the schema shows it
 * @param content what each row's cell of this column holds
 */
final case class Column(field: StructField, content: Column.Content)

object Column {

  /** What a column's cells hold: how its writer ([[ColumnWriters.of]]) makes each row's cell. */
  sealed trait Content extends Serializable

  /** A string drawn as `values` says ([[text.StringColumnWriter]]), of the row or of its original. */
  final case class Strings(values: StringValues) extends Content

  /** The row's event time, in epoch ms (a LONG). */
  case object EventTimeMs extends Content

  /** The row's event time as a TIMESTAMP: microseconds since the epoch, saturated. */
  case object EventTimestamp extends Content

  /** The row's own offset. */
  case object Offset extends Content

  /** The length, in code points, of the string the column at `ordinal` holds (written before this one). */
  final case class LengthOf(ordinal: Int) extends Content

  /** A declared column's cells, made as its spec says ([[typed.cells.CellWriter]]). */
  final case class Cells(spec: CellSpec) extends Content
}

/** The columns of the streams this source makes. */
object Columns {
  import Column._

  /**
   * The columns of a stream of random strings: `value` drawn as `values` says, `ts`, `offset`,
   * `length` and, with `timestampColumn`, `timestamp` last. Their fields are
   * [[options.RandomStrings.Schema]]'s and [[options.RandomStrings.TimestampSchema]]'s.
   */
  def of(values: StringValues, timestampColumn: Boolean): Seq[Column] = {
    val contents = Seq(Strings(values), EventTimeMs, Offset, LengthOf(0)) ++
      (if (timestampColumn) Seq(EventTimestamp) else Nil)
    RandomStrings.schemaOf(timestampColumn).fields.toSeq.zip(contents).map { case (f, c) => Column(f, c) }
  }

  /**
   * The columns of a declared schema: each its declared field as given (name, type, nullability
   * and metadata, such as a `COMMENT`, which Spark's own schemas keep), made as its
   * [[typed.cells.CellSpec]] says. So a declared stream's schema is the one declared, exactly.
   */
  def declared(schema: DeclaredSchema): Seq[Column] =
    schema.schema.fields.toSeq.zip(schema.cells).map { case (f, s) => Column(f, Cells(s)) }

  /** The schema of rows of `columns`, in their order. */
  def schemaOf(columns: Seq[Column]): StructType = StructType(columns.map(_.field))
}
