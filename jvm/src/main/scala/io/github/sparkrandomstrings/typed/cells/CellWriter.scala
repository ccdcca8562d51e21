package io.github.sparkrandomstrings.typed.cells

import org.apache.spark.sql.catalyst.expressions.codegen.{UnsafeArrayWriter, UnsafeRowWriter, UnsafeWriter}
import org.apache.spark.sql.types._

import io.github.sparkrandomstrings.columns.RowDraw
import io.github.sparkrandomstrings.randomness.{CounterRandom, RandomStreams}

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
    case k: Wholes => new NumberCells.WholeWriter(cells, seed, parent, k)
    case k: Reals => new NumberCells.RealWriter(cells, seed, parent, k)
    case Booleans => new NumberCells.BooleanWriter(cells, seed, parent)
    case k: Sequence => new NumberCells.SequenceWriter(cells, seed, parent, k)
    case RowOffset => new NumberCells.RowOffsetWriter(cells, seed, parent)
    case k: EventTime => new NumberCells.EventTimeWriter(cells, seed, parent, k)
    case k: Values => new NumberCells.ValuesWriter(cells, seed, parent, k)
    case k: Strings => new TextCells.StringWriter(cells, seed, parent, k)
    case Patterned(_, plan) => new TextCells.PatternWriter(cells, seed, parent, plan)
    case k: Bytes => new TextCells.BytesWriter(cells, seed, parent, k)
    case Arrays(minSize, maxSize, element) => new ArrayWriter(cells, seed, parent, minSize, maxSize, element)
    case Structs(fields) => new StructWriter(cells, seed, parent, fields)
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
