package io.github.sparkrandomstrings.latency

import java.sql.Timestamp
import java.time.Instant

import org.apache.spark.sql.Row

import io.github.sparkrandomstrings.nexmark.{NexmarkConfig, NexmarkStream}
import io.github.sparkrandomstrings.rows.StreamDefinition

/**
 * What a [[LatencySink]] measures from: when each row of the stream it is fed came to exist, as
 * the stream's checkpoint fixes it.
 */
private[sparkrandomstrings] sealed trait MeasuredStream {

  /** When `row` came to exist (epoch ms). */
  def existsAtMs(row: Row): Long

  /** With a declared schema, the offset column the sink's recent rows are shown by. */
  def declaredOffset: Option[String] = None
}

private[sparkrandomstrings] object MeasuredStream {

  /** The random strings: a row exists when its offset does, read from `offsetColumn`. */
  final case class Strings(definition: StreamDefinition, offsetColumn: String) extends MeasuredStream {
    override def existsAtMs(row: Row): Long = definition.existsAtMs(row.getAs[Long](offsetColumn))
    override def declaredOffset: Option[String] = definition.declared.map(_ => offsetColumn)
  }

  /**
   * The Nexmark events: event `n` exists `timestamp(n)` after the stream's first start, and its
   * `dateTime` is that timestamp from the base time (in order: out-of-order groups, which move an
   * event's time away from its number's, are refused).
   */
  final case class Nexmark(stream: NexmarkStream) extends MeasuredStream {
    override def existsAtMs(row: Row): Long = {
      val at = row.getAs[Any]("dateTime") match {
        case t: Timestamp => t.getTime
        case i: Instant => i.toEpochMilli
        case other => throw new IllegalArgumentException(s"dateTime is $other, not a timestamp")
      }
      stream.startTimeMs + (at - NexmarkConfig.BaseTimeMs)
    }
  }

  def strings(name: String, definition: StreamDefinition): MeasuredStream =
    Strings(
      definition,
      definition.offsetColumn.getOrElse(throw new IllegalArgumentException(
        s"LatencySink $name measures each row from the moment its offset came to exist, and the stream's " +
          s"schema (${definition.schema.toDDL}) has no column of the rows' offsets. Declare one: a BIGINT " +
          "column with the option fields.<column>.kind=offset.")))

  def nexmark(name: String, stream: NexmarkStream): MeasuredStream = {
    if (stream.config.outOfOrderGroupSize != 1L) {
      throw new IllegalArgumentException(
        s"LatencySink $name measures each event from the moment it came to exist, which its dateTime tells " +
          s"only in order, and this stream's outOfOrderGroupSize is ${stream.config.outOfOrderGroupSize}. " +
          "Measure a stream with outOfOrderGroupSize 1.")
    }
    Nexmark(stream)
  }
}
