package io.github.sparkrandomstrings.typed.fields

import java.util.Locale

import org.apache.spark.sql.types.DataType

import io.github.sparkrandomstrings.options.{OptionTable, RandomStrings, Real, Suggestions, Whole}

/**
 * The `fields.<column>.<property>` options' names, kinds, distributions and defaults, and the
 * properties given to one declared column ([[FieldProperties.Properties]]): looked up
 * case-insensitively and checked against the ones its type and kind allow, with a message that
 * names the option, the value and what is allowed.
 */
private[sparkrandomstrings] object FieldProperties {
  val KIND = "kind"
  val NULL_RATE = "nullRate"
  val MIN = "min"
  val MAX = "max"
  val DISTRIBUTION = "distribution"
  val ZIPF_EXPONENT = "zipfExponent"
  val MEAN = "mean"
  val STDDEV = "stddev"
  val START = "start"
  val STEP = "step"
  val END = "end"
  val VALUES = "values"
  val WEIGHTS = "weights"
  val PATTERN = "pattern"
  val MIN_SIZE = "minSize"
  val MAX_SIZE = "maxSize"
  val MIN_LENGTH: String = RandomStrings.MIN_LENGTH
  val MAX_LENGTH: String = RandomStrings.MAX_LENGTH
  val CHARSET: String = RandomStrings.CHARSET
  val ALPHABET: String = RandomStrings.ALPHABET
  val DISTINCT_VALUES: String = RandomStrings.DISTINCT_VALUES
  val VALUE_DISTRIBUTION: String = RandomStrings.VALUE_DISTRIBUTION

  /** The properties' rows of the table of options ([[OptionTable]], which the Python engine reads too). */
  val Table: OptionTable.Fields = OptionTable.fields
  private val properties = Table.properties

  /** The path part that names an ARRAY's elements. */
  val Element: String = Table.element

  val Kinds: Seq[String] = properties(KIND).values
  val RandomKind: String = Kinds(0)
  val SequenceKind: String = Kinds(1)
  val OffsetKind: String = Kinds(2)
  val EventTimeKind: String = Kinds(3)
  val ValuesKind: String = Kinds(4)

  val Distributions: Seq[String] = properties(DISTRIBUTION).values
  val UniformDistribution: String = Distributions(0)
  val ZipfDistribution: String = Distributions(1)
  val NormalDistribution: String = Distributions(2)
  val ExponentialDistribution: String = Distributions(3)

  /**
   * A normal's `stddev` may be at most this many times its range's width (in whole units, the
   * width plus one): a value is drawn again until it falls within [min, max], at least once in
   * 250 tries on average then; a wider one would take millions of tries, or never end.
   */
  val NormalSpread: Double = Table.normalSpread

  /** The default sizes of an ARRAY, and the most elements one may hold. */
  val DefaultMinSize: Int = properties(MIN_SIZE).defaultInt
  val DefaultMaxSize: Int = properties(MAX_SIZE).defaultInt
  val MaxSize: Int = Math.toIntExact(properties(MAX_SIZE).whole.max)

  /** The default lengths of BINARY values, in bytes. */
  val DefaultMinBytes: Int = Table.default("binaryMinLength").asInt
  val DefaultMaxBytes: Int = Table.default("binaryMaxLength").asInt

  /** The default range of DATE values, and of TIMESTAMP and TIMESTAMP_NTZ ones. */
  val DefaultMinDate: String = Table.default("minDate").asText
  val DefaultMaxDate: String = Table.default("maxDate").asText
  val DefaultMinTimestamp: String = Table.default("minTimestamp").asText
  val DefaultMaxTimestamp: String = Table.default("maxTimestamp").asText

  /** The share of a column's cells that are null. */
  val NullRateRange: Real = properties(NULL_RATE).real

  /** The declared column's type, as messages name it. */
  def typeName(t: DataType): String = t.sql

  /** A property as the user wrote it: the option's name and its value. */
  final case class Given(option: String, value: String)

  /** The entry of `known` nearest to `name`, case-insensitive, if near enough to be a typo. */
  def closest(name: String, known: Seq[String]): Option[String] = Suggestions.closest(name, known)

  /** The properties given to one column, checked against the ones its type and kind allow. */
  final class Properties(path: Seq[String], val dataType: DataType, properties: Map[String, Given]) {
    private val common = Seq(KIND, NULL_RATE)
    val shownPath: String = FieldOptions.shown(path)

    def get(name: String): Option[Given] = properties.get(name.toLowerCase(Locale.ROOT))

    /** `made`, if every property given is one of `allowed` or common; else refuses the first other. */
    def only[T](allowed: Seq[String], made: T): T = {
      val all = common ++ allowed
      properties.toSeq.sortBy(_._2.option).find { case (key, _) =>
        !all.exists(_.toLowerCase(Locale.ROOT) == key)
      }.foreach { case (_, g) =>
        val property = FieldOptions.split(g.option)._2
        val hint = closest(property, all).map(c => s" Did you mean '$c'?").getOrElse("")
        throw new IllegalArgumentException(
          s"Unknown or misplaced property '$property' in option '${g.option}': column '$shownPath' " +
            s"(${typeName(dataType)}, kind ${get(KIND).fold(impliedKind)(_.value.trim)}) takes " +
            s"${all.mkString(", ")}.$hint")
      }
      made
    }

    /** The kind of a column whose `kind` is not given: `values` if its `values` are, else `random`. */
    def impliedKind: String = if (get(VALUES).isDefined) ValuesKind else RandomKind

    def kindOnly(kind: String, types: String): Nothing = get(KIND) match {
      case Some(g) =>
        throw new IllegalArgumentException(
          s"Invalid value '${g.value}' for option '${g.option}': column '$shownPath' " +
            s"is ${typeName(dataType)}, and kind $kind makes $types.")
      case None =>
        val values = get(VALUES).get
        throw new IllegalArgumentException(
          s"Invalid option '${values.option}': column '$shownPath' is ${typeName(dataType)}, and values " +
            s"(kind $kind) make $types.")
    }

    /** The whole numbers `min` and `max` of `range` (defaults given), refused if min > max. */
    def range(minName: String, maxName: String, range: Whole, minDefault: Long, maxDefault: Long): (Long, Long) = {
      val min = get(minName).fold(minDefault)(g => range.parse(g.option, g.value))
      val max = get(maxName).fold(maxDefault)(g => range.parse(g.option, g.value))
      inOrder(minName, maxName, min, max)
      (min, max)
    }

    def inOrder[N](minName: String, maxName: String, min: N, max: N)(implicit order: Ordering[N]): Unit =
      if (order.gt(min, max)) {
        def shown(name: String, value: N) =
          get(name).fold(s"'fields.$shownPath.$name' is $value (its default)")(g => s"'${g.option}' is ${g.value}")
        throw new IllegalArgumentException(
          s"Invalid range for column '$shownPath': ${shown(minName, min)} and ${shown(maxName, max)}. " +
            s"'$minName' must be less than or equal to '$maxName'.")
      }

    def option(name: String): String = get(name).fold(s"fields.$shownPath.$name")(_.option)
  }
}
