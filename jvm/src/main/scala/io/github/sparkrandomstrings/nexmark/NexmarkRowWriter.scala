package io.github.sparkrandomstrings.nexmark

import org.apache.spark.sql.catalyst.expressions.UnsafeRow
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter
import org.apache.spark.unsafe.Platform

/**
 * Writes an event straight into Spark's binary row format as [[Nexmark.Schema]] lays it out:
 * `event_type`, the struct of the event's kind (the other two null), `dateTime`. The structs are
 * written in place by child writers, as Spark's own generated projections write nested rows, and
 * strings are copied from the event's buffers, so a row costs no allocation. The row returned is
 * overwritten by the next call.
 *
 * The bytes are the ones `UnsafeRowWriter.write(ordinal, bytes, offset, length)` writes, copied
 * with `System.arraycopy` rather than its `Platform.copyMemory`, whose per-call cost dominated a
 * bid's three short strings; a bid's channel and URL, fixed per channel, are one copy of a block
 * laid out as the row holds them (from [[NexmarkChannels.Blocks]]).
 */
final class NexmarkRowWriter {
  private val top = new UnsafeRowWriter(Nexmark.Schema.length, 1024)
  private val person = new UnsafeRowWriter(top, Nexmark.PersonType.length)
  private val auction = new UnsafeRowWriter(top, Nexmark.AuctionType.length)
  private val bid = new UnsafeRowWriter(top, Nexmark.BidType.length)
  // The channels' tables, read once here rather than through their lazy vals for every bid.
  private val channelBlocks = NexmarkChannels.Blocks
  private val channelLayout = NexmarkChannels.Layout

  def write(e: NexmarkEvent): UnsafeRow = {
    top.reset()
    top.zeroOutNullBytes()
    top.write(0, e.eventType)
    e.eventType match {
      case NexmarkEvent.Person =>
        writePerson(e)
        top.setNullAt(2)
        top.setNullAt(3)
      case NexmarkEvent.Auction =>
        top.setNullAt(1)
        writeAuction(e)
        top.setNullAt(3)
      case _ =>
        top.setNullAt(1)
        top.setNullAt(2)
        writeBid(e)
    }
    top.write(4, micros(e.dateTimeMs))
    top.getRow
  }

  private def micros(ms: Long): Long = ms * 1000L

  private def text(writer: UnsafeRowWriter, ordinal: Int, value: AsciiText): Unit =
    copy(writer, ordinal, value.bytes, value.length)

  private def bytes(writer: UnsafeRowWriter, ordinal: Int, value: Array[Byte]): Unit =
    copy(writer, ordinal, value, value.length)

  /**
   * The first `length` bytes of `source` as field `ordinal`'s value: at the cursor, the last word's
   * padding zeroed (an UnsafeRow's bytes are compared and hashed whole), offset and size set to
   * `length`, the cursor moved past the padding.
   */
  private def copy(writer: UnsafeRowWriter, ordinal: Int, source: Array[Byte], length: Int): Unit = {
    val padded = NexmarkChannels.padded(length)
    writer.grow(padded)
    val start = writer.cursor()
    val buffer = writer.getBuffer
    if (padded != length) Platform.putLong(buffer, start + padded - 8, 0L)
    System.arraycopy(source, 0, buffer, start - Platform.BYTE_ARRAY_OFFSET, length)
    writer.increaseCursor(length)
    writer.setOffsetAndSizeFromPreviousCursor(ordinal, start)
    writer.increaseCursor(padded - length)
  }

  /** A bid's channel and URL (fields 3 and 4): its channel's block, padding included, in one copy. */
  private def channelAndUrl(channel: Int): Unit = {
    val layout = channelLayout(channel)
    val blockAt = (layout >>> 32).toInt
    val nameLength = (layout >>> 16).toInt & 0xFFFF
    val urlLength = layout.toInt & 0xFFFF
    val urlAt = NexmarkChannels.padded(nameLength)
    val blockLength = urlAt + NexmarkChannels.padded(urlLength)
    bid.grow(blockLength)
    val start = bid.cursor()
    System.arraycopy(channelBlocks, blockAt, bid.getBuffer, start - Platform.BYTE_ARRAY_OFFSET, blockLength)
    bid.increaseCursor(nameLength)
    bid.setOffsetAndSizeFromPreviousCursor(3, start)
    bid.increaseCursor(urlAt - nameLength + urlLength)
    bid.setOffsetAndSizeFromPreviousCursor(4, start + urlAt)
    bid.increaseCursor(start + blockLength - bid.cursor())
  }

  private def writePerson(e: NexmarkEvent): Unit = {
    val start = top.cursor()
    person.resetRowWriter()
    person.write(0, e.personId)
    text(person, 1, e.name)
    text(person, 2, e.emailAddress)
    text(person, 3, e.creditCard)
    bytes(person, 4, e.cityName)
    bytes(person, 5, e.stateName)
    person.write(6, micros(e.dateTimeMs))
    text(person, 7, e.extra)
    top.setOffsetAndSizeFromPreviousCursor(1, start)
  }

  private def writeAuction(e: NexmarkEvent): Unit = {
    val start = top.cursor()
    auction.resetRowWriter()
    auction.write(0, e.auctionId)
    text(auction, 1, e.itemName)
    text(auction, 2, e.description)
    auction.write(3, e.initialBid)
    auction.write(4, e.reserve)
    auction.write(5, micros(e.dateTimeMs))
    auction.write(6, micros(e.expiresMs))
    auction.write(7, e.seller)
    auction.write(8, e.category)
    text(auction, 9, e.extra)
    top.setOffsetAndSizeFromPreviousCursor(2, start)
  }

  private def writeBid(e: NexmarkEvent): Unit = {
    val start = top.cursor()
    bid.resetRowWriter()
    bid.write(0, e.auction)
    bid.write(1, e.bidder)
    bid.write(2, e.price)
    channelAndUrl(e.channel)
    bid.write(5, micros(e.dateTimeMs))
    text(bid, 6, e.extra)
    top.setOffsetAndSizeFromPreviousCursor(3, start)
  }
}
