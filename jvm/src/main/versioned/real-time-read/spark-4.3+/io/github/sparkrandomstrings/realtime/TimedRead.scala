package io.github.sparkrandomstrings.realtime

import java.lang.{Long => JLong}

import org.apache.spark.sql.connector.read.streaming.SupportsRealTimeRead.RecordStatus

import io.github.sparkrandomstrings.time.RowClock

/**
 * How this Spark line asks an [[InterleavedReader]] for its next row in real-time mode.
 * Spark 4.3 has both forms as defaults, `nextWithTimeout(startTimeMs, timeoutMs)` (which its engine
 * calls) and 4.1's `nextWithTimeout(timeoutMs)`: both are answered here.
 */
private[sparkrandomstrings] trait TimedRead extends RealTimeRead {

  override def nextWithTimeout(startTimeMs: JLong, timeoutMs: JLong): RecordStatus =
    answerBy(RowClock.saturatedAdd(startTimeMs, timeoutMs))

  override def nextWithTimeout(timeoutMs: JLong): RecordStatus =
    answerBy(RowClock.saturatedAdd(System.currentTimeMillis(), timeoutMs))
}
