package io.github.sparkrandomstrings.typed.fields

import java.math.{BigDecimal => JBigDecimal}
import java.time.{LocalDate, LocalDateTime}
import java.time.format.DateTimeParseException
import java.time.temporal.ChronoUnit

import scala.util.control.NonFatal

import org.apache.spark.sql.types._

/**
 * The whole units of a declared column's type: TINYINT to BIGINT, DECIMAL (in units of
 * 10^-scale), DATE (days) and TIMESTAMP/TIMESTAMP_NTZ (microseconds), each with its bounds, its
 * default range and how a bound's text reads as one.
 */
private[sparkrandomstrings] object FieldUnits {
  import FieldProperties._

  /**
   * The smallest and largest whole unit of a type, how a bound's text reads as one, and what the
   * messages say is allowed; and how a distribution's spread (`stddev`, an exponential's `mean`)
   * is given: in `spreadName`, `spread` units each. A normal's `mean` is a value of the column
   * where `meanIsValue` (a date, a time), else a number in `spreadName`.
   */
  final case class Units(
      low: Long,
      high: Long,
      read: String => Option[Long],
      allowed: String,
      spread: Double = 1.0,
      spreadName: String = "the column's units",
      meanIsValue: Boolean = false)

  def unitsOf(t: DataType): Units = t match {
    case ByteType => integral(Byte.MinValue, Byte.MaxValue)
    case ShortType => integral(Short.MinValue, Short.MaxValue)
    case IntegerType => integral(Int.MinValue, Int.MaxValue)
    case LongType => integral(Long.MinValue, Long.MaxValue)
    case d: DecimalType =>
      val digits = math.min(d.precision, 18)
      val high = BigInt(10).pow(digits).toLong - 1L
      Units(
        -high,
        high,
        text =>
          try {
            val value = new JBigDecimal(text.trim)
            if (value.scale() > d.scale && value.stripTrailingZeros().scale() > d.scale) None
            else {
              val unscaled = value.setScale(d.scale).unscaledValue()
              if (unscaled.bitLength() > 63 || unscaled.abs().compareTo(java.math.BigInteger.valueOf(high)) > 0) None
              else Some(unscaled.longValue())
            }
          } catch { case NonFatal(_) => None },
        s"a decimal number with at most ${d.scale} digits after the point and ${digits - d.scale} before it" +
          (if (d.precision > 18) " (bounds of up to 18 digits in all)" else ""),
        spread = math.pow(10, d.scale),
        spreadName = "the column's values")
    case DateType =>
      Units(
        LocalDate.of(1, 1, 1).toEpochDay,
        LocalDate.of(9999, 12, 31).toEpochDay,
        text =>
          try Some(LocalDate.parse(text.trim).toEpochDay)
          catch { case _: DateTimeParseException => None },
        "a date yyyy-MM-dd, from 0001-01-01 to 9999-12-31",
        spreadName = "days",
        meanIsValue = true)
    case TimestampType | TimestampNTZType =>
      val zone = if (t == TimestampType) " (UTC)" else ""
      Units(
        micros(LocalDateTime.of(1, 1, 1, 0, 0)),
        micros(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999999000)),
        text => timestampMicros(text),
        s"a time yyyy-MM-dd[ HH:mm:ss[.ffffff]]$zone, from 0001-01-01 to 9999-12-31",
        spread = 1e6,
        spreadName = "seconds",
        meanIsValue = true)
    case other => throw new IllegalStateException(s"no whole units for $other")
  }

  private def integral(low: Long, high: Long): Units =
    Units(
      low,
      high,
      text =>
        try {
          val v = BigInt(text.trim)
          if (v < low || v > high) None else Some(v.toLong)
        } catch { case NonFatal(_) => None },
      s"a whole number from $low to $high")

  private def micros(t: LocalDateTime): Long = ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0), t)

  /** Microseconds since 1970-01-01 00:00 of `text`, `yyyy-MM-dd[( |T)HH:mm:ss[.f...]]`. */
  private def timestampMicros(text: String): Option[Long] = {
    val t = text.trim.replace(' ', 'T')
    try {
      val time = if (t.length == 10) LocalDate.parse(t).atStartOfDay() else LocalDateTime.parse(t)
      if (time.getYear < 1 || time.getYear > 9999 || time.getNano % 1000 != 0) None else Some(micros(time))
    } catch { case _: DateTimeParseException => None }
  }

  def defaults(t: DataType, units: Units): (Long, Long) = t match {
    case DateType => (units.read(DefaultMinDate).get, units.read(DefaultMaxDate).get)
    case TimestampType | TimestampNTZType => (units.read(DefaultMinTimestamp).get, units.read(DefaultMaxTimestamp).get)
    case _: DecimalType => (0L, units.high)
    case _ => (units.low, units.high)
  }

  def wholeValue(p: Properties, units: Units, name: String, g: Given): Long =
    units.read(g.value).getOrElse(
      throw new IllegalArgumentException(
        s"Invalid value '${g.value}' for option '${g.option}': not a value of column '${p.shownPath}' " +
          s"(${typeName(p.dataType)}). Allowed: ${units.allowed}."))
}
