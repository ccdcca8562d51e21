package io.github.sparkrandomstrings

import java.math.{BigDecimal => JBigDecimal}
import java.time.{LocalDate, LocalDateTime}
import java.time.format.DateTimeParseException
import java.time.temporal.ChronoUnit
import java.util.Locale

import scala.util.control.NonFatal

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import org.apache.commons.text.similarity.LevenshteinDistance
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

/**
 * A declared schema and its `fields.<column>.<property>` options, read into the [[CellSpec]] of
 * each column: every property checked against the column's type and kind, with a message that
 * names the option, the value and what is allowed. This is where the properties, their defaults
 * and their rules are written, once; the provider's Scaladoc and `docs/typed-columns.md` list them.
 */
object TypedColumns {
  import CellKind._

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

  /** The path part that names an ARRAY's elements. */
  val Element = "element"

  val RandomKind = "random"
  val SequenceKind = "sequence"
  val OffsetKind = "offset"
  val EventTimeKind = "eventTime"
  val ValuesKind = "values"
  val Kinds: Seq[String] = Seq(RandomKind, SequenceKind, OffsetKind, EventTimeKind, ValuesKind)

  val UniformDistribution = "uniform"
  val ZipfDistribution = "zipf"
  val NormalDistribution = "normal"
  val ExponentialDistribution = "exponential"

  /**
   * A normal's `stddev` may be at most this many times its range's width (in whole units, the
   * width plus one): a value is drawn again until it falls within [min, max], at least once in
   * 250 tries on average then; a wider one would take millions of tries, or never end.
   */
  val NormalSpread = 100.0

  /** The default sizes of an ARRAY, and the most elements one may hold. */
  val DefaultMinSize = 0
  val DefaultMaxSize = 4
  val MaxSize: Int = 1 << 16

  /** The default lengths of BINARY values, in bytes. */
  val DefaultMinBytes = 0
  val DefaultMaxBytes = 16

  /** The default range of DATE values, and of TIMESTAMP and TIMESTAMP_NTZ ones. */
  val DefaultMinDate = "2000-01-01"
  val DefaultMaxDate = "2030-12-31"
  val DefaultMinTimestamp = "2000-01-01 00:00:00"
  val DefaultMaxTimestamp = "2030-12-31 23:59:59.999999"

  private val NullRateRange = Real(0.0, minIncluded = true, 1.0, maxIncluded = true)
  private val Mapper = new ObjectMapper()

  /** The declared column's type, as messages name it. */
  private def typeName(t: DataType): String = t.sql

  /**
   * The cells of `schema`'s columns, in order, as the per-column `options` say.
   *
   * @param schema  the schema the user declared
   * @param options each `fields.` option, its name as the user wrote it, and its value
   * @throws IllegalArgumentException naming the column, the option, the value and what is allowed
   */
  def parse(schema: StructType, options: Seq[(String, String)]): IndexedSeq[CellSpec] = {
    if (schema.isEmpty) {
      throw new IllegalArgumentException(
        s"The ${RandomStrings.ShortName} source was given a schema with no column. Declare at " +
          "least one, e.g. .schema(\"id BIGINT, name STRING\").")
    }
    checkNames(schema, Nil)
    schema.fields.foreach(f => checkType(Seq(f.name), f.dataType))
    val byPath = group(schema, options)
    schema.fields.toIndexedSeq.map(f => spec(Seq(f.name), f.dataType, f.nullable, byPath))
  }

  private def checkNames(struct: StructType, parent: Seq[String]): Unit = {
    val lower = struct.fields.map(_.name.toLowerCase(Locale.ROOT))
    // The first column, in the schema's order, that another one names again.
    struct.fields.zip(lower).find { case (_, l) => lower.count(_ == l) > 1 }.map(f => Seq(f._1)).foreach { twins =>
      throw new IllegalArgumentException(
        s"The declared schema has two columns named '${FieldOptions.shown(parent :+ twins.head.name)}' " +
          "(names are case-insensitive). Give each column its own name.")
    }
  }

