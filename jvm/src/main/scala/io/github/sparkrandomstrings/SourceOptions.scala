package io.github.sparkrandomstrings

import java.util.Locale

import scala.util.control.NonFatal

import org.apache.commons.text.similarity.LevenshteinDistance
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

  /** The whole numbers an option allows, from `min` to `max` inclusive. */
  final case class Whole(min: Long, max: Long = Long.MaxValue) {

    /** What is allowed, as the messages say it. */
    def allowed: String =
      if (max == Long.MaxValue && min == Long.MinValue) "a whole number (a 64-bit long)"
      else if (max == Long.MaxValue) s"a whole number >= $min"
      else s"a whole number from $min to $max"

    /** The value of option `name` given as `text`, if it is a whole number in range. */
    def parse(name: String, text: String): Long = {
      val parsed =
        try BigInt(text.trim)
        catch {
          case NonFatal(_) =>
            throw new IllegalArgumentException(
              s"Invalid value '$text' for option '$name': not a whole number. Allowed: $allowed.")
        }
      if (parsed < min || parsed > max) outOfRange(name, text)
      parsed.toLong
    }

    /** `value` of option `name`, if it is in range (a value stored earlier, say). */
    def check(name: String, value: Long): Long = {
      if (value < min || value > max) outOfRange(name, value.toString)
      value
    }

    private def outOfRange(name: String, text: String): Nothing =
      throw new IllegalArgumentException(
        s"Invalid value '$text' for option '$name': out of range. Allowed: $allowed.")
  }

  val RowsPerSecondRange: Whole = Whole(1)
  val LengthRange: Whole = Whole(0, LengthCap)
  val SeedRange: Whole = Whole(Long.MinValue)
  val NumPartitionsRange: Whole = Whole(1, Int.MaxValue)
  val MaxRowsPerTriggerRange: Whole = Whole(1)
  val TotalRowsRange: Whole = Whole(0)

  /**
   * Checks that the shortest length is at most the longest. `minGiven` and `maxGiven` say
   * whether the user gave each (the message marks a default as such).
   */
  def checkLengths(min: Int, max: Int, minGiven: Boolean = true, maxGiven: Boolean = true): Unit =
    if (min > max) {
      def shown(name: String, value: Int, isGiven: Boolean) =
        s"'$name' is $value" + (if (isGiven) "" else " (its default)")
      throw new IllegalArgumentException(
        s"Invalid lengths: ${shown(MIN_LENGTH, min, minGiven)} and " +
          s"${shown(MAX_LENGTH, max, maxGiven)}. The option '$MIN_LENGTH' must be less than " +
          s"or equal to '$MAX_LENGTH'.")
    }

  /**
   * Parses and validates the options a user gave to `spark.readStream.format(...).option(...)`.
   * Names are matched case-insensitively; messages show them as the user wrote them.
   *
   * @throws IllegalArgumentException naming the option, the value given and what is allowed
   */
  def parse(parameters: Map[String, String]): SourceOptions = {
    val options = CaseInsensitiveMap(parameters)
    rejectUnknownNames(options.originalMap.keys)

    def long(name: String, range: Whole): Option[Long] = options.get(name).map(range.parse(name, _))
    def int(name: String, range: Whole): Option[Int] = long(name, range).map(_.toInt)

    val minLength = int(MIN_LENGTH, LengthRange)
    val maxLength = int(MAX_LENGTH, LengthRange)
    val (min, max) = (minLength.getOrElse(DefaultMinLength), maxLength.getOrElse(DefaultMaxLength))
    checkLengths(min, max, minLength.isDefined, maxLength.isDefined)
    val charset = options.get(CHARSET).map(CharacterSet.named(CHARSET, _))
    val alphabet = options.get(ALPHABET).map(CharacterSet.alphabet(ALPHABET, _))
    SourceOptions(
      rowsPerSecond = long(ROWS_PER_SECOND, RowsPerSecondRange).getOrElse(DefaultRowsPerSecond),
      minLength = min,
      maxLength = max,
      characters = alphabet.orElse(charset).getOrElse(DefaultCharacters),
      seed = long(SEED, SeedRange),
      numPartitions = int(NUM_PARTITIONS, NumPartitionsRange),
      maxRowsPerTrigger = long(MAX_ROWS_PER_TRIGGER, MaxRowsPerTriggerRange),
      totalRows = long(TOTAL_ROWS, TotalRowsRange))
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

  /**
   * The known option nearest to `name` by Levenshtein distance (Commons Text's, which Spark's
   * own suggestions use), if it is near enough to be a typo.
   */
  private def closest(name: String): Option[String] = {
    val lower = name.toLowerCase(Locale.ROOT)
    val distance = LevenshteinDistance.getDefaultInstance
    val (best, edits) = Names.map(n => n -> distance.apply(lower, n.toLowerCase(Locale.ROOT)).intValue)
      .minBy(_._2)
    if (edits <= math.max(2, best.length / 3)) Some(best) else None
  }
}
