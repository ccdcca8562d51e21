package io.github.sparkrandomstrings.realtime

import org.apache.spark.internal.Logging
import org.apache.spark.sql.connector.read.{InputPartition, PartitionReaderFactory}
import org.apache.spark.sql.connector.read.streaming.{
  MicroBatchStream,
  Offset => StreamOffset,
  PartitionOffset,
  ReadLimit,
  ReadMaxRows,
  SupportsAdmissionControl,
  SupportsTriggerAvailableNow
}

import io.github.sparkrandomstrings.offsets.{InterleavedOffset, PartitionPosition}
import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.rows.OffsetRows
import io.github.sparkrandomstrings.time.{RowClock, StreamClock}

/**
 * A stream of this jar read with `realTime=true`: Spark's DSv2 `MicroBatchStream`, which
 * real-time mode needs (on Spark 4.1 and later [[RealTimeMode]] adds its side, and the readers'
 * [[TimedRead]] theirs). The rows are the V1 source's ([[offsets.OffsetSource]]), row for row: a row is a
 * pure function of the stream's definition and its offset ([[rows.OffsetRows]]), whichever interface
 * reads it. The random strings and the Nexmark events are both read through it.
 *
 * Offsets are per partition ([[offsets.InterleavedOffset]]): partition p of n reads the offsets
 * congruent to p modulo n, so in real-time mode each partition hands its rows on as they come
 * to exist and ends a batch wherever its deadline finds it.
 *  - Micro-batch triggers (processing time, `AvailableNow`): [[latestOffset]] takes every
 *    partition forward to the frontier of the rows that exist now (capped at `totalRows`, and
 *    by `maxRowsPerTrigger` through the read limit); [[planInputPartitions]] reads from each
 *    partition's start to its end.
 *  - Real-time mode: each batch reads open-ended from its start; the readers' final positions
 *    are merged into the batch's end ([[merged]]). A limit of rows per trigger is refused
 *    there: a real-time batch reads each row as it comes to exist.
 *
 * Restart: the definition is fixed in the checkpoint, as the V1 source's is, and the offsets
 * are in Spark's offset log, so a re-executed batch reads exactly the rows it read before.
 * The number of partitions is part of the offsets and must not change for a checkpoint.
 *
 * Driver state is O(n) in the partitions, whatever the rate or run time.
 *
 * @param rows          the stream's rows, as its checkpoint fixes them
 * @param bound         how many rows the stream has; None: endless
 * @param maxPerTrigger the most rows one micro-batch reads, if limited, and its option's name
 * @param clock         where the stream reads the time
 * @param numPartitions the partitions of every batch (n)
 * @param description   what progress reports show of the stream
 */
