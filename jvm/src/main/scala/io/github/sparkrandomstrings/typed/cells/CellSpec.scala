package io.github.sparkrandomstrings.typed.cells

import org.apache.spark.sql.types.DataType

import io.github.sparkrandomstrings.text.StringValues
import io.github.sparkrandomstrings.typed.fields.FieldOptions

/**
 * How the cells of one declared column (or of a field or the elements of one) are made: a pure
 * function of (seed, path, original offset), drawn from the column's own random stream, so that
 * adding, removing or reordering other columns changes none of its values. [[TypedColumns]]
 * makes these from a declared schema and its `fields.` options; [[CellWriter]] writes them.
 *
 * @param path     the column's path: its name, then a STRUCT field's name or `element`
 * @param dataType the Spark type of its cells
 * @param nullable whether a cell may be null
 * @param nullRate the probability that a cell is null (0 unless `nullable`)
 * @param kind     how a cell's value is drawn
 */
final case class CellSpec(path: Seq[String], dataType: DataType, nullable: Boolean, nullRate: Double, kind: CellKind) {

  /** The path as messages and option names show it. */
  def shownPath: String = FieldOptions.shown(path)
}

/** How a cell's value is drawn. Whole numbers are of the type's unit: 1, 10^-scale, a day, a microsecond. */
sealed trait CellKind extends Serializable

object CellKind {

  /** Uniform over [min, max] whole units, or as `distribution` says. */
  final case class Wholes(min: Long, max: Long, distribution: Distribution) extends CellKind

  /** Uniform over [min, max] (FLOAT and DOUBLE), or as `distribution` says. */
  final case class Reals(min: Double, max: Double, distribution: Distribution) extends CellKind

  /** true or false, each with probability 1/2. */
  case object Booleans extends CellKind

  /** start, start + step, ... up to `last`, then start again: the value is a function of the original's offset. */
  final case class Sequence(start: Long, step: Long, count: Long) extends CellKind

  /** The row's own offset (a repeat's too: not its original's). */
  case object RowOffset extends CellKind

  /** The row's event time: microseconds for TIMESTAMP and TIMESTAMP_NTZ, milliseconds for BIGINT. */
  final case class EventTime(micros: Boolean) extends CellKind

  /**
   * One of `values` (Catalyst's values of the column's type, as their JSON text), picked
   * uniformly, by `weights`, or by Zipf's law over the list's order.
   */
  final case class Values(values: IndexedSeq[Any], texts: IndexedSeq[String], pick: Pick) extends CellKind

  /** Strings as a string column's options say ([[text.StringColumnWriter]]), drawn from the column's stream. */
  final case class Strings(values: StringValues) extends CellKind

  /** Strings that match a regular expression ([[PatternPlan]]). */
  final case class Patterned(pattern: String, plan: PatternPlan) extends CellKind

  /** Bytes, each uniform over 0 to 255, `minLength` to `maxLength` of them. */
  final case class Bytes(minLength: Int, maxLength: Int) extends CellKind

  /** An array of `minSize` to `maxSize` elements, made as `element` says. */
  final case class Arrays(minSize: Int, maxSize: Int, element: CellSpec) extends CellKind

  /** A struct whose fields are made as theirs say. */
  final case class Structs(fields: IndexedSeq[CellSpec]) extends CellKind

  /** How numbers spread over [min, max]. */
  sealed trait Distribution extends Serializable
  case object Uniform extends Distribution

  /** min + k with probability ∝ 1 / (k + 1)^exponent (whole numbers only). */
  final case class Zipf(exponent: Double) extends Distribution

  /** Normal with `mean` and `stddev` (in the type's units), drawn again until within [min, max]. */
  final case class Normal(mean: Double, stddev: Double) extends Distribution

  /** min + an exponential of `mean`, cut at max (by inversion, not by drawing again). */
  final case class Exponential(mean: Double) extends Distribution

  /** How a `values` cell picks its value. */
  sealed trait Pick extends Serializable
  case object PickUniform extends Pick

  /** By weights: value i with probability weights(i) / sum. `cumulative` holds the running sums. */
  final case class PickWeighted(weights: IndexedSeq[Double], cumulative: IndexedSeq[Double]) extends Pick

  /** Value i with probability ∝ 1 / (i + 1)^exponent. */
  final case class PickZipf(exponent: Double) extends Pick
}