  /** Refuses a type no generator makes, naming the column. */
  private def checkType(path: Seq[String], t: DataType): Unit = t match {
    case BooleanType | ByteType | ShortType | IntegerType | LongType | FloatType | DoubleType | StringType |
        BinaryType | DateType | TimestampType | TimestampNTZType =>
    case _: DecimalType =>
    case ArrayType(element, _) => checkType(path :+ Element, element)
    case s: StructType =>
      if (s.isEmpty) {
        throw new IllegalArgumentException(
          s"Column '${FieldOptions.shown(path)}' is a STRUCT with no field. Declare at least one field.")
      }
      checkNames(s, path)
      s.fields.foreach(f => checkType(path :+ f.name, f.dataType))
    case other =>
      throw new IllegalArgumentException(
        s"Column '${FieldOptions.shown(path)}' has type ${typeName(other)}, which this source cannot " +
          "generate. Allowed: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p,s), " +
          "STRING, BINARY, DATE, TIMESTAMP, TIMESTAMP_NTZ, and ARRAY and STRUCT of them.")
  }

  /** A property as the user wrote it: the option's name and its value. */
  private final case class Given(option: String, value: String)

  /**
   * The options grouped by the column path they name, each path as the schema spells it; a
   * path that names no column, or a property given twice, is refused.
   */
  private def group(schema: StructType, options: Seq[(String, String)]): Map[Seq[String], Map[String, Given]] = {
    val resolved = options.map { case (name, value) =>
      val (path, property) = FieldOptions.split(name)
      (resolve(schema, path, name), property, Given(name, value))
    }
    // In the order of the options' names, so that of several faults the first is always refused.
    val seen = scala.collection.mutable.LinkedHashMap.empty[(Seq[String], String), Given]
    resolved.sortBy(_._3.option).foreach { case (path, property, given) =>
      val key = (path, property.toLowerCase(Locale.ROOT))
      seen.get(key).foreach { first =>
        throw new IllegalArgumentException(
          s"Options '${first.option}' and '${given.option}' set the same property of column " +
            s"'${FieldOptions.shown(path)}'. Keep one.")
      }
      seen(key) = given
    }
    seen.toSeq.groupBy(_._1._1).map { case (path, entries) =>
      path -> entries.map { case ((_, property), given) => property -> given }.toMap
    }
  }

  /** `path` as the schema spells it (names match case-insensitively). */
  private def resolve(schema: StructType, path: Seq[String], option: String): Seq[String] = {
    var current: DataType = schema
    path.zipWithIndex.map { case (part, i) =>
      val next = current match {
        case s: StructType =>
          s.fields.find(_.name.equalsIgnoreCase(part)).map(f => (f.name, f.dataType))
        case ArrayType(element, _) if part.equalsIgnoreCase(Element) => Some((Element, element))
        case _ => None
      }
      next match {
        case Some((name, t)) =>
          current = t
          name
        case None =>
          val prefix = path.take(i)
          val known = pathsOf(schema, Nil).map(FieldOptions.shown)
          val wanted = FieldOptions.shown(prefix :+ part)
          val hint = closest(wanted, known).map(c => s" Did you mean '$c'?").getOrElse("")
          val where =
            if (prefix.isEmpty) "the declared schema has no such column"
            else s"'${FieldOptions.shown(prefix)}' (${typeName(current)}) has no part '$part'"
          throw new IllegalArgumentException(
            s"Unknown column '$wanted' in option '$option': $where.$hint Columns: ${known.mkString(", ")}.")
      }
    }
  }

  /** Every path a `fields.` option may name, in the schema's order. */
  private def pathsOf(t: DataType, prefix: Seq[String]): Seq[Seq[String]] = t match {
    case s: StructType => s.fields.toSeq.flatMap(f => (prefix :+ f.name) +: pathsOf(f.dataType, prefix :+ f.name))
    case ArrayType(element, _) => (prefix :+ Element) +: pathsOf(element, prefix :+ Element)
    case _ => Nil
  }

