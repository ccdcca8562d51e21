package io.github.sparkrandomstrings.text

import io.github.sparkrandomstrings.options.RandomStrings

/**
 * What a string column's values are drawn from: their lengths and characters, and, with
 * `distinctValues`, the bounded pool they come from and how rows pick from it. It is the part of
 * a stream's definition that belongs to its string column (`value`); what belongs to the whole
 * row (disorder, lateness, repeats) is the [[rows.RowShape]]. How a value is drawn is said in
 * [[StringColumnWriter]].
 *
 * @param minLength         the shortest string, in code points
 * @param maxLength         the longest string, in code points
 * @param characters        the characters strings are drawn from
 * @param distinctValues    the pool's size, if values come from a pool
 * @param valueDistribution how rows pick pool entries: `uniform` or `zipf`
 * @param zipfExponent      s of `zipf`: entry k is picked with probability ∝ 1 / (k + 1)^s
 */
final case class StringValues(
    minLength: Int,
    maxLength: Int,
    characters: CharacterSet,
    distinctValues: Option[Long] = None,
    valueDistribution: String = RandomStrings.UniformDistribution,
    zipfExponent: Double = RandomStrings.DefaultZipfExponent) {
  import RandomStrings._

  def isZipf: Boolean = valueDistribution == ZipfDistribution

  /** Whether every value is drawn fresh for its row, as 0.1.0 drew them: no pool. */
  def isFresh: Boolean = distinctValues.isEmpty

  /** The pool's options' names and values, in the documentation's order; None for "not set". */
  def poolSettings: Seq[(String, Option[Any])] = Seq(
    DISTINCT_VALUES -> distinctValues,
    VALUE_DISTRIBUTION -> Some(valueDistribution),
    ZIPF_EXPONENT -> Some(zipfExponent))
}

object StringValues {
  import RandomStrings._

  /** The characters of a string column that names neither `charset` nor `alphabet`. */
  val DefaultCharacters: CharacterSet = CharacterSet.Alphanumeric

  /** The values of a stream with none of the string options: 0 to 4 alphanumeric characters. */
  val Default: StringValues = StringValues(DefaultMinLength, DefaultMaxLength, DefaultCharacters)

  /**
   * The rules a string column's values pass, in order: the lengths in range and in order, the
   * pool's size, distribution and exponent in range, and a pool that the lengths and characters
   * can fill.
   *
   * @param text    the value of the option `name` as the user wrote it, or else its value's text
   * @param isGiven whether the user gave option `name` (a message says when a default applies)
   * @throws IllegalArgumentException naming the option, the value and what is allowed
   */
  def validate(values: StringValues, text: (String, Any) => String, isGiven: String => Boolean): Unit = {
    import values._
    LengthRange.check(MIN_LENGTH, minLength, text(MIN_LENGTH, minLength))
    LengthRange.check(MAX_LENGTH, maxLength, text(MAX_LENGTH, maxLength))
    if (minLength > maxLength) {
      def shown(name: String, value: Int) =
        s"'$name' is $value" + (if (isGiven(name)) "" else " (its default)")
      throw new IllegalArgumentException(
        s"Invalid lengths: ${shown(MIN_LENGTH, minLength)} and ${shown(MAX_LENGTH, maxLength)}. " +
          s"The option '$MIN_LENGTH' must be less than or equal to '$MAX_LENGTH'.")
    }
    distinctValues.foreach(n => DistinctValuesRange.check(DISTINCT_VALUES, n, text(DISTINCT_VALUES, n)))
    if (!Distributions.contains(valueDistribution)) {
      unknownDistribution(text(VALUE_DISTRIBUTION, valueDistribution))
    }
    ZipfExponentRange.check(ZIPF_EXPONENT, zipfExponent, text(ZIPF_EXPONENT, zipfExponent))
  }

  /**
   * The rule that a pool fits the strings its lengths and characters make: checked after the
   * row's own options, as it always was.
   */
  def validatePool(values: StringValues, text: (String, Any) => String): Unit = {
    import values._
    distinctValues.foreach { wanted =>
      val allowed = ValuePool.capacity(minLength, maxLength, characters.size)
      if (allowed < wanted) {
        throw new IllegalArgumentException(
          s"Invalid value '${text(DISTINCT_VALUES, wanted)}' for option '$DISTINCT_VALUES': the " +
            s"other options allow only $allowed distinct strings (lengths $minLength to " +
            s"$maxLength of ${characters.size} characters). Lower '$DISTINCT_VALUES', or " +
            s"allow more strings with a larger '$MAX_LENGTH' or more characters.")
      }
    }
  }

  /** Refuses `text`, given for `valueDistribution`, which names none of the distributions. */
  def unknownDistribution(text: String): Nothing =
    throw new IllegalArgumentException(
      s"Invalid value '$text' for option '$VALUE_DISTRIBUTION'. Allowed: " +
        s"${Distributions.mkString(" or ")} (case-insensitive).")
}
