package io.github.sparkrandomstrings.latency

import java.sql.Timestamp
import java.time.Instant

import org.apache.spark.sql.Row

import io.github.sparkrandomstrings.changes.{ChangeEnvelope, ChangeStream}
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

  /**
   * A change stream: change `n` exists when row `n` of its definition does, and each row carries
   * `n` where its envelope puts it (`_seq`; Delta's `_commit_version`; Debezium's `source.sequence`).
   */
  final case class Changes(name: String, stream: ChangeStream) extends MeasuredStream {
    private val (column, seqOf) = stream.spec.envelope match {
      case ChangeEnvelope.Debezium => ("source.sequence", (r: Row) => r.getAs[Row]("source").getAs[Long]("sequence"))
      case ChangeEnvelope.Delta => ("_commit_version", (r: Row) => r.getAs[Long]("_commit_version"))
      case _ => ("_seq", (r: Row) => r.getAs[Long]("_seq"))
    }

    override def existsAtMs(row: Row): Long = {
      val seq =
        try seqOf(row)
        catch {
          case e: IllegalArgumentException =>
            throw new IllegalArgumentException(
              s"LatencySink $name measures each change from the moment it came to exist, which its number " +
                s"tells, and a row reached it without $column (${stream.spec.envelope.name} envelope): " +
                s"${Option(row.schema).fold(row.toString)(_.toDDL)}. Keep $column in the query's rows.",
              e)
        }
      // The change's own moment, whatever offset read it (an untidy delivery reads it later).
      stream.definition.existsAtMs(seq)
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
