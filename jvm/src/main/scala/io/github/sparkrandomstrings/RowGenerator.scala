package io.github.sparkrandomstrings

import org.apache.spark.sql.catalyst.expressions.UnsafeRow
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter

/**
 * Makes rows straight into Spark's binary row format: row `offset` is a pure function of
 * (definition, offset), however many generators make rows and in whatever order.
 *
 * One generator serves one partition: it reuses one row writer, one byte buffer and one random
 * number generator for all its rows, so making a row allocates nothing. The row it returns is
 * overwritten by the next call, as Spark's own operators expect of an iterator of rows.
 *
 * How a row is drawn, from the row's own random stream (see [[CounterRandom]]):
 *  1. its length, uniform over [minLength, maxLength];
 *  2. then each character, uniform over the character set.
 */
final class RowGenerator(definition: StreamDefinition) {
  private val random = new CounterRandom
  private val characters = definition.characters
  private val setSize = characters.size
  private val lengthChoices = definition.maxLength - definition.minLength + 1
  private val buffer = new Array[Byte](definition.maxLength * characters.maxUtf8Bytes)
  private val asciiTable: Array[Byte] = if (characters.isAscii) characters.asciiBytes else null
  private val writer = new UnsafeRowWriter(RandomStringsSourceProvider.Schema.length,
    math.min(buffer.length, 1 << 16))

  /** The row at `offset`: (value, ts, offset, length). Valid until the next call. */
  def row(offset: Long): UnsafeRow = {
    random.reset(definition.seed, offset)
    val length = definition.minLength + random.nextBounded(lengthChoices)
    val bytes = if (asciiTable != null) fillAscii(length) else fillUtf8(length)
    writer.reset()
    writer.zeroOutNullBytes()
    writer.write(0, buffer, 0, bytes)
    writer.write(1, definition.eventTimeMs(offset))
    writer.write(2, offset)
    writer.write(3, length)
    writer.getRow
  }

  private def fillAscii(length: Int): Int = {
    var i = 0
    while (i < length) {
      buffer(i) = asciiTable(random.nextBounded(setSize))
      i += 1
    }
    length
  }

  private def fillUtf8(length: Int): Int = {
    var at = 0
    var i = 0
    while (i < length) {
      at = Utf8.write(characters.codePoint(random.nextBounded(setSize)), buffer, at)
      i += 1
    }
    at
  }
}
