package io.github.sparkrandomstrings.nexmark

/**
 * `make bench`'s generator measurement (bench/nexmark.py runs it in a plain `java`, with the
 * optimising JIT, on the test class path, where Beam's jar is): Apache Beam's Nexmark generator
 * and ours, on one core, over the same events, in alternating rounds so that machine noise hits
 * both alike. Each round makes `events` events from event 0 and reads every field of each (a
 * checksum of them, printed, so that the JIT drops nothing and the two are seen to make the same
 * events). Ours is measured twice: making the events, and making them and writing Spark's rows.
 *
 * Prints one JSON object per round and generator:
 * {{{
 *   {"generator":"beam","round":0,"events":2000000,"seconds":0.81,"checksum":-81234...}
 * }}}
 * Arguments: events per round (default 2,000,000), rounds (default 5), warm-up rounds (default 2).
 */
object NexmarkGeneratorBench {

  private def beamRound(events: Long): Long = {
    val generator = BeamReference.generator(NexmarkConfig.Default)
    var checksum = 0L
    var n = 0L
    while (n < events) {
      val next = generator.nextEvent()
      val e = next.event
      checksum = checksum * 31 + next.eventTimestamp
      if (e.newPerson != null) {
        val p = e.newPerson
        checksum += p.id + p.name.length + p.emailAddress.length + p.creditCard.length + p.city.length +
          p.state.length + p.extra.length
      } else if (e.newAuction != null) {
        val a = e.newAuction
        checksum += a.id + a.itemName.length + a.description.length + a.initialBid + a.reserve +
          a.expires.getMillis + a.seller + a.category + a.extra.length
      } else {
        val b = e.bid
        checksum += b.auction + b.bidder + b.price + b.extra.length
      }
      n += 1
    }
    checksum
  }

  private def oursRound(events: Long): Long = {
    val generator = new NexmarkGenerator(NexmarkConfig.Default)
    var checksum = 0L
    var n = 0L
    while (n < events) {
      val e = generator.event(n)
      checksum = checksum * 31 + e.dateTimeMs
      e.eventType match {
        case NexmarkEvent.Person =>
          checksum += e.personId + e.name.length + e.emailAddress.length + e.creditCard.length + e.cityName.length +
            e.stateName.length + e.extra.length
        case NexmarkEvent.Auction =>
          checksum += e.auctionId + e.itemName.length + e.description.length + e.initialBid + e.reserve +
            e.expiresMs + e.seller + e.category + e.extra.length
        case _ => checksum += e.auction + e.bidder + e.price + e.extra.length
      }
      n += 1
    }
    checksum
  }

  private def rowsRound(events: Long): Long = {
    val rows = new NexmarkRows(NexmarkConfig.Default)
    var checksum = 0L
    var n = 0L
    while (n < events) {
      checksum = checksum * 31 + rows.row(n).getSizeInBytes
      n += 1
    }
    checksum
  }

  def main(args: Array[String]): Unit = {
    val events = args.headOption.map(_.toLong).getOrElse(2000000L)
    val rounds = if (args.length > 1) args(1).toInt else 5
    val warmup = if (args.length > 2) args(2).toInt else 2
    val generators = Seq[(String, Long => Long)]("beam" -> beamRound, "ours" -> oursRound, "ours+rows" -> rowsRound)
    for (round <- -warmup until rounds; (name, run) <- generators) {
      val started = System.nanoTime()
      val checksum = run(events)
      val seconds = (System.nanoTime() - started) / 1e9
      if (round >= 0) {
        println(s"""{"generator":"$name","round":$round,"events":$events,"seconds":$seconds,"checksum":$checksum}""")
      }
    }
  }
}
