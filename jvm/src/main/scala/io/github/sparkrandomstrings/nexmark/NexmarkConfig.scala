package io.github.sparkrandomstrings.nexmark

/** How the event rate changes between `firstEventRate` and `nextEventRate` (Beam's `RateShape`). */
sealed abstract class RateShape(val name: String, val steps: Int) extends Serializable {

  /** Each step's length in seconds, so that the steps together last `ratePeriodSec` (rounded up). */
  def stepLengthSec(ratePeriodSec: Int): Int = (ratePeriodSec + steps - 1) / steps
}

object RateShape {

  /** Two steps: the first rate for half the period, then the next. */
  case object Square extends RateShape("SQUARE", 2)

  /** Ten steps along a cosine from the first rate to the next and back. */
  case object Sine extends RateShape("SINE", 10) {
    val Steps: Int = 10
  }

  val All: Seq[RateShape] = Seq(Square, Sine)
}

/** The unit of the rates (Beam's `RateUnit`): microseconds per unit. */
sealed abstract class RateUnit(val name: String, val usPerUnit: Long) extends Serializable {

  /** Microseconds between events at `rate` events per unit, rounded to the nearest. */
  def periodUs(rate: Long): Long = (usPerUnit + rate / 2) / rate
}

object RateUnit {
  case object PerSecond extends RateUnit("PER_SECOND", 1000000L)
  case object PerMinute extends RateUnit("PER_MINUTE", 60000000L)

  val All: Seq[RateUnit] = Seq(PerSecond, PerMinute)
}

/**
 * What Beam's `NexmarkConfiguration` says of the events, under its names, and nothing else:
 * with the same values, event `n` of this stream is event `n` of Beam's one unsplit generator
 * (`NexmarkUtils.standardEventIterator`, first event id 0, base time [[NexmarkConfig.BaseTimeMs]]).
 * The defaults are Beam's, except `numEventGenerators`: Beam's 100 spaces one generator's events
 * for 100 running side by side; ours is 1, so that event time advances at the configured rate.
 * [[NexmarkOptions]] reads it from the source's options and checks every value.
 */
final case class NexmarkConfig(
    firstEventRate: Int = 10000,
    nextEventRate: Int = 10000,
    rateUnit: RateUnit = RateUnit.PerSecond,
    rateShape: RateShape = RateShape.Sine,
    ratePeriodSec: Int = 600,
    numEventGenerators: Int = 1,
    avgPersonByteSize: Int = 200,
    avgAuctionByteSize: Int = 500,
    avgBidByteSize: Int = 100,
    hotAuctionRatio: Int = 2,
    hotSellersRatio: Int = 4,
    hotBiddersRatio: Int = 4,
    numActivePeople: Int = 1000,
    numInFlightAuctions: Int = 100,
    outOfOrderGroupSize: Long = 1L) {

  /** The settings by Beam's option names, in the documentation's order. */
  def settings: Seq[(String, String)] = Seq(
    Nexmark.FIRST_EVENT_RATE -> firstEventRate.toString,
    Nexmark.NEXT_EVENT_RATE -> nextEventRate.toString,
    Nexmark.RATE_UNIT -> rateUnit.name,
    Nexmark.RATE_SHAPE -> rateShape.name,
    Nexmark.RATE_PERIOD_SEC -> ratePeriodSec.toString,
    Nexmark.NUM_EVENT_GENERATORS -> numEventGenerators.toString,
    Nexmark.AVG_PERSON_BYTE_SIZE -> avgPersonByteSize.toString,
    Nexmark.AVG_AUCTION_BYTE_SIZE -> avgAuctionByteSize.toString,
    Nexmark.AVG_BID_BYTE_SIZE -> avgBidByteSize.toString,
    Nexmark.HOT_AUCTION_RATIO -> hotAuctionRatio.toString,
    Nexmark.HOT_SELLERS_RATIO -> hotSellersRatio.toString,
    Nexmark.HOT_BIDDERS_RATIO -> hotBiddersRatio.toString,
    Nexmark.NUM_ACTIVE_PEOPLE -> numActivePeople.toString,
    Nexmark.NUM_IN_FLIGHT_AUCTIONS -> numInFlightAuctions.toString,
    Nexmark.OUT_OF_ORDER_GROUP_SIZE -> outOfOrderGroupSize.toString)
}

object NexmarkConfig {

  /** The event time of event 0: 2015-07-15T00:00:00Z, as Beam's `NexmarkUtils.BASE_TIME`. */
  val BaseTimeMs: Long = 1436918400000L

  /** Beam's `NexmarkConfiguration` defaults with one generator: the source's defaults. */
  val Default: NexmarkConfig = NexmarkConfig()
}
