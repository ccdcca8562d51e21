package io.github.sparkrandomstrings.nexmark

/**
 * `java.util.Random`'s generator, draw for draw, without its atomic seed: the reference makes
 * every event from `new Random(eventId)`, and one [[NexmarkGenerator]] reseeds this one object
 * for every event instead of allocating a `java.util.Random` (whose every draw is a
 * compare-and-set). Only the draws the reference makes are here, each as `java.util.Random`
 * specifies it.
 */
final class JavaRandom {
  import JavaRandom._

  private var seed: Long = 0L

  /** As `new Random(seed)`: the next draws are those of a fresh `java.util.Random(seed)`. */
  def reseed(initial: Long): Unit = seed = (initial ^ Multiplier) & Mask

  private def next(bits: Int): Int = {
    seed = (seed * Multiplier + Addend) & Mask
    (seed >>> (48 - bits)).toInt
  }

  /** `nextInt()`: 32 uniform bits. */
  def nextInt(): Int = next(32)

  /** `nextInt(bound)`: uniform over [0, bound); bound > 0. */
  def nextInt(bound: Int): Int = {
    var r = next(31)
    val m = bound - 1
    if ((bound & m) == 0) ((bound.toLong * r) >> 31).toInt // a power of two: the high bits
    else {
      var u = r
      r = u % bound
      while (u - r + m < 0) {
        u = next(31)
        r = u % bound
      }
      r
    }
  }

  /** `nextLong()`: two 32-bit draws, the first the high half. */
  def nextLong(): Long = (next(32).toLong << 32) + next(32)

  /** `nextDouble()`: 53 uniform bits over [0, 1). */
  def nextDouble(): Double = (((next(26).toLong << 27) + next(27)) * DoubleUnit)
}

private object JavaRandom {
  // Constants (`final val`, no type), which the compiler writes into each use: an object's plain
  // `val` is a field the JIT reloads and cannot fold.
  final val Multiplier = 0x5DEECE66DL
  final val Addend = 0xBL
  final val Mask = (1L << 48) - 1
  final val DoubleUnit = 1.0 / (1L << 53)
}
