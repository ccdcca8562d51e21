package io.github.sparkrandomstrings.typed.fields

import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.text.{CharacterSet, StringValues}
import io.github.sparkrandomstrings.typed.cells.{CellKind, PatternPlan}

/**
 * The properties of a STRING column: a `pattern`, or the stream's string options per column
 * (lengths, characters, a pool of distinct values and its distribution).
 */
private[sparkrandomstrings] object FieldStrings {
  import CellKind._
  import FieldProperties._

  def strings(p: Properties): CellKind = {
    val stringProperties =
      Seq(MIN_LENGTH, MAX_LENGTH, CHARSET, ALPHABET, DISTINCT_VALUES, VALUE_DISTRIBUTION, ZIPF_EXPONENT)
    p.get(PATTERN) match {
      case Some(g) =>
        p.only(Seq(PATTERN), ())
        Patterned(g.value, PatternPlan.parse(g.option, g.value))
      case None =>
        // pattern is allowed here too (it is not given): the message lists every property.
        p.only(stringProperties :+ PATTERN, ())
        def int(name: String, default: Int): Int =
          p.get(name).fold(default)(g => RandomStrings.LengthRange.parse(g.option, g.value).toInt)
        val characters = p.get(ALPHABET).map(g => CharacterSet.alphabet(g.option, g.value))
          .orElse(p.get(CHARSET).map(g => CharacterSet.named(g.option, g.value)))
          .getOrElse(StringValues.DefaultCharacters)
        if (p.get(ALPHABET).isDefined && p.get(CHARSET).isDefined) {
          throw new IllegalArgumentException(
            s"Options that do not fit together: '${p.option(ALPHABET)}' and '${p.option(CHARSET)}' both " +
              s"say which characters column '${p.shownPath}' draws. Keep one.")
        }
        val distribution = p.get(VALUE_DISTRIBUTION).map { g =>
          RandomStrings.Distributions.find(_.equalsIgnoreCase(g.value.trim)).getOrElse(
            throw new IllegalArgumentException(
              s"Invalid value '${g.value}' for option '${g.option}'. Allowed: " +
                s"${RandomStrings.Distributions.mkString(" or ")} (case-insensitive)."))
        }
        val distinct = p.get(DISTINCT_VALUES).map(g => RandomStrings.DistinctValuesRange.parse(g.option, g.value))
        if (distribution.isDefined && distinct.isEmpty) {
          throw new IllegalArgumentException(
            s"Options that do not fit together: '${p.option(VALUE_DISTRIBUTION)}' is set, but " +
              s"'${p.option(DISTINCT_VALUES)}' is not. A distribution picks among a pool of values: set it too.")
        }
        if (p.get(ZIPF_EXPONENT).isDefined && !distribution.contains(RandomStrings.ZipfDistribution)) {
          throw new IllegalArgumentException(
            s"Options that do not fit together: '${p.option(ZIPF_EXPONENT)}' is set, but " +
              s"'${p.option(VALUE_DISTRIBUTION)}' is not zipf. Set it to zipf, or remove '${p.option(ZIPF_EXPONENT)}'.")
        }
        val values = StringValues(
          int(MIN_LENGTH, RandomStrings.DefaultMinLength),
          int(MAX_LENGTH, RandomStrings.DefaultMaxLength),
          characters,
          distinct,
          distribution.getOrElse(RandomStrings.UniformDistribution),
          p.get(ZIPF_EXPONENT).fold(RandomStrings.DefaultZipfExponent)(g =>
            RandomStrings.ZipfExponentRange.parse(g.option, g.value)))
        val written: (String, Any) => String = (name, value) => p.get(name).fold(value.toString)(_.value)
        try {
          StringValues.validate(values, written, name => p.get(name).isDefined)
          StringValues.validatePool(values, written)
        } catch {
          case e: IllegalArgumentException =>
            throw new IllegalArgumentException(s"Column '${p.shownPath}': ${e.getMessage}", e)
        }
        Strings(values)
    }
  }
}
