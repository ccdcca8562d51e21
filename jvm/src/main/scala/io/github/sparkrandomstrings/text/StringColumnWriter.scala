package io.github.sparkrandomstrings.text

import org.apache.spark.sql.catalyst.expressions.codegen.{UnsafeRowWriter, UnsafeWriter}
import org.apache.spark.unsafe.Platform
import org.apache.spark.unsafe.array.ByteArrayMethods

import io.github.sparkrandomstrings.columns.{ColumnWriter, RowDraw}
import io.github.sparkrandomstrings.randomness.{CounterRandom, RandomStreams, ZipfSampler}

/**
 * Writes a string column's cells: each row's value, drawn as its [[StringValues]] say, straight
 * into the row writer's buffer, with no string made on the way.
 *
 * How a fresh value is drawn, from the row's own random stream (see [[randomness.CounterRandom]]; `seed`'s
 * stream, keyed by the row's original):
 *  1. its length, uniform over [minLength, maxLength];
 *  2. then each character, uniform over the character set.
 * With `distinctValues`, a row's value is the pool entry ([[ValuePool]]) that it picks,
 * uniformly or by Zipf's law ([[randomness.ZipfSampler]]) from the stream of picks; the entry's own
 * characters come from a stream of the entry, not of the row. A repeated row carries its
 * original's value: the draws are keyed by [[columns.RowDraw.original]].
 *
 * @param seed   the seed of the column's random streams
 * @param values what the values are drawn from
 */
