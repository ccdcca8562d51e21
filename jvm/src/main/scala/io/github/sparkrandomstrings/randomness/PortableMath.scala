package io.github.sparkrandomstrings.randomness

/**
 * e^x in plain IEEE-754 arithmetic: the same bits on every JVM and platform, as `StrictMath`
 * gives, at about half its cost where it counts (`ZipfSampler` takes one per draw). Java
 * evaluates `+`, `*` and `/` exactly rounded and never fuses them (JEP 306), so this is as
 * portable as `StrictMath`, and within a few ulps of e^x.
 *
 * x = (32k + j) ln 2 / 32 + r, with |r| <= ln 2 / 64 (ln 2 / 32 split in two parts so that the
 * product is exact to ~2^-60); then e^x = 2^k * 2^(j/32) * e^r, with 2^(j/32) from a table of 32
 * that `StrictMath.pow` makes once, and e^r by its Taylor series to r^6 / 6! (the next term is
 * below 10^-17 of it). Short, so that a draw waits little for it.
 */
private[sparkrandomstrings] object PortableMath {

  private val Steps = 32
  private val StepsOverLn2 = Steps / 0.6931471805599453

  /** ln 2 / 32's leading bits, with enough trailing zeros that n * StepHigh is exact for |n| < 2^21. */
  private val StepHigh = 0.6931471803691238 / Steps
  private val StepLow = 1.9082149292705877e-10 / Steps

  /** Above this, e^x overflows; below the other, it is 0 even as a subnormal. */
  private val Overflow = 709.782712893384
  private val Underflow = -745.1332191019412

  /** 2^(j/32), j = 0 to 31. */
  private val TwoToFractions: Array[Double] = Array.tabulate(Steps)(j => StrictMath.pow(2.0, j.toDouble / Steps))

  def exp(x: Double): Double = {
    if (x != x) return x // NaN
    if (x > Overflow) return Double.PositiveInfinity
    if (x < Underflow) return 0.0
    val n = Math.rint(x * StepsOverLn2)
    val r = (x - n * StepHigh) - n * StepLow
    val steps = n.toInt
    val p = 1.0 + r * (1.0 + r * (0.5 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 + r * (1.0 / 720))))))
    Math.scalb(TwoToFractions(steps & (Steps - 1)) * p, steps >> 5)
  }
}
