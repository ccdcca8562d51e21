package io.github.sparkrandomstrings.nexmark

import org.scalatest.funsuite.AnyFunSuite

/** [[NexmarkPrice]] against Beam's expression for a price, draw by draw. */
class NexmarkPriceSuite extends AnyFunSuite {

  private def beam(x: Double): Long = java.lang.Math.round(java.lang.Math.pow(10.0, x) * 100.0)

  private def assertBeams(xs: Iterator[Double]): Int = {
    var checked = 0
    xs.foreach { x =>
      val ours = NexmarkPrice.cents(x)
      if (ours != beam(x)) fail(s"x = $x (${java.lang.Double.doubleToLongBits(x)}): ours $ours, Beam's ${beam(x)}")
      checked += 1
    }
    checked
  }

  test("3,000,000 prices of java.util.Random's draws are Beam's, to the cent") {
    val random = new java.util.Random(20261129L)
    assert(assertBeams(Iterator.fill(3000000)(random.nextDouble() * 6.0)) == 3000000)
  }

  test("prices at, just below and just above each of the table's 1,537 steps are Beam's") {
    val steps = (0 to 6 * 256).iterator.map(_.toDouble / 256)
    val xs =
      steps.flatMap(x => Seq(x, java.lang.Math.nextDown(x), java.lang.Math.nextUp(x))).filter(x => x >= 0.0 && x <= 6.0)
    assert(assertBeams(xs) == 3 * 1537 - 2)
  }

  test("prices made to fall on half cents take Beam's expression and are Beam's") {
    // x = log10((m + 0.5) / 100): 10^x * 100 is m + 0.5 up to the rounding of x, within the margin.
    val xs =
      (Iterator.range(100, 1000).map(_.toLong) ++ Iterator.iterate(1000L)(m => m * 3 + 7).takeWhile(_ < 99999999L))
        .map(m => java.lang.Math.log10((m + 0.5) / 100.0))
        .toSeq
    assert(xs.forall(x => NexmarkPrice.nearHalfCent(NexmarkPrice.approximate(x))))
    assert(assertBeams(xs.iterator) == xs.size)
  }

  test("the approximation is within 3e-15 of Beam's product, relative, across the range") {
    val random = new java.util.Random(7L)
    val worst = Iterator.fill(200000)(random.nextDouble() * 6.0).map { x =>
      val expected = java.lang.Math.pow(10.0, x) * 100.0
      java.lang.Math.abs(NexmarkPrice.approximate(x) - expected) / expected
    }.max
    assert(worst < 3e-15, s"worst relative difference $worst")
  }
}
