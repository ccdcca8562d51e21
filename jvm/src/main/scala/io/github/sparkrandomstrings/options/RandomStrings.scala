package io.github.sparkrandomstrings.options

import org.apache.spark.sql.types.{IntegerType, LongType, StringType, StructField, StructType, TimestampType}

/**
 * The facts of the `InMemoryRandomStrings` source that the rest of it is built on: its short
 * name, its schema, the option names (the one place they are spelled), their defaults and the
 * values each allows. It is the bottom of the source: it refers to nothing of ours but the
 * kinds of range ([[Whole]], [[Real]]), and every other file may refer to it. What each option
 * does is said in the provider's Scaladoc (`RandomStringsSourceProvider`).
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
    MAX_DUPLICATE_DISTANCE,
    TIMESTAMP_COLUMN,
    START_TIMESTAMP,
    RATE_PROFILE,
    REAL_TIME)

  /** The options tests use and users never see: accepted, but not listed in [[Names]]. */
  val InternalNames: Seq[String] = Seq(MANUAL_CLOCK)

  val DefaultRowsPerSecond: Long = 10L
  val DefaultMinLength: Int = 0
  val DefaultMaxLength: Int = 4
  val UniformDistribution = "uniform"
  val ZipfDistribution = "zipf"
  val Distributions: Seq[String] = Seq(UniformDistribution, ZipfDistribution)
  val DefaultZipfExponent: Double = 1.0
  val DefaultMaxDuplicateDistance: Long = 1000L

  /** The longest string allowed: one mebi code points (at most 4 MiB of UTF-8 per row). */
  val LengthCap: Int = 1 << 20

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
  val StartTimestampRange: Whole = Whole(Long.MinValue)

  /** The most phases a `rateProfile` may have (`repeat` not counted). */
  val MaxProfilePhases: Int = 1000

  /** The longest phase of a `rateProfile`, in ms: 60 minutes. */
  val MaxPhaseDurationMs: Long = 3600000L

  /** The highest rate of a `rateProfile`'s phase, in rows per second. */
  val MaxPhaseRate: Long = 1000000000L

  /** The first Spark line with real-time mode (`realTime`). */
  val RealTimeSpark = "4.1"
}
