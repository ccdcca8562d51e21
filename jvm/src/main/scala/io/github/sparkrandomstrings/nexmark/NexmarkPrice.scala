package io.github.sparkrandomstrings.nexmark

/**
 * Beam's price in cents, `Math.round(Math.pow(10.0, x) * 100.0)` for `x = nextDouble() * 6`,
 * without `Math.pow` on every draw (it was a sixth of making a bid): 10^x is a table's
 * 10^(n/256) times a polynomial for 10^t, `t = x - n/256` below 1/256, and the result is the
 * same long as Beam's.
 *
 * Why the same: [[approximate]] is within 3e-15 of the exact 10^x * 100, relative (the table's
 * powers within an ulp, the polynomial's truncation below 1e-15, five roundings), and Beam's
 * product within 4e-16 (`Math.pow` within an ulp, one rounding). Rounding to a long changes only
 * at half cents, so where the approximation is further than `Margin` (1e-14, relative) from a
 * half cent, both round to the same cents; where it is nearer (one draw in 500,000 at the largest
 * prices, one in about 7 million in all), the price is Beam's own expression. NexmarkPriceSuite
 * checks millions of draws, every step of the table and prices built to fall on half cents.
 */
private[nexmark] object NexmarkPrice {
  private final val Steps = 256
  private final val Ln10 = 2.302585092994046
  private final val Margin = 1e-14

  /** 10^(n/256) for n from 0 to 6 * 256. */
  private val Powers: Array[Double] = Array.tabulate(6 * Steps + 1)(n => java.lang.Math.pow(10.0, n.toDouble / Steps))

  /** 10^x * 100 to within 3e-15 relative, for x in [0, 6]. */
  def approximate(x: Double): Double = {
    val n = (x * Steps).toInt
    val t = x - n.toDouble / Steps // exact: x and n/256 are within a factor of 2 of each other, or n is 0
    val u = t * Ln10 // below 0.009: the series' sixth term is below 1e-15
    // e^u to the u^5 term, its halves evaluated side by side (Estrin's scheme): a shorter chain of
    // dependent multiplications than Horner's.
    val u2 = u * u
    val exp = (1.0 + u) + u2 * ((1.0 / 2 + u * (1.0 / 6)) + u2 * (1.0 / 24 + u * (1.0 / 120)))
    Powers(n) * exp * 100.0
  }

  /** Whether `cents` (an [[approximate]] value) is within the margin of a half cent. */
  def nearHalfCent(cents: Double): Boolean = nearHalfCent(cents, java.lang.Math.round(cents))

  private def nearHalfCent(cents: Double, rounded: Long): Boolean =
    java.lang.Math.abs(cents - rounded) >= 0.5 - cents * Margin

  /** `Math.round(Math.pow(10.0, x) * 100.0)`, for x in [0, 6]. */
  def cents(x: Double): Long = {
    val cents = approximate(x)
    val rounded = java.lang.Math.round(cents)
    if (nearHalfCent(cents, rounded)) java.lang.Math.round(java.lang.Math.pow(10.0, x) * 100.0) else rounded
  }
}
