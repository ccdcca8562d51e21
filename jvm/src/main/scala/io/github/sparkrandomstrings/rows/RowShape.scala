package io.github.sparkrandomstrings.rows

import io.github.sparkrandomstrings.options.RandomStrings

/**
 * How a stream's rows depart from rows in event-time order, each once: out-of-order and late
 * event times, and repeated rows. It is the part of a stream's definition that belongs to the
 * whole row, whatever its columns; what a string column's values are drawn from (lengths,
 * characters, a pool) is its [[text.StringValues]]. The defaults ([[RowShape.Plain]]) make exactly
 * the rows of 0.1.0. It is fixed when the query first starts; the rules its values pass are
 * [[StreamDefinition.validate]]'s. What each option does is said in the provider's Scaladoc
 * (`RandomStringsSourceProvider`), and the draws in [[RowDisorder]].
 *
 * @param maxOutOfOrderMs      each row's event time moves back by up to this much
 * @param lateRowFraction      the probability that a row is late
 * @param lateByMs             how far back a late row's event time moves, on top
 * @param duplicateFraction    the probability that a row repeats an earlier one
 * @param maxDuplicateDistance how many offsets back a repeated row may be
 */
final case class RowShape(
    maxOutOfOrderMs: Long,
    lateRowFraction: Double,
    lateByMs: Option[Long],
    duplicateFraction: Double,
    maxDuplicateDistance: Long) {
  import RandomStrings._

  /** Whether any event time moves back from its in-order time. */
  def movesEventTimes: Boolean = maxOutOfOrderMs > 0L || lateRowFraction > 0.0

  /** Whether rows are in event-time order, each once, as 0.1.0 made them. */
  def isPlain: Boolean = this == RowShape.Plain

  /** Each option's name and value, in the documentation's order; None for "not set". */
  def settings: Seq[(String, Option[Any])] = Seq(
    MAX_OUT_OF_ORDER_MS -> Some(maxOutOfOrderMs),
    LATE_ROW_FRACTION -> Some(lateRowFraction),
    LATE_BY_MS -> lateByMs,
    DUPLICATE_FRACTION -> Some(duplicateFraction),
    MAX_DUPLICATE_DISTANCE -> Some(maxDuplicateDistance))
}

object RowShape {

  /** The shape of a stream with none of the row's shaping options: that of 0.1.0. */
  val Plain: RowShape = RowShape(
    maxOutOfOrderMs = 0L,
    lateRowFraction = 0.0,
    lateByMs = None,
    duplicateFraction = 0.0,
    maxDuplicateDistance = RandomStrings.DefaultMaxDuplicateDistance)
}
