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
 *
 * The options that shape rows ([[RowShape]]) change that, each from its own random stream:
 *  - with `distinctValues`, a row's value is the pool entry ([[ValuePool]]) that it picks,
 *    uniformly or by Zipf's law ([[ZipfSampler]]) from the stream of picks; the entry's own
 *    characters come from a stream of the entry, not of the row;
 *  - a repeated row carries the value and event time of its original, and an original's event
 *    time moves back as [[RowDisorder]] says.
 * With none of them set, every row is exactly the row 0.1.0 made.
 *
 * Event times count from the definition's origin (`startTimestamp`, or the first start) at its
 * one rate, or by its `rateProfile` ([[ProfileCursor]]); with `timestampColumn` each row also
 * carries `ts` as a TIMESTAMP, last. A stream with neither a shaping option, a profile nor the
 * timestamp column takes the plain path, exactly 0.1.0's.
 */
final class RowGenerator(definition: StreamDefinition) {
  private val random = new CounterRandom(definition.seed)
  private val shape = definition.shape
  private val profile = definition.rateProfile.orNull
  private val timestampColumn = definition.timestampColumn
  private val plain = shape.isPlain && profile == null && !timestampColumn
  private val originMs = definition.eventTimeOriginMs
  private val disorder = new RowDisorder(definition.seed, shape)
  private val pool: ValuePool = shape.distinctValues
    .map(new ValuePool(definition.seed, _, definition.minLength, definition.maxLength, definition.characters.size))
    .orNull
  private val poolCharacters =
    new CounterRandom(CounterRandom.derivedSeed(definition.seed, RandomStreams.PoolCharacters))
  private val picks = new CounterRandom(CounterRandom.derivedSeed(definition.seed, RandomStreams.Picks))
  private val zipf: ZipfSampler =
    if (pool != null && shape.isZipf) new ZipfSampler(pool.size, shape.zipfExponent) else null
  private val characters = definition.characters
  private val setSize = characters.size
  private val lengthChoices = definition.maxLength - definition.minLength + 1

  /** The most bytes a value takes, rounded up to whole 8-byte words as the row format keeps it. */
  private val maxValueBytes = ByteArrayMethods.roundNumberOfBytesToNearestWord(
    definition.maxLength * characters.maxUtf8Bytes)
  private val asciiTable: Array[Byte] = if (characters.isAscii) characters.asciiBytes else null
  private val base = new Base(setSize)
  private val eventTimes = new EventTimeCursor(originMs, definition.rowsPerSecond)
  private val profileTimes = if (profile == null) null else new ProfileCursor(profile, originMs)
  private val writer = new UnsafeRowWriter(
    definition.schema.length,
    math.min(maxValueBytes, 1 << 16))
  // No field is ever null: the null bits are zeroed once here and stay zero for every row.
  writer.zeroOutNullBytes()

  /** The row at `offset`: (value, ts, offset, length[, timestamp]). Valid until the next call. */
  def row(offset: Long): UnsafeRow = if (plain) plainRow(offset) else shapedRow(offset)

  /** A row of a stream with no shaping option: exactly 0.1.0's, in as few steps. */
  private def plainRow(offset: Long): UnsafeRow = {
    random.reset(offset)
    val length = definition.minLength + random.nextBounded(lengthChoices)
    writer.reset()
    writeValue(length, random, 0, 0L)
    writer.write(1, eventTimes.at(offset))
    writer.write(2, offset)
    writer.write(3, length)
    writer.getRow
  }

  private def shapedRow(offset: Long): UnsafeRow = {
    val original = if (disorder.hasRepeats) disorder.originalOf(offset) else offset
    writer.reset()
    val length =
      if (pool == null) {
        random.reset(original)
        val length = definition.minLength + random.nextBounded(lengthChoices)
        writeValue(length, random, 0, 0L)
        length
      } else {
        val entry = entryOf(original)
        pool.locate(entry)
        poolCharacters.reset(entry)
        writeValue(pool.length, poolCharacters, pool.codeDigits, pool.code)
        pool.length
      }
    val ts = eventTimeOf(original, offset)
    writer.write(1, ts)
    writer.write(2, offset)
    writer.write(3, length)
    if (timestampColumn) writer.write(4, RowClock.timestampMicros(ts))
    writer.getRow
  }

  /** The pool entry that the row at `offset` picks, if an original (a repeat carries its original's). */
  def entryOf(offset: Long): Long = {
    picks.reset(offset)
    if (zipf != null) zipf.sample(picks) - 1L else picks.nextBounded(pool.size.toInt).toLong
  }

  /**
   * The event time of original `original`, emitted at `offset`: consecutive originals step
   * the cursor, and a repeat's original (out of sequence) is computed directly.
   */
  private def eventTimeOf(original: Long, offset: Long): Long = {
    val inOrder =
      if (profile != null) {
        if (original == offset) profileTimes.at(offset)
        else RowClock.saturatedAdd(originMs, profile.eventOffsetMs(original))
      } else if (original == offset) eventTimes.at(offset)
      else RowClock.eventTimeMs(originMs, original, definition.rowsPerSecond)
    if (disorder.movesEventTimes) disorder.eventTimeMs(inOrder, original) else inOrder
  }

  /**
   * Writes the value's `length` characters straight into the writer's variable-length region,
   * as `UnsafeWriter.write(ordinal, bytes)` lays a string out: the bytes, zero padding to a
   * whole word, and the field's (offset, size). The first `length - codeDigits` characters are
   * drawn from `draws`; the last `codeDigits` spell `code` in base A (the set's size),
   * most significant digit first.
   */
  private def writeValue(length: Int, draws: CounterRandom, codeDigits: Int, code: Long): Unit = {
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
    writer.setOffsetAndSizeFromPreviousCursor(0, start)
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
