package io.github.sparkrandomstrings.options

import scala.util.control.NonFatal

/**
 * The whole numbers an option allows, from `min` to `max` inclusive. [[parse]] reads an
 * option's text; [[check]] checks a value already made (a default, or one read from a
 * checkpoint), with the same message.
 */
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

  /** `value` of option `name`, if it is in range; `text` is how the message shows it. */
  def check(name: String, value: Long, text: String): Long = {
    if (value < min || value > max) outOfRange(name, text)
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

  /** What is allowed, as the messages say it. */
  def allowed: String = {
    val low = if (minIncluded) s">= ${shown(min)}" else s"> ${shown(min)}"
    val high = if (maxIncluded) s"<= ${shown(max)}" else s"< ${shown(max)}"
    s"a decimal number $low and $high"
  }

  /** The value of option `name` given as `text`, if it is a decimal number in range. */
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

  /** `value` of option `name`, if it is in range; `text` is how the message shows it. */
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
