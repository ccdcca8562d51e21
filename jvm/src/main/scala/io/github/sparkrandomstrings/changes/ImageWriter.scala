package io.github.sparkrandomstrings.changes

import org.apache.spark.sql.catalyst.expressions.codegen.{UnsafeRowWriter, UnsafeWriter}
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

import io.github.sparkrandomstrings.columns.RowDraw
import io.github.sparkrandomstrings.typed.cells.CellWriter

/**
 * Writes a change stream's images into `target`, the row being made or a struct in it: an image
 * is the declared columns, the key column holding the key and every other one the cell that the
 * typed columns draw at the image's change number, with that change's commit time as its event
 * time. So the image of change s is row s of the typed columns' stream of the same seed, schema
 * and `fields.` options, but for its key. With `updateColumns`, an update changes those columns
 * alone: every other column keeps the cell of the key's insert (its `base`), drawn at the insert's
 * change number and commit time; a column of kind `offset` still holds the row's offset. One
 * writer serves one partition.
 */
private[changes] final class ImageWriter(stream: ChangeStream, target: UnsafeRowWriter) {
  private val definition = stream.definition
  private val declared = definition.declared.getOrElse(sys.error("a change stream always has a declared schema"))
  private val width = declared.schema.length
  private val keyOrdinal = stream.keyOrdinal
  private val keyType = declared.schema.fields(keyOrdinal).dataType
  private val cells: Array[CellWriter] = declared.cells.zipWithIndex.map {
    case (spec, i) => if (i == keyOrdinal) null else CellWriter.of(spec, definition.seed, target)
  }.toArray
  // The columns an image keeps from its key's insert: those `updateColumns` leaves out, but the key.
  private val kept: Array[Boolean] = stream.spec.updatedColumns.fold(Array.fill(width)(false)) { updated =>
    declared.schema.fieldNames.zipWithIndex.map { case (name, i) => i != keyOrdinal && !updated.contains(name) }
  }
  private val keepsAny = kept.contains(true)
  private val draw = new RowDraw
  private val baseDraw = new RowDraw
  // A stream's images are mostly of consecutive changes: their commit times come from a cursor.
  private val commitTimes = definition.inOrderTimes()

  /**
   * The image of change `image`, of key `key`, at ordinals 0 to width - 1 of the target, for the
   * row at offset `offset` (what a declared column of kind `offset` holds); the columns an update
   * leaves are drawn at change `base`, the key's insert (`image` itself without `updateColumns`).
   */
  def writeColumns(key: Long, image: Long, base: Long, offset: Long): Unit = {
    draw.offset = offset
    draw.original = image
    draw.eventTimeMs = commitTimes.at(image)
    if (keepsAny) {
      baseDraw.offset = offset
      baseDraw.original = base
      baseDraw.eventTimeMs = if (base == image) draw.eventTimeMs else definition.inOrderEventTimeMs(base)
    }
    var i = 0
    while (i < width) {
      if (i == keyOrdinal) writeKey(i, key)
      else if (keepsAny && kept(i)) cells(i).write(i, base, baseDraw)
      else cells(i).write(i, image, draw)
      i += 1
    }
  }

  /** The image as a struct at `ordinal` of `parent`, whose nested writer the target is. */
  def writeStruct(parent: UnsafeWriter, ordinal: Int, key: Long, image: Long, base: Long, offset: Long): Unit = {
    val previousCursor = parent.cursor()
    target.resetRowWriter()
    writeColumns(key, image, base, offset)
    parent.setOffsetAndSizeFromPreviousCursor(ordinal, previousCursor)
  }

  private def writeKey(ordinal: Int, key: Long): Unit = keyType match {
    case ByteType => target.write(ordinal, key.toByte)
    case ShortType => target.write(ordinal, key.toShort)
    case IntegerType => target.write(ordinal, key.toInt)
    case LongType => target.write(ordinal, key)
    case _ => target.write(ordinal, UTF8String.fromString(java.lang.Long.toString(key)))
  }
}
