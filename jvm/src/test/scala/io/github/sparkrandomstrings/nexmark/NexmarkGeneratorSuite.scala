package io.github.sparkrandomstrings.nexmark

import org.scalatest.funsuite.AnyFunSuite

/**
 * The generator against Apache Beam's own (`beam-sdks-java-nexmark` 2.76.0, a test-only
 * dependency): every field, the event time and the watermark of each event equal, event by
 * event from 0, at offsets far out, and across configurations.
 */
class NexmarkGeneratorSuite extends AnyFunSuite {

  private def assertSameAsBeam(config: NexmarkConfig, count: Int): Unit = {
    val beam = BeamReference.generator(config)
    val ours = new NexmarkGenerator(config)
    var n = 0L
    while (n < count) {
      val expected = BeamReference.line(beam.nextEvent())
      val actual = BeamReference.line(ours, n)
      if (actual != expected) fail(s"event $n of $config:\n  ours: $actual\n  Beam: $expected")
      n += 1
    }
  }

  private def assertSameAsBeamAt(config: NexmarkConfig, numbers: Seq[Long]): Unit = {
    val ours = new NexmarkGenerator(config)
    numbers.foreach { n =>
      val expected = BeamReference.line(BeamReference.generator(config, n).nextEvent())
      assert(BeamReference.line(ours, n) == expected, s"event $n of $config")
    }
  }

  test("the first 1,000,000 events of the default configuration equal Beam's, every field and time") {
    assertSameAsBeam(NexmarkConfig.Default, 1000000)
  }

  test("200 events at offsets up to 10^12 equal Beam's") {
    val random = new scala.util.Random(39)
    val numbers = Seq(0L, 49L, 50L, 999999L, 1000000000000L) ++
      Seq.fill(195)(math.floor(math.pow(10.0, random.nextDouble() * 12.0)).toLong)
    assertSameAsBeamAt(NexmarkConfig.Default, numbers)
  }

  private val configurations = Seq(
    "a square wave" -> NexmarkConfig(
      firstEventRate = 1000,
      nextEventRate = 50000,
      rateShape = RateShape.Square,
      ratePeriodSec = 10),
    "a sine wave" -> NexmarkConfig(firstEventRate = 1000, nextEventRate = 50000, ratePeriodSec = 10),
    "rates per minute" -> NexmarkConfig(firstEventRate = 120, nextEventRate = 6000, rateUnit = RateUnit.PerMinute),
    "hot ratios of 1, few people and auctions" -> NexmarkConfig(
      hotAuctionRatio = 1,
      hotSellersRatio = 1,
      hotBiddersRatio = 1,
      numActivePeople = 5,
      numInFlightAuctions = 3),
    "large sizes and a window of 2^31 - 1 people" -> NexmarkConfig(
      avgPersonByteSize = 4000,
      avgAuctionByteSize = 1,
      avgBidByteSize = 2000,
      numActivePeople = Int.MaxValue,
      numInFlightAuctions = Int.MaxValue),
    // Groups of 10 at 100 events/s: 953 % 10 = 3 shuffles each group (953 % 7 = 1 would not),
    // and 10 ms apart, the shuffled events' times differ.
    "out-of-order groups of 10" -> NexmarkConfig(firstEventRate = 100, nextEventRate = 100, outOfOrderGroupSize = 10),
    "Beam's 100 generators' spacing" -> NexmarkConfig(numEventGenerators = 100),
    "one event per second" -> NexmarkConfig(firstEventRate = 1, nextEventRate = 1))

  configurations.foreach { case (name, config) =>
    test(s"events of $name equal Beam's, from 0 and far out") {
      assertSameAsBeam(config, 20000)
      assertSameAsBeamAt(config, Seq(123456L, 7654321L, 98765432101L))
    }
  }

