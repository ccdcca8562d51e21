package io.github.sparkrandomstrings.typed

import org.apache.spark.sql.catalyst.expressions.codegen.{UnsafeArrayWriter, UnsafeRowWriter, UnsafeWriter}
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

import io.github.sparkrandomstrings.columns.RowDraw
import io.github.sparkrandomstrings.randomness.{CounterRandom, RandomStreams, ZipfSampler}
import io.github.sparkrandomstrings.text.StringColumnWriter
import io.github.sparkrandomstrings.time.RowClock

/**
 * Writes the cells of one declared column ([[CellSpec]]) into Spark's binary format: a top-level
 * column into the row, a field into its struct, an element into its array.
 *
 * Each cell has its own random stream: the column's (`seed` and the column's path, see
 * [[CellWriter.pathSeed]]) at the cell's instance, which is the row's original offset for a
 * column or a field of one, and for element i of an array whose cell is at instance x,
 * `derivedSeed(x, i)`. A cell draws, in order: whether it is null (with a `nullRate` above 0),
 * then its value, as its [[CellKind]] says. So a cell is a pure function of (seed, path,
 * original offset, element indexes), and no other column's options move it.
 *
 * @param spec   the cells' spec
 * @param seed   the stream's seed
 * @param parent the writer this cell is written into: its row's, struct's or array's
 */
private[sparkrandomstrings] abstract class CellWriter(val spec: CellSpec, seed: Long, parent: UnsafeWriter) {
  protected val random = new CounterRandom(CellWriter.pathSeed(seed, spec.path))
  private val nullRate = spec.nullRate
  private val nullBytes = CellWriter.elementSize(spec.dataType)

  // A DECIMAL too wide for a long keeps its bytes in the variable-length region: Spark writes its
  // nulls through `write(ordinal, null, precision, scale)`, which keeps that room, and so do we.
  private val wideDecimal = spec.dataType match {
    case d: DecimalType if d.precision > Decimal.MAX_LONG_DIGITS => d
    case _ => null
  }

  /** Writes the cell at `instance` of the row `row` at `ordinal` of the parent writer. */
  final def write(ordinal: Int, instance: Long, row: RowDraw): Unit = {
    random.reset(instance)
    if (nullRate > 0.0 && random.nextChance(nullRate)) nullBytes match {
      case _ if wideDecimal != null => parent.write(ordinal, null: Decimal, wideDecimal.precision, wideDecimal.scale)
      case 1 => parent.setNull1Bytes(ordinal)
      case 2 => parent.setNull2Bytes(ordinal)
      case 4 => parent.setNull4Bytes(ordinal)
      case _ => parent.setNull8Bytes(ordinal)
    }
    else writeValue(ordinal, instance, row)
  }

  /** Writes the value, drawn from `random` (already past the null draw). */
  protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit
}

