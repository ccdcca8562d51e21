package io.github.sparkrandomstrings.text

import java.util.Locale

/**
 * A finite set of Unicode scalar values that strings are drawn from, each with equal chance.
 *
 * The set is held as sorted, disjoint ranges of code points, so that index `i` (0 <= i < size)
 * names one character and a uniform index gives a uniform character. `unicode`, with more than
 * a million characters, is three ranges.
 *
 * @param description how the set is named in descriptions and in the checkpoint
 *                    (`charset=hex`, or `alphabet=` followed by its distinct characters)
 * @param ranges      inclusive bounds, flattened: `lo0, hi0, lo1, hi1, ...`, sorted, disjoint
 */
final class CharacterSet private (val description: String, private val ranges: Array[Int])
    extends Serializable {

  /** Position in the set of each range's first character. */
  private val firstIndex: Array[Int] = ranges.grouped(2).map(r => r(1) - r(0) + 1)
    .scanLeft(0)(_ + _).toArray

  /** How many characters the set holds. */
  val size: Int = firstIndex.last

  /** The largest code point: when it is ASCII, every character is one UTF-8 byte. */
  val isAscii: Boolean = ranges.last < 0x80

  /** The most UTF-8 bytes a character of this set takes. */
  val maxUtf8Bytes: Int = Utf8.length(ranges.last)

  /** The `index`-th character (0-based) of the set, in code point order. */
  def codePoint(index: Int): Int = {
    // The last range whose first index is <= index; sets have at most a few ranges but an
    // alphabet may have many, so search rather than scan.
    var lo = 0
    var hi = firstIndex.length - 2
    while (lo < hi) {
      val mid = (lo + hi + 1) >>> 1
      if (firstIndex(mid) <= index) lo = mid else hi = mid - 1
    }
    ranges(2 * lo) + (index - firstIndex(lo))
  }

  /** For an ASCII set: byte `i` is the character at index `i`. Built where rows are made. */
  @transient lazy val asciiBytes: Array[Byte] = {
    require(isAscii, s"$description is not an ASCII set")
    Array.tabulate(size)(i => codePoint(i).toByte)
  }

  override def equals(other: Any): Boolean = other match {
    case that: CharacterSet => java.util.Arrays.equals(ranges, that.ranges)
    case _ => false
  }
  override def hashCode(): Int = java.util.Arrays.hashCode(ranges)
  override def toString: String = description
}

object CharacterSet {
  val Alphanumeric: CharacterSet = charset("alphanumeric", '0' -> '9', 'A' -> 'Z', 'a' -> 'z')
  val Letters: CharacterSet = charset("letters", 'A' -> 'Z', 'a' -> 'z')
  val Digits: CharacterSet = charset("digits", '0' -> '9')
  val Hex: CharacterSet = charset("hex", '0' -> '9', 'a' -> 'f')

  /** Printable ASCII: the space (0x20) to the tilde (0x7E). */
  val Ascii: CharacterSet = charset("ascii", ' ' -> '~')

  /**
   * Every Unicode scalar value (0 to 0x10FFFF, less the surrogates 0xD800-0xDFFF) that is not a
   * control character (general category Cc: 0x00-0x1F and 0x7F-0x9F). Unassigned and private-use
   * code points are included: they are valid in any UTF-8 string.
   */
  val Unicode: CharacterSet =
    new CharacterSet("charset=unicode", Array(0x20, 0x7E, 0xA0, 0xD7FF, 0xE000, 0x10FFFF))

  /** The named sets, by the value the `charset` option takes. */
  val Named: Seq[(String, CharacterSet)] = Seq(
    "alphanumeric" -> Alphanumeric,
    "letters" -> Letters,
    "digits" -> Digits,
    "hex" -> Hex,
    "ascii" -> Ascii,
    "unicode" -> Unicode)

  private def charset(name: String, bounds: (Char, Char)*): CharacterSet =
    new CharacterSet(
      s"charset=$name",
      bounds.flatMap { case (lo, hi) => Seq(lo.toInt, hi.toInt) }
        .toArray)

  /** The named set `value` (case-insensitive), given as option `option`. */
  def named(option: String, value: String): CharacterSet =
    Named.collectFirst { case (n, set) if n == value.trim.toLowerCase(Locale.ROOT) => set }
      .getOrElse(throw new IllegalArgumentException(
        s"Invalid value '$value' for option '$option': unknown character set. Allowed: " +
          s"${Named.map(_._1).mkString(", ")}."))

  /**
   * The set of the distinct characters of `value`, given as option `option`. Each character
   * counts once, whatever its order or repetitions: "abca" and "cab" are the same set.
   */
  def alphabet(option: String, value: String): CharacterSet = {
    val codePoints = value.codePoints().toArray
    if (codePoints.isEmpty) {
      throw new IllegalArgumentException(s"Invalid value '' for option '$option': the alphabet " +
        "is empty. Allowed: a non-empty string of the characters to draw from.")
    }
    codePoints.find(cp => cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE)
      .foreach { cp =>
        throw new IllegalArgumentException(f"Invalid value '$value' for option '$option': it " +
          f"holds a lone UTF-16 surrogate (U+$cp%04X), which is not a character. Allowed: a " +
          "non-empty string of Unicode characters.")
      }
    val distinct = codePoints.distinct.sorted
    val ranges = Array.newBuilder[Int]
    var start = distinct(0)
    for (i <- 1 to distinct.length) {
      if (i == distinct.length || distinct(i) != distinct(i - 1) + 1) {
        ranges += start += distinct(i - 1)
        if (i < distinct.length) start = distinct(i)
      }
    }
    new CharacterSet("alphabet=" + new String(distinct, 0, distinct.length), ranges.result())
  }
}