  test("the Python twin's fixture still holds Beam's events, and ours equal them (tests/fixtures/nexmark)") {
    val fixture = new java.io.File(sys.props("spark-random-strings.fixtures"), "nexmark/beam-2.76.0-events.jsonl")
    val mapper = new com.fasterxml.jackson.databind.ObjectMapper()
    val lines = scala.io.Source.fromFile(fixture, "UTF-8").getLines().toList
    assert(lines.size >= 100)
    lines.foreach { text =>
      val json = mapper.readTree(text)
      val options = json.get("config")
      val config = NexmarkOptions.parse(
        Nexmark.EventNames.flatMap(name => Option(options.get(name)).map(name -> _.asText)).toMap).config
      assert(options.size == Nexmark.EventNames.count(name => options.has(name)), s"unknown options in $text")
      val number = json.get("number").asLong
      val kind = json.get("type").asText
      val fields = json.get(kind)
      def f(name: String): String = fields.get(name).asText
      val body = kind match {
        case "person" =>
          Seq("id", "name", "emailAddress", "creditCard", "city", "state", "dateTime", "extra").map(f).mkString("|")
        case "auction" =>
          Seq(
            "id",
            "itemName",
            "description",
            "initialBid",
            "reserve",
            "dateTime",
            "expires",
            "seller",
            "category",
            "extra").map(f).mkString("|")
        case _ => Seq("auction", "bidder", "price", "dateTime", "extra").map(f).mkString("|")
      }
      val fromFixture = s"${json.get("eventTimestamp").asLong} ${json.get("watermark").asLong} $kind $body"
      assert(BeamReference.line(BeamReference.generator(config, number).nextEvent()) == fromFixture, text)
      assert(BeamReference.line(new NexmarkGenerator(config), number) == fromFixture, text)
    }
  }

  test("a bid's channel is a hot channel or channel-<n> with n < 10000, and its URL is the channel's") {
    val generator = new NexmarkGenerator(NexmarkConfig.Default)
    // The generator fills one event in place: read each before making the next.
    val channels = (0L until 5000L).flatMap { n =>
      val e = generator.event(n)
      if (e.eventType == NexmarkEvent.Bid) Some(e.channel) else None
    }
    val hot = channels.count(_ < NexmarkChannels.HotChannels.length)
    assert(channels.size == 4600, "46 bids in every 50 events")
    assert(channels.forall(c => c >= 0 && c < 4 + NexmarkChannels.ChannelsNumber))
    assert(hot > 2100 && hot < 2500, s"$hot of ${channels.size} bids on hot channels")
    assert(NexmarkChannels.name(0) == "Google" && NexmarkChannels.name(4 + 42) == "channel-42")
    assert(NexmarkChannels.url(4 + 42) == NexmarkChannels.url(4 + 42))
    assert(NexmarkChannels.url(4 + 1).matches("https://www\\.nexmark\\.com/[a-z_]{3,4}/[a-z_]{3,4}/[a-z_]{3,4}/" +
      "item\\.htm\\?query=1(&channel_id=-2147483648)?"))
  }

  test("events exist by their timestamps: eventsWithin counts those at or before the elapsed time") {
    Seq(NexmarkConfig.Default, configurations.head._2, configurations(1)._2).foreach { config =>
      val timeline = new NexmarkTimeline(config)
      Seq(0L, 1L, 99L, 1000L, 4999L, 5000L, 123456L).foreach { elapsed =>
        val within = timeline.eventsWithin(elapsed, Long.MaxValue)
        assert(timeline.timestampMs(within - 1) <= elapsed)
        assert(timeline.timestampMs(within) > elapsed)
      }
      assert(timeline.eventsWithin(-1L, Long.MaxValue) == 0L)
      assert(timeline.eventsWithin(123456L, 17L) == 17L)
    }
    // 100 µs apart: events 0 to 10,009 have timestamps of at most 1,000 ms (10,009 * 100 / 1000 rounds down).
    assert(new NexmarkTimeline(NexmarkConfig.Default).eventsWithin(1000L, Long.MaxValue) == 10010L)
  }
}
