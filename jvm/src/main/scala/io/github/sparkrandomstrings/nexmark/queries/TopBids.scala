package io.github.sparkrandomstrings.nexmark.queries

import org.apache.spark.sql.Row
import org.apache.spark.sql.types.{LongType, StringType, StructField, StructType}

/** A bid as q19 ranks it, its time in epoch microseconds (no time zone comes between). */
final case class AuctionBid(
    auction: Long,
    bidder: Long,
    price: Long,
    channel: String,
    url: String,
    micros: Long,
    extra: String)

/** A bid at its rank among its auction's (1 the greatest): a row of q19. */
final case class RankedBid(bid: AuctionBid, rank: Long)

/**
 * q19's ranking, apart from Spark (the processor that keeps it per auction is `TopBidsProcessor`):
 * an auction's `Size` greatest bids in `Order`, and the ranks a batch of bids changes.
 */
object TopBids {

  /**
   * How many bids q19 ranks per auction (ranks 1 to `Size`): `merged` keeps this many, and
   * `TopBidsProcessor` takes a top this long as full. The Python package's is `TOP_BIDS`
   * (`nexmark.answer_basics`).
   */
  final val Size = 10

  /**
   * A bid's row as the processor reads and keeps it (`AuctionBid`'s fields, in order): the rows
   * are plain `Row`s, whose encoders need no Scala reflection.
   */
  val BidSchema: StructType = StructType(Seq(
    StructField("auction", LongType),
    StructField("bidder", LongType),
    StructField("price", LongType),
    StructField("channel", StringType),
    StructField("url", StringType),
    StructField("micros", LongType),
    StructField("extra", StringType)))

  /** Where `BidSchema` holds the price: the processor reads it before it makes a bid of a row. */
  val PriceField: Int = BidSchema.fieldIndex("price")

  /** A row of q19 as the processor writes it: the bid's fields, then its rank. */
  val RankedSchema: StructType = BidSchema.add(StructField("rank_number", LongType))

  /** A row of `BidSchema` as a bid. */
  def bidOf(row: Row): AuctionBid =
    AuctionBid(
      row.getLong(0),
      row.getLong(1),
      row.getLong(PriceField),
      row.getString(3),
      row.getString(4),
      row.getLong(5),
      row.getString(6))

  /** A bid as a row of `BidSchema`. */
  def rowOf(bid: AuctionBid): Row = Row(bid.auction, bid.bidder, bid.price, bid.channel, bid.url, bid.micros, bid.extra)

  /** A ranked bid as a row of `RankedSchema`. */
  def rowOf(ranked: RankedBid): Row = Row.fromSeq(rowOf(ranked.bid).toSeq :+ ranked.rank)

  /**
   * q19's order, the greatest bid first: the highest price, then the earliest, then the lowest
   * bidder id, then the greatest `extra` (by its code points). The Python oracle's is `bid_rank`
   * (`nexmark.answer_basics`).
   */
  val Order: Ordering[AuctionBid] = new Ordering[AuctionBid] {
    override def compare(a: AuctionBid, b: AuctionBid): Int = {
      val byPrice = java.lang.Long.compare(b.price, a.price)
      if (byPrice != 0) byPrice
      else {
        val byTime = java.lang.Long.compare(a.micros, b.micros)
        if (byTime != 0) byTime
        else {
          val byBidder = java.lang.Long.compare(a.bidder, b.bidder)
          if (byBidder != 0) byBidder else codePointCompare(b.extra, a.extra)
        }
      }
    }
  }

  /**
   * Two strings in the order of their code points, as Python and Spark order them (`compareTo`
   * orders UTF-16 units, which puts a character above U+FFFF before U+E000 to U+FFFF): where the
   * first differing units are of different kinds, a surrogate (of a code point above U+FFFF) is
   * lifted above every other unit.
   */
  def codePointCompare(a: String, b: String): Int = {
    val common = math.min(a.length, b.length)
    var i = 0
    while (i < common && a.charAt(i) == b.charAt(i)) i += 1
    if (i == common) Integer.compare(a.length, b.length)
    else Integer.compare(codePointRank(a.charAt(i)), codePointRank(b.charAt(i)))
  }

  private def codePointRank(unit: Char): Int =
    if (unit < 0xD800) unit.toInt else if (unit >= 0xE000) unit - 0x800 else unit + 0x2000

  /**
   * The `Size` greatest of `top` (an auction's bids so far, greatest first, at most `Size`) and
   * `bids`, greatest first. Of equal bids, the one met first stays ahead, as a stable sort keeps
   * it. A bid below a full top is dropped at one comparison: a hot auction's batch costs little.
   */
  def merged(top: IndexedSeq[AuctionBid], bids: Iterator[AuctionBid]): IndexedSeq[AuctionBid] = {
    val ranked = scala.collection.mutable.ArrayBuffer.empty[AuctionBid] ++= top
    bids.foreach { bid =>
      if (ranked.length < Size || Order.lt(bid, ranked.last)) {
        var at = ranked.length
        while (at > 0 && Order.lt(bid, ranked(at - 1))) at -= 1
        ranked.insert(at, bid)
        if (ranked.length > Size) ranked.remove(Size)
      }
    }
    ranked.toIndexedSeq
  }

  /** The ranks whose bid differs from `before` to `after` (both greatest first), numbered from 1. */
  def changedRanks(before: IndexedSeq[AuctionBid], after: IndexedSeq[AuctionBid]): IndexedSeq[RankedBid] =
    after.indices.collect { case i if i >= before.length || before(i) != after(i) => RankedBid(after(i), i + 1L) }
}
