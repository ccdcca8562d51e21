package io.github.sparkrandomstrings.nexmark

import java.util.Locale

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.util.CaseInsensitiveMap

import io.github.sparkrandomstrings.options.{Suggestions, Whole}
import io.github.sparkrandomstrings.time.StreamClock

/**
 * The `nexmark` source's options, parsed once and checked whole, so that `load()` refuses a bad
 * one with a message that names it, its value and what is allowed.
 *
 * @param config        which events the stream makes (Beam's names; kept in the checkpoint)
 * @param numEvents     how many events the stream has; None: endless (`numEvents` 0)
 * @param numPartitions partitions per batch, if set; else the session's default parallelism
 * @param maxEventsPerTrigger the most events one micro-batch reads, if set
 * @param realTime      whether the stream is read through Spark's DSv2 interfaces, as real-time mode needs
 * @param clock         where the source reads the time (a test's manual clock, or the system's)
 */
final case class NexmarkOptions(
    config: NexmarkConfig,
    numEvents: Option[Long],
    numPartitions: Option[Int],
    maxEventsPerTrigger: Option[Long],
    realTime: Boolean,
    clock: StreamClock) {

  def partitionsIn(spark: SparkSession): Int = numPartitions.getOrElse(spark.sparkContext.defaultParallelism)
}

object NexmarkOptions {
  import Nexmark._

  /**
   * Reads the options Spark passes (case-insensitive names), with Beam's defaults for the ones
   * not given.
   *
   * @throws IllegalArgumentException naming the option, the value given and what is allowed
   */
  def parse(parameters: Map[String, String]): NexmarkOptions = {
    val written = parameters match {
      case insensitive: CaseInsensitiveMap[String @unchecked] => insensitive.originalMap
      case other => other
    }
    Suggestions.rejectUnknown(ShortName, Names, InternalNames, written.keys)
    val options = CaseInsensitiveMap(written)
    def long(name: String, range: Whole): Option[Long] = options.get(name).map(range.parse(name, _))
    def int(name: String, range: Whole): Option[Int] = long(name, range).map(_.toInt)
    def oneOf[T](name: String, all: Seq[T], nameOf: T => String): Option[T] = options.get(name).map { text =>
      all.find(v => nameOf(v).equalsIgnoreCase(text.trim)).getOrElse {
        throw new IllegalArgumentException(
          s"Invalid value '$text' for option '$name'. Allowed: ${all.map(nameOf).mkString(" or ")} " +
            "(case-insensitive).")
      }
    }

    val defaults = NexmarkConfig.Default
    val rateUnit = oneOf[RateUnit](RATE_UNIT, RateUnit.All, _.name).getOrElse(defaults.rateUnit)
    def rate(name: String, default: Int): Int = {
      val value = int(name, range(name)).getOrElse(default)
      val most = MaxRatePerSecond * rateUnit.usPerUnit / 1000000L
      if (value > most) {
        throw new IllegalArgumentException(
          s"Invalid value '${options(name)}' for option '$name': out of range. Events are at least 1 µs " +
            s"apart, so the rate is at most $most events ${rateUnit.name.toLowerCase(Locale.ROOT).replace('_', ' ')}. " +
            s"Allowed: a whole number from 1 to $most.")
      }
      value
    }

    val config = NexmarkConfig(
      firstEventRate = rate(FIRST_EVENT_RATE, defaults.firstEventRate),
      nextEventRate = rate(NEXT_EVENT_RATE, defaults.nextEventRate),
      rateUnit = rateUnit,
      rateShape = oneOf[RateShape](RATE_SHAPE, RateShape.All, _.name).getOrElse(defaults.rateShape),
      ratePeriodSec = int(RATE_PERIOD_SEC, range(RATE_PERIOD_SEC)).getOrElse(defaults.ratePeriodSec),
      numEventGenerators =
        int(NUM_EVENT_GENERATORS, range(NUM_EVENT_GENERATORS)).getOrElse(defaults.numEventGenerators),
      avgPersonByteSize = int(AVG_PERSON_BYTE_SIZE, range(AVG_PERSON_BYTE_SIZE)).getOrElse(defaults.avgPersonByteSize),
      avgAuctionByteSize =
        int(AVG_AUCTION_BYTE_SIZE, range(AVG_AUCTION_BYTE_SIZE)).getOrElse(defaults.avgAuctionByteSize),
      avgBidByteSize = int(AVG_BID_BYTE_SIZE, range(AVG_BID_BYTE_SIZE)).getOrElse(defaults.avgBidByteSize),
      hotAuctionRatio = int(HOT_AUCTION_RATIO, range(HOT_AUCTION_RATIO)).getOrElse(defaults.hotAuctionRatio),
      hotSellersRatio = int(HOT_SELLERS_RATIO, range(HOT_SELLERS_RATIO)).getOrElse(defaults.hotSellersRatio),
      hotBiddersRatio = int(HOT_BIDDERS_RATIO, range(HOT_BIDDERS_RATIO)).getOrElse(defaults.hotBiddersRatio),
      numActivePeople = int(NUM_ACTIVE_PEOPLE, range(NUM_ACTIVE_PEOPLE)).getOrElse(defaults.numActivePeople),
      numInFlightAuctions =
        int(NUM_IN_FLIGHT_AUCTIONS, range(NUM_IN_FLIGHT_AUCTIONS)).getOrElse(defaults.numInFlightAuctions),
      outOfOrderGroupSize =
        long(OUT_OF_ORDER_GROUP_SIZE, range(OUT_OF_ORDER_GROUP_SIZE)).getOrElse(defaults.outOfOrderGroupSize))
    checkRatePeriod(config, options.get(RATE_PERIOD_SEC))

    NexmarkOptions(
      config = config,
      numEvents = long(NUM_EVENTS, range(NUM_EVENTS)).getOrElse(DefaultNumEvents) match {
        case 0L => None
        case n => Some(n)
      },
      numPartitions = int(NUM_PARTITIONS, range(NUM_PARTITIONS)),
      maxEventsPerTrigger = long(MAX_EVENTS_PER_TRIGGER, range(MAX_EVENTS_PER_TRIGGER)),
      realTime = options.get(REAL_TIME).exists(Suggestions.boolean(REAL_TIME, _)),
      clock = options.get(MANUAL_CLOCK).map(StreamClock.manual(MANUAL_CLOCK, _)).getOrElse(StreamClock.System))
  }

  /**
   * Refuses a rate period whose steps are all shorter than the time between two events: Beam
   * counts the events of one cycle of the steps and divides by it.
   */
  private def checkRatePeriod(config: NexmarkConfig, written: Option[String]): Unit = {
    val delays = new NexmarkTimeline(config).delaysUs
    val shape = config.rateShape
    val stepSec = shape.stepLengthSec(config.ratePeriodSec)
    val shortest = delays.min
    if (delays.length > 1 && stepSec * 1000000L < shortest) {
      val leastStepSec = (shortest + 999999L) / 1000000L
      val least = (leastStepSec - 1L) * shape.steps + 1L
      throw new IllegalArgumentException(
        s"Invalid value '${written.getOrElse(config.ratePeriodSec.toString)}' for option '$RATE_PERIOD_SEC': too " +
          s"short for these rates. Each of the ${shape.name} shape's ${shape.steps} steps lasts $stepSec s, and " +
          s"events are at least $shortest µs apart, so no step would hold an event. Allowed: a whole number " +
          s"from $least to ${Int.MaxValue}, or higher rates.")
    }
  }
}
