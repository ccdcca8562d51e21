package io.github.sparkrandomstrings.randomness

/**
 * Keyed pseudo-random permutations of [0, size), computed one element at a time, in O(1) time
 * and no allocation: a balanced Feistel network on the smallest power-of-4 domain that holds
 * `size`, with cycle walking (Black and Rogaway, "Ciphers with arbitrary finite domains",
 * CT-RSA 2002): an image at or beyond `size` is permuted again until it falls inside. The
 * network is a bijection, so the walk always comes back inside; as the domain is less than
 * 4 * size, it takes fewer than 4 steps on average.
 *
 * The pool spreads consecutive indexes with it (its entries over the lengths, a length's
 * strings over their codes), so that entry 0 is not always the shortest string.
 */
private[sparkrandomstrings] object KeyedPermutation {

  /** Enough rounds for the spread a test stream needs; this is not cryptography. */
  val Rounds = 4

  /** The largest size permuted. */
  val MaxSize: Long = 1L << 62

  /**
   * The image of `index` (0 <= index < size) under the permutation of [0, size) that `key`
   * picks. The key must be well mixed (a `CounterRandom.derivedSeed`, or `CounterRandom.mix` of
   * one): round r's key is `key + r * Gamma`, with no mixing of its own.
   */
  def apply(index: Long, size: Long, key: Long): Long = {
    require(size >= 1L && size <= MaxSize, s"size $size is not in [1, 2^62]")
    val halfBits = (64 - java.lang.Long.numberOfLeadingZeros(size - 1L) + 1) / 2
    if (halfBits == 0) return index
    var x = feistel(index, halfBits, key)
    while (x >= size) x = feistel(x, halfBits, key)
    x
  }

  /**
   * The index whose image is `image` (0 <= image < size) under the permutation of [0, size)
   * that `key` picks: [[apply]] undone, its network run backwards and its cycle walk walked back
   * (the walk forward from an index passes only images outside [0, size) before it lands, so
   * walking back from the image stops at the index).
   */
  def inverse(image: Long, size: Long, key: Long): Long = {
    require(size >= 1L && size <= MaxSize, s"size $size is not in [1, 2^62]")
    val halfBits = (64 - java.lang.Long.numberOfLeadingZeros(size - 1L) + 1) / 2
    if (halfBits == 0) return image
    var x = unfeistel(image, halfBits, key)
    while (x >= size) x = unfeistel(x, halfBits, key)
    x
  }

  /**
   * One pass of the network. Round r's function is the top `halfBits` bits of
   * (right ^ (key + r * Gamma)) * Multiplier: one multiplication, whose top bits depend on every
   * bit of its input. The network is a bijection whatever the round function; this one is
   * enough to spread neighbours apart, and costs a few cycles a round.
   */
  private def feistel(x: Long, halfBits: Int, key: Long): Long = {
    val mask = (1L << halfBits) - 1L
    val shift = 64 - halfBits
    var left = x >>> halfBits
    var right = x & mask
    var r = 1
    while (r <= Rounds) {
      val next = left ^ (((right ^ (key + r * CounterRandom.Gamma)) * Multiplier) >>> shift)
      left = right
      right = next
      r += 1
    }
    (left << halfBits) | right
  }

  /** One pass of the network, backwards: round r undone, from the last round to the first. */
  private def unfeistel(x: Long, halfBits: Int, key: Long): Long = {
    val mask = (1L << halfBits) - 1L
    val shift = 64 - halfBits
    var left = x >>> halfBits
    var right = x & mask
    var r = Rounds
    while (r >= 1) {
      val previous = right ^ (((left ^ (key + r * CounterRandom.Gamma)) * Multiplier) >>> shift)
      right = left
      left = previous
      r -= 1
    }
    (left << halfBits) | right
  }

  /** An odd 64-bit constant with well-spread bits: SplitMix64's first multiplier. */
  private final val Multiplier = CounterRandom.Mix1
}
