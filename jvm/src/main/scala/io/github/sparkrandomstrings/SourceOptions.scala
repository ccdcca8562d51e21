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
 * @param shape              pool, distribution, disorder and repeats of the rows
 */
final case class SourceOptions(
    rowsPerSecond: Long,
    minLength: Int,
    maxLength: Int,
    characters: CharacterSet,
    seed: Option[Long],
    numPartitions: Option[Int],
    maxRowsPerTrigger: Option[Long],
    totalRows: Option[Long],
    shape: RowShape = RowShape.Plain)

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
  val DISTINCT_VALUES = "distinctValues"
  val VALUE_DISTRIBUTION = "valueDistribution"
  val ZIPF_EXPONENT = "zipfExponent"
  val MAX_OUT_OF_ORDER_MS = "maxOutOfOrderMs"
  val LATE_ROW_FRACTION = "lateRowFraction"
  val LATE_BY_MS = "lateByMs"
  val DUPLICATE_FRACTION = "duplicateFraction"
  val MAX_DUPLICATE_DISTANCE = "maxDuplicateDistance"

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
    TOTAL_ROWS,
    DISTINCT_VALUES,
    VALUE_DISTRIBUTION,
    ZIPF_EXPONENT,
    MAX_OUT_OF_ORDER_MS,
    LATE_ROW_FRACTION,
    LATE_BY_MS,
    DUPLICATE_FRACTION,
    MAX_DUPLICATE_DISTANCE)

  val DefaultRowsPerSecond: Long = 10L
  val DefaultMinLength: Int = 0
  val DefaultMaxLength: Int = 4
  val DefaultCharacters: CharacterSet = CharacterSet.Alphanumeric
  val UniformDistribution = "uniform"
  val ZipfDistribution = "zipf"
  val Distributions: Seq[String] = Seq(UniformDistribution, ZipfDistribution)
  val DefaultZipfExponent: Double = 1.0
  val DefaultMaxDuplicateDistance: Long = 1000L

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

  /**
   * The decimal numbers an option allows, between `min` and `max`, each bound included or not.
   * Text is read as a decimal (`0.01`, `1e-3`); NaN, infinities and hexadecimal are refused.
   */
  final case class Real(min: Double, minIncluded: Boolean, max: Double, maxIncluded: Boolean) {

    def allowed: String = {
      val low = if (minIncluded) s">= ${shown(min)}" else s"> ${shown(min)}"
      val high = if (maxIncluded) s"<= ${shown(max)}" else s"< ${shown(max)}"
      s"a decimal number $low and $high"
    }

    def parse(name: String, text: String): Double = {
      val parsed =
        try BigDecimal(text.trim).toDouble
        catch {
          case NonFatal(_) =>
            throw new IllegalArgumentException(
              s"Invalid value '$text' for option '$name': not a decimal number. Allowed: $allowed.")
        }
      check(name, parsed, text)
    }

    def check(name: String, value: Double, text: String): Double = {
      val aboveMin = if (minIncluded) value >= min else value > min
      val belowMax = if (maxIncluded) value <= max else value < max
      if (!(aboveMin && belowMax)) {
        throw new IllegalArgumentException(
          s"Invalid value '$text' for option '$name': out of range. Allowed: $allowed.")
      }
      value
    }

    private def shown(bound: Double): String =
      if (bound == math.rint(bound)) bound.toLong.toString else bound.toString
  }

  val RowsPerSecondRange: Whole = Whole(1)
  val LengthRange: Whole = Whole(0, LengthCap)
  val SeedRange: Whole = Whole(Long.MinValue)
  val NumPartitionsRange: Whole = Whole(1, Int.MaxValue)
  val MaxRowsPerTriggerRange: Whole = Whole(1)
  val TotalRowsRange: Whole = Whole(0)
  val DistinctValuesRange: Whole = Whole(1, Int.MaxValue)
  val ZipfExponentRange: Real = Real(0.0, minIncluded = false, 10.0, maxIncluded = true)
  val MaxOutOfOrderMsRange: Whole = Whole(0)
  val LateRowFractionRange: Real = Real(0.0, minIncluded = true, 1.0, maxIncluded = true)
  val LateByMsRange: Whole = Whole(1)
  val DuplicateFractionRange: Real = Real(0.0, minIncluded = true, 1.0, maxIncluded = false)
  val MaxDuplicateDistanceRange: Whole = Whole(1)

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
    val characters = alphabet.orElse(charset).getOrElse(DefaultCharacters)
    SourceOptions(
      rowsPerSecond = long(ROWS_PER_SECOND, RowsPerSecondRange).getOrElse(DefaultRowsPerSecond),
      minLength = min,
      maxLength = max,
      characters = characters,
      seed = long(SEED, SeedRange),
      numPartitions = int(NUM_PARTITIONS, NumPartitionsRange),
      maxRowsPerTrigger = long(MAX_ROWS_PER_TRIGGER, MaxRowsPerTriggerRange),
      totalRows = long(TOTAL_ROWS, TotalRowsRange),
      shape = parseShape(options, min, max, characters))
  }

  /** The shaping options, each checked, and checked against each other. */
  private def parseShape(
      options: CaseInsensitiveMap[String],
      minLength: Int,
      maxLength: Int,
      characters: CharacterSet): RowShape = {
    def long(name: String, range: Whole): Option[Long] = options.get(name).map(range.parse(name, _))
    def real(name: String, range: Real): Option[Double] = options.get(name).map(range.parse(name, _))
    def stated(name: String): String = s"'$name' is ${options(name)}"
    def unfit(message: String): Nothing =
      throw new IllegalArgumentException(s"Options that do not fit together: $message.")

    val distinctValues = long(DISTINCT_VALUES, DistinctValuesRange)
    val distribution = options.get(VALUE_DISTRIBUTION).map { text =>
      Distributions.find(_.equalsIgnoreCase(text.trim)).getOrElse(
        throw new IllegalArgumentException(
          s"Invalid value '$text' for option '$VALUE_DISTRIBUTION'. Allowed: " +
            s"${Distributions.mkString(" or ")} (case-insensitive)."))
    }
    val zipfExponent = real(ZIPF_EXPONENT, ZipfExponentRange)
    val lateRowFraction = real(LATE_ROW_FRACTION, LateRowFractionRange)
    val lateByMs = long(LATE_BY_MS, LateByMsRange)
    val duplicateFraction = real(DUPLICATE_FRACTION, DuplicateFractionRange)
    val maxDuplicateDistance = long(MAX_DUPLICATE_DISTANCE, MaxDuplicateDistanceRange)

    if (distribution.isDefined && distinctValues.isEmpty) {
      unfit(s"${stated(VALUE_DISTRIBUTION)}, but '$DISTINCT_VALUES' is not set. A distribution " +
        s"picks among a pool of values: set '$DISTINCT_VALUES' too")
    }
    if (zipfExponent.isDefined && !distribution.contains(ZipfDistribution)) {
      unfit(s"${stated(ZIPF_EXPONENT)}, but '$VALUE_DISTRIBUTION' is not $ZipfDistribution. Set " +
        s"'$VALUE_DISTRIBUTION' to $ZipfDistribution, or remove '$ZIPF_EXPONENT'")
    }

    // `dependent` only means something when `fraction` is above 0: refuse it otherwise.
    def onlyWithFraction(dependent: String, fraction: String, value: Option[Double], none: String): Unit =
      if (options.contains(dependent) && value.getOrElse(0.0) == 0.0) {
        unfit(s"${stated(dependent)}, but '$fraction' is " +
          value.fold("not set")(_ => options(fraction)) +
          s", so $none. Set '$fraction' above 0, or remove '$dependent'")
      }
    onlyWithFraction(LATE_BY_MS, LATE_ROW_FRACTION, lateRowFraction, "no row is late")
    onlyWithFraction(MAX_DUPLICATE_DISTANCE, DUPLICATE_FRACTION, duplicateFraction, "no row repeats")
    val late = lateRowFraction.getOrElse(0.0)
    if (late > 0.0 && lateByMs.isEmpty) {
      unfit(s"${stated(LATE_ROW_FRACTION)}, but '$LATE_BY_MS' is not set. Say how late a late " +
        s"row is, in milliseconds: '$LATE_BY_MS' >= 1")
    }
    distinctValues.foreach { wanted =>
      val allowed = ValuePool.capacity(minLength, maxLength, characters.size)
      if (allowed < wanted) {
        throw new IllegalArgumentException(
          s"Invalid value '${options(DISTINCT_VALUES)}' for option '$DISTINCT_VALUES': the " +
            s"other options allow only $allowed distinct strings (lengths $minLength to " +
            s"$maxLength of ${characters.size} characters). Lower '$DISTINCT_VALUES', or " +
            s"allow more strings with a larger '$MAX_LENGTH' or more characters.")
      }
    }
    RowShape(
      distinctValues = distinctValues,
      valueDistribution = distribution.getOrElse(UniformDistribution),
      zipfExponent = zipfExponent.getOrElse(DefaultZipfExponent),
      maxOutOfOrderMs = long(MAX_OUT_OF_ORDER_MS, MaxOutOfOrderMsRange).getOrElse(0L),
      lateRowFraction = late,
      lateByMs = if (late > 0.0) lateByMs else None,
      duplicateFraction = duplicateFraction.getOrElse(0.0),
      maxDuplicateDistance = maxDuplicateDistance.getOrElse(DefaultMaxDuplicateDistance))
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
