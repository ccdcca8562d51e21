package io.github.sparkrandomstrings.realtime

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{UnsafeProjection, UnsafeRow}
import org.apache.spark.sql.types.{DataType, IntegerType, LongType}

import io.github.sparkrandomstrings.offsets.PartitionPosition
import io.github.sparkrandomstrings.rows.{MultiRowMaker, OffsetRows, RowMaker}
import io.github.sparkrandomstrings.time.StreamClock

/**
 * A `realTime` stream's reader over offsets that make several rows: a range may start or end
 * between two rows of an offset, as a real-time batch that ends there leaves it, and the rows of
 * consecutive ranges are those of the whole range, each once.
 */
class InterleavedReaderSuite extends org.scalatest.funsuite.AnyFunSuite {

  /** Offset o exists at o ms and makes two rows when o is divisible by 3, else one: (o, row index). */
  private object Stream extends OffsetRows {
    override def sourceName: String = "test"
    override def rowsAvailableAt(nowMs: Long): Long = nowMs
    override def existsAtMs(offset: Long): Long = offset
    override def newRowMaker(): RowMaker = new MultiRowMaker {
      private val project = UnsafeProjection.create(Array[DataType](LongType, IntegerType))
      private var offset = 0L
      override def rowsAt(o: Long): Int = {
        offset = o
        if (o % 3 == 0) 2 else 1
      }
      override def rowOf(index: Int): UnsafeRow = project(InternalRow(offset, index))
    }
  }

  /** Every row of partition `p` of `n` in the range, as (offset, row index), and the reader's position after it. */
  private def read(p: Int, n: Int, from: (Long, Int), until: (Long, Int)): (Seq[(Long, Int)], PartitionPosition) = {
    val reader =
      new InterleavedReader(
        Stream,
        InterleavedPartition(p, n, from._1, until._1, from._2, until._2),
        StreamClock.System)
    val rows = Iterator.continually(reader.next()).takeWhile(identity).map { _ =>
      val row = reader.get()
      (row.getLong(0), row.getInt(1))
    }.toList
    (rows, reader.position)
  }

  test("ranges that start and end between an offset's rows read the whole range's rows, each once, in order") {
    val (whole, end) = read(0, 2, (0L, 0), (12L, 0))
    assert(whole == Seq(0L -> 0, 0L -> 1, 2L -> 0, 4L -> 0, 6L -> 0, 6L -> 1, 8L -> 0, 10L -> 0))
    assert(end == PartitionPosition(0, 12L, 0))

    // A batch that ended after the first of offset 6's two rows, and the next one from there.
    val (first, middle) = read(0, 2, (0L, 0), (6L, 1))
    assert(first == whole.take(5) && middle == PartitionPosition(0, 6L, 1))
    val (second, last) = read(0, 2, (6L, 1), (12L, 0))
    assert(second == whole.drop(5) && last == end)
    // A range from and to the same row reads nothing and stays there.
    assert(read(0, 2, (6L, 1), (6L, 1)) == ((Nil, PartitionPosition(0, 6L, 1))))
  }

  test("a real-time read hands the rest of a started offset on at once, and its position names the next row") {
    val reader =
      new InterleavedReader(Stream, InterleavedPartition(1, 2, 3L, Long.MaxValue, 1, 0), StreamClock.System)
    // Offset 3 existed long ago: its second row comes before any wait, with the offset's arrival time.
    assert(reader.nextBy(System.currentTimeMillis()))
    assert((reader.get().getLong(0), reader.get().getInt(1)) == ((3L, 1)) && reader.arrivalMs == 3L)
    assert(reader.position == PartitionPosition(1, 5L, 0))
    assert(reader.nextBy(System.currentTimeMillis()) && reader.position == PartitionPosition(1, 7L, 0))
  }

  test("a checkpoint that starts a range past an offset's last row is refused, naming the offset") {
    val error = intercept[IllegalStateException](read(0, 1, (3L, 2), (10L, 0)))
    assert(error.getMessage.startsWith("Offset 3 of test makes 2 rows, and this batch starts at its row 2"))
  }
}
