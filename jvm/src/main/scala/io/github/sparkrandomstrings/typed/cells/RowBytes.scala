package io.github.sparkrandomstrings.typed.cells

import java.util.Locale

import org.apache.spark.sql.types.{Decimal, DecimalType}
import org.apache.spark.unsafe.array.ByteArrayMethods
import org.apache.spark.unsafe.types.UTF8String

import io.github.sparkrandomstrings.text.StringColumnWriter
import io.github.sparkrandomstrings.typed.fields.{FieldOptions, FieldProperties}

/**
 * The most bytes a declared row takes in Spark's binary row format (`UnsafeRow`), and the
 * refusal of a declaration whose rows may not fit in one: Spark's writers hold a row in one byte
 * array of at most [[RowBytes.Limit]] bytes and fail past it, deep inside a task, once the
 * query runs (or a machine runs out of memory first).
 *
 * The count follows the layout [[CellWriter]] writes through Spark's writers: a row's null bits
 * (8 bytes for each 64 columns) and an 8-byte slot for each column; then, word-aligned (to 8
 * bytes), a STRING's UTF-8 bytes, a BINARY's bytes, a DECIMAL wider than 18 digits' 16 bytes, a
 * STRUCT as a row of its fields, and an ARRAY as its size (8 bytes), its null bits, its elements'
 * slots ([[CellWriter.elementSize]] each) and what each element takes besides. Each part is
 * counted at its most, all at once: an array at `maxSize`, a string at `maxLength` characters of
 * the widest UTF-8 its characters have (what [[text.StringColumnWriter]] reserves before it
 * draws one), a pattern at its longest UTF-8, a `values` cell at its longest value; a cell
 * whose `nullRate` is 1, always null, takes its slot only (outside an array, a wide DECIMAL
 * keeps its 16 bytes even when null).
 *
 * So the bound is the most a row can take, exactly, and Spark's buffer grows to the limit and no
 * further: every part can be at its most in one row (an array at `maxSize`, each of its strings at
 * its longest and widest, which the JVM's writer reserves before it draws one anyway). A row of an
 * accepted declaration always fits, and a refused declaration can make a row that does not, however
 * unlikely (a `unicode` string of 4-byte characters only). The bound is read from the options, never
 * from the seed: it counts more than a stream's rows can hold only where the seed's `distinctValues`
 * pool has no entry of the longest length and widest characters. The Python engine's rows, which
 * Spark writes from Arrow with each string's own bytes, take no more than the JVM's.
 */
private[sparkrandomstrings] object RowBytes {
  import CellKind._
  import FieldProperties.{MAX_LENGTH, MAX_SIZE, PATTERN, VALUES}

  /** The most bytes a row may take: Spark's writers' buffer (`BufferHolder`) grows no further. */
  val Limit: Long = ByteArrayMethods.MAX_ROUNDED_ARRAY_LENGTH.toLong

  /** `bytes` rounded up to whole 8-byte words, as Spark lays out every variable-length part. */
  private def words(bytes: BigInt): BigInt = (bytes + 7) / 8 * 8

  /** The null bits of `fields` fields or elements: 8 bytes for each 64. */
  private def nullBits(fields: BigInt): BigInt = (fields + 63) / 64 * 8

  /**
   * The most bytes cells of `spec` take besides their fixed slot (8 bytes in a row or a struct,
   * [[CellWriter.elementSize]] in an array); `inArray`: they are an ARRAY's elements.
   */
  def variable(spec: CellSpec, inArray: Boolean = false): BigInt = spec.dataType match {
    // Spark keeps a wide DECIMAL's 16 bytes in a row or a struct even when it is null; in an
    // array, a null one takes none.
    case d: DecimalType if d.precision > Decimal.MAX_LONG_DIGITS =>
      if (inArray && spec.nullRate >= 1.0) BigInt(0) else BigInt(16)
    case _ if spec.nullRate >= 1.0 => BigInt(0)
    case _ =>
      spec.kind match {
        case Strings(values) => BigInt(StringColumnWriter.maxValueBytes(values))
        case Patterned(_, plan) => words(plan.maxUtf8Bytes)
        case Values(values, _, _) =>
          values.map {
            case s: UTF8String => words(BigInt(s.numBytes))
            case b: Array[Byte] => words(BigInt(b.length))
            case _ => BigInt(0)
          }.max
        case Bytes(_, maxLength) => words(BigInt(maxLength))
        case Arrays(_, maxSize, element) =>
          BigInt(8) + nullBits(maxSize) + words(BigInt(maxSize) * CellWriter.elementSize(element.dataType)) +
            BigInt(maxSize) * variable(element, inArray = true)
        case Structs(fields) =>
          nullBits(fields.length) + BigInt(8) * fields.length + fields.map(variable(_, inArray = false)).sum
        case _ => BigInt(0)
      }
  }

  /** The most bytes the column of `spec` takes of a row: its slot, and what it takes besides. */
  def column(spec: CellSpec): BigInt = BigInt(8) + variable(spec)

  /** The most bytes a row of columns `cells` takes. */
  def row(cells: Seq[CellSpec]): BigInt = nullBits(cells.length) + cells.map(column).sum

  /**
   * The options that bound the bytes of `spec`'s cells, from the column's down to the deepest:
   * each ARRAY's `maxSize`, into a STRUCT's largest field, to the `maxLength`, `pattern` or
   * `values` of its strings or bytes.
   */
  def drivers(spec: CellSpec): Seq[String] = {
    def option(name: String) = s"${FieldOptions.Prefix}${spec.shownPath}.$name"
    if (variable(spec) == 0) Nil
    else
      spec.kind match {
        case Arrays(_, _, element) => option(MAX_SIZE) +: drivers(element)
        case Structs(fields) => drivers(fields.maxBy(variable(_)))
        case Strings(_) | Bytes(_, _) => Seq(option(MAX_LENGTH))
        case Patterned(_, _) => Seq(option(PATTERN))
        case Values(_, _, _) => Seq(option(VALUES))
        case _ => Nil
      }
  }

  /**
   * Refuses columns `cells` if their row may take more than [[Limit]] bytes: naming the first
   * column that can take more alone, or else the largest, with its bound and the options to lower.
   *
   * @throws IllegalArgumentException naming the column, its bound, the limit and the options
   */
  def check(cells: Seq[CellSpec]): Unit = {
    val total = row(cells)
    if (total > Limit) {
      val columns = cells.map(column)
      val alone = columns.indexWhere(_ > Limit)
      val at = if (alone >= 0) alone else columns.indexOf(columns.max)
      val named = cells(at)
      val options = drivers(named).map(d => s"'$d'")
      val listed = if (options.size <= 1) options.mkString else s"${options.init.mkString(", ")} or ${options.last}"
      val limit = s"a row must fit in ${grouped(BigInt(Limit))} bytes (Spark's limit)"
      throw new IllegalArgumentException(
        if (alone >= 0) {
          s"Column '${named.shownPath}' can take up to ${grouped(columns(at))} bytes of a row, and $limit. " +
            (if (options.isEmpty) "Declare it smaller." else s"Lower $listed.")
        } else {
          s"A row of the declared columns can take up to ${grouped(total)} bytes, and $limit; its largest " +
            s"column, '${named.shownPath}', up to ${grouped(columns(at))}. " +
            (if (options.isEmpty) "Declare fewer columns." else s"Lower $listed, or declare fewer columns.")
        })
    }
  }

  /** `n` with its digits in groups of three, as the messages show a count of bytes: 2,147,483,632. */
  private def grouped(n: BigInt): String = String.format(Locale.ROOT, "%,d", n.bigInteger)
}
