package io.github.sparkrandomstrings.nexmark

/**
 * One event, as [[NexmarkGenerator]] fills it in place: its kind, its times and the fields of
 * that kind (those of the other two kinds are left as they were). Field names are those of
 * Flink's Nexmark table; times are epoch milliseconds.
 */
final class NexmarkEvent {
  var number: Long = 0L
  var eventType: Int = 0
  var dateTimeMs: Long = 0L

  // person
  var personId: Long = 0L
  val name = new AsciiText(32)
  val emailAddress = new AsciiText(32)
  val creditCard = new AsciiText(20)
  var city: Int = 0
  var state: Int = 0

  // auction
  var auctionId: Long = 0L
  val itemName = new AsciiText(32)
  val description = new AsciiText(128)
  var initialBid: Long = 0L
  var reserve: Long = 0L
  var expiresMs: Long = 0L
  var seller: Long = 0L
  var category: Long = 0L

  // bid
  var auction: Long = 0L
  var bidder: Long = 0L
  var price: Long = 0L
  var channel: Int = 0

  /** The event's `extra`, whichever its kind. */
  val extra = new AsciiText(512)

  def cityName: Array[Byte] = NexmarkEvent.Cities(city)
  def stateName: Array[Byte] = NexmarkEvent.States(state)
}

object NexmarkEvent {
  val Person = 0
  val Auction = 1
  val Bid = 2

  val Kinds: Seq[String] = Seq("person", "auction", "bid")

  val FirstNames: Array[Array[Byte]] =
    "Peter,Paul,Luke,John,Saul,Vicky,Kate,Julie,Sarah,Deiter,Walter".split(",").map(AsciiText.bytesOf)
  val LastNames: Array[Array[Byte]] =
    "Shultz,Abrams,Spencer,White,Bartels,Walton,Smith,Jones,Noris".split(",").map(AsciiText.bytesOf)
  val Cities: Array[Array[Byte]] =
    "Phoenix,Los Angeles,San Francisco,Boise,Portland,Bend,Redmond,Seattle,Kent,Cheyenne".split(",")
      .map(AsciiText.bytesOf)
  val States: Array[Array[Byte]] = "AZ,CA,ID,OR,WA,WY".split(",").map(AsciiText.bytesOf)
}
