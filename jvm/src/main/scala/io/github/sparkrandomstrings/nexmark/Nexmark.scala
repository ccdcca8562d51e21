package io.github.sparkrandomstrings.nexmark

import org.apache.spark.sql.types.{
  DataType,
  IntegerType,
  LongType,
  StringType,
  StructField,
  StructType,
  TimestampType
}

import io.github.sparkrandomstrings.options.{OptionTable, RandomStrings, Whole}

/**
 * The facts of the `nexmark` source that the rest of it is built on: its short name, its schema
 * (Flink's Nexmark table), the option names (the one place they are spelled: Beam's
 * configuration names, and the source's own), their defaults and the values each allows. What
 * each option does is said in the provider's Scaladoc (`NexmarkSourceProvider`).
 */
object Nexmark {

  /** The name to pass to `format`; Spark matches it case-insensitively. */
  val ShortName = "nexmark"

  private def field(name: String, dataType: DataType): StructField = StructField(name, dataType, nullable = false)

  val PersonType: StructType = StructType(Seq(
    field("id", LongType),
    field("name", StringType),
    field("emailAddress", StringType),
    field("creditCard", StringType),
    field("city", StringType),
    field("state", StringType),
    field("dateTime", TimestampType),
    field("extra", StringType)))

  val AuctionType: StructType = StructType(Seq(
    field("id", LongType),
    field("itemName", StringType),
    field("description", StringType),
    field("initialBid", LongType),
    field("reserve", LongType),
    field("dateTime", TimestampType),
    field("expires", TimestampType),
    field("seller", LongType),
    field("category", LongType),
    field("extra", StringType)))

  val BidType: StructType = StructType(Seq(
    field("auction", LongType),
    field("bidder", LongType),
    field("price", LongType),
    field("channel", StringType),
    field("url", StringType),
    field("dateTime", TimestampType),
    field("extra", StringType)))

  /**
   * Flink's Nexmark table: `event_type` (0 person, 1 auction, 2 bid), the three kinds' structs
   * (the two that do not apply are null) and `dateTime`, the event time of the one that does.
   */
  val Schema: StructType = StructType(Seq(
    field("event_type", IntegerType),
    StructField("person", PersonType, nullable = true),
    StructField("auction", AuctionType, nullable = true),
    StructField("bid", BidType, nullable = true),
    field("dateTime", TimestampType)))

  // Beam's NexmarkConfiguration names.
  val FIRST_EVENT_RATE = "firstEventRate"
  val NEXT_EVENT_RATE = "nextEventRate"
  val RATE_UNIT = "rateUnit"
  val RATE_SHAPE = "rateShape"
  val RATE_PERIOD_SEC = "ratePeriodSec"
  val NUM_EVENT_GENERATORS = "numEventGenerators"
  val AVG_PERSON_BYTE_SIZE = "avgPersonByteSize"
  val AVG_AUCTION_BYTE_SIZE = "avgAuctionByteSize"
  val AVG_BID_BYTE_SIZE = "avgBidByteSize"
  val HOT_AUCTION_RATIO = "hotAuctionRatio"
  val HOT_SELLERS_RATIO = "hotSellersRatio"
  val HOT_BIDDERS_RATIO = "hotBiddersRatio"
  val NUM_ACTIVE_PEOPLE = "numActivePeople"
  val NUM_IN_FLIGHT_AUCTIONS = "numInFlightAuctions"
  val OUT_OF_ORDER_GROUP_SIZE = "outOfOrderGroupSize"
  val NUM_EVENTS = "numEvents"

  // The source's own.
  val NUM_PARTITIONS = "numPartitions"
  val MAX_EVENTS_PER_TRIGGER = "maxEventsPerTrigger"
  val REAL_TIME: String = RandomStrings.REAL_TIME

  /** Internal, for tests: a [[time.ManualClock]]'s name, as the strings source takes it. */
  val MANUAL_CLOCK: String = RandomStrings.MANUAL_CLOCK

  /** This source's rows of the table of options ([[OptionTable]], which the Python engine reads too). */
  val Table: OptionTable.Source = OptionTable.source(ShortName)

  /** The options that say which events the stream makes: Beam's names, kept in the checkpoint (the table's `kept`). */
  val EventNames: Seq[String] = Table.options.kept

  /** Every option this source takes, in the order the documentation lists them. */
  val Names: Seq[String] = Table.options.names

  /** The options tests use and users never see. */
  val InternalNames: Seq[String] = Table.internal

  /** Beam's default run: 100,000 events. 0 is an endless stream. */
  val DefaultNumEvents: Long = Table.options(NUM_EVENTS).defaultLong

  /** The highest rate per second: Beam's delays are whole microseconds, so 1 µs apart at most. */
  val MaxRatePerSecond: Long = 1000000L

  /** The whole numbers option `name` allows. */
  def range(name: String): Whole = Table.options(name).whole
}
