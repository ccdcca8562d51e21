package io.github.sparkrandomstrings.testing

import java.util.concurrent.{ConcurrentHashMap, ConcurrentLinkedQueue}

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.{ForeachWriter, Row}

/** A foreach sink that keeps each row it gets, with the moment it got it, under its name. */
final class KeepingWriter(name: String) extends ForeachWriter[Row] {
  override def open(partitionId: Long, epochId: Long): Boolean = true
  override def process(row: Row): Unit = KeepingWriter.queue(name).add((row, System.currentTimeMillis()))
  override def close(errorOrNull: Throwable): Unit = ()
}

object KeepingWriter {
  private val queues = new ConcurrentHashMap[String, ConcurrentLinkedQueue[(Row, Long)]]()

  private def queue(name: String): ConcurrentLinkedQueue[(Row, Long)] =
    queues.computeIfAbsent(name, _ => new ConcurrentLinkedQueue[(Row, Long)]())

  /** What the sink named `name` has kept so far, in the order it got it. */
  def kept(name: String): Seq[(Row, Long)] = queue(name).asScala.toSeq
}
