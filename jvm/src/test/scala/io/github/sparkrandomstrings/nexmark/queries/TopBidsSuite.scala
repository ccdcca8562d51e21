package io.github.sparkrandomstrings.nexmark.queries

import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

/** [[TopBids]]: q19's order, its top 10 kept batch by batch, and the ranks a batch changes. */
class TopBidsSuite extends AnyFunSuite {

  private def bid(price: Long, micros: Long = 0L, bidder: Long = 1L, extra: String = "x", auction: Long = 7L) =
    AuctionBid(auction, bidder, price, s"channel-$bidder", s"url-$price", micros, extra)

  test("the order puts the highest price first, then the earliest, the lowest bidder, the greatest extra") {
    val bids = Seq(
      bid(5, micros = 2),
      bid(9),
      bid(5, micros = 1, bidder = 3),
      bid(5, micros = 1, bidder = 2, extra = "a"),
      bid(5, micros = 1, bidder = 2, extra = "b"))
    assert(
      bids.sorted(TopBids.Order) == Seq(
        bid(9),
        bid(5, micros = 1, bidder = 2, extra = "b"),
        bid(5, micros = 1, bidder = 2, extra = "a"),
        bid(5, micros = 1, bidder = 3),
        bid(5, micros = 2)))
  }

  test("extras are ordered by their code points, as Python and Spark order strings") {
    val strings = Seq("a", "ab", "\uffff", "\ud83d\ude00", "\ue000", "\ud7ff", "")
    val byCodePoints = Seq("", "a", "ab", "\ud7ff", "\ue000", "\uffff", "\ud83d\ude00")
    assert(strings.sortWith((a, b) => TopBids.codePointCompare(a, b) < 0) == byCodePoints)
    // Spark orders strings by their UTF-8 bytes, which is the order of their code points.
    val bySpark = strings.sortWith((a, b) => UTF8String.fromString(a).compareTo(UTF8String.fromString(b)) < 0)
    assert(bySpark == byCodePoints)
    assert(Seq(
      bid(5, extra = "\uffff"),
      bid(5, extra = "\ud83d\ude00")).sorted(TopBids.Order).head.extra == "\ud83d\ude00")
  }

  test("batch after batch, the kept top is the 10 greatest of every bid so far, in order") {
    val random = new java.util.Random(19L)
    // Bids equal in the order but for their channel: the stable sort below pins which one ranks first.
    val all = IndexedSeq.fill(5000)(
      bid(random.nextInt(200).toLong, random.nextInt(1000).toLong, random.nextInt(50).toLong)
        .copy(channel = s"channel-${random.nextInt(3)}"))
    var top = IndexedSeq.empty[AuctionBid]
    var seen = 0
    Iterator.continually(1 + random.nextInt(300)).takeWhile(_ => seen < all.length).foreach { size =>
      val batch = all.slice(seen, seen + size)
      seen += batch.length
      top = TopBids.merged(top, batch.iterator)
      assert(top == all.take(seen).sorted(TopBids.Order).take(TopBids.Size), s"after $seen bids")
    }
    assert(top.length == TopBids.Size && seen == 5000)
  }

  test("the rows of a batch are the ranks whose bid changed, numbered from 1") {
    val before = TopBids.merged(IndexedSeq.empty, Iterator.tabulate(10)(i => bid(100L - i * 10)))
    assert(TopBids.changedRanks(IndexedSeq.empty, before).map(_.rank) == (1L to 10L))
    val after = TopBids.merged(before, Iterator(bid(75), bid(5), bid(1)))
    assert(after.map(_.price) == Seq(100L, 90L, 80L, 75L, 70L, 60L, 50L, 40L, 30L, 20L))
    val changed = TopBids.changedRanks(before, after)
    assert(changed.map(r => (r.rank, r.bid.price)) == (4L to 10L).zip(after.drop(3).map(_.price)))
    assert(changed.head == RankedBid(AuctionBid(7L, 1L, 75L, "channel-1", "url-75", 0L, "x"), 4L))
  }

  test("a batch of bids below a full top changes no rank") {
    val full = TopBids.merged(IndexedSeq.empty, Iterator.tabulate(TopBids.Size)(i => bid(100L + i)))
    val after = TopBids.merged(full, Iterator.tabulate(1000)(i => bid(99L - i % 90)))
    assert(after == full && TopBids.changedRanks(full, after).isEmpty)
  }

  test("of two bids equal in the order, the one met first keeps the higher rank") {
    val first = bid(50).copy(channel = "first")
    val second = bid(50).copy(channel = "second")
    assert(TopBids.merged(IndexedSeq(first), Iterator(second)) == Seq(first, second))
  }

  test("a bid's row and a ranked bid's row hold their fields in the schemas' order") {
    val one = bid(42, micros = 5, bidder = 3, extra = "e")
    assert(TopBids.bidOf(TopBids.rowOf(one)) == one)
    val ranked = TopBids.rowOf(RankedBid(AuctionBid(7L, 3L, 42L, "c", "u", 5L, "e"), 2L))
    assert(ranked.length == TopBids.RankedSchema.length && ranked.getLong(7) == 2L && ranked.getString(6) == "e")
    assert(TopBids.RankedSchema.fieldNames.toSeq == TopBids.BidSchema.fieldNames.toSeq :+ "rank_number")
  }
}
