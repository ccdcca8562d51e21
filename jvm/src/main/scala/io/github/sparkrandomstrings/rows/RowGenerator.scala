package io.github.sparkrandomstrings.rows

import org.apache.spark.sql.catalyst.expressions.UnsafeRow
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter

import io.github.sparkrandomstrings.columns.RowDraw
import io.github.sparkrandomstrings.text.StringColumnWriter

/**
 * Makes rows straight into Spark's binary row format: row `offset` is a pure function of
 * (definition, offset), however many generators make rows and in whatever order.
 *
 * A row is its columns' cells, each written by its column's [[columns.ColumnWriter]] (which the
 * definition's [[StreamDefinition.columns]] say), in order, from what this generator works out
 * once a row ([[columns.RowDraw]]): which original the row carries ([[RowDisorder]]: a repeated row
 * carries the cells of the row it repeats, except its offset) and its event time.
 *
 * One generator serves one partition: it reuses one row writer and its columns' writers for all
 * its rows, so making a row allocates nothing. Strings go straight into the row writer's buffer
 * ([[text.StringColumnWriter]]), and consecutive rows' event times are stepped, not divided out
 * (`EventTimeCursor`). The row it returns is overwritten by the next call, as Spark's own
 * operators expect of an iterator of rows. (`docs/design.md`, "Rows on the executors", says
 * what each of these choices saves.)
 *
 * Event times count from the definition's origin (`startTimestamp`, or the first start) at its
 * one rate, or by its `rateProfile` ([[time.ProfileCursor]]), and an original's event time moves back
 * as [[RowDisorder]] says. A stream of fresh strings in order, at one rate and without the
 * `timestamp` column, takes the plain path: the same writers, called directly, exactly 0.1.0's
 * rows.
 */
final class RowGenerator(definition: StreamDefinition) extends RowMaker {
  private val shape = definition.shape
  private val profile = definition.rateProfile.orNull
  private val disorder = new RowDisorder(definition.seed, shape)
  private val columns = definition.columns
  private val draw = new RowDraw
  private val eventTimes = definition.inOrderTimes()
  private val plain = shape.isPlain && profile == null && definition.strings.isFresh &&
    columns == Columns.of(definition.strings, timestampColumn = false)
  private val writer = new UnsafeRowWriter(
    columns.length,
    math.min(StringColumnWriter.maxValueBytes(definition.strings), 1 << 16))
  private val writers = ColumnWriters.of(columns, definition.seed, writer)
  private val strings = writers.collectFirst { case w: StringColumnWriter => w }.orNull
  // Only a declared column may be null. Without one, the null bits are zeroed once here and
  // stay zero for every row; with one, each row zeroes them before its cells are written.
  private val mayBeNull = columns.exists(_.field.nullable)
  writer.zeroOutNullBytes()

  /** The row at `offset`, its columns in the schema's order. Valid until the next call. */
  override def row(offset: Long): UnsafeRow = if (plain) plainRow(offset) else shapedRow(offset)

  /** A row of (value, ts, offset, length), fresh and in order: exactly 0.1.0's, in as few steps. */
  private def plainRow(offset: Long): UnsafeRow = {
    writer.reset()
    strings.writeFresh(writer, 0, offset)
    writer.write(1, eventTimes.at(offset))
    writer.write(2, offset)
    writer.write(3, strings.lastLength)
    writer.getRow
  }

  private def shapedRow(offset: Long): UnsafeRow = {
    val original = if (disorder.hasRepeats) disorder.originalOf(offset) else offset
    draw.offset = offset
    draw.original = original
    draw.eventTimeMs = eventTimeOf(original, offset)
    writer.reset()
    if (mayBeNull) writer.zeroOutNullBytes()
    var i = 0
    while (i < writers.length) {
      writers(i).write(writer, i, draw)
      i += 1
    }
    writer.getRow
  }

  /** The pool entry that the row at `offset` picks, if an original (a repeat carries its original's). */
  def entryOf(offset: Long): Long = strings.entryOf(offset)

  /**
   * The event time of original `original`, emitted at `offset`: consecutive originals step
   * the cursor, and a repeat's original (out of sequence) is computed directly.
   */
  private def eventTimeOf(original: Long, offset: Long): Long = {
    val inOrder =
      if (original != offset) definition.inOrderEventTimeMs(original)
      else eventTimes.at(offset)
    if (disorder.movesEventTimes) disorder.eventTimeMs(inOrder, original) else inOrder
  }
}
