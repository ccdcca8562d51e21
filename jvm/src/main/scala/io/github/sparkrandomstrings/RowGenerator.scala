package io.github.sparkrandomstrings

import org.apache.spark.sql.catalyst.expressions.UnsafeRow
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter
import org.apache.spark.unsafe.Platform
import org.apache.spark.unsafe.array.ByteArrayMethods

/**
 * Makes rows straight into Spark's binary row format: row `offset` is a pure function of
 * (definition, offset), however many generators make rows and in whatever order.
 *
 * One generator serves one partition: it reuses one row writer and one random number generator
 * for all its rows, so making a row allocates nothing. The characters go straight into the row
 * writer's buffer, and consecutive rows' event times are stepped, not divided out
 * (`EventTimeCursor`). The row it returns is overwritten by the next call, as Spark's own
 * operators expect of an iterator of rows. (`docs/design.md`, "Rows on the executors", says
 * what each of these choices saves.)
 *
 * How a row is drawn, from the row's own random stream (see [[CounterRandom]]):
 *  1. its length, uniform over [minLength, maxLength];
 *  2. then each character, uniform over the character set.
 */
final class RowGenerator(definition: StreamDefinition) {
  private val random = new CounterRandom(definition.seed)
  private val characters = definition.characters
  private val setSize = characters.size
  private val lengthChoices = definition.maxLength - definition.minLength + 1

  /** The most bytes a value takes, rounded up to whole 8-byte words as the row format keeps it. */
  private val maxValueBytes = ByteArrayMethods.roundNumberOfBytesToNearestWord(
    definition.maxLength * characters.maxUtf8Bytes)
  private val asciiTable: Array[Byte] = if (characters.isAscii) characters.asciiBytes else null
  private val eventTimes = new EventTimeCursor(definition.startTimeMs, definition.rowsPerSecond)
  private val writer = new UnsafeRowWriter(
    RandomStringsSourceProvider.Schema.length,
    math.min(maxValueBytes, 1 << 16))
  // No field is ever null: the null bits are zeroed once here and stay zero for every row.
  writer.zeroOutNullBytes()

  /** The row at `offset`: (value, ts, offset, length). Valid until the next call. */
  def row(offset: Long): UnsafeRow = {
    random.reset(offset)
    val length = definition.minLength + random.nextBounded(lengthChoices)
    writer.reset()
    writeValue(length)
    writer.write(1, eventTimes.at(offset))
    writer.write(2, offset)
    writer.write(3, length)
    writer.getRow
  }

  /**
   * Draws the value's `length` characters straight into the writer's variable-length region,
   * as `UnsafeWriter.write(ordinal, bytes)` lays a string out: the bytes, zero padding to a
   * whole word, and the field's (offset, size).
   */
  private def writeValue(length: Int): Unit = {
    writer.grow(maxValueBytes)
    val start = writer.cursor()
    val target = writer.getBuffer
    val at = start - Platform.BYTE_ARRAY_OFFSET
    val bytes =
      if (asciiTable != null) {
        // One byte a character: the size is known, so the padding is zeroed first, with one
        // word store, as UnsafeWriter does.
        if ((length & 7) != 0) Platform.putLong(target, start + (length & ~7), 0L)
        random.fillFrom(asciiTable, target, at, length)
        length
      } else {
        val written = fillUtf8(target, at, length)
        java.util.Arrays.fill(
          target,
          at + written,
          at + ByteArrayMethods.roundNumberOfBytesToNearestWord(written),
          0.toByte)
        written
      }
    writer.increaseCursor(bytes)
    writer.setOffsetAndSizeFromPreviousCursor(0, start)
    writer.increaseCursor(ByteArrayMethods.roundNumberOfBytesToNearestWord(bytes) - bytes)
  }

  private def fillUtf8(target: Array[Byte], at: Int, length: Int): Int = {
    var end = at
    var i = 0
    while (i < length) {
      end = Utf8.write(characters.codePoint(random.nextBounded(setSize)), target, end)
      i += 1
    }
    end - at
  }
}
