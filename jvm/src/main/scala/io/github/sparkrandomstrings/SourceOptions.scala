package io.github.sparkrandomstrings

import java.util.Locale

import scala.util.control.NonFatal

import org.apache.spark.sql.catalyst.util.CaseInsensitiveMap

/**
 * The options of the `InMemoryRandomStrings` source, parsed and validated once.
 *
 * Every value here has passed validation; the parsing lives in the companion object, which
 * also holds the option names (the one place they are spelled), their defaults and their limits.
 *
 * @param rowsPerSecond      how many rows become available per second of wall-clock time
 * @param minLength          the shortest string, in code points
 * @param maxLength          the longest string, in code points
 * @param characters         the characters strings are drawn from
 * @param seed               the seed the user gave, if any (otherwise the checkpoint's is used)
 * @param numPartitions      partitions per batch, if given (otherwise the default parallelism)
 * @param maxRowsPerTrigger  the most rows one micro-batch may read, if capped
 * @param totalRows          the number of rows after which the stream ends, if bounded
 */
final case class SourceOptions(
    rowsPerSecond: Long,
    minLength: Int,
    maxLength: Int,
    characters: CharacterSet,
    seed: Option[Long],
    numPartitions: Option[Int],
    maxRowsPerTrigger: Option[Long],
    totalRows: Option[Long])

object SourceOptions {
  val ROWS_PER_SECOND = "rowsPerSecond"
  val MIN_LENGTH = "minLength"
  val MAX_LENGTH = "maxLength"
  val CHARSET = "charset"
  val ALPHABET = "alphabet"
  val SEED = "seed"
  val NUM_PARTITIONS = "numPartitions"
  val MAX_ROWS_PER_TRIGGER = "maxRowsPerTrigger"
  val TOTAL_ROWS = "totalRows"

  /** Every option this source takes, in the order the documentation lists them. */
  val Names: Seq[String] = Seq(
    ROWS_PER_SECOND,
    MIN_LENGTH,
    MAX_LENGTH,
    CHARSET,
    ALPHABET,
    SEED,
    NUM_PARTITIONS,
    MAX_ROWS_PER_TRIGGER,
    TOTAL_ROWS)

  val DefaultRowsPerSecond: Long = 10L
  val DefaultMinLength: Int = 0
  val DefaultMaxLength: Int = 4
  val DefaultCharacters: CharacterSet = CharacterSet.Alphanumeric

  /** The longest string allowed: one mebi code points (at most 4 MiB of UTF-8 per row). */
  val LengthCap: Int = 1 << 20

  /**
   * Parses and validates the options a user gave to `spark.readStream.format(...).option(...)`.
   * Names are matched case-insensitively.
   *
   * @throws IllegalArgumentException naming the option, the value given and what is allowed
   */
  def parse(parameters: Map[String, String]): SourceOptions = {
    val byLowerName = parameters.map { case (k, v) => k.toLowerCase(Locale.ROOT) -> v }
    rejectUnknownNames(asGiven(parameters).keys)
    def raw(name: String): Option[String] = byLowerName.get(name.toLowerCase(Locale.ROOT))

    def long(name: String, min: Long, max: Long = Long.MaxValue): Option[Long] =
      raw(name).map(parseWhole(name, _, min, max))
    def int(name: String, min: Int, max: Int = Int.MaxValue): Option[Int] =
      long(name, min.toLong, max.toLong).map(_.toInt)

    val rowsPerSecond = long(ROWS_PER_SECOND, 1).getOrElse(DefaultRowsPerSecond)
    val minLength = int(MIN_LENGTH, 0, LengthCap)
    val maxLength = int(MAX_LENGTH, 0, LengthCap)
    val (min, max) = (minLength.getOrElse(DefaultMinLength), maxLength.getOrElse(DefaultMaxLength))
    if (min > max) {
      def shown(name: String, v: Option[Int], value: Int) =
        s"'$name' is $value" + (if (v.isEmpty) " (its default)" else "")
      throw new IllegalArgumentException(
        s"Invalid lengths: ${shown(MIN_LENGTH, minLength, min)} and " +
          s"${shown(MAX_LENGTH, maxLength, max)}. The option '$MIN_LENGTH' must be less than " +
          s"or equal to '$MAX_LENGTH'.")
    }
    val charset = raw(CHARSET).map(CharacterSet.named(CHARSET, _))
    val alphabet = raw(ALPHABET).map(CharacterSet.alphabet(ALPHABET, _))
    SourceOptions(
      rowsPerSecond = rowsPerSecond,
      minLength = min,
      maxLength = max,
      characters = alphabet.orElse(charset).getOrElse(DefaultCharacters),
      seed = long(SEED, Long.MinValue),
      numPartitions = int(NUM_PARTITIONS, 1),
      maxRowsPerTrigger = long(MAX_ROWS_PER_TRIGGER, 1),
      totalRows = long(TOTAL_ROWS, 0))
  }

  /** Spark hands options over in a map whose keys are lower-cased; messages show them as given. */
  private def asGiven(parameters: Map[String, String]): Map[String, String] = parameters match {
    case caseInsensitive: CaseInsensitiveMap[String @unchecked] => caseInsensitive.originalMap
    case other => other
  }

  private def parseWhole(name: String, value: String, min: Long, max: Long): Long = {
    val allowed =
      if (max == Long.MaxValue && min == Long.MinValue) "a whole number (a 64-bit long)"
      else if (max == Long.MaxValue) s"a whole number >= $min"
      else s"a whole number from $min to $max"
    val parsed =
      try BigInt(value.trim)
      catch {
        case NonFatal(_) =>
          throw new IllegalArgumentException(
            s"Invalid value '$value' for option '$name': not a whole number. Allowed: $allowed.")
      }
    if (parsed < min || parsed > max) {
      throw new IllegalArgumentException(
        s"Invalid value '$value' for option '$name': out of range. Allowed: $allowed.")
    }
    parsed.toLong
  }

  private def rejectUnknownNames(names: Iterable[String]): Unit = {
    val known = Names.map(_.toLowerCase(Locale.ROOT)).toSet
    names.find(n => !known.contains(n.toLowerCase(Locale.ROOT))).foreach { unknown =>
      val hint = if (unknown.equalsIgnoreCase("path")) {
        " This source makes its own rows and reads no path: call load() without one."
      } else {
        closest(unknown).map(c => s" Did you mean '$c'?").getOrElse("")
      }
      throw new IllegalArgumentException(
        s"Unknown option '$unknown' for the ${RandomStringsSourceProvider.ShortName} source." +
          s"$hint Known options (case-insensitive): ${Names.mkString(", ")}.")
    }
  }

  /** The known option nearest to `name` by edit distance, if it is near enough to be a typo. */
  private def closest(name: String): Option[String] = {
    val lower = name.toLowerCase(Locale.ROOT)
    val (best, distance) = Names.map(n => n -> editDistance(lower, n.toLowerCase(Locale.ROOT)))
      .minBy(_._2)
    if (distance <= math.max(2, best.length / 3)) Some(best) else None
  }

  private def editDistance(a: String, b: String): Int = {
    var previous = Array.tabulate(b.length + 1)(identity)
    for (i <- 1 to a.length) {
      val current = new Array[Int](b.length + 1)
      current(0) = i
      for (j <- 1 to b.length) {
        val substitution = previous(j - 1) + (if (a(i - 1) == b(j - 1)) 0 else 1)
        current(j) = math.min(substitution, math.min(previous(j), current(j - 1)) + 1)
      }
      previous = current
    }
    previous(b.length)
  }
}
