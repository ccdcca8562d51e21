package io.github.sparkrandomstrings.realtime

import java.lang.{Long => JLong}

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.read.InputPartition
import org.apache.spark.sql.connector.read.streaming.{
  Offset => StreamOffset,
  PartitionOffset,
  SupportsRealTimeMode,
  SupportsRealTimeRead
}
import org.apache.spark.sql.connector.read.streaming.SupportsRealTimeRead.RecordStatus

import io.github.sparkrandomstrings.offsets.PartitionPosition

/**
 * The real-time side of [[OffsetRowsStream]] (Spark 4.1 and later): Spark plans each
 * real-time batch from its start alone, and merges the readers' final positions into its end.
 */
private[sparkrandomstrings] trait RealTimeMode extends SupportsRealTimeMode { self: OffsetRowsStream =>

  override def prepareForRealTimeMode(): Unit = checkRealTime()

  override def planInputPartitions(start: StreamOffset): Array[InputPartition] = openEnded(start)

  override def mergeOffsets(offsets: Array[PartitionOffset]): StreamOffset = merged(offsets.toSeq)
}

private[sparkrandomstrings] object RealTimeMode {

  /** Called by `load()` when `realTime` is true: this Spark has real-time mode. */
  def requireAvailable(): Unit = ()

  /** What a real-time read answers: the row it found, with its arrival time, or none. */
  def status(found: Boolean, arrivalMs: Long): RecordStatus =
    if (found) RecordStatus.newStatusWithArrivalTimeMs(JLong.valueOf(arrivalMs))
    else RecordStatus.newStatusWithoutArrivalTime(false)
}

/**
 * The real-time side of an [[InterleavedReader]] (Spark 4.1 and later): the next row once it
 * exists, if it does before the batch's deadline, with its arrival time. How Spark asks for it,
 * `nextWithTimeout`, moved between lines: each line's [[TimedRead]] answers it with [[answerBy]].
 */
private[sparkrandomstrings] trait RealTimeRead extends SupportsRealTimeRead[InternalRow] {

  /** The next row, if it exists by `deadlineMs` (epoch ms), waiting until it does. */
  def nextBy(deadlineMs: Long): Boolean

  /** When the current row came to exist (epoch ms). */
  def arrivalMs: Long

  /** The next offset this reader reads. */
  def position: PartitionPosition

  override def getOffset: PartitionOffset = position

  /** [[nextBy]] as Spark's answer: the row and its arrival time, or none. */
  protected def answerBy(deadlineMs: Long): RecordStatus = RealTimeMode.status(nextBy(deadlineMs), arrivalMs)
}