private[sparkrandomstrings] final class StringColumnWriter(seed: Long, values: StringValues) extends ColumnWriter {
  private val random = new CounterRandom(seed)
  private val pool: ValuePool = values.distinctValues
    .map(new ValuePool(seed, _, values.minLength, values.maxLength, values.characters.size))
    .orNull
  private val poolCharacters = new CounterRandom(CounterRandom.derivedSeed(seed, RandomStreams.PoolCharacters))
  private val picks = new CounterRandom(CounterRandom.derivedSeed(seed, RandomStreams.Picks))
  private val zipf: ZipfSampler =
    if (pool != null && values.isZipf) new ZipfSampler(pool.size, values.zipfExponent) else null
  private val minLength = values.minLength
  private val characters = values.characters
  private val setSize = characters.size
  private val lengthChoices = values.maxLength - values.minLength + 1
  private val asciiTable: Array[Byte] = if (characters.isAscii) characters.asciiBytes else null
  private val base = new Base(setSize)

  /** The most bytes a value takes, rounded up to whole 8-byte words as the row format keeps it. */
  val maxValueBytes: Int = StringColumnWriter.maxValueBytes(values)

  /** The length, in code points, of the value written last. */
  var lastLength: Int = 0

  def write(writer: UnsafeRowWriter, ordinal: Int, row: RowDraw): Unit =
    if (pool == null) writeFresh(writer, ordinal, row.original) else writePooled(writer, ordinal, row.original)

  /** Writes the value drawn fresh from the stream of row `offset`: the whole draw of a plain row. */
  def writeFresh(writer: UnsafeRowWriter, ordinal: Int, offset: Long): Unit = {
    random.reset(offset)
    val length = minLength + random.nextBounded(lengthChoices)
    writeValue(writer, ordinal, length, random, 0, 0L)
    lastLength = length
  }

  private def writePooled(writer: UnsafeRowWriter, ordinal: Int, offset: Long): Unit = {
    val entry = entryOf(offset)
    pool.locate(entry)
    poolCharacters.reset(entry)
    writeValue(writer, ordinal, pool.length, poolCharacters, pool.codeDigits, pool.code)
    lastLength = pool.length
  }

  /**
   * Writes a value drawn from `draws`, a declared column's cell stream (see [[typed.cells.CellWriter]]): a
   * fresh value's length and characters, or the pool entry it picks (uniformly or by Zipf's
   * law), whose characters come from the entry's own stream.
   */
  def writeDrawn(writer: UnsafeWriter, ordinal: Int, draws: CounterRandom): Unit =
    if (pool == null) {
      val length = minLength + draws.nextBounded(lengthChoices)
      writeValue(writer, ordinal, length, draws, 0, 0L)
      lastLength = length
    } else {
      val entry = if (zipf != null) zipf.sample(draws) - 1L else draws.nextBounded(pool.size.toInt).toLong
      pool.locate(entry)
      poolCharacters.reset(entry)
      writeValue(writer, ordinal, pool.length, poolCharacters, pool.codeDigits, pool.code)
      lastLength = pool.length
    }

  /** The pool entry that the row at `offset` picks, if an original (a repeat carries its original's). */
  def entryOf(offset: Long): Long = {
    picks.reset(offset)
    if (zipf != null) zipf.sample(picks) - 1L else picks.nextBounded(pool.size.toInt).toLong
  }

  /**
   * Writes the value's `length` characters straight into the writer's variable-length region,
   * as `UnsafeWriter.write(ordinal, bytes)` lays a string out: the bytes, zero padding to a
   * whole word, and the field's (offset, size) at `ordinal`. The first `length - codeDigits` characters are
   * drawn from `draws`; the last `codeDigits` spell `code` in base A (the set's size),
   * most significant digit first.
   */
  private def writeValue(
      writer: UnsafeWriter,
      ordinal: Int,
      length: Int,
      draws: CounterRandom,
      codeDigits: Int,
      code: Long): Unit = {
    writer.grow(maxValueBytes)
    val start = writer.cursor()
    val target = writer.getBuffer
    val at = start - Platform.BYTE_ARRAY_OFFSET
    val bytes =
      if (asciiTable != null) {
        // One byte a character: the size is known, so the padding is zeroed first, with one
        // word store, as UnsafeWriter does.
        if ((length & 7) != 0) Platform.putLong(target, start + (length & ~7), 0L)
        val drawn = length - codeDigits
        draws.fillFrom(asciiTable, target, at, drawn)
        if (codeDigits > 0) writeAsciiDigits(target, at + drawn, codeDigits, code)
        length
      } else {
        val written = fillUtf8(target, at, length, draws, codeDigits, code)
        java.util.Arrays.fill(
          target,
          at + written,
          at + ByteArrayMethods.roundNumberOfBytesToNearestWord(written),
          0.toByte)
        written
      }
    writer.increaseCursor(bytes)
    writer.setOffsetAndSizeFromPreviousCursor(ordinal, start)
    writer.increaseCursor(ByteArrayMethods.roundNumberOfBytesToNearestWord(bytes) - bytes)
  }

  /**
   * Writes `code` in base A as `digits` characters from `at`, most significant first. A code
   * below 2^31 (any code a pool of up to 2^31 - 1 entries spells in under 2^31 codes) is divided
   * by A with a multiplication and a shift ([[Base.quotient]]); a division would cost several
   * times more on the row's critical path.
   */
  private def writeAsciiDigits(target: Array[Byte], at: Int, digits: Int, code: Long): Unit = {
    var i = at + digits - 1
    if (code <= Int.MaxValue) {
      var rest = code
      while (i >= at) {
        val next = base.quotient(rest)
        target(i) = asciiTable((rest - next * setSize).toInt)
        rest = next
        i -= 1
      }
    } else {
      var rest = code
      while (i >= at) {
        val next = rest / setSize
        target(i) = asciiTable((rest - next * setSize).toInt)
        rest = next
        i -= 1
      }
    }
  }

  private def fillUtf8(
      target: Array[Byte],
      at: Int,
      length: Int,
      random: CounterRandom,
      codeDigits: Int,
      code: Long): Int = {
    var end = at
    var i = 0
    val drawn = length - codeDigits
    while (i < drawn) {
      end = Utf8.write(characters.codePoint(random.nextBounded(setSize)), target, end)
      i += 1
    }
    var unit = 1L
    var d = 1
    while (d < codeDigits) {
      unit *= setSize
      d += 1
    }
    while (i < length) {
      end = Utf8.write(characters.codePoint(((code / unit) % setSize).toInt), target, end)
      unit /= setSize
      i += 1
    }
    end - at
  }
}

private[sparkrandomstrings] object StringColumnWriter {

  /** The most bytes a value of `values` takes, rounded up to whole 8-byte words as the row format keeps it. */
  def maxValueBytes(values: StringValues): Int =
    ByteArrayMethods.roundNumberOfBytesToNearestWord(values.maxLength * values.characters.maxUtf8Bytes)
}

/**
 * Division by a fixed A >= 1 of numbers below 2^31, as a multiplication and a shift (Granlund
 * and Montgomery, "Division by invariant integers using multiplication", PLDI 1994): with
 * l = ceil(log2 A) and m = ceil(2^(31 + l) / A), floor(n / A) = (n * m) >> (31 + l) for every
 * 0 <= n < 2^31, and n * m < 2^63 fits a long.
 */
private[sparkrandomstrings] final class Base(a: Int) {
  require(a >= 1)
  private val shift = 31 + (32 - Integer.numberOfLeadingZeros(a - 1))
  private val magic = ((1L << shift) + a - 1) / a

  /** floor(n / a), for 0 <= n < 2^31. */
  def quotient(n: Long): Long = (n * magic) >>> shift
}