private[sparkrandomstrings] final class OffsetRowsStream(
    val rows: OffsetRows,
    bound: Option[Long],
    maxPerTrigger: Option[(String, Long)],
    clock: StreamClock,
    val numPartitions: Int,
    description: String)
    extends MicroBatchStream
    with SupportsAdmissionControl
    with SupportsTriggerAvailableNow
    with RealTimeMode
    with Logging {

  /** Under Trigger.AvailableNow, how many rows the query reads: its frontier. */
  @volatile private var availableNowEnd: Option[Long] = None

  /** The offset the stream ends at: its bound, or never. */
  private val endOfStream: Long = bound.getOrElse(Long.MaxValue)

  /** How many rows exist now (by the clock and the bound): the frontier of what can be read. */
  private def rowsExisting(): Long = math.min(rows.rowsAvailableAt(clock.nowMs()), endOfStream)

  private def rowsAvailable(): Long = availableNowEnd.getOrElse(rowsExisting())

  override def initialOffset(): StreamOffset = InterleavedOffset.start(numPartitions)

  override def deserializeOffset(json: String): StreamOffset =
    InterleavedOffset.parseJson(json, numPartitions)

  override def latestOffset(): StreamOffset = InterleavedOffset.start(numPartitions).advancedTo(rowsAvailable())

  override def getDefaultReadLimit: ReadLimit =
    maxPerTrigger.fold(ReadLimit.allAvailable())(limit => ReadLimit.maxRows(limit._2))

  /**
   * The end of the next micro-batch: every partition forward to the rows available now, or to
   * `maxRows` rows after the start's frontier. `start` is the last batch's end (or the initial
   * offset).
   */
  override def latestOffset(start: StreamOffset, limit: ReadLimit): StreamOffset = {
    val from = Option(start).fold(InterleavedOffset.start(numPartitions))(InterleavedOffset.parse(_, numPartitions))
    val available = rowsAvailable()
    val frontier = limit match {
      case max: ReadMaxRows => math.min(available, RowClock.saturatedAdd(from.frontier, max.maxRows))
      case _ => available
    }
    from.advancedTo(frontier)
  }

  override def prepareForTriggerAvailableNow(): Unit = {
    // A bounded stream is available as a whole; an endless one up to what exists now.
    val end = if (bound.isDefined) endOfStream else rowsExisting()
    logInfo(s"Trigger.AvailableNow: reading the rows before offset $end")
    availableNowEnd = Some(end)
  }

  override def planInputPartitions(start: StreamOffset, end: StreamOffset): Array[InputPartition] = {
    val (from, until) = (InterleavedOffset.parse(start, numPartitions), InterleavedOffset.parse(end, numPartitions))
    Array.tabulate[InputPartition](numPartitions) { p =>
      // A partition the end does not take past its start reads nothing: it ends where it starts.
      val end = if (Ordering[(Long, Int)].gt(until.position(p), from.position(p))) until else from
      InterleavedPartition(p, numPartitions, from.next(p), end.next(p), from.handed(p), end.handed(p))
    }
  }

  override def createReaderFactory(): PartitionReaderFactory = new InterleavedReaderFactory(rows, clock)

  override def commit(end: StreamOffset): Unit = ()

  override def stop(): Unit = logInfo(s"$this stopped")

  /** A real-time batch: each partition from its start on, until the stream's end if it has one. */
  private[sparkrandomstrings] def openEnded(start: StreamOffset): Array[InputPartition] = {
    val from = InterleavedOffset.parse(start, numPartitions)
    Array.tabulate[InputPartition](numPartitions) { p =>
      InterleavedPartition(p, numPartitions, from.next(p), math.max(from.next(p), endOfStream), from.handed(p))
    }
  }

  /** A real-time batch's end: where each partition's reader stopped. */
  private[sparkrandomstrings] def merged(positions: Seq[PartitionOffset]): InterleavedOffset = {
    val next = Array.fill(numPartitions)(-1L)
    val handed = Array.fill(numPartitions)(0)
    positions.foreach {
      case PartitionPosition(p, offset, rows) if p >= 0 && p < numPartitions =>
        next(p) = offset
        handed(p) = rows
      case other => throw new IllegalStateException(s"$this was handed a position it did not make: $other")
    }
    val missing = next.indices.filter(next(_) < 0L)
    if (missing.nonEmpty) {
      throw new IllegalStateException(s"$this has no end position for partitions ${missing.mkString(", ")}")
    }
    InterleavedOffset(next.toIndexedSeq, handed.toIndexedSeq)
  }

  /** Called when a real-time query starts: refuses what a real-time batch cannot honour. */
  private[sparkrandomstrings] def checkRealTime(): Unit = {
    maxPerTrigger.foreach { case (option, max) =>
      throw new IllegalArgumentException(
        s"Option '$option' is $max, but this query runs in real-time mode, " +
          s"whose batches read each row as it comes to exist and have no row limit. Remove " +
          s"'$option', or run the query with a micro-batch trigger.")
    }
    clock match {
      case StreamClock.Manual(name) =>
        throw new IllegalArgumentException(
          s"Option '${RandomStrings.MANUAL_CLOCK}' is $name, but this query runs in real-time mode, whose " +
            "batches Spark times by the system clock. Step a manual clock under a micro-batch trigger, or " +
            s"remove '${RandomStrings.MANUAL_CLOCK}'.")
      case StreamClock.System => ()
    }
  }

  override def toString: String = description
}
