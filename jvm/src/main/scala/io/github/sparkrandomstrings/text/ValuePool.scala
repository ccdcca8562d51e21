package io.github.sparkrandomstrings.text

import io.github.sparkrandomstrings.randomness.{CounterRandom, KeyedPermutation, RandomStreams}

/**
 * The `distinctValues` pool: N distinct strings, entry k (0 <= k < N) a pure function of
 * (seed, k), each with a length in [minLength, maxLength] and characters from the set. No
 * table is kept: [[locate]] finds entry k's length and code in O(1), and the row generator
 * writes its characters.
 *
 * How entry k is made:
 *  1. a keyed permutation of [0, N) takes k to a slot j, so that neighbouring entries (the
 *     hottest ones of a Zipf stream, say) get unrelated lengths;
 *  2. the slots are dealt out over the lengths as evenly as the lengths hold them. A length L
 *     holds A^L strings (A characters): the short lengths that hold fewer than an even share
 *     get every string they have, and the remaining slots spread evenly over the other
 *     lengths, slot t of R over m lengths to length floor(t * m / R). So j maps to its length
 *     L and to its index i among the q slots of L with a little arithmetic;
 *  3. the string's last d characters, d the fewest base-A digits that count q codes, spell a
 *     code in base A: i under a keyed permutation of [0, A^d) (of that length), so codes look
 *     random rather than count up. The first L - d characters are drawn from the entry's own
 *     random stream.
 * Two entries differ: in length, or in code within a length. So every entry is distinct by
 * construction, and N is allowed up to [[capacity]].
 */
private[sparkrandomstrings] final class ValuePool(
    seed: Long,
    val size: Long,
    minLength: Int,
    maxLength: Int,
    characterCount: Int) {
  import ValuePool._

  require(
    size >= 1L && size <= capacity(minLength, maxLength, characterCount),
    s"$size distinct strings do not fit")

  private val slotKey = CounterRandom.derivedSeed(seed, RandomStreams.PoolSlots)
  private val codeKey = CounterRandom.derivedSeed(seed, RandomStreams.PoolCodes)

  // The lengths that get all their strings ("full"), from minLength up, and what is left.
  private val (fullCounts: Array[Long], spreadFrom: Int, spreadSlots: Long) = {
    val counts = Array.newBuilder[Long]
    var length = minLength
    var remaining = size
    var stop = false
    while (!stop && length <= maxLength) {
      val lengthsLeft = (maxLength - length + 1).toLong
      val strings = stringsOfLength(length, characterCount)
      if (strings < ceilDiv(remaining, lengthsLeft)) {
        counts += strings
        remaining -= strings
        length += 1
      } else stop = true
    }
    (counts.result(), length, remaining)
  }
  private val fullSlots = size - spreadSlots
  private val spreadLengths = (maxLength - spreadFrom + 1).toLong

  private var lastCount = -1L
  private var lastDigits = 0
  private var lastCodes = 1L

  /** Entry [[locate]]d last: its length in characters. */
  var length: Int = 0

  /** Entry [[locate]]d last: how many of its last characters spell its code. */
  var codeDigits: Int = 0

  /** Entry [[locate]]d last: its code, 0 <= code < A^codeDigits. */
  var code: Long = 0L

  /** Sets [[length]], [[codeDigits]] and [[code]] to entry `k`'s. */
  def locate(k: Long): Unit = {
    val slot = KeyedPermutation(k, size, slotKey)
    var index = slot
    var count = 0L
    if (slot < fullSlots) {
      var i = 0
      while (index >= fullCounts(i)) {
        index -= fullCounts(i)
        i += 1
      }
      length = minLength + i
      count = fullCounts(i)
    } else if (spreadLengths == 1L) {
      // One length shares every slot left (minLength == maxLength, say): no division.
      length = spreadFrom
      index = slot - fullSlots
      count = spreadSlots
    } else {
      val t = slot - fullSlots
      val position = t * spreadLengths / spreadSlots
      val first = ceilDiv(position * spreadSlots, spreadLengths)
      length = spreadFrom + position.toInt
      index = t - first
      count = ceilDiv((position + 1) * spreadSlots, spreadLengths) - first
    }
    if (count != lastCount) {
      // The fewest base-A digits that count `count` codes; most rows ask again for the last.
      var digits = 0
      var codes = 1L
      while (codes < count) {
        codes *= characterCount
        digits += 1
      }
      lastCount = count
      lastDigits = digits
      lastCodes = codes
    }
    codeDigits = lastDigits
    code = KeyedPermutation(index, lastCodes, codeKey ^ (length * CounterRandom.Gamma))
  }
}

private[sparkrandomstrings] object ValuePool {

  /** Where counts of strings stop: more than any pool holds, and products stay inside a long. */
  private val Many: Long = 1L << 40

  /** A^length, or [[Many]] if it is larger. */
  def stringsOfLength(length: Int, characterCount: Int): Long = {
    if (characterCount == 1) return 1L
    var strings = 1L
    var i = 0
    while (i < length && strings < Many) {
      strings = math.min(strings * characterCount, Many)
      i += 1
    }
    strings
  }

  /**
   * How many distinct strings lengths [minLength, maxLength] of `characterCount` characters
   * allow, or 2^40 if more (more than a pool may have).
   */
  def capacity(minLength: Int, maxLength: Int, characterCount: Int): Long = {
    var total = 0L
    var length = minLength
    while (length <= maxLength && total < Many) {
      total = math.min(total + stringsOfLength(length, characterCount), Many)
      length += 1
    }
    total
  }

  private def ceilDiv(a: Long, b: Long): Long = (a + b - 1L) / b
}
