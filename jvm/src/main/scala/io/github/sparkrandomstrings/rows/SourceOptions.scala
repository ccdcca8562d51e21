package io.github.sparkrandomstrings.rows

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.util.CaseInsensitiveMap
import org.apache.spark.sql.types.StructType

import io.github.sparkrandomstrings.options.{RandomStrings, Real, Suggestions, Whole}

import io.github.sparkrandomstrings.text.{CharacterSet, StringValues}
import io.github.sparkrandomstrings.time.{RateProfile, StreamClock}
import io.github.sparkrandomstrings.typed.DeclaredSchema
import io.github.sparkrandomstrings.typed.fields.FieldOptions

/**
 * The options of the `InMemoryRandomStrings` source, parsed and validated once.
 *
 * Every value here has passed validation. The parsing lives in the companion object: the text
 * of each option, and the rules about which options were given; the rules about the values
 * themselves are [[rows.StreamDefinition.validate]]'s, which a stored definition passes too. The
 * option names, their defaults and their limits are [[options.RandomStrings]]'.
 *
 * @param rowsPerSecond      how many rows become available per second of wall-clock time
 * @param strings            what the strings are drawn from: lengths, characters, pool and distribution
 * @param seed               the seed the user gave, if any (otherwise the checkpoint's is used)
 * @param numPartitions      partitions per batch, if given (otherwise the default parallelism)
 * @param maxRowsPerTrigger  the most rows one micro-batch may read, if capped
 * @param totalRows          the number of rows after which the stream ends, if bounded
 * @param shape              disorder and repeats of the rows
 * @param timestampColumn    whether rows carry a last column `timestamp`, `ts` as a TIMESTAMP
 * @param startTimestamp     the event time of offset 0, if given (otherwise the first start's)
 * @param rateProfile        the phases the rate follows, if given (then `rowsPerSecond` is unused)
 * @param realTime           whether `load()` reads the stream through Spark's DSv2 interfaces,
 *                           which real-time mode needs (Spark 4.1+), rather than the V1 `Source`
 * @param declared           the schema the user declared and its `fields.` options, if any
 * @param clock              where the stream reads the time: the system clock, or in tests the
 *                           [[time.ManualClock]] that the internal option `_manualClock` names
 */
final case class SourceOptions(
    rowsPerSecond: Long,
    strings: StringValues,
    seed: Option[Long],
    numPartitions: Option[Int],
    maxRowsPerTrigger: Option[Long],
    totalRows: Option[Long],
    shape: RowShape = RowShape.Plain,
    timestampColumn: Boolean = false,
    startTimestamp: Option[Long] = None,
    rateProfile: Option[RateProfile] = None,
    realTime: Boolean = false,
    clock: StreamClock = StreamClock.System,
    declared: Option[DeclaredSchema] = None) {

  /** The schema of the rows these options describe, from the columns their definition has. */
  def schema: StructType =
    Columns.schemaOf(declared.fold(Columns.of(strings, timestampColumn))(d => Columns.declared(d)))

  /** The partitions of each batch: `numPartitions`, or else the session's default parallelism. */
  def partitionsIn(spark: SparkSession): Int = numPartitions.getOrElse(spark.sparkContext.defaultParallelism)

  /**
   * The definition of the stream these options describe, starting at `startTimeMs`: with the
   * seed given, or else the one `drawSeed` draws.
   */
  def definition(startTimeMs: Long, drawSeed: () => Long): StreamDefinition =
    StreamDefinition(
      seed = seed.getOrElse(drawSeed()),
      startTimeMs = startTimeMs,
      rowsPerSecond = rowsPerSecond,
      strings = strings,
      shape = shape,
      timestampColumn = timestampColumn,
      startTimestamp = startTimestamp,
      rateProfile = rateProfile,
      declared = declared)
}

object SourceOptions {
  import RandomStrings._