private[sparkrandomstrings] object CellWriter {
  import CellKind._

  /** The stream every column's streams are derived from ([[randomness.RandomStreams]]). */
  def columnsSeed(seed: Long): Long = CounterRandom.derivedSeed(seed, RandomStreams.Columns)

  /**
   * The seed of the cells at `path`: derived from the stream's seed and the path's text (its
   * parts' UTF-8 bytes, each after its length), hashed with 64-bit FNV-1a.
   */
  def pathSeed(seed: Long, path: Seq[String]): Long = {
    var hash = 0xCBF29CE484222325L
    def add(b: Int): Unit = hash = (hash ^ (b & 0xFF)) * 0x100000001B3L
    path.foreach { part =>
      val bytes = part.getBytes(java.nio.charset.StandardCharsets.UTF_8)
      add(bytes.length >>> 24); add(bytes.length >>> 16); add(bytes.length >>> 8); add(bytes.length)
      bytes.foreach(b => add(b))
    }
    CounterRandom.derivedSeed(columnsSeed(seed), hash)
  }

  /** The bytes an element of type `t` takes in an array: its null setter's width. */
  def elementSize(t: DataType): Int = t match {
    case BooleanType | ByteType => 1
    case ShortType => 2
    case IntegerType | FloatType | DateType => 4
    case _ => 8
  }

  /** The writer of `spec`'s cells into `parent`. */
  def of(cells: CellSpec, seed: Long, parent: UnsafeWriter): CellWriter = cells.kind match {
    case k: Wholes => new WholeWriter(cells, seed, parent, k)
    case k: Reals => new RealWriter(cells, seed, parent, k)
    case Booleans =>
      new CellWriter(cells, seed, parent) {
        protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit =
          parent.write(ordinal, random.nextChance(0.5))
      }
    case Sequence(start, step, count) =>
      new CellWriter(cells, seed, parent) {
        protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit =
          writeWhole(parent, ordinal, cells.dataType, start + step * java.lang.Long.remainderUnsigned(instance, count))
      }
    case RowOffset =>
      new CellWriter(cells, seed, parent) {
        protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit = parent.write(ordinal, row.offset)
      }
    case EventTime(micros) =>
      new CellWriter(cells, seed, parent) {
        protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit =
          parent.write(ordinal, if (micros) RowClock.timestampMicros(row.eventTimeMs) else row.eventTimeMs)
      }
    case k: Values => new ValuesWriter(cells, seed, parent, k)
    case Strings(values) =>
      new CellWriter(cells, seed, parent) {
        private val strings = new StringColumnWriter(pathSeed(seed, cells.path), values)
        protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit =
          strings.writeDrawn(parent, ordinal, random)
      }
    case Patterned(_, plan) => new PatternWriter(cells, seed, parent, plan)
    case Bytes(minLength, maxLength) =>
      new CellWriter(cells, seed, parent) {
        private val table = Array.tabulate[Byte](256)(_.toByte)
        private val buffer = new Array[Byte](maxLength)
        protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit = {
          val length = minLength + random.nextBounded(maxLength - minLength + 1)
          random.fillFrom(table, buffer, 0, length)
          parent.write(ordinal, buffer, 0, length)
        }
      }
    case Arrays(minSize, maxSize, element) => new ArrayWriter(cells, seed, parent, minSize, maxSize, element)
    case Structs(fields) => new StructWriter(cells, seed, parent, fields)
  }

  /** Writes whole number `value` (in the type's unit) as a cell of type `t`. */
  private def writeWhole(w: UnsafeWriter, ordinal: Int, t: DataType, value: Long): Unit = t match {
    case ByteType => w.write(ordinal, value.toByte)
    case ShortType => w.write(ordinal, value.toShort)
    case IntegerType | DateType => w.write(ordinal, value.toInt)
    case _ => w.write(ordinal, value)
  }

  /** A uniform long in [0, span], span read as unsigned (so every span up to 2^64 - 1). */
  def unsignedUpTo(random: CounterRandom, span: Long): Long =
    if (span >= 0L) random.nextLongUpTo(span)
    else if (span == -1L) random.nextLong()
    else {
      var bits = random.nextLong()
      while (java.lang.Long.compareUnsigned(bits, span) > 0) bits = random.nextLong()
      bits
    }

  /** A standard normal, by Marsaglia's polar method (its second value not kept). */
  def standardNormal(random: CounterRandom): Double = {
    while (true) {
      val u = 2.0 * random.nextUnitDouble() - 1.0
      val v = 2.0 * random.nextUnitDouble() - 1.0
      val s = u * u + v * v
      if (s < 1.0 && s > 0.0) return u * StrictMath.sqrt(-2.0 * StrictMath.log(s) / s)
    }
    throw new IllegalStateException("unreachable")
  }

  private final class WholeWriter(spec: CellSpec, seed: Long, parent: UnsafeWriter, k: Wholes)
      extends CellWriter(spec, seed, parent) {
    private val t = spec.dataType
    private val span = k.max - k.min
    private val zipf = k.distribution match {
      case Zipf(s) => new ZipfSampler(span + 1L, s)
      case _ => null
    }
    private val (decimal, precision, scale) = t match {
      case d: DecimalType => (new Decimal, d.precision, d.scale)
      case _ => (null, 0, 0)
    }

    /** max - min as a double, read as unsigned: a span of 2^63 or more is below 0 as a long. */
    private val unsignedSpan = if (span >= 0L) span.toDouble else span.toDouble + 18446744073709551616.0
    private val exponentialCut = k.distribution match {
      case Exponential(mean) => -StrictMath.expm1(-(unsignedSpan + 1.0) / mean)
      case _ => 0.0
    }

    protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit = {
      val value = k.distribution match {
        case Uniform => k.min + unsignedUpTo(random, span)
        case Zipf(_) => k.min + zipf.sample(random) - 1L
        case Normal(mean, stddev) =>
          var drawn = Double.NaN
          while (!(drawn >= k.min.toDouble && drawn <= k.max.toDouble)) {
            drawn = StrictMath.rint(mean + stddev * standardNormal(random))
          }
          math.max(k.min, math.min(k.max, drawn.toLong))
        case Exponential(mean) =>
          val x = -mean * StrictMath.log1p(-random.nextUnitDouble() * exponentialCut)
          // Added as unsigned: min + the drawn whole part wraps back into [min, max].
          val drawn = math.min(StrictMath.floor(x), unsignedSpan)
          k.min + (if (drawn < 9223372036854775808.0) drawn.toLong
                   else (drawn - 9223372036854775808.0).toLong ^ Long.MinValue)
      }
      if (decimal != null) parent.write(ordinal, decimal.set(value, precision, scale), precision, scale)
      else writeWhole(parent, ordinal, t, value)
    }
  }

  private final class RealWriter(spec: CellSpec, seed: Long, parent: UnsafeWriter, k: Reals)
      extends CellWriter(spec, seed, parent) {
    private val isFloat = spec.dataType == FloatType
    private val exponentialCut = k.distribution match {
      case Exponential(mean) => -StrictMath.expm1(-(k.max - k.min) / mean)
      case _ => 0.0
    }

    protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit = {
      val value = k.distribution match {
        case Normal(mean, stddev) =>
          var drawn = Double.NaN
          while (!(drawn >= k.min && drawn <= k.max)) drawn = mean + stddev * standardNormal(random)
          drawn
        case Exponential(mean) =>
          math.min(k.max, k.min - mean * StrictMath.log1p(-random.nextUnitDouble() * exponentialCut))
        case _ =>
          val u = random.nextUnitDouble()
          math.min(k.max, k.min * (1.0 - u) + k.max * u)
      }
      if (isFloat) parent.write(ordinal, value.toFloat) else parent.write(ordinal, value)
    }
  }

  private final class ValuesWriter(spec: CellSpec, seed: Long, parent: UnsafeWriter, k: Values)
      extends CellWriter(spec, seed, parent) {
    private val n = k.values.length
    private val zipf = k.pick match {
      case PickZipf(s) => new ZipfSampler(n.toLong, s)
      case _ => null
    }
    private val cumulative = k.pick match {
      case PickWeighted(_, sums) => sums.toArray
      case _ => null
    }
    private val t = spec.dataType
    private val values = k.values.toArray
    private val decimal = t match {
      case _: DecimalType => new Decimal
      case _ => null
    }

    protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit = {
      val i =
        if (zipf != null) (zipf.sample(random) - 1L).toInt
        else if (cumulative != null) {
          val target = random.nextUnitDouble() * cumulative(n - 1)
          var low = 0
          var high = n - 1
          while (low < high) {
            val middle = (low + high) >>> 1
            if (cumulative(middle) > target) high = middle else low = middle + 1
          }
          low
        } else random.nextBounded(n)
      (t, values(i)) match {
        case (BooleanType, v: Boolean) => parent.write(ordinal, v)
        case (StringType, v: UTF8String) => parent.write(ordinal, v)
        case (BinaryType, v: Array[Byte]) => parent.write(ordinal, v)
        case (FloatType, v: Float) => parent.write(ordinal, v)
        case (DoubleType, v: Double) => parent.write(ordinal, v)
        case (d: DecimalType, v: Long) =>
          parent.write(ordinal, decimal.set(v, d.precision, d.scale), d.precision, d.scale)
        case (ByteType, v: Byte) => parent.write(ordinal, v)
        case (ShortType, v: Short) => parent.write(ordinal, v)
        case (IntegerType | DateType, v: Int) => parent.write(ordinal, v)
        case (_, v: Long) => parent.write(ordinal, v)
        case (other, v) => throw new IllegalStateException(s"value $v of $other")
      }
    }
  }

  private final class PatternWriter(spec: CellSpec, seed: Long, parent: UnsafeWriter, plan: PatternPlan)
      extends CellWriter(spec, seed, parent) {
    import PatternPlan._
    private val points = new Array[Int](plan.maxLength.toInt)
    private var length = 0

    private def draw(p: PatternPlan): Unit = p match {
      case Literal(c) =>
        points(length) = c
        length += 1
      case AnyOf(all) =>
        points(length) = all(random.nextBounded(all.length))
        length += 1
      case PatternPlan.Sequence(parts) =>
        var i = 0
        while (i < parts.length) {
          draw(parts(i))
          i += 1
        }
      case Either(options) => draw(options(random.nextBounded(options.length)))
      case Repeat(part, min, max) =>
        val times = if (max == min) min else min + random.nextBounded(max - min + 1)
        var i = 0
        while (i < times) {
          draw(part)
          i += 1
        }
    }

    protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit = {
      length = 0
      draw(plan)
      parent.write(ordinal, UTF8String.fromString(new String(points, 0, length)))
    }
  }

  private final class ArrayWriter(
      spec: CellSpec,
      seed: Long,
      parent: UnsafeWriter,
      minSize: Int,
      maxSize: Int,
      element: CellSpec)
      extends CellWriter(spec, seed, parent) {
    private val arrays = new UnsafeArrayWriter(
      parent,
      elementSize(element.dataType) match {
        case 1 => 1
        case 2 => 2
        case 4 => 4
        case _ => 8
      })
    private val elements = CellWriter.of(element, seed, arrays)
    private val sizes = maxSize - minSize + 1

    protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit = {
      val size = if (sizes == 1) minSize else minSize + random.nextBounded(sizes)
      val previousCursor = parent.cursor()
      arrays.initialize(size)
      var i = 0
      while (i < size) {
        elements.write(i, CounterRandom.derivedSeed(instance, i.toLong), row)
        i += 1
      }
      parent.setOffsetAndSizeFromPreviousCursor(ordinal, previousCursor)
    }
  }

  private final class StructWriter(spec: CellSpec, seed: Long, parent: UnsafeWriter, fields: IndexedSeq[CellSpec])
      extends CellWriter(spec, seed, parent) {
    private val struct = new UnsafeRowWriter(parent, fields.length)
    private val writers = fields.map(CellWriter.of(_, seed, struct)).toArray

    protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit = {
      val previousCursor = parent.cursor()
      struct.resetRowWriter()
      var i = 0
      while (i < writers.length) {
        writers(i).write(i, instance, row)
        i += 1
      }
      parent.setOffsetAndSizeFromPreviousCursor(ordinal, previousCursor)
    }
  }
}
