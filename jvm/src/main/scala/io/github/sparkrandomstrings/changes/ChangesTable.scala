package io.github.sparkrandomstrings.changes

import org.apache.spark.{InterruptibleIterator, Partition, SparkContext, TaskContext}
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.{Row, SQLContext}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter
import org.apache.spark.sql.sources.{BaseRelation, TableScan}
import org.apache.spark.sql.types.StructType

import io.github.sparkrandomstrings.time.RowClock

/**
 * A batch read of a change stream, `spark.read.format("changes")` with `asOf` = n: the table
 * after its first n changes (one row per present key, its last image), or with `history` every
 * version of every key up to then, each with the change numbers and commit times between which
 * it held (SCD type 2). The keys are split among `numPartitions` tasks, each of which finds every
 * key's last change directly ([[ChangeLifecycle.lastOccurrence]]): the table takes time in
 * proportion to the keys, whatever n is, and the history to the versions.
 *
 * @param stream the change stream whose table this is (its start time is `startTimestamp`, or 0)
 */
final class ChangesTable(
    override val sqlContext: SQLContext,
    stream: ChangeStream,
    asOf: Long,
    history: Boolean,
    numPartitions: Int,
    override val schema: StructType)
    extends BaseRelation with TableScan {

  /** The rows are Spark's own binary rows already. */
  override def needConversion: Boolean = false

  override def buildScan(): RDD[Row] =
    new ChangesTableRDD(sqlContext.sparkContext, stream, asOf, history, numPartitions).asInstanceOf[RDD[Row]]

  override def toString: String = s"${Changes.ShortName}[${Changes.AS_OF}=$asOf${if (history) ", history" else ""}]"
}

/** The keys [from, until) of a table read: one task's share. */
private[changes] final case class KeyRange(index: Int, from: Long, until: Long) extends Partition

/** The table's rows, made on the executors, each partition the rows of its keys, in key order. */
private[changes] final class ChangesTableRDD(
    sc: SparkContext,
    stream: ChangeStream,
    asOf: Long,
    history: Boolean,
    numPartitions: Int)
    extends RDD[InternalRow](sc, Nil) {

  override protected def getPartitions: Array[Partition] = {
    val keys = stream.spec.keys
    val slices = math.max(1L, math.min(numPartitions.toLong, keys)).toInt
    Array.tabulate[Partition](slices) { p =>
      def bound(i: Int) = (BigInt(keys) * i / slices).toLong
      KeyRange(p, bound(p), bound(p + 1))
    }
  }

  override def compute(split: Partition, context: TaskContext): Iterator[InternalRow] = {
    val range = split.asInstanceOf[KeyRange]
    val lifecycle = new ChangeLifecycle(stream.definition.seed, stream.spec)
    val width = stream.definition.schema.length
    val writer = new UnsafeRowWriter(width + (if (history) Changes.HistoryFields.length else 0), 1 << 10)
    val images = new ImageWriter(stream, writer)
    val keepsColumns = stream.spec.updateColumns.isDefined
    // The image of the key's occurrence j, which leaves it present; with `updateColumns`, the
    // columns an update leaves hold its insert's cells.
    def row(key: Long, j: Long): UnsafeRowWriter = {
      writer.reset()
      writer.zeroOutNullBytes()
      val image = lifecycle.seqOf(key, j)
      val base = if (keepsColumns) lifecycle.seqOf(key, lifecycle.insertOf(key, j)) else image
      images.writeColumns(key, image, base, image)
      writer
    }
    def commitMicros(seq: Long): Long = RowClock.timestampMicros(stream.definition.inOrderEventTimeMs(seq))
    // Iterator.range takes Ints on Scala 2.12, and a task's keys may be more.
    def upTo(from: Long, until: Long) = Iterator.iterate(from)(_ + 1L).takeWhile(_ < until)
    val keys = upTo(range.from, range.until)
    val rows: Iterator[InternalRow] =
      if (!history) {
        keys.flatMap { key =>
          val j = lifecycle.lastOccurrence(key, asOf)
          if (j < 0L || lifecycle.absentAfter(key, j)) Iterator.empty
          else Iterator.single(row(key, j).getRow)
        }
      } else {
        keys.flatMap { key =>
          val last = lifecycle.lastOccurrence(key, asOf)
          // Each insert or update begins a version; the key's next change, if any by asOf, ends it.
          upTo(0L, last + 1L).filter(j => lifecycle.opOf(key, j) != ChangeLifecycle.Delete).map { j =>
            val from = lifecycle.seqOf(key, j)
            val to = if (j < last) lifecycle.seqOf(key, j + 1L) else -1L
            val w = row(key, j)
            w.write(width, from)
            w.write(width + 2, commitMicros(from))
            if (to < 0L) {
              w.setNullAt(width + 1)
              w.setNullAt(width + 3)
            } else {
              w.write(width + 1, to)
              w.write(width + 3, commitMicros(to))
            }
            w.getRow
          }
        }
      }
    new InterruptibleIterator(context, rows)
  }
}
