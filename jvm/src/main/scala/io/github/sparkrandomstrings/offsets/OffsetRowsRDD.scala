package io.github.sparkrandomstrings.offsets

import org.apache.spark.{InterruptibleIterator, Partition, SparkContext, TaskContext}
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.catalyst.InternalRow

import io.github.sparkrandomstrings.rows.{MultiRowMaker, OffsetRows, RowMaker}

/** The slice of a batch that one task makes. */
private[sparkrandomstrings] final case class SlicePartition(index: Int, offsets: OffsetRange)
    extends Partition

/**
 * One batch of rows, made on the executors: each partition generates its own slice of the
 * batch's offsets from the [[rows.OffsetRows]] it carries (a [[rows.StreamDefinition]], or the Nexmark
 * events'). Nothing is made on the driver, and nothing at all until a task runs, so planning a
 * batch (or planning it again after a restart) costs nothing.
 */
private[sparkrandomstrings] final class OffsetRowsRDD(
    sc: SparkContext,
    val stream: OffsetRows,
    offsets: OffsetRange,
    numSlices: Int)
    extends RDD[InternalRow](sc, Nil) {

  override protected def getPartitions: Array[Partition] =
    Array.tabulate[Partition](numSlices)(p => SlicePartition(p, offsets.slice(p, numSlices)))

  override def compute(split: Partition, context: TaskContext): Iterator[InternalRow] = {
    val offsets = split.asInstanceOf[SlicePartition].offsets
    val rows = stream.newRowMaker() match {
      case multi: MultiRowMaker => multiRows(offsets, multi)
      case maker => oneRowEach(offsets, maker)
    }
    new InterruptibleIterator(context, rows)
  }

  /** The rows of a maker that makes one row per offset: the path of every source but a change stream's. */
  private def oneRowEach(offsets: OffsetRange, maker: RowMaker): Iterator[InternalRow] =
    new Iterator[InternalRow] {
      private var offset = offsets.from
      override def hasNext: Boolean = offset < offsets.until
      override def next(): InternalRow = {
        if (!hasNext) throw new NoSuchElementException(s"the slice $offsets is exhausted")
        val row = maker.row(offset)
        offset += 1
        row
      }
    }

  /** The rows of a maker whose offsets may make several rows each, in order. */
  private def multiRows(offsets: OffsetRange, maker: MultiRowMaker): Iterator[InternalRow] =
    new Iterator[InternalRow] {
      private var offset = offsets.from
      private var count = 0
      private var index = 0
      override def hasNext: Boolean = index < count || offset < offsets.until
      override def next(): InternalRow = {
        if (index == count) {
          if (offset >= offsets.until) throw new NoSuchElementException(s"the slice $offsets is exhausted")
          count = maker.rowsAt(offset)
          index = 0
          offset += 1
        }
        val row = maker.rowOf(index)
        index += 1
        row
      }
    }
}
