package io.github.sparkrandomstrings.rows

import org.apache.spark.sql.catalyst.expressions.UnsafeRow

/**
 * A stream whose every row is a pure function of its offset: what a batch's partitions carry to
 * the executors ([[offsets.OffsetRowsRDD]]), each making its own slice there with its own [[RowMaker]].
 * The random strings' [[StreamDefinition]] is one; the Nexmark events' stream is another.
 */
private[sparkrandomstrings] trait OffsetRows extends Serializable {

  /** The short name of the source whose rows these are, as plans and messages show it. */
  def sourceName: String

  /** How many rows exist at wall-clock time `nowMs` (epoch ms), before any end of the stream. */
  def rowsAvailableAt(nowMs: Long): Long

  /** When the row at `offset` comes to exist (epoch ms): the moment [[rowsAvailableAt]] first counts it. */
  def existsAtMs(offset: Long): Long

  /** A maker of rows for one partition: it may reuse its row, so one maker serves one thread. */
  def newRowMaker(): RowMaker
}

/**
 * Makes the row at any offset, in Spark's binary row format, which the batch scan hands on
 * without a copy ([[offsets.OffsetRowsScanExec]]); the row it returns may be overwritten by the next
 * call.
 */
private[sparkrandomstrings] trait RowMaker {
  def row(offset: Long): UnsafeRow
}

/**
 * A [[RowMaker]] some of whose offsets make more than one row: a change stream's update is two
 * rows in the Delta and Flink envelopes. [[offsets.OffsetRowsRDD]] asks each offset how many rows it
 * makes, then for each of them; the rows of one offset are consecutive, and the next offset's
 * start after them.
 */
private[sparkrandomstrings] trait MultiRowMaker extends RowMaker {

  /** Works out the rows of `offset` and says how many there are, at least 1. */
  def rowsAt(offset: Long): Int

  /** The `index`-th row (0-based) of the offset [[rowsAt]] last worked out. Valid until the next call. */
  def rowOf(index: Int): UnsafeRow

  /** The first row of `offset`. */
  final override def row(offset: Long): UnsafeRow = {
    rowsAt(offset)
    rowOf(0)
  }
}