  /**
   * Parses and validates the options a user gave to `spark.readStream.format(...).option(...)`.
   * Names are matched case-insensitively; messages show them and their values as the user
   * wrote them. In order: unknown names; the text of each option (a number, a character set, a
   * distribution); the rules about which options go together; then
   * [[rows.StreamDefinition.validate]].
   *
   * With a declared `schema`, the `fields.` options say how its columns are made
   * ([[typed.TypedColumns.parse]]), and the options of the random strings' own columns are refused.
   *
   * @throws IllegalArgumentException naming the option, the value given and what is allowed
   */
  def parse(parameters: Map[String, String], schema: Option[StructType] = None): SourceOptions = {
    // Spark passes a case-insensitive map, whose own keys are lower-cased: split the names as written.
    val written = parameters match {
      case given: CaseInsensitiveMap[String @unchecked] => given.originalMap
      case given => given
    }
    val (fieldOptions, sourceOptions) = written.partition { case (name, _) => FieldOptions.isFieldOption(name) }
    val options = CaseInsensitiveMap(sourceOptions)
    Suggestions.rejectUnknown(ShortName, Names, InternalNames, options.originalMap.keys)
    if (schema.isEmpty) {
      fieldOptions.keys.toSeq.sorted.headOption.foreach { name =>
        throw new IllegalArgumentException(
          s"Option '$name' says how a declared column is made, but no schema was declared. Declare " +
            "the columns with .schema(...), e.g. .schema(\"id BIGINT, name STRING\"), or remove the " +
            s"'${FieldOptions.Prefix}' options.")
      }
    }
    schema.foreach { _ =>
      StringOptions.find(options.contains).foreach { name =>
        val replacement = if (name == TIMESTAMP_COLUMN) "kind" else name
        throw new IllegalArgumentException(
          s"Option '${options.originalMap.keys.find(_.equalsIgnoreCase(name)).get}' shapes the random strings' " +
            s"own columns, and this query declares its schema. Set it per column instead: " +
            s"'${FieldOptions.Prefix}<column>.$replacement'" +
            (if (name == TIMESTAMP_COLUMN) " = eventTime on a TIMESTAMP column." else ".") +
            " Or remove it.")
      }
    }
    val declared = schema.map(s => DeclaredSchema(s, fieldOptions.toSeq.sortBy(_._1)))
    declared.foreach(_.cells)

    def long(name: String, range: Whole): Option[Long] = options.get(name).map(range.parse(name, _))
    def int(name: String, range: Whole): Option[Int] = long(name, range).map(_.toInt)
    def real(name: String, range: Real): Option[Double] = options.get(name).map(range.parse(name, _))

    val minLength = int(MIN_LENGTH, LengthRange)
    val maxLength = int(MAX_LENGTH, LengthRange)
    val charset = options.get(CHARSET).map(CharacterSet.named(CHARSET, _))
    val alphabet = options.get(ALPHABET).map(CharacterSet.alphabet(ALPHABET, _))
    val rowsPerSecond = long(ROWS_PER_SECOND, RowsPerSecondRange)
    val seed = long(SEED, SeedRange)
    val numPartitions = int(NUM_PARTITIONS, NumPartitionsRange)
    val maxRowsPerTrigger = long(MAX_ROWS_PER_TRIGGER, MaxRowsPerTriggerRange)
    val totalRows = long(TOTAL_ROWS, TotalRowsRange)
    val distinctValues = long(DISTINCT_VALUES, DistinctValuesRange)
    val distribution = options.get(VALUE_DISTRIBUTION).map { text =>
      Distributions.find(_.equalsIgnoreCase(text.trim)).getOrElse(StringValues.unknownDistribution(text))
    }
    val zipfExponent = real(ZIPF_EXPONENT, ZipfExponentRange)
    val lateRowFraction = real(LATE_ROW_FRACTION, LateRowFractionRange)
    val lateByMs = long(LATE_BY_MS, LateByMsRange)
    val duplicateFraction = real(DUPLICATE_FRACTION, DuplicateFractionRange)
    val maxDuplicateDistance = long(MAX_DUPLICATE_DISTANCE, MaxDuplicateDistanceRange)
    val maxOutOfOrderMs = long(MAX_OUT_OF_ORDER_MS, MaxOutOfOrderMsRange)
    val timestampColumn = options.get(TIMESTAMP_COLUMN).map(Suggestions.boolean(TIMESTAMP_COLUMN, _))
    val startTimestamp = long(START_TIMESTAMP, StartTimestampRange)
    val rateProfile = options.get(RATE_PROFILE).map(RateProfile.parse)
    val realTime = options.get(REAL_TIME).map(Suggestions.boolean(REAL_TIME, _))
    val clock = options.get(MANUAL_CLOCK).map(StreamClock.manual(MANUAL_CLOCK, _))

    // The rules about which options were given: a stored definition has every value, so only
    // options have these.
    def stated(name: String): String = s"'$name' is ${options(name)}"
    def unfit(message: String): Nothing =
      throw new IllegalArgumentException(s"Options that do not fit together: $message.")
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
    if (rateProfile.isDefined && rowsPerSecond.isDefined) {
      unfit(s"${stated(ROWS_PER_SECOND)}, but '$RATE_PROFILE' is set. The profile sets the rate: remove " +
        s"'$ROWS_PER_SECOND', or remove '$RATE_PROFILE'")
    }

    val parsed = SourceOptions(
      rowsPerSecond = rowsPerSecond.getOrElse(DefaultRowsPerSecond),
      strings = StringValues(
        minLength = minLength.getOrElse(DefaultMinLength),
        maxLength = maxLength.getOrElse(DefaultMaxLength),
        characters = alphabet.orElse(charset).getOrElse(StringValues.DefaultCharacters),
        distinctValues = distinctValues,
        valueDistribution = distribution.getOrElse(UniformDistribution),
        zipfExponent = zipfExponent.getOrElse(DefaultZipfExponent)),
      seed = seed,
      numPartitions = numPartitions,
      maxRowsPerTrigger = maxRowsPerTrigger,
      totalRows = totalRows,
      shape = RowShape(
        maxOutOfOrderMs = maxOutOfOrderMs.getOrElse(0L),
        lateRowFraction = lateRowFraction.getOrElse(0.0),
        lateByMs = lateByMs,
        duplicateFraction = duplicateFraction.getOrElse(0.0),
        maxDuplicateDistance = maxDuplicateDistance.getOrElse(DefaultMaxDuplicateDistance)),
      timestampColumn = timestampColumn.getOrElse(false),
      startTimestamp = startTimestamp,
      rateProfile = rateProfile,
      realTime = realTime.getOrElse(false),
      clock = clock.getOrElse(StreamClock.System),
      declared = declared)
    StreamDefinition.validate(
      parsed.rowsPerSecond,
      parsed.strings,
      parsed.shape,
      parsed.startTimestamp,
      parsed.rateProfile,
      written = Some(name => options.get(name)))
    parsed
  }

  /** The options of the random strings' own columns, which a declared schema replaces. */
  private val StringOptions: Seq[String] =
    Seq(MIN_LENGTH, MAX_LENGTH, CHARSET, ALPHABET, DISTINCT_VALUES, VALUE_DISTRIBUTION, ZIPF_EXPONENT, TIMESTAMP_COLUMN)
}
