package io.github.sparkrandomstrings

/**
 * How rows depart from a plain stream of fresh values in event-time order: a bounded pool of
 * values and how rows pick from it, out-of-order and late event times, and repeated rows. The
 * defaults ([[RowShape.Plain]]) make exactly the stream of 0.1.0. It is part of the stream's
 * definition, fixed when the query first starts; the rules its values pass are
 * [[StreamDefinition.validate]]'s. What each option does is said in the provider's Scaladoc
 * (`RandomStringsSourceProvider`), and the draws in [[RowGenerator]].
 *
 * @param distinctValues       the pool's size, if values come from a pool
 * @param valueDistribution    how rows pick pool entries: `uniform` or `zipf`
 * @param zipfExponent         s of `zipf`: entry k is picked with probability ∝ 1 / (k + 1)^s
 * @param maxOutOfOrderMs      each row's event time moves back by up to this much
 * @param lateRowFraction      the probability that a row is late
 * @param lateByMs             how far back a late row's event time moves, on top
 * @param duplicateFraction    the probability that a row repeats an earlier one
 * @param maxDuplicateDistance how many offsets back a repeated row may be
 */
final case class RowShape(
    distinctValues: Option[Long],
    valueDistribution: String,
    zipfExponent: Double,
    maxOutOfOrderMs: Long,
    lateRowFraction: Double,
    lateByMs: Option[Long],
    duplicateFraction: Double,
    maxDuplicateDistance: Long) {
  import RandomStrings._

  def isZipf: Boolean = valueDistribution == ZipfDistribution

  /** Whether any event time moves back from its in-order time. */
  def movesEventTimes: Boolean = maxOutOfOrderMs > 0L || lateRowFraction > 0.0

  /** Whether this is the plain stream of 0.1.0. */
  def isPlain: Boolean = this == RowShape.Plain

  /** Each option's name and value, in the documentation's order; None for "not set". */
  def settings: Seq[(String, Option[Any])] = Seq(
    DISTINCT_VALUES -> distinctValues,
    VALUE_DISTRIBUTION -> Some(valueDistribution),
    ZIPF_EXPONENT -> Some(zipfExponent),
    MAX_OUT_OF_ORDER_MS -> Some(maxOutOfOrderMs),
    LATE_ROW_FRACTION -> Some(lateRowFraction),
    LATE_BY_MS -> lateByMs,
    DUPLICATE_FRACTION -> Some(duplicateFraction),
    MAX_DUPLICATE_DISTANCE -> Some(maxDuplicateDistance))
}

object RowShape {

  /** The shape of a stream with none of the shaping options: that of 0.1.0. */
  val Plain: RowShape = RowShape(
    distinctValues = None,
    valueDistribution = RandomStrings.UniformDistribution,
    zipfExponent = RandomStrings.DefaultZipfExponent,
    maxOutOfOrderMs = 0L,
    lateRowFraction = 0.0,
    lateByMs = None,
    duplicateFraction = 0.0,
    maxDuplicateDistance = RandomStrings.DefaultMaxDuplicateDistance)
}
