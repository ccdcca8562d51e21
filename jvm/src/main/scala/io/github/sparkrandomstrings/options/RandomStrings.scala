package io.github.sparkrandomstrings.options

import org.apache.spark.sql.types.{IntegerType, LongType, StringType, StructField, StructType, TimestampType}

/**
 * The facts of the `InMemoryRandomStrings` source that the rest of it is built on: its short
 * name, its schema, the option names as the code spells them, their defaults and the values
 * each allows. The names' order, the defaults and the ranges are the table of options'
 * ([[OptionTable]], which the Python engine reads too); a name the table lacks fails the class's
 * first use, and `OptionTableSuite` holds the two equal. It is the bottom of the source: it
 * refers to nothing of ours but the table and the kinds of range ([[Whole]], [[Real]]), and
 * every other file may refer to it. What each option does is said in the provider's Scaladoc
 * (`RandomStringsSourceProvider`).
 */
object RandomStrings {

  /** The name to pass to `format`; Spark matches it case-insensitively. */
  val ShortName = "InMemoryRandomStrings"

  /** Each row: (value STRING, ts LONG, offset LONG, length INT), all not null. */
  val Schema: StructType = StructType(Seq(
    StructField("value", StringType, nullable = false),
    StructField("ts", LongType, nullable = false),
    StructField("offset", LongType, nullable = false),
    StructField("length", IntegerType, nullable = false)))

  /** The last column that `timestampColumn` adds: `ts` as a TIMESTAMP. */
  val TimestampColumn = "timestamp"

  /** With `timestampColumn`: [[Schema]] and, last, `timestamp` TIMESTAMP NOT NULL. */
  val TimestampSchema: StructType = Schema.add(StructField(TimestampColumn, TimestampType, nullable = false))

  /** The schema of a stream with or without the `timestamp` column. */
  def schemaOf(timestampColumn: Boolean): StructType = if (timestampColumn) TimestampSchema else Schema

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
  val TIMESTAMP_COLUMN = "timestampColumn"
  val START_TIMESTAMP = "startTimestamp"
  val RATE_PROFILE = "rateProfile"
  val REAL_TIME = "realTime"

  /**
   * Internal, for tests: the name of a [[time.ManualClock]] the stream reads the time from instead of
   * the system clock. Not among [[Names]]: the documentation does not list it.
   */
  val MANUAL_CLOCK = "_manualClock"

  /** This source's rows of the table of options. */
  val Table: OptionTable.Source = OptionTable.source(ShortName)
  private val options = Table.options

  /** Every option this source takes, in the order the documentation lists them. */
  val Names: Seq[String] = options.names

  /** The options tests use and users never see: accepted, but not listed in [[Names]]. */
  val InternalNames: Seq[String] = Table.internal

  val DefaultRowsPerSecond: Long = options(ROWS_PER_SECOND).defaultLong
  val DefaultMinLength: Int = options(MIN_LENGTH).defaultInt
  val DefaultMaxLength: Int = options(MAX_LENGTH).defaultInt
  val Distributions: Seq[String] = options(VALUE_DISTRIBUTION).values
  val UniformDistribution: String = Distributions(0)
  val ZipfDistribution: String = Distributions(1)
  val DefaultZipfExponent: Double = options(ZIPF_EXPONENT).defaultDouble
  val DefaultMaxDuplicateDistance: Long = options(MAX_DUPLICATE_DISTANCE).defaultLong

  val RowsPerSecondRange: Whole = options(ROWS_PER_SECOND).whole
  val LengthRange: Whole = options(MAX_LENGTH).whole

  /** The longest string allowed: one mebi code points (at most 4 MiB of UTF-8 per row). */
  val LengthCap: Int = Math.toIntExact(LengthRange.max)

  val SeedRange: Whole = options(SEED).whole
  val NumPartitionsRange: Whole = options(NUM_PARTITIONS).whole
  val MaxRowsPerTriggerRange: Whole = options(MAX_ROWS_PER_TRIGGER).whole
  val TotalRowsRange: Whole = options(TOTAL_ROWS).whole
  val DistinctValuesRange: Whole = options(DISTINCT_VALUES).whole
  val ZipfExponentRange: Real = options(ZIPF_EXPONENT).real
  val MaxOutOfOrderMsRange: Whole = options(MAX_OUT_OF_ORDER_MS).whole
  val LateRowFractionRange: Real = options(LATE_ROW_FRACTION).real
  val LateByMsRange: Whole = options(LATE_BY_MS).whole
  val DuplicateFractionRange: Real = options(DUPLICATE_FRACTION).real
  val MaxDuplicateDistanceRange: Whole = options(MAX_DUPLICATE_DISTANCE).whole
  val StartTimestampRange: Whole = options(START_TIMESTAMP).whole

  /** The most phases a `rateProfile` may have (`repeat` not counted). */
  val MaxProfilePhases: Int = 1000

  /** The longest phase of a `rateProfile`, in ms: 60 minutes. */
  val MaxPhaseDurationMs: Long = 3600000L

  /** The highest rate of a `rateProfile`'s phase, in rows per second. */
  val MaxPhaseRate: Long = 1000000000L

  /** The first Spark line with real-time mode (`realTime`). */
  val RealTimeSpark = "4.1"
}
