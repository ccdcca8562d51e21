package io.github.sparkrandomstrings.rows

import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter

import io.github.sparkrandomstrings.columns.{ColumnWriter, RowDraw}
import io.github.sparkrandomstrings.text.StringColumnWriter
import io.github.sparkrandomstrings.time.RowClock
import io.github.sparkrandomstrings.typed.cells.CellWriter

/**
 * Picks each column's [[columns.ColumnWriter]]: the string column's ([[text.StringColumnWriter]]), a
 * declared column's ([[typed.cells.CellWriter]]), and the small writers of the row's offset, its event time
 * and a string's length, which are here.
 */
private[sparkrandomstrings] object ColumnWriters {
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
