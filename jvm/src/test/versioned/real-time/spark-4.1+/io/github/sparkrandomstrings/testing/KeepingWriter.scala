package io.github.sparkrandomstrings.testing

import java.util.concurrent.{ConcurrentHashMap, ConcurrentLinkedQueue}

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.{ForeachWriter, Row}

/**
 * A foreach sink that keeps each row it gets, with the moment it got it and the partition that
 * wrote it, under its name. In a query with no shuffle the sink's partition is the source's.
 */
final class KeepingWriter(name: String) extends ForeachWriter[Row] {
  private var partition = -1L
  override def open(partitionId: Long, epochId: Long): Boolean = {
    partition = partitionId
    true
  }
  override def process(row: Row): Unit =
    KeepingWriter.queue(name).add(KeepingWriter.Kept(row, System.currentTimeMillis(), partition))
  override def close(errorOrNull: Throwable): Unit = ()
}

object KeepingWriter {

  /** A row the sink got, when, and which partition handed it on. */
  final case class Kept(row: Row, atMs: Long, partition: Long)

  private val queues = new ConcurrentHashMap[String, ConcurrentLinkedQueue[Kept]]()

  private def queue(name: String): ConcurrentLinkedQueue[Kept] =
    queues.computeIfAbsent(name, _ => new ConcurrentLinkedQueue[Kept]())

  /** What the sink named `name` has kept so far, in the order it got it. */
  def kept(name: String): Seq[(Row, Long)] = keptWhole(name).map(k => (k.row, k.atMs))

  /** What the sink named `name` has kept so far, in the order it got it, with each row's partition. */
  def keptWhole(name: String): Seq[Kept] = queue(name).asScala.toSeq
}
