package io.github.sparkrandomstrings.nexmark

import io.github.sparkrandomstrings.nexmark.NexmarkEvent.{Cities, FirstNames, LastNames, States}
import org.apache.spark.unsafe.Platform

/**
 * Makes Nexmark's events exactly as Apache Beam's `Generator` does: event `number` is event
 * `number` of one generator started at event 0 with first event id 0 and base time
 * [[NexmarkConfig.BaseTimeMs]], every field and time equal (NexmarkGeneratorSuite checks it
 * against Beam's jar). It is a pure function of the configuration and the number, so any
 * executor makes any event, in any order.
 *
 * Beam draws each event from `new Random(eventId)`, where the id is the event's number after
 * the out-of-order shuffle ([[NexmarkTimeline.adjustedNumber]]); its kind is the id modulo 50
 * (1 person, 3 auctions, 46 bids), and its ids and references follow from the id. Draws are made
 * in Beam's order, which is not the fields' order (an auction draws its seller, category, initial
 * bid, expiry, name, description, reserve, extra). A bid then draws Flink's `channel`
 * ([[NexmarkChannels]]) from the same random, after Beam's fields, so Beam's stay Beam's.
 *
 * One generator fills one [[NexmarkEvent]] in place and reseeds one [[JavaRandom]], so making an
 * event allocates nothing.
 */
final class NexmarkGenerator(config: NexmarkConfig) {
  import NexmarkGenerator._

  private val timeline = new NexmarkTimeline(config)
  private val random = new JavaRandom
  private val event = new NexmarkEvent
  private val auctionHorizonEvents: Long = config.numInFlightAuctions.toLong * ProportionDenominator / AuctionProportion

  /** Event `number`, filled into this generator's one event: valid until the next call. */
  def event(number: Long): NexmarkEvent = {
    val adjusted = timeline.adjustedNumber(number)
    val eventId = adjusted // Beam's first event id is 0
    val timestampMs = NexmarkConfig.BaseTimeMs + timeline.timestampMs(adjusted)
    event.number = number
    event.dateTimeMs = timestampMs
    random.reseed(eventId)
    val rem = eventId % ProportionDenominator
    if (rem < PersonProportion) person(eventId)
    else if (rem < PersonProportion + AuctionProportion) auction(eventId, adjusted, timestampMs)
    else bid(eventId)
    event
  }

  /**
   * Beam's watermark at event `number`: the timestamp of its out-of-order group's first event
   * (not a field of the event: no row holds it, and every event paid a division by the group size
   * for it).
   */
  def watermarkMs(number: Long): Long =
    NexmarkConfig.BaseTimeMs + timeline.timestampMs(timeline.watermarkNumber(number))

  private def person(eventId: Long): Unit = {
    event.eventType = NexmarkEvent.Person
    event.personId = lastBase0PersonId(eventId) + FirstPersonId
    val name = event.name
    name.clear()
    name.append(FirstNames(random.nextInt(FirstNames.length)))
    name.append(' '.toByte)
    name.append(LastNames(random.nextInt(LastNames.length)))
    val email = event.emailAddress
    email.clear()
    nextString(email, 7)
    email.append('@'.toByte)
    nextString(email, 5)
    email.append(DotCom)
    val card = event.creditCard
    card.clear()
    var group = 0
    while (group < 4) {
      if (group > 0) card.append(' '.toByte)
      card.appendPadded(random.nextInt(10000), 4)
      group += 1
    }
    event.city = random.nextInt(Cities.length)
    event.state = random.nextInt(States.length)
    val size = 8 + name.length + email.length + card.length + Cities(event.city).length + States(event.state).length
    nextExtra(size, config.avgPersonByteSize)
  }

  private def auction(eventId: Long, adjusted: Long, timestampMs: Long): Unit = {
    event.eventType = NexmarkEvent.Auction
    event.auctionId = lastBase0AuctionId(eventId) + FirstAuctionId
    val seller =
      if (random.nextInt(config.hotSellersRatio) > 0) (lastBase0PersonId(eventId) / HotSellerRatio) * HotSellerRatio
      else nextBase0PersonId(eventId)
    event.seller = seller + FirstPersonId
    event.category = FirstCategoryId + random.nextInt(NumCategories)
    event.initialBid = nextPrice()
    val horizonMs = NexmarkConfig.BaseTimeMs + timeline.timestampMs(adjusted + auctionHorizonEvents) - timestampMs
    event.expiresMs = timestampMs + 1L + nextLong(math.max(horizonMs * 2L, 1L))
    event.itemName.clear()
    nextString(event.itemName, 20)
    event.description.clear()
    nextString(event.description, 100)
    event.reserve = event.initialBid + nextPrice()
    nextExtra(8 + event.itemName.length + event.description.length + 40, config.avgAuctionByteSize)
  }

