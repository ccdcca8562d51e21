package io.github.sparkrandomstrings

import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter

/**
 * The row being made, as its columns' writers see it: what every cell is a function of, besides
 * the definition. [[RowGenerator]] sets it once a row, before its writers run.
 */
private[sparkrandomstrings] final class RowDraw {

  /** The row's offset. */
  var offset: Long = 0L

  /** The offset of the original the row repeats, or its own (see [[RowDisorder]]). */
  var original: Long = 0L

  /** The row's event time, epoch ms: its original's, moved as the [[RowShape]] says. */
  var eventTimeMs: Long = 0L
}

/**
 * Writes one column's cell of each row into Spark's binary row format. A writer belongs to one
 * [[RowGenerator]], so to one partition: it may keep state from one row to the next (a random
 * stream to reset, the last string's length), and allocates nothing per row.
 */
private[sparkrandomstrings] abstract class ColumnWriter {

  /** Writes the cell of `row` at `ordinal`. Writers run in their columns' order, once a row. */
  def write(writer: UnsafeRowWriter, ordinal: Int, row: RowDraw): Unit
}

private[sparkrandomstrings] object ColumnWriter {
  import Column._

  /** The writers of `columns`, in their order, into rows of `rows`, for a stream of seed `seed`. */
  def of(columns: Seq[Column], seed: Long, rows: UnsafeRowWriter): Array[ColumnWriter] = {
    val writers = new Array[ColumnWriter](columns.length)
    columns.map(_.content).zipWithIndex.foreach {
      case (Strings(values), i) => writers(i) = new StringColumnWriter(seed, values)
      case (EventTimeMs, i) => writers(i) = EventTimeMsWriter
      case (EventTimestamp, i) => writers(i) = EventTimestampWriter
      case (Offset, i) => writers(i) = OffsetWriter
      case (Cells(spec), i) => writers(i) = new DeclaredWriter(CellWriter.of(spec, seed, rows))
      case (LengthOf(ordinal), i) =>
        writers(ordinal) match {
          case strings: StringColumnWriter if ordinal < i => writers(i) = new LengthWriter(strings)
          case _ => throw new IllegalArgumentException(s"column $i: no string column at $ordinal before it")
        }
    }
    writers
  }

  /** A declared column: its cell at the row's original. */
  private final class DeclaredWriter(cells: CellWriter) extends ColumnWriter {
    def write(writer: UnsafeRowWriter, ordinal: Int, row: RowDraw): Unit = cells.write(ordinal, row.original, row)
  }

  private object EventTimeMsWriter extends ColumnWriter {
    def write(writer: UnsafeRowWriter, ordinal: Int, row: RowDraw): Unit = writer.write(ordinal, row.eventTimeMs)
  }

  private object EventTimestampWriter extends ColumnWriter {
    def write(writer: UnsafeRowWriter, ordinal: Int, row: RowDraw): Unit =
      writer.write(ordinal, RowClock.timestampMicros(row.eventTimeMs))
  }

  private object OffsetWriter extends ColumnWriter {
    def write(writer: UnsafeRowWriter, ordinal: Int, row: RowDraw): Unit = writer.write(ordinal, row.offset)
  }

  private final class LengthWriter(strings: StringColumnWriter) extends ColumnWriter {
    def write(writer: UnsafeRowWriter, ordinal: Int, row: RowDraw): Unit = writer.write(ordinal, strings.lastLength)
  }
}
