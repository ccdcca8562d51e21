package io.github.sparkrandomstrings.typed.cells

import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeWriter
import org.apache.spark.unsafe.types.UTF8String

import io.github.sparkrandomstrings.columns.RowDraw
import io.github.sparkrandomstrings.text.{StringColumnWriter, Utf8}
import io.github.sparkrandomstrings.typed.cells.CellKind._

/**
 * The writers of STRING and BINARY cells (Python: `typed/cells/text.py`): a string column's
 * options, a pattern, uniform bytes. [[CellWriter.of]] picks one by the cell's kind.
 */
private[typed] object TextCells {

  final class StringWriter(spec: CellSpec, seed: Long, parent: UnsafeWriter, k: Strings)
      extends CellWriter(spec, seed, parent) {
    private val strings = new StringColumnWriter(CellWriter.pathSeed(seed, spec.path), k.values)
    protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit =
      strings.writeDrawn(parent, ordinal, random)
  }

  final class PatternWriter(spec: CellSpec, seed: Long, parent: UnsafeWriter, plan: PatternPlan)
      extends CellWriter(spec, seed, parent) {
    import PatternPlan._
    private val points = new Array[Int](plan.maxLength.toInt)
    private var length = 0
    // A plan without surrogates is encoded here, code point by code point, into the bytes
    // `UTF8String.fromString` would make (Java turns a lone surrogate into '?'; such a plan keeps
    // that route): no String, no copy.
    private val bytes =
      if (plan.most(c => if (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE) 1 else 0) == 0)
        new Array[Byte](plan.maxUtf8Bytes.toInt)
      else null

    private def draw(p: PatternPlan): Unit = p match {
      case Literal(c) =>
        points(length) = c
        length += 1
      case any: AnyOf =>
        val all = any.table
        points(length) = all(random.nextBounded(all.length))
        length += 1
      case sequence: PatternPlan.Sequence =>
        val parts = sequence.steps
        var i = 0
        while (i < parts.length) {
          draw(parts(i))
          i += 1
        }
      case either: Either => draw(either.choices(random.nextBounded(either.choices.length)))
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
      if (bytes == null) parent.write(ordinal, UTF8String.fromString(new String(points, 0, length)))
      else {
        var at = 0
        var i = 0
        while (i < length) {
          at = Utf8.write(points(i), bytes, at)
          i += 1
        }
        parent.write(ordinal, bytes, 0, at)
      }
    }
  }

  final class BytesWriter(spec: CellSpec, seed: Long, parent: UnsafeWriter, k: Bytes)
      extends CellWriter(spec, seed, parent) {
    private val table = Array.tabulate[Byte](256)(_.toByte)
    private val buffer = new Array[Byte](k.maxLength)
    protected def writeValue(ordinal: Int, instance: Long, row: RowDraw): Unit = {
      val length = k.minLength + random.nextBounded(k.maxLength - k.minLength + 1)
      random.fillFrom(table, buffer, 0, length)
      parent.write(ordinal, buffer, 0, length)
    }
  }
}
