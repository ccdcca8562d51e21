package io.github.sparkrandomstrings.nexmark

import org.apache.spark.sql.catalyst.expressions.UnsafeRow

import io.github.sparkrandomstrings.rows.{OffsetRows, RowMaker}

/**
 * One Nexmark stream as a checkpoint fixes it: which events (the configuration) and when the
 * stream first started. Offset `n` is event `n`; it comes to exist `timestampMs(n)` after the
 * first start (as Beam's rate-limited source emits it), and each partition makes its own events
 * on the executors ([[NexmarkRows]]).
 */
final case class NexmarkStream(config: NexmarkConfig, startTimeMs: Long) extends OffsetRows {

  override def sourceName: String = Nexmark.ShortName

  @transient private lazy val timeline = new NexmarkTimeline(config)

  /** How many events exist at wall-clock time `nowMs`: those whose timestamps have come. */
  override def rowsAvailableAt(nowMs: Long): Long =
    timeline.eventsWithin(nowMs - startTimeMs, NexmarkStream.EndlessCap)

  /** When event `offset` comes to exist: its timestamp's distance from event 0's, after the first start. */
  override def existsAtMs(offset: Long): Long = startTimeMs + timeline.timestampMs(offset)

  override def newRowMaker(): RowMaker = new NexmarkRows(config)
}

object NexmarkStream {

  /** How many events an endless stream may reach: 2^50, 35 years at a million events a second. */
  val EndlessCap: Long = 1L << 50
}

/** Makes each offset's event and writes it as a row: one per partition. */
final class NexmarkRows(config: NexmarkConfig) extends RowMaker {
  private val generator = new NexmarkGenerator(config)
  private val writer = new NexmarkRowWriter

  override def row(offset: Long): UnsafeRow = writer.write(generator.event(offset))
}