  private def closest(name: String, known: Seq[String]): Option[String] =
    if (known.isEmpty) None
    else {
      val lower = name.toLowerCase(Locale.ROOT)
      val distance = LevenshteinDistance.getDefaultInstance
      val (best, edits) = known.map(k => k -> distance.apply(lower, k.toLowerCase(Locale.ROOT)).intValue).minBy(_._2)
      if (edits <= math.max(2, best.length / 3)) Some(best) else None
    }

  /** The cell spec of the column at `path`, with the properties `byPath` gives it; `inArray`: under an ARRAY's elements. */
  private def spec(
      path: Seq[String],
      t: DataType,
      nullable: Boolean,
      byPath: Map[Seq[String], Map[String, Given]],
      inArray: Boolean = false): CellSpec = {
    val properties = new Properties(path, t, byPath.getOrElse(path, Map.empty))
    val nullRate = properties.get(NULL_RATE).fold(0.0) { g =>
      if (!nullable) {
        throw new IllegalArgumentException(
          s"Option '${g.option}' sets nulls on column '${FieldOptions.shown(path)}', which is NOT NULL. " +
            s"Declare the column nullable (remove NOT NULL), or remove '${g.option}'.")
      }
      NullRateRange.parse(g.option, g.value)
    }
    val kindText = properties.get(KIND).map(g => g -> g.value.trim)
    val kind = kindText.fold(properties.impliedKind) { case (g, text) =>
      Kinds.find(_.equalsIgnoreCase(text)).getOrElse(
        throw new IllegalArgumentException(
          s"Invalid value '${g.value}' for option '${g.option}'. Allowed: ${Kinds.mkString(", ")} " +
            "(case-insensitive)."))
    }
    val made = (kind, t) match {
      case (OffsetKind, LongType) => properties.only(Nil, RowOffset)
      case (OffsetKind, _) => properties.kindOnly(OffsetKind, "BIGINT")
      case (EventTimeKind, TimestampType | TimestampNTZType) => properties.only(Nil, EventTime(micros = true))
      case (EventTimeKind, LongType) => properties.only(Nil, EventTime(micros = false))
      case (EventTimeKind, _) => properties.kindOnly(EventTimeKind, "TIMESTAMP, TIMESTAMP_NTZ or BIGINT (epoch ms)")
      case (SequenceKind, _) if inArray =>
        val g = properties.get(KIND).get
        throw new IllegalArgumentException(
          s"Invalid value '${g.value}' for option '${g.option}': a sequence counts rows, and column " +
            s"'${properties.shownPath}' is inside an ARRAY, whose elements are no rows. Use kind sequence " +
            "on a column of the row, or another kind here.")
      case (SequenceKind, ByteType | ShortType | IntegerType | LongType) => sequence(properties)
      case (SequenceKind, _) => properties.kindOnly(SequenceKind, "TINYINT, SMALLINT, INT or BIGINT")
      case (ValuesKind, _: ArrayType | _: StructType) =>
        properties.kindOnly(ValuesKind, "a type other than ARRAY and STRUCT")
      case (ValuesKind, _) => values(properties)
      case (_, ArrayType(element, containsNull)) =>
        properties.only(Seq(MIN_SIZE, MAX_SIZE), ())
        val (minSize, maxSize) = properties.range(MIN_SIZE, MAX_SIZE, Whole(0, MaxSize), DefaultMinSize, DefaultMaxSize)
        Arrays(minSize.toInt, maxSize.toInt, spec(path :+ Element, element, containsNull, byPath, inArray = true))
      case (_, s: StructType) =>
        properties.only(Nil, ())
        Structs(s.fields.toIndexedSeq.map(f => spec(path :+ f.name, f.dataType, f.nullable, byPath, inArray)))
      case (_, BooleanType) => properties.only(Nil, Booleans)
      case (_, StringType) => strings(properties)
      case (_, BinaryType) =>
        properties.only(Seq(MIN_LENGTH, MAX_LENGTH), ())
        val (min, max) = properties.range(MIN_LENGTH, MAX_LENGTH, Whole(0, MaxSize), DefaultMinBytes, DefaultMaxBytes)
        Bytes(min.toInt, max.toInt)
      case (_, FloatType | DoubleType) => reals(properties)
      case _ => wholes(properties)
    }
    CellSpec(path, t, nullable, nullRate, made)
  }

