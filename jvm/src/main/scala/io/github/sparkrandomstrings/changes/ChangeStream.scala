package io.github.sparkrandomstrings.changes

import org.apache.spark.sql.catalyst.expressions.UnsafeRow
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter
import org.apache.spark.sql.types.StructType
import org.apache.spark.unsafe.types.UTF8String

import io.github.sparkrandomstrings.rows.{MultiRowMaker, OffsetRows, RowMaker, StreamDefinition}
import io.github.sparkrandomstrings.time.RowClock

/**
 * One change stream as a checkpoint fixes it: the rows' definition (seed, first start, rate or
 * profile, declared schema and its `fields.` options, and the delivery options) and the change
 * options. Change `n` (one row, or two for an update in the Delta and Flink envelopes) comes to
 * exist as row `n` of the definition does, and its commit time is row `n`'s event time. Offset `n`
 * reads change `n`, unless delivery is untidy (`maxOutOfOrderMs`, `duplicateFraction`,
 * `lateRowFraction`): then [[ChangeDelivery]] says which change each offset reads, and when.
 */
final case class ChangeStream(definition: StreamDefinition, spec: ChangeSpec) extends OffsetRows {

  override def sourceName: String = Changes.ShortName

  /** Whether offsets read changes out of order, late or twice ([[ChangeDelivery]]). */
  def untidy: Boolean = ChangeDelivery.isUntidy(definition.shape)

  /** A new reader of the delivery's order, if untidy: it keeps the window it is in, so one serves one thread. */
  private[changes] def delivery(): Option[ChangeDelivery] =
    if (untidy) Some(new ChangeDelivery(definition, spec.end)) else None

  override def rowsAvailableAt(nowMs: Long): Long =
    delivery().fold(definition.rowsAvailableAt(nowMs))(_.positionsAvailableAt(nowMs))

  // A reader of the delivery per thread, kept: a real-time read asks when each of its offsets exists,
  // one after the other, and a reader in an offset's window answers without looking for it.
  @transient private lazy val readers: ThreadLocal[ChangeDelivery] =
    ThreadLocal.withInitial(() => new ChangeDelivery(definition, spec.end))

  override def existsAtMs(offset: Long): Long =
    if (untidy) readers.get().existsAtMs(offset) else definition.existsAtMs(offset)

  override def newRowMaker(): RowMaker = new ChangeRows(this)

  /** The rows' schema: the declared columns in the envelope. */
  def schema: StructType = spec.envelope.schemaOf(definition.schema)

  /** The key column's position among the declared columns. */
  def keyOrdinal: Int = definition.schema.fieldIndex(spec.key)
}

/**
 * Makes each change's rows, one maker per partition ([[ChangeLifecycle]] says what change `n`
 * does), in the stream's envelope ([[ChangeEnvelope]]), its images written by [[ImageWriter]]. The
 * image after an insert or an update is the change's own (cells drawn at `n`, event time `n`'s);
 * the image before an update or a delete is the key's previous change's.
 */
final class ChangeRows(stream: ChangeStream) extends MultiRowMaker {
  import ChangeEnvelope._
  import ChangeLifecycle._

  private val definition = stream.definition
  private val envelope = stream.spec.envelope
  private val lifecycle = new ChangeLifecycle(definition.seed, stream.spec)
  // Untidy delivery's reader, or null: tidy delivery reads change n at position n.
  private val delivery = stream.delivery().orNull
  private val declared = definition.declared.getOrElse(sys.error("a change stream always has a declared schema"))
  private val width = declared.schema.length
  private val writer = new UnsafeRowWriter(stream.schema.length, 1 << 10)
  // Debezium's images are structs (`before`, `after`); every other envelope's are the row's first columns.
  private val (before, after) = envelope match {
    case Debezium =>
      (
        new ImageWriter(stream, new UnsafeRowWriter(writer, width)),
        new ImageWriter(stream, new UnsafeRowWriter(writer, width)))
    case _ =>
      val image = new ImageWriter(stream, writer)
      (image, image)
  }
  private val source = new UnsafeRowWriter(writer, Debezium.SourceType.length)
  private val mayBeNull = envelope == Debezium || declared.schema.fields.exists(_.nullable)
  // What each row does, as the envelope names it: by the operation's index, then the row before an update.
  private val strings = envelope.kindNames.map(UTF8String.fromString).toArray
  private val connector = UTF8String.fromString(ChangeRows.Connector)
  private val sourceName = UTF8String.fromString(Changes.ShortName)
  // Debezium's `source.snapshot` of a live change, a snapshot read, and the snapshot's last read.
  private val snapshotStates = Array("false", "true", "last").map(UTF8String.fromString)
  private val snapshotRead = UTF8String.fromString(Debezium.SnapshotOp)
  writer.zeroOutNullBytes()

