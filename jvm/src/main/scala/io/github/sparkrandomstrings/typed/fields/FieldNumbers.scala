package io.github.sparkrandomstrings.typed.fields

import org.apache.spark.sql.types.FloatType

import io.github.sparkrandomstrings.options.{RandomStrings, Real, Whole}
import io.github.sparkrandomstrings.typed.cells.CellKind

/**
 * The properties of a number, date or time column: its range, its distribution (uniform, zipf,
 * normal, exponential, each spread given in the type's terms) and the `sequence` kind.
 */
private[sparkrandomstrings] object FieldNumbers {
  import CellKind._
  import FieldProperties._
  import FieldUnits._

  def wholes(p: Properties): CellKind = {
    val units = unitsOf(p.dataType)
    val (minDefault, maxDefault) = defaults(p.dataType, units)
    val min = p.get(MIN).fold(minDefault)(wholeValue(p, units, MIN, _))
    val max = p.get(MAX).fold(maxDefault)(wholeValue(p, units, MAX, _))
    p.inOrder(MIN, MAX, min, max)
    val distribution = numberDistribution(p, wholes = true, min.toDouble, max.toDouble, Some(units))
    distribution match {
      case Zipf(_) if BigInt(max) - BigInt(min) >= BigInt(Long.MaxValue) =>
        throw new IllegalArgumentException(
          s"Column '${p.shownPath}': a zipf distribution needs fewer than 2^63 values between " +
            s"'${p.option(MIN)}' and '${p.option(MAX)}'. Narrow the range.")
      case _ =>
    }
    Wholes(min, max, distribution)
  }

  def reals(p: Properties): CellKind = {
    val range = Real(-Double.MaxValue, minIncluded = true, Double.MaxValue, maxIncluded = true)
    val limit = if (p.dataType == FloatType) Float.MaxValue.toDouble else Double.MaxValue
    def read(g: Given): Double = {
      val v = range.parse(g.option, g.value)
      if (math.abs(v) > limit) {
        throw new IllegalArgumentException(
          s"Invalid value '${g.value}' for option '${g.option}': out of range of column '${p.shownPath}' " +
            s"(${typeName(p.dataType)}). Allowed: a decimal number from ${-limit} to $limit.")
      }
      v
    }
    val min = p.get(MIN).fold(0.0)(read)
    val max = p.get(MAX).fold(1.0)(read)
    p.inOrder(MIN, MAX, min, max)
    Reals(min, max, numberDistribution(p, wholes = false, min, max))
  }

  /**
   * The distribution of a number column of the range [min, max] (in `units`, if whole). A spread
   * (`stddev`, an exponential's `mean`) is given in the type's terms: days, seconds, a DECIMAL's
   * values; a normal's `mean` is a value of the column (a date, a time) or a number in those terms.
   */
  private def numberDistribution(
      p: Properties,
      wholes: Boolean,
      min: Double,
      max: Double,
      units: Option[Units] = None): Distribution = {
    val names =
      if (wholes) Seq(UniformDistribution, ZipfDistribution, NormalDistribution, ExponentialDistribution)
      else Seq(UniformDistribution, NormalDistribution, ExponentialDistribution)
    val chosen = p.get(DISTRIBUTION).fold(UniformDistribution) { g =>
      names.find(_.equalsIgnoreCase(g.value.trim)).getOrElse(
        throw new IllegalArgumentException(
          s"Invalid value '${g.value}' for option '${g.option}'. Allowed for column '${p.shownPath}' " +
            s"(${typeName(p.dataType)}): ${names.mkString(", ")} (case-insensitive)."))
    }
    val positive = Real(0.0, minIncluded = false, Double.MaxValue, maxIncluded = true)
    def real(name: String, range: Real, default: Double): Double =
      p.get(name).fold(default)(g => range.parse(g.option, g.value))
    val spread = units.fold(1.0)(_.spread)
    val spreadName = units.fold("the column's units")(_.spreadName)
    def spreadOf(name: String, default: Double): Double =
      p.get(name).fold(default)(g => positive.parse(g.option, g.value) * spread)
    def meanWithin(default: Double): Double = p.get(MEAN).fold(default) { g =>
      units.filter(_.meanIsValue) match {
        case Some(u) =>
          val mean = wholeValue(p, u, MEAN, g).toDouble
          if (mean < min || mean > max) {
            def bound(name: String) = p.get(name).fold(s"the default $name")(b => s"'${b.value}'")
            throw new IllegalArgumentException(
              s"Invalid value '${g.value}' for option '${g.option}': outside column '${p.shownPath}''s range " +
                s"[min, max]. Allowed: from ${bound(MIN)} to ${bound(MAX)}.")
          }
          mean
        case None =>
          Real(min / spread, minIncluded = true, max / spread, maxIncluded = true).parse(g.option, g.value) * spread
      }
    }
    chosen match {
      case UniformDistribution =>
        p.only(Seq(MIN, MAX, DISTRIBUTION), Uniform)
      case ZipfDistribution =>
        p.only(
          Seq(MIN, MAX, DISTRIBUTION, ZIPF_EXPONENT),
          Zipf(real(ZIPF_EXPONENT, RandomStrings.ZipfExponentRange, 1.0)))
      case NormalDistribution =>
        val mean = meanWithin(min / 2 + max / 2)
        val stddev = spreadOf(STDDEV, math.max((max / 6 - min / 6), Double.MinPositiveValue))
        val normal = p.only(Seq(MIN, MAX, DISTRIBUTION, MEAN, STDDEV), Normal(mean, stddev))
        val widest = (max - min + (if (wholes) 1.0 else 0.0)) * NormalSpread
        p.get(STDDEV).filter(_ => stddev > widest).foreach { g =>
          throw new IllegalArgumentException(
            s"Invalid value '${g.value}' for option '${g.option}': a normal distribution that wide " +
              s"would rarely fall within column '${p.shownPath}''s range [min, max], and a value is drawn " +
              s"again until it does. Allowed: a stddev of at most ${widest / spread} (${NormalSpread.toInt} times " +
              s"max - min${if (wholes) " + 1" else ""}, in $spreadName).")
        }
        normal
      case _ =>
        val mean = spreadOf(MEAN, math.max((max / 10 - min / 10), Double.MinPositiveValue))
        p.only(Seq(MIN, MAX, DISTRIBUTION, MEAN), Exponential(mean))
    }
  }

  def sequence(p: Properties): CellKind = {
    val units = unitsOf(p.dataType)
    val start = p.get(START).fold(0L)(wholeValue(p, units, START, _))
    val step = p.get(STEP).fold(1L) { g =>
      val s = Whole(Long.MinValue).parse(g.option, g.value)
      if (s == 0L) {
        throw new IllegalArgumentException(
          s"Invalid value '${g.value}' for option '${g.option}': a sequence's step cannot be 0. Allowed: " +
            "a whole number other than 0.")
      }
      s
    }
    val last = p.get(END).fold(if (step > 0) units.high else units.low)(wholeValue(p, units, END, _))
    if ((step > 0 && last < start) || (step < 0 && last > start)) {
      throw new IllegalArgumentException(
        s"Invalid sequence for column '${p.shownPath}': it starts at $start and steps by $step, so it " +
          s"never reaches '${p.option(END)}' = $last. Give an end the steps reach, or a step of the other sign.")
    }
    val count = (BigInt(last) - BigInt(start)) / BigInt(step) + 1
    p.only(Seq(START, STEP, END), Sequence(start, step, if (count > Long.MaxValue) Long.MaxValue else count.toLong))
  }
}
