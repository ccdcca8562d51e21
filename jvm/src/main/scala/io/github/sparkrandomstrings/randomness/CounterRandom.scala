package io.github.sparkrandomstrings.randomness

/**
 * A counter-based random number generator: the `n`-th number of a stream is a hash of
 * (key, n), so any row's numbers can be made without making the rows before it.
 *
 * The hash is SplitMix64's finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom
 * number generators", OOPSLA 2014), a bijection on 64-bit words with good avalanche. A row's
 * key is itself `mix(mix(seed) + offset * Gamma)`: distinct offsets give distinct keys, and
 * the streams of two rows start at unrelated points of the 2^64 cycle.
 *
 * One instance is reused for every row of a partition ([[reset]] per row): no allocation.
 */
private[sparkrandomstrings] final class CounterRandom(seed: Long) {
  import CounterRandom._

  private val seedKey = mix(seed)
  private var counter = 0L
  private var spare = 0L
  private var hasSpare = false

  /** Starts the stream of the row at `offset`. */
  def reset(offset: Long): Unit = {
    counter = mix(seedKey + offset * Gamma)
    hasSpare = false
  }

  def nextLong(): Long = {
    counter += Gamma
    mix(counter)
  }

  /** 32 uniformly random bits, as a non-negative long below 2^32. */
  def nextUnsignedInt(): Long =
    if (hasSpare) {
      hasSpare = false
      spare >>> 32
    } else {
      spare = nextLong()
      hasSpare = true
      spare & 0xFFFFFFFFL
    }

  /**
   * A uniform integer in [0, bound), 1 <= bound <= 2^31, exactly unbiased: Lemire's
   * multiply-and-shift with rejection ("Fast random integer generation in an interval",
   * ACM TOMACS 2019). The rejection is rare (probability < bound / 2^32) and needs no division
   * on the common path.
   */
  def nextBounded(bound: Int): Int = {
    val n = bound.toLong
    var product = nextUnsignedInt() * n
    var low = product & 0xFFFFFFFFL
    if (low < n) {
      val threshold = (TwoTo32 - n) % n
      while (low < threshold) {
        product = nextUnsignedInt() * n
        low = product & 0xFFFFFFFFL
      }
    }
    (product >>> 32).toInt
  }

  /** A uniform double in [0, 1): the top 53 bits of the next number, as a fraction. */
  def nextUnitDouble(): Double = (nextLong() >>> 11) * UnitScale

  /** True with probability `p`, for p in [0, 1]: exactly never for 0 and always for 1. */
  def nextChance(p: Double): Boolean = nextUnitDouble() < p

  /**
   * A uniform long in [0, max], for any max >= 0: 63 random bits, rejected above the largest
   * whole multiple of max + 1 below 2^63, so that the remainder is unbiased.
   */
  def nextLongUpTo(max: Long): Long =
    if (max == Long.MaxValue) nextLong() >>> 1
    else {
      val bound = max + 1L
      val limit = Long.MaxValue - (Long.MaxValue % bound + 1L) % bound
      var bits = nextLong() >>> 1
      while (bits > limit) bits = nextLong() >>> 1
      bits % bound
    }

  /**
   * Writes `table(i)` for `count` indexes i drawn uniformly from [0, table.length) into `target`
   * from `at`: exactly what `count` calls of `nextBounded(table.length)` would draw (the
   * per-character hot path of ASCII strings; see [[rows.RowGenerator]]). It takes each 64-bit number
   * as its two 32-bit halves in turn, low then high, as [[nextUnsignedInt]] does, in one loop
   * over local variables, and leaves the spare half exactly as those calls would.
   */
  def fillFrom(table: Array[Byte], target: Array[Byte], at: Int, count: Int): Unit = {
    val n = table.length.toLong
    val threshold = (TwoTo32 - n) % n // Lemire's rejection bound, as in nextBounded
    var i = 0
    if (hasSpare && count > 0) {
      hasSpare = false
      i = put(spare >>> 32, n, threshold, table, target, at, i)
    }
    var c = counter
    while (i < count) {
      c += Gamma
      val bits = mix(c)
      i = put(bits & LowHalf, n, threshold, table, target, at, i)
      if (i < count) i = put(bits >>> 32, n, threshold, table, target, at, i)
      else {
        spare = bits
        hasSpare = true
      }
    }
    counter = c
  }

  /**
   * Writes the character that the 32-bit `draw` picks at `target(at + i)` and returns `i + 1`;
   * or, for a draw in Lemire's rejection zone (probability < n / 2^32), writes nothing and
   * returns `i`, so that the next draw makes that character.
   */
  private def put(
      draw: Long,
      n: Long,
      threshold: Long,
      table: Array[Byte],
      target: Array[Byte],
      at: Int,
      i: Int): Int = {
    val product = draw * n
    if ((product & LowHalf) < threshold) i
    else {
      target(at + i) = table((product >>> 32).toInt)
      i + 1
    }
  }
}

