package io.github.sparkrandomstrings.typed.cells

import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeWriter
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

import io.github.sparkrandomstrings.columns.RowDraw
import io.github.sparkrandomstrings.randomness.ZipfSampler
import io.github.sparkrandomstrings.time.RowClock
import io.github.sparkrandomstrings.typed.cells.CellDraws.{standardNormal, unsignedUpTo}
import io.github.sparkrandomstrings.typed.cells.CellKind._

/**
 * The writers of number, boolean, date and time cells, and of the `values` kind's picks (Python:
 * `typed/cells/numbers.py`): [[CellWriter.of]] picks one by the cell's kind.
 */
private[typed] object NumberCells {

  /** Writes whole number `value` (in the type's unit) as a cell of type `t`. */
  def writeWhole(w: UnsafeWriter, ordinal: Int, t: DataType, value: Long): Unit = t match {
    case ByteType => w.write(ordinal, value.toByte)
    case ShortType => w.write(ordinal, value.toShort)
    case IntegerType | DateType => w.write(ordinal, value.toInt)
    case _ => w.write(ordinal, value)
  }

  /**
   * Writes the DECIMAL(`precision`, `scale`) whose unscaled value is `unscaled` (in range: the
   * options were checked). A compact one (precision 18 or less) is its unscaled long in Spark's
   * binary format, so it is written as that long, the bytes `write(ordinal, decimal, precision,
   * scale)` writes, without a `Decimal`; a wider one through `scratch`.
   */
  def writeDecimal(w: UnsafeWriter, ordinal: Int, precision: Int, scale: Int, scratch: Decimal, unscaled: Long): Unit =
    if (precision <= Decimal.MAX_LONG_DIGITS) w.write(ordinal, unscaled)
    else w.write(ordinal, scratch.set(unscaled, precision, scale), precision, scale)

  final class BooleanWriter(spec: CellSpec, seed: Long, parent: UnsafeWriter) extends CellWriter(spec, seed, parent) {
    protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit =
      parent.write(ordinal, random.nextChance(0.5))
  }

  final class SequenceWriter(spec: CellSpec, seed: Long, parent: UnsafeWriter, k: Sequence)
      extends CellWriter(spec, seed, parent) {
    protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit =
      writeWhole(parent, ordinal, spec.dataType, k.start + k.step * java.lang.Long.remainderUnsigned(instance, k.count))
  }

  final class RowOffsetWriter(spec: CellSpec, seed: Long, parent: UnsafeWriter) extends CellWriter(spec, seed, parent) {
    protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit = parent.write(ordinal, row.offset)
  }

  final class EventTimeWriter(spec: CellSpec, seed: Long, parent: UnsafeWriter, k: EventTime)
      extends CellWriter(spec, seed, parent) {
    protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit =
      parent.write(ordinal, if (k.micros) RowClock.timestampMicros(row.eventTimeMs) else row.eventTimeMs)
  }

  final class WholeWriter(spec: CellSpec, seed: Long, parent: UnsafeWriter, k: Wholes)
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
      if (decimal != null) writeDecimal(parent, ordinal, precision, scale, decimal, value)
      else writeWhole(parent, ordinal, t, value)
    }
  }

  final class RealWriter(spec: CellSpec, seed: Long, parent: UnsafeWriter, k: Reals)
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

  final class ValuesWriter(spec: CellSpec, seed: Long, parent: UnsafeWriter, k: Values)
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
        case (d: DecimalType, v: Long) => writeDecimal(parent, ordinal, d.precision, d.scale, decimal, v)
        case (ByteType, v: Byte) => parent.write(ordinal, v)
        case (ShortType, v: Short) => parent.write(ordinal, v)
        case (IntegerType | DateType, v: Int) => parent.write(ordinal, v)
        case (_, v: Long) => parent.write(ordinal, v)
        case (other, v) => throw new IllegalStateException(s"value $v of $other")
      }
    }
  }
}
