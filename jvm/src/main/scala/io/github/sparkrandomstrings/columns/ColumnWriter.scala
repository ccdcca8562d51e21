package io.github.sparkrandomstrings.columns

import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter

/**
 * The row being made, as its columns' writers see it: what every cell is a function of, besides
 * the definition. [[rows.RowGenerator]] sets it once a row, before its writers run.
 */
private[sparkrandomstrings] final class RowDraw {

  /** The row's offset. */
  var offset: Long = 0L

  /** The offset of the original the row repeats, or its own (see [[rows.RowDisorder]]). */
  var original: Long = 0L

  /** The row's event time, epoch ms: its original's, moved as the [[rows.RowShape]] says. */
  var eventTimeMs: Long = 0L
}

/**
 * Writes one column's cell of each row into Spark's binary row format. A writer belongs to one
 * [[rows.RowGenerator]], so to one partition: it may keep state from one row to the next (a random
 * stream to reset, the last string's length), and allocates nothing per row.
 */
private[sparkrandomstrings] abstract class ColumnWriter {

  /** Writes the cell of `row` at `ordinal`. Writers run in their columns' order, once a row. */
  def write(writer: UnsafeRowWriter, ordinal: Int, row: RowDraw): Unit
}
