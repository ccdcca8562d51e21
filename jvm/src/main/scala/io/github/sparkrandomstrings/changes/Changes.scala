package io.github.sparkrandomstrings.changes

import org.apache.spark.sql.types._

import io.github.sparkrandomstrings.options.{OptionTable, RandomStrings, Whole}

/**
 * The facts of the `changes` source that the rest of it is built on: its short name, its option
 * names as the code spells them, their defaults and ranges (from the table of options,
 * [[options.OptionTable]], which the Python engine reads too), the default schema and the key
 * column's types. The envelopes' columns are [[ChangeEnvelope]]'s. What each option does is said
 * in [[ChangesSourceProvider]]'s Scaladoc.
 */
object Changes {

  /** The name to pass to `format`; Spark matches it case-insensitively. */
  val ShortName = "changes"

  val KEY = "key"
  val KEYS = "keys"
  val DELETE_FRACTION = "deleteFraction"
  val HOT_KEYS = "hotKeys"
  val HOT_KEY_FRACTION = "hotKeyFraction"
  val SNAPSHOT = "snapshot"
  val ENVELOPE = "envelope"
  val UPDATE_COLUMNS = "updateColumns"
  val AS_OF = "asOf"
  val HISTORY = "history"

  // The row options, with the random strings' names and meaning.
  val ROWS_PER_SECOND: String = RandomStrings.ROWS_PER_SECOND
  val SEED: String = RandomStrings.SEED
  val NUM_PARTITIONS: String = RandomStrings.NUM_PARTITIONS
  val MAX_ROWS_PER_TRIGGER: String = RandomStrings.MAX_ROWS_PER_TRIGGER
  val TOTAL_ROWS: String = RandomStrings.TOTAL_ROWS
  val START_TIMESTAMP: String = RandomStrings.START_TIMESTAMP
  val RATE_PROFILE: String = RandomStrings.RATE_PROFILE
  val MANUAL_CLOCK: String = RandomStrings.MANUAL_CLOCK
  val REAL_TIME: String = RandomStrings.REAL_TIME
  // The delivery options, with the random strings' names: here they shape how changes are read ([[ChangeDelivery]]).
  val MAX_OUT_OF_ORDER_MS: String = RandomStrings.MAX_OUT_OF_ORDER_MS
  val LATE_ROW_FRACTION: String = RandomStrings.LATE_ROW_FRACTION
  val LATE_BY_MS: String = RandomStrings.LATE_BY_MS
  val DUPLICATE_FRACTION: String = RandomStrings.DUPLICATE_FRACTION

  /** This source's rows of the table of options. */
  val Table: OptionTable.Source = OptionTable.source(ShortName)
  private val options = Table.options

  /** Every option this source takes, in the order the documentation lists them. */
  val Names: Seq[String] = options.names

  /** The options tests use and users never see: accepted, but not listed in [[Names]]. */
  val InternalNames: Seq[String] = Table.internal

  /**
   * The options this source reads itself: every option but the rows' (rate, time, seed, partitions,
   * limits, delivery), which are the random strings' own, parsed as theirs are ([[rows.SourceOptions]]).
   */
  val ChangeNames: Seq[String] = Names.filterNot(RandomStrings.Names.contains)

  /** The options a batch read takes and a stream refuses, and those a batch read refuses (the table's `reads`). */
  val BatchNames: Seq[String] = options.read("batch")
  val StreamNames: Seq[String] = options.read("stream")

  val DefaultKey: String = options(KEY).defaultText
  val KeysRange: Whole = options(KEYS).whole
  val AsOfRange: Whole = options(AS_OF).whole

  /** The columns a history read (`history`) adds after the declared ones: each version's validity. */
  val HistoryFields: Seq[StructField] = Seq(
    StructField("valid_from_seq", LongType, nullable = false),
    StructField("valid_to_seq", LongType, nullable = true),
    StructField("valid_from", TimestampType, nullable = false),
    StructField("valid_to", TimestampType, nullable = true))

  /** The schema of a stream that declares none: a key and a random string. */
  val DefaultSchema: StructType = StructType(Seq(
    StructField("id", LongType, nullable = false),
    StructField("value", StringType, nullable = true)))

  /**
   * The types a key column may have, each with how many non-negative values it holds: the keys
   * are 0 to keys - 1 (a STRING holds their decimal text).
   */
  val KeyTypes: Seq[(DataType, Long)] = Seq(
    ByteType -> (1L << 7),
    ShortType -> (1L << 15),
    IntegerType -> (1L << 31),
    LongType -> KeysRange.max,
    StringType -> KeysRange.max)
}