  // The change worked out by rowsAt.
  private var seq = 0L
  private var key = 0L
  private var op: Op = Insert
  private var previous = 0L
  // The change whose cells the columns an update leaves keep (`updateColumns`): the key's insert,
  // for this change's image and for the previous one; each is the image's own change without it.
  private var base = 0L
  private var previousBase = 0L
  private var count = 1
  private val keepsColumns = stream.spec.updateColumns.isDefined
  // The change's commit time: consecutive changes' from a cursor, without a division each.
  private val commitTimes = definition.inOrderTimes()
  private var commitMs = 0L

  override def rowsAt(offset: Long): Int = {
    seq = if (delivery == null) offset else delivery.changeAt(offset)
    lifecycle.locate(seq)
    key = lifecycle.key
    val occurrence = lifecycle.occurrence
    op = lifecycle.opOf(key, occurrence)
    // The key's previous image: a delete's row, and an update's image before where the envelope
    // has one (every envelope but flat). Found only then: it costs an inverse permutation.
    previous = if (op == Insert || (op == Update && envelope == Flat)) -1L else lifecycle.seqOf(key, occurrence - 1L)
    // An update and the image before it share their key's insert; a delete's image is the previous
    // change's, so its insert is found from there. Walked only with `updateColumns`.
    base = seq
    previousBase = previous
    if (keepsColumns && op != Insert) {
      val insert = lifecycle.seqOf(key, lifecycle.insertOf(key, occurrence - 1L))
      previousBase = insert
      if (op == Update) base = insert
    }
    count = envelope.rowsOf(op)
    commitMs = commitTimes.at(seq)
    count
  }

  override def rowOf(index: Int): UnsafeRow = {
    writer.reset()
    if (mayBeNull) writer.zeroOutNullBytes()
    envelope match {
      case Debezium =>
        if (op == Insert) writer.setNullAt(0) else before.writeStruct(writer, 0, key, previous, previousBase, seq)
        if (op == Delete) writer.setNullAt(1) else after.writeStruct(writer, 1, key, seq, base, seq)
        val snapshot = if (!lifecycle.isSnapshot(seq)) 0 else if (seq + 1L == lifecycle.firstLive) 2 else 1
        writeSource(2, commitMs, snapshotStates(snapshot))
        writer.write(3, if (snapshot > 0) snapshotRead else strings(op.index))
        writer.write(4, commitMs)
      case _ =>
        // The second row of an update (Delta, Flink) is its image after; the first, before.
        val preimage = count == 2 && index == 0
        val earlier = op == Delete || preimage
        after.writeColumns(key, if (earlier) previous else seq, if (earlier) previousBase else base, seq)
        writer.write(width, strings(if (preimage) PreimageIndex else op.index))
        writer.write(width + 1, seq)
        writer.write(width + 2, RowClock.timestampMicros(commitMs))
    }
    writer.getRow
  }

  /** Debezium's `source`: this connector, the change's commit time, whether a snapshot read, and its number. */
  private def writeSource(ordinal: Int, commitMs: Long, snapshot: UTF8String): Unit = {
    val previousCursor = writer.cursor()
    source.resetRowWriter()
    source.write(0, connector)
    source.write(1, sourceName)
    source.write(2, commitMs)
    source.write(3, snapshot)
    source.write(4, seq)
    writer.setOffsetAndSizeFromPreviousCursor(ordinal, previousCursor)
  }
}

private object ChangeRows {

  /** Debezium's `source.connector` of this source's events. */
  val Connector = "spark-random-strings"
}
