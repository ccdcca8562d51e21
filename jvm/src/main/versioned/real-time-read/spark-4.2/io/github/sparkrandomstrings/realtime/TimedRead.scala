package io.github.sparkrandomstrings.realtime

import java.lang.{Long => JLong}

import org.apache.spark.sql.connector.read.streaming.SupportsRealTimeRead.RecordStatus

import io.github.sparkrandomstrings.time.RowClock

/**
 * How this Spark line asks an [[InterleavedReader]] for its next row in real-time mode.
 * Spark 4.2 asks with `nextWithTimeout(startTimeMs, timeoutMs)`: the moment it asked, and the time
 * left from then until the batch ends.
 */
private[sparkrandomstrings] trait TimedRead extends RealTimeRead {

  override def nextWithTimeout(startTimeMs: JLong, timeoutMs: JLong): RecordStatus =
    answerBy(RowClock.saturatedAdd(startTimeMs, timeoutMs))
}
