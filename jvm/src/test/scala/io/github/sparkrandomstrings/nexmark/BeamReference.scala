package io.github.sparkrandomstrings.nexmark

import org.apache.beam.sdk.nexmark.{NexmarkConfiguration, NexmarkUtils}
import org.apache.beam.sdk.nexmark.sources.generator.{Generator, GeneratorConfig}

/**
 * Apache Beam's own Nexmark generator (the test-only jar), set up as `standardEventIterator`
 * sets it up, and each event of it or of ours as one comparable line of text: every field, the
 * event time and the watermark.
 */
object BeamReference {

  def configuration(config: NexmarkConfig): NexmarkConfiguration = {
    val beam = new NexmarkConfiguration
    beam.firstEventRate = config.firstEventRate
    beam.nextEventRate = config.nextEventRate
    beam.rateUnit = NexmarkUtils.RateUnit.valueOf(config.rateUnit.name)
    beam.rateShape = NexmarkUtils.RateShape.valueOf(config.rateShape.name)
    beam.ratePeriodSec = config.ratePeriodSec
    beam.numEventGenerators = config.numEventGenerators
    beam.avgPersonByteSize = config.avgPersonByteSize
    beam.avgAuctionByteSize = config.avgAuctionByteSize
    beam.avgBidByteSize = config.avgBidByteSize
    beam.hotAuctionRatio = config.hotAuctionRatio
    beam.hotSellersRatio = config.hotSellersRatio
    beam.hotBiddersRatio = config.hotBiddersRatio
    beam.numActivePeople = config.numActivePeople
    beam.numInFlightAuctions = config.numInFlightAuctions
    beam.outOfOrderGroupSize = config.outOfOrderGroupSize
    beam
  }

  /** Beam's generator from event `first` on: event numbers `first`, `first + 1`, ... */
  def generator(config: NexmarkConfig, first: Long = 0L): Generator =
    new Generator(new GeneratorConfig(configuration(config), NexmarkConfig.BaseTimeMs, 0L, Long.MaxValue / 2, first))

  /** Beam's next event as a line of text (without the fields Beam lacks: channel and url). */
  def line(next: Generator.NextEvent): String = {
    val e = next.event
    val body =
      if (e.newPerson != null) {
        val p = e.newPerson
        s"person ${p.id}|${p.name}|${p.emailAddress}|${p.creditCard}|${p.city}|${p.state}|${p.dateTime.getMillis}|${p.extra}"
      } else if (e.newAuction != null) {
        val a = e.newAuction
        s"auction ${a.id}|${a.itemName}|${a.description}|${a.initialBid}|${a.reserve}|${a.dateTime.getMillis}|" +
          s"${a.expires.getMillis}|${a.seller}|${a.category}|${a.extra}"
      } else {
        val b = e.bid
        s"bid ${b.auction}|${b.bidder}|${b.price}|${b.dateTime.getMillis}|${b.extra}"
      }
    s"${next.eventTimestamp} ${next.watermark} $body"
  }

  /** Our event `number` as [[line]] writes Beam's. */
  def line(ours: NexmarkGenerator, number: Long): String = {
    val e = ours.event(number)
    val body = e.eventType match {
      case NexmarkEvent.Person =>
        s"person ${e.personId}|${e.name}|${e.emailAddress}|${e.creditCard}|${new String(e.cityName, "US-ASCII")}|" +
          s"${new String(e.stateName, "US-ASCII")}|${e.dateTimeMs}|${e.extra}"
      case NexmarkEvent.Auction =>
        s"auction ${e.auctionId}|${e.itemName}|${e.description}|${e.initialBid}|${e.reserve}|${e.dateTimeMs}|" +
          s"${e.expiresMs}|${e.seller}|${e.category}|${e.extra}"
      case _ => s"bid ${e.auction}|${e.bidder}|${e.price}|${e.dateTimeMs}|${e.extra}"
    }
    s"${e.dateTimeMs} ${ours.watermarkMs(number)} $body"
  }
}