  private def bid(eventId: Long): Unit = {
    event.eventType = NexmarkEvent.Bid
    val auction =
      if (random.nextInt(config.hotAuctionRatio) > 0) (lastBase0AuctionId(eventId) / HotAuctionRatio) * HotAuctionRatio
      else nextBase0AuctionId(eventId)
    event.auction = auction + FirstAuctionId
    val bidder =
      if (random.nextInt(config.hotBiddersRatio) > 0) (lastBase0PersonId(eventId) / HotBidderRatio) * HotBidderRatio + 1
      else nextBase0PersonId(eventId)
    event.bidder = bidder + FirstPersonId
    event.price = nextPrice()
    nextExtra(32, config.avgBidByteSize)
    event.channel = NexmarkChannels.draw(random)
  }

  /** A random recent person (base 0), a few not made yet among them. */
  private def nextBase0PersonId(eventId: Long): Long = {
    val numPeople = lastBase0PersonId(eventId) + 1
    val activePeople = math.min(numPeople, config.numActivePeople.toLong)
    numPeople - activePeople + nextLong(activePeople + PersonIdLead)
  }

  /** A random auction (base 0) of those likely still in flight, a few not made yet among them. */
  private def nextBase0AuctionId(eventId: Long): Long = {
    val maxAuction = lastBase0AuctionId(eventId)
    val minAuction = math.max(maxAuction - config.numInFlightAuctions, 0L)
    minAuction + nextLong(maxAuction - minAuction + 1 + AuctionIdLead)
  }

  /** Beam's `LongGenerator.nextLong`: an int draw below 2^31 - 1, else a skewed long remainder. */
  private def nextLong(n: Long): Long =
    if (n < Int.MaxValue) random.nextInt(n.toInt).toLong else math.abs(random.nextLong() % n)

  /** Beam's `nextPrice`: `Math.round(Math.pow(10.0, nextDouble() * 6.0) * 100.0)`, as [[NexmarkPrice]] makes it. */
  private def nextPrice(): Long = NexmarkPrice.cents(random.nextDouble() * 6.0)

  /** Beam's `nextString(max)`: 3 to max - 1 letters and spaces (1 in 13), appended, then trimmed. */
  private def nextString(text: AsciiText, maxLength: Int): Unit = {
    val from = text.length
    var length = MinStringLength + random.nextInt(maxLength - MinStringLength)
    val buffer = text.reserve(length)
    var at = from
    while (length > 0) {
      buffer(at) = if (random.nextInt(13) == 0) ' '.toByte else ('a' + random.nextInt(26)).toByte
      at += 1
      length -= 1
    }
    text.setLength(at)
    text.trim(from)
  }