  /** The properties given to one column, checked against the ones its type and kind allow. */
  private final class Properties(path: Seq[String], val dataType: DataType, properties: Map[String, Given]) {
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

  // Whole numbers: TINYINT to BIGINT, DECIMAL (in units of 10^-scale), DATE (days), TIMESTAMP (µs).

  /** The smallest and largest whole unit of a type, and how a bound's text reads as one. */
  /**
   * The smallest and largest whole unit of a type, how a bound's text reads as one, and what the
   * messages say is allowed; and how a distribution's spread (`stddev`, an exponential's `mean`)
   * is given: in `spreadName`, `spread` units each. A normal's `mean` is a value of the column
   * where `meanIsValue` (a date, a time), else a number in `spreadName`.
   */
  private final case class Units(
      low: Long,
      high: Long,
      read: String => Option[Long],
      allowed: String,
      spread: Double = 1.0,
      spreadName: String = "the column's units",
      meanIsValue: Boolean = false)

  private def unitsOf(t: DataType): Units = t match {
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

  private def defaults(t: DataType, units: Units): (Long, Long) = t match {
    case DateType => (units.read(DefaultMinDate).get, units.read(DefaultMaxDate).get)
    case TimestampType | TimestampNTZType => (units.read(DefaultMinTimestamp).get, units.read(DefaultMaxTimestamp).get)
    case _: DecimalType => (0L, units.high)
    case _ => (units.low, units.high)
  }

  private def wholeValue(p: Properties, units: Units, name: String, g: Given): Long =
    units.read(g.value).getOrElse(
      throw new IllegalArgumentException(
        s"Invalid value '${g.value}' for option '${g.option}': not a value of column '${p.shownPath}' " +
          s"(${typeName(p.dataType)}). Allowed: ${units.allowed}."))

  private def wholes(p: Properties): CellKind = {
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

  private def reals(p: Properties): CellKind = {
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

  private def sequence(p: Properties): CellKind = {
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

  private def values(p: Properties): CellKind = {
    val listed = p.get(VALUES).getOrElse(
      throw new IllegalArgumentException(
        s"Column '${p.shownPath}' has kind values, but '${p.option(VALUES)}' is not set. Give the values " +
          """as a JSON array, e.g. '["new", "paid"]'."""))
    val nodes = jsonArray(listed)
    if (nodes.isEmpty) {
      throw new IllegalArgumentException(
        s"Invalid value '${listed.value}' for option '${listed.option}': the list is empty. Allowed: a " +
          "JSON array of at least one value.")
    }
    val parsed = nodes.zipWithIndex.map { case (node, i) => valueOf(p, listed, node, i) }
    val weights = p.get(WEIGHTS).map { g =>
      val ws = jsonArray(g).zipWithIndex.map { case (node, i) =>
        if (!node.isNumber || !(node.asDouble() >= 0.0) || node.asDouble().isInfinite) {
          throw new IllegalArgumentException(
            s"Invalid value '${g.value}' for option '${g.option}': its element $i ($node) is not a " +
              "number >= 0. Allowed: a JSON array of numbers >= 0, one for each value.")
        }
        node.asDouble()
      }
      if (ws.length != nodes.length) {
        throw new IllegalArgumentException(
          s"Invalid value '${g.value}' for option '${g.option}': ${ws.length} weights for " +
            s"${nodes.length} values in '${listed.option}'. Give one weight for each value.")
      }
      if (!(ws.sum > 0.0)) {
        throw new IllegalArgumentException(
          s"Invalid value '${g.value}' for option '${g.option}': the weights add up to 0. Give at " +
            "least one value a weight above 0.")
      }
      ws
    }
    val zipf = p.get(DISTRIBUTION).map { g =>
      if (!g.value.trim.equalsIgnoreCase(ZipfDistribution) && !g.value.trim.equalsIgnoreCase(UniformDistribution)) {
        throw new IllegalArgumentException(
          s"Invalid value '${g.value}' for option '${g.option}'. Allowed for kind values: uniform or zipf " +
            "(case-insensitive).")
      }
      g.value.trim.equalsIgnoreCase(ZipfDistribution)
    }.getOrElse(false)
    if (zipf && weights.isDefined) {
      throw new IllegalArgumentException(
        s"Options that do not fit together: '${p.option(WEIGHTS)}' and '${p.option(DISTRIBUTION)}' = zipf " +
          s"both say how column '${p.shownPath}' picks its values. Keep one.")
    }
    val pick =
      if (zipf) PickZipf(p.get(ZIPF_EXPONENT).fold(1.0)(g => RandomStrings.ZipfExponentRange.parse(g.option, g.value)))
      else {
        if (p.get(ZIPF_EXPONENT).isDefined) {
          throw new IllegalArgumentException(
            s"Options that do not fit together: '${p.option(ZIPF_EXPONENT)}' is set, but " +
              s"'${p.option(DISTRIBUTION)}' is not zipf. Set it to zipf, or remove '${p.option(ZIPF_EXPONENT)}'.")
        }
        weights.fold[Pick](PickUniform)(ws => PickWeighted(ws, ws.scanLeft(0.0)(_ + _).tail))
      }
    p.only(Seq(VALUES, WEIGHTS, DISTRIBUTION, ZIPF_EXPONENT), Values(parsed.map(_._1), parsed.map(_._2), pick))
  }

  private def jsonArray(g: Given): IndexedSeq[JsonNode] = {
    val node =
      try Mapper.readTree(g.value)
      catch { case NonFatal(_) => null }
    if (node == null || !node.isArray) {
      throw new IllegalArgumentException(
        s"Invalid value '${g.value}' for option '${g.option}': not a JSON array. Allowed: a JSON array, " +
          """e.g. '["a", "b"]' or '[1, 2]'.""")
    }
    (0 until node.size()).map(node.get)
  }

  /** Element `i` of a `values` list as the column's Catalyst value, and its canonical text. */
  private def valueOf(p: Properties, g: Given, node: JsonNode, i: Int): (Any, String) = {
    def refuse(allowed: String): Nothing =
      throw new IllegalArgumentException(
        s"Invalid value '${g.value}' for option '${g.option}': its element $i ($node) is not a value of " +
          s"column '${p.shownPath}' (${typeName(p.dataType)}). Allowed: $allowed.")
    p.dataType match {
      case BooleanType => if (node.isBoolean) (node.asBoolean(), node.toString) else refuse("true or false")
      case StringType =>
        if (node.isTextual) (UTF8String.fromString(node.asText()), node.toString) else refuse("JSON strings")
      case BinaryType =>
        if (node.isTextual) {
          try { (java.util.Base64.getDecoder.decode(node.asText()), node.toString) }
          catch { case _: IllegalArgumentException => refuse("base64 strings") }
        } else refuse("base64 strings")
      case FloatType | DoubleType =>
        if (!node.isNumber) refuse("JSON numbers")
        else if (p.dataType == FloatType) (node.asDouble().toFloat, node.asDouble().toFloat.toString)
        else (node.asDouble(), node.asDouble().toString)
      case t =>
        val units = unitsOf(t)
        val text = if (node.isTextual) node.asText() else if (node.isNumber) node.asText() else refuse(units.allowed)
        val value = units.read(text).getOrElse(refuse(units.allowed))
        val catalyst: Any = t match {
          case ByteType => value.toByte
          case ShortType => value.toShort
          case IntegerType | DateType => value.toInt
          case _ => value
        }
        (catalyst, text)
    }
  }

  private def strings(p: Properties): CellKind = {
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
          .getOrElse(SourceOptions.DefaultCharacters)
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
