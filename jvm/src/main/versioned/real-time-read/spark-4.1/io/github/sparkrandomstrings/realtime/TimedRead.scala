package io.github.sparkrandomstrings.realtime

import java.lang.{Long => JLong}

import org.apache.spark.sql.connector.read.streaming.SupportsRealTimeRead.RecordStatus

import io.github.sparkrandomstrings.time.RowClock

/**
 * How this Spark line asks an [[InterleavedReader]] for its next row in real-time mode.
 * Spark 4.1 asks with `nextWithTimeout(timeoutMs)`: the time left until the batch ends.
 */
private[sparkrandomstrings] trait TimedRead extends RealTimeRead {

  override def nextWithTimeout(timeoutMs: JLong): RecordStatus =
    answerBy(RowClock.saturatedAdd(System.currentTimeMillis(), timeoutMs))
}