  /**
   * Beam's `nextExtra`: text making the event's size `desiredAverage` bytes on average, made as
   * `nextExactString` makes it: one `nextInt()` per 6 characters, each `'a' + rnd % 26` with
   * Java's signed remainder (so a negative draw gives characters below `a`), then `rnd /= 26`.
   * Three characters at a time: those of `rnd % 26^3` come from a table ([[ExtraTriples]]), then
   * those of `rnd / 26^3` (truncated division composes, so they are the same characters).
   */
  private def nextExtra(currentSize: Int, desiredAverage: Int): Unit = {
    val extra = event.extra
    extra.clear()
    if (currentSize <= desiredAverage) {
      val average = desiredAverage - currentSize
      val delta = java.lang.Math.round(average * 0.2).toInt
      val size = average - delta + (if (delta == 0) 0 else random.nextInt(2 * delta))
      val buffer = extra.reserve(size + 8) // a last draw writes all six of its characters, or a word
      var at = 0
      if (WordStores) {
        // A draw's six characters as one little-endian word; its two high bytes, zeros, are the
        // next draw's first two or past the text's end. A remainder by 26^3 lies in -17575 to
        // 17575, so both reads fall inside the table: they are made unchecked, from its middle.
        val words = ExtraTripleWords
        val middle = Platform.INT_ARRAY_OFFSET + TripleOffset * 4L
        while (at < size) {
          val rnd = random.nextInt()
          val low = Platform.getInt(words, middle + ((rnd % Triple) << 2))
          val high = Platform.getInt(words, middle + (((rnd / Triple) % Triple) << 2))
          Platform.putLong(buffer, Platform.BYTE_ARRAY_OFFSET + at, low.toLong | (high.toLong << 24))
          at += 6
        }
      } else {
        while (at < size) {
          val rnd = random.nextInt()
          val low = (rnd % Triple + TripleOffset) * 3
          val high = ((rnd / Triple) % Triple + TripleOffset) * 3
          buffer(at) = ExtraTriples(low)
          buffer(at + 1) = ExtraTriples(low + 1)
          buffer(at + 2) = ExtraTriples(low + 2)
          buffer(at + 3) = ExtraTriples(high)
          buffer(at + 4) = ExtraTriples(high + 1)
          buffer(at + 5) = ExtraTriples(high + 2)
          at += 6
        }
      }
      extra.setLength(size)
    }
  }
}

object NexmarkGenerator {
  // Constants (`final val`, no type), which the compiler writes into each use: divisions by them
  // become multiplications, where an object's plain `val` is a field read and a hardware division.
  final val FirstPersonId = 1000L
  final val FirstAuctionId = 1000L
  final val FirstCategoryId = 10L
  final val PersonProportion = 1
  final val AuctionProportion = 3
  final val ProportionDenominator = 50
  private final val NumCategories = 5
  private final val PersonIdLead = 10L
  private final val AuctionIdLead = 10L
  private final val HotSellerRatio = 100L
  private final val HotAuctionRatio = 100L
  private final val HotBidderRatio = 100L
  private final val MinStringLength = 3
  private val DotCom = AsciiText.bytesOf(".com")

  private final val Triple = 26 * 26 * 26
  private final val TripleOffset = Triple - 1

  /**
   * The three characters `nextExactString` makes of each remainder `v` of a draw by 26^3
   * (-17575 to 17575), at `(v + 17575) * 3`: `'a' + v % 26`, `'a' + (v / 26) % 26`,
   * `'a' + (v / 676) % 26`, with Java's signed arithmetic.
   */
  private val ExtraTriples: Array[Byte] = {
    val table = new Array[Byte]((2 * TripleOffset + 1) * 3)
    for (v <- -TripleOffset to TripleOffset) {
      val at = (v + TripleOffset) * 3
      table(at) = ('a' + v % 26).toByte
      table(at + 1) = ('a' + (v / 26) % 26).toByte
      table(at + 2) = ('a' + (v / 676) % 26).toByte
    }
    table
  }

  /** [[ExtraTriples]]' three characters of each remainder as a little-endian word, the first lowest. */
  private val ExtraTripleWords: Array[Int] = Array.tabulate(2 * TripleOffset + 1) { i =>
    (ExtraTriples(i * 3) & 0xFF) | ((ExtraTriples(i * 3 + 1) & 0xFF) << 8) | ((ExtraTriples(i * 3 + 2) & 0xFF) << 16)
  }

  /** Whether a word may be stored at any byte of an array, its low byte first (x86-64, aarch64). */
  private val WordStores: Boolean =
    Platform.unaligned() && java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN

  /** The last person made by event `eventId` (base 0): this one's, if it makes a person. */
  def lastBase0PersonId(eventId: Long): Long = {
    val epoch = eventId / ProportionDenominator
    val offset = math.min(eventId % ProportionDenominator, PersonProportion - 1L)
    epoch * PersonProportion + offset
  }

  /** The last auction made by event `eventId` (base 0): this one's, if it makes an auction. */
  def lastBase0AuctionId(eventId: Long): Long = {
    var epoch = eventId / ProportionDenominator
    var offset = eventId % ProportionDenominator
    if (offset < PersonProportion) {
      epoch -= 1
      offset = AuctionProportion - 1L
    } else if (offset >= PersonProportion + AuctionProportion) offset = AuctionProportion - 1L
    else offset -= PersonProportion
    epoch * AuctionProportion + offset
  }
}
