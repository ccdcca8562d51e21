package io.github.sparkrandomstrings.realtime

import java.util.concurrent.TimeUnit
import java.util.concurrent.locks.LockSupport

import org.apache.spark.TaskContext
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.read.{InputPartition, PartitionReader, PartitionReaderFactory}

import io.github.sparkrandomstrings.offsets.PartitionPosition
import io.github.sparkrandomstrings.rows.{MultiRowMaker, OffsetRows}
import io.github.sparkrandomstrings.time.{RowClock, StreamClock}

/**
 * The share of a batch of a `realTime` stream that one task reads: partition `partition` of
 * `numPartitions` reads its offsets (congruent to `partition` modulo `numPartitions`, see
 * [[offsets.InterleavedOffset]]) from `from` until `until` (exclusive; Long.MaxValue in real-time mode,
 * whose batches are open-ended, or `totalRows` for a bounded stream). Where an offset makes several
 * rows, `fromHanded` of the first offset's rows were handed on by an earlier batch, and the last
 * offset's first `untilHanded` rows (none, but where a real-time batch ended between two rows of
 * an offset) belong to this one.
 */
private[sparkrandomstrings] final case class InterleavedPartition(
    partition: Int,
    numPartitions: Int,
    from: Long,
    until: Long,
    fromHanded: Int = 0,
    untilHanded: Int = 0)
    extends InputPartition

/** Makes each task's reader, on the executor, from the stream and the clock it carries. */
private[sparkrandomstrings] final class InterleavedReaderFactory(rows: OffsetRows, clock: StreamClock)
    extends PartitionReaderFactory {
  override def createReader(partition: InputPartition): PartitionReader[InternalRow] =
    new InterleavedReader(rows, partition.asInstanceOf[InterleavedPartition], clock)
}

/**
 * Reads one [[InterleavedPartition]]: its rows in offset order, each made on the executor by
 * the stream's [[rows.RowMaker]], as the V1 source's partitions make theirs. An offset that makes
 * several rows (a change stream's update in the Delta and Flink envelopes,
 * [[rows.MultiRowMaker]]) hands them on one after the other, each with the offset's arrival time.
 *
 * Two ways to read, one position:
 *  - a micro-batch (`next`): every row of the partition's range, which all exist already (the
 *    batch's end was chosen from the clock);
 *  - real-time mode ([[nextBy]], which each Spark line's `nextWithTimeout` calls, see
 *    [[TimedRead]]): the next row once it comes to exist ([[rows.OffsetRows.existsAtMs]]),
 *    blocking until then, with that moment as its arrival time; or, if it does not exist by the
 *    batch's deadline (or the stream has ended), nothing, once the deadline has passed. The
 *    thread parks until the moment it waits for: it neither spins nor polls. Spark ends the
 *    task at the first "nothing", so answering early would end the batch early.
 *
 * [[position]] is the next row to read, whichever way it was read: its offset and how many of
 * that offset's rows are handed on already. Spark records it as the partition's end in real-time
 * mode, and may end a batch between two rows of an offset (it checks its deadline before asking
 * for each row): the next batch then starts with the offset's next row.
 */
private[sparkrandomstrings] final class InterleavedReader(
    rows: OffsetRows,
    partition: InterleavedPartition,
    clock: StreamClock)
    extends PartitionReader[InternalRow] with TimedRead {

  private val maker = rows.newRowMaker()
  private val multi: Option[MultiRowMaker] = maker match {
    case m: MultiRowMaker => Some(m)
    case _ => None
  }
  private val step = partition.numPartitions.toLong
  private var current: InternalRow = _
  private var currentArrivalMs = 0L

  // The next row to read: row `nextRow` of offset `nextOffset`, which makes `rowsOfOffset` rows
  // (0: not worked out yet).
  private var nextOffset = partition.from
  private var nextRow = partition.fromHanded
  private var rowsOfOffset = 0

  /** The clock as last read: a row that existed then needs no new reading. */
  private var lastNowMs = Long.MinValue

  /** Whether the partition's range is read whole. */
  private def exhausted: Boolean =
    nextOffset > partition.until || (nextOffset == partition.until && nextRow >= partition.untilHanded)

  override def next(): Boolean =
    if (exhausted) false
    else {
      handOn(existsAt = 0L) // no arrival time: a micro-batch reads rows that exist already
      true
    }

  override def get(): InternalRow = current

  /**
   * The next row, if it comes to exist by `deadlineMs` (epoch ms): waits until it exists and
   * makes it current. Otherwise waits until the deadline and answers false. A row of an offset
   * whose first row is handed on exists already.
   */
  def nextBy(deadlineMs: Long): Boolean = {
    val existsAt = if (exhausted) Long.MaxValue else rows.existsAtMs(nextOffset)
    if (existsAt > deadlineMs) {
      waitUntil(deadlineMs)
      false
    } else if (waitUntil(existsAt)) {
      handOn(existsAt)
      true
    } else false // killed while waiting: the row stays unread, and the task ends
  }

  /** When the current row came to exist (epoch ms): its arrival time. */
  def arrivalMs: Long = currentArrivalMs

  /** This partition's position: the next row it reads. */
  def position: PartitionPosition = PartitionPosition(partition.partition, nextOffset, nextRow)

  override def close(): Unit = ()

  private def handOn(existsAt: Long): Unit = {
    current = multi match {
      case Some(m) =>
        if (rowsOfOffset == 0) {
          rowsOfOffset = m.rowsAt(nextOffset)
          if (nextRow >= rowsOfOffset) {
            throw new IllegalStateException(
              s"Offset $nextOffset of ${rows.sourceName} makes $rowsOfOffset rows, and this batch starts at its " +
                s"row $nextRow: the offsets in the checkpoint are not this stream's.")
          }
        }
        m.rowOf(nextRow)
      case None =>
        rowsOfOffset = 1
        maker.row(nextOffset)
    }
    currentArrivalMs = existsAt
    nextRow += 1
    if (nextRow >= rowsOfOffset) {
      nextOffset = RowClock.saturatedAdd(nextOffset, step)
      nextRow = 0
      rowsOfOffset = 0
    }
  }

  /**
   * Parks the thread until the clock reads `momentMs`; returns at once if it already has.
   * Answers whether the moment came: false if the task was killed meanwhile.
   *
   * `query.stop()` kills a real-time batch's tasks mid-wait: Spark marks each task killed, then
   * interrupts its thread. The wait then ends quietly: the reader answers "no row" and the task
   * returns, and the executor, which checks the task's kill when it returns, reports it killed,
   * as Spark's continuous tasks end on the interrupt that stops them. The thread's interrupt is
   * cleared (the task keeps the kill), else the sink's commit would fail on it. An exception
   * thrown from here would pass through the sink's write task, which logs any exception as an
   * error ("Aborting task").
   */
  private def waitUntil(momentMs: Long): Boolean = {
    if (momentMs <= lastNowMs) return true
    lastNowMs = clock.nowMs()
    while (lastNowMs < momentMs) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(momentMs - lastNowMs))
      if (Option(TaskContext.get()).exists(_.isInterrupted())) {
        Thread.interrupted()
        return false
      }
      if (Thread.interrupted()) throw new InterruptedException(s"interrupted while waiting for offset $nextOffset")
      lastNowMs = clock.nowMs()
    }
    true
  }
}