private[sparkrandomstrings] object CounterRandom {

  /** The golden-ratio increment of SplitMix64: odd, so `offset * Gamma` is a bijection. */
  val Gamma: Long = 0x9E3779B97F4A7C15L

  /** The multipliers of SplitMix64's finaliser ([[mix]]): odd, with well-spread bits; constants,
   * inlined where they are used. */
  final val Mix1 = 0xBF58476D1CE4E5B9L
  final val Mix2 = 0x94D049BB133111EBL
  private val TwoTo32 = 1L << 32
  private val UnitScale = 1.0 / (1L << 53)

  /**
   * The seed of one of a stream's independent random streams (the pool's characters, the
   * choice of entry, delays, lateness, duplicates): each concern draws from its own, so that
   * an option of one changes no draw of another.
   */
  def derivedSeed(seed: Long, stream: Long): Long = mix(mix(seed) ^ mix(stream * Gamma))
  private val LowHalf = 0xFFFFFFFFL

  def mix(z0: Long): Long = {
    var z = z0
    z = (z ^ (z >>> 30)) * Mix1
    z = (z ^ (z >>> 27)) * Mix2
    z ^ (z >>> 31)
  }
}

/**
 * The independent random streams of a stream definition besides the rows' own (see
 * [[CounterRandom.derivedSeed]]). The numbers are part of every stored stream's values: never
 * renumber one.
 */
private[sparkrandomstrings] object RandomStreams {

  /** Where the pool's permutation puts each entry (`ValuePool`). */
  val PoolSlots = 1L

  /** The permutations of each length's codes (`ValuePool`). */
  val PoolCodes = 2L

  /** The characters of pool entries before their code, per entry. */
  val PoolCharacters = 3L

  /** Which pool entry a row picks, per row. */
  val Picks = 4L

  /** How far out of order a row's event time is, per row. */
  val Delays = 5L

  /** Whether a row is late, per row. */
  val Lateness = 6L

  /** Whether a row repeats an earlier one, and which, per row. */
  val Repeats = 7L

  /** What each declared column's stream is derived from, with the column's path (`CellWriter`). */
  val Columns = 8L

  /** Which (cold) key each round of a change stream's changes visits at each position (`ChangeLifecycle`), per round. */
  val ChangeKeys = 9L

  /** Whether a change to a present key deletes it (`ChangeLifecycle`), per (occurrence, key). */
  val ChangeDeletes = 10L

  /** Which hot key each round of a change stream's hot changes visits at each position (`ChangeLifecycle`), per round. */
  val ChangeHotKeys = 11L

  /** The order in which a change stream delivers each window's changes (`ChangeDelivery`), per window. */
  val ChangeOrder = 12L

  /** Which of a window's changes a change stream delivers late (`ChangeDelivery`), per window. */
  val ChangeLate = 13L

  /** Which change a delivered copy repeats (`ChangeDelivery`), per position. */
  val ChangeCopies = 14L
}
