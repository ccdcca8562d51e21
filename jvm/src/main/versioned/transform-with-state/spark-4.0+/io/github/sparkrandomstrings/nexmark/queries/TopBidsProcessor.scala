package io.github.sparkrandomstrings.nexmark.queries

import org.apache.spark.sql.{Encoders, Row}
import org.apache.spark.sql.streaming.{
  ListState,
  OutputMode,
  StatefulProcessor,
  TTLConfig,
  TimeMode,
  TimerValues
}

/**
 * q19's stateful processor, keyed by the auction: its `TopBids.Size` greatest bids in a list
 * state (rows of `TopBids.BidSchema`), greatest first. Each batch of an auction's bids writes the
 * ranks whose bid changed (`TopBids`), rows of `TopBids.RankedSchema`: an upsert of
 * `(auction, rank_number)`.
 */
final class TopBidsProcessor extends StatefulProcessor[Long, Row, Row] {

  @transient private var top: ListState[Row] = _

  override def init(outputMode: OutputMode, timeMode: TimeMode): Unit =
    top = getHandle.getListState[Row]("top", Encoders.row(TopBids.BidSchema), TTLConfig.NONE)

  override def handleInputRows(auction: Long, bids: Iterator[Row], timerValues: TimerValues): Iterator[Row] = {
    val before = top.get().map(TopBids.bidOf).toIndexedSeq
    // A full top only rises: a bid priced below its last cannot enter, and is dropped unmade.
    val floor = if (before.length == TopBids.Size) before.last.price else Long.MinValue
    val after = TopBids.merged(before, bids.filter(_.getLong(TopBids.PriceField) >= floor).map(TopBids.bidOf))
    val changed = TopBids.changedRanks(before, after)
    if (changed.nonEmpty) top.put(after.map(bid => TopBids.rowOf(bid)).toArray)
    changed.iterator.map(ranked => TopBids.rowOf(ranked))
  }
}
