package io.github.sparkrandomstrings.typed.cells

import io.github.sparkrandomstrings.randomness.CounterRandom

/** The draws that the writers of declared cells share (Python: `typed/cells/draws.py`). */
private[sparkrandomstrings] object CellDraws {

  /** A uniform long in [0, span], span read as unsigned (so every span up to 2^64 - 1). */
  def unsignedUpTo(random: CounterRandom, span: Long): Long =
    if (span >= 0L) random.nextLongUpTo(span)
    else if (span == -1L) random.nextLong()
    else {
      var bits = random.nextLong()
      while (java.lang.Long.compareUnsigned(bits, span) > 0) bits = random.nextLong()
      bits
    }

  /** A standard normal, by Marsaglia's polar method (its second value not kept). */
  def standardNormal(random: CounterRandom): Double = {
    while (true) {
      val u = 2.0 * random.nextUnitDouble() - 1.0
      val v = 2.0 * random.nextUnitDouble() - 1.0
      val s = u * u + v * v
      if (s < 1.0 && s > 0.0) return u * StrictMath.sqrt(-2.0 * StrictMath.log(s) / s)
    }
    throw new IllegalStateException("unreachable")
  }
}
