package io.github.sparkrandomstrings.changes

import java.io.File

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.Row
import org.apache.spark.sql.catalyst.encoders.{ExpressionEncoder, RowEncoder}
import org.apache.spark.sql.streaming.{OutputMode, Trigger}
import org.apache.spark.sql.types.StructType

import io.github.sparkrandomstrings.offsets.DefinitionStore
import io.github.sparkrandomstrings.rows.MultiRowMaker
import io.github.sparkrandomstrings.testing.{AvailableNowQueries, KeepingWriter, SparkSessionSuite}

/** `realTime=true` on the `changes` source: each change handed on once it exists, an update's two rows together. */
class ChangesRealTimeSuite extends SparkSessionSuite with AvailableNowQueries {

  override protected def sessionConfig: Map[String, String] =
    Map("spark.sql.streaming.realTimeMode.minBatchDuration" -> "500ms")

  private val Declared = "id INT NOT NULL, name STRING, balance DECIMAL(12,2)"
  private val Options = Map(
    "keys" -> "40",
    "deleteFraction" -> "0.3",
    "envelope" -> "delta",
    "numPartitions" -> "2",
    "fields.balance.min" -> "0",
    "fields.balance.max" -> "1000")

  /** The stream a query fixed in its checkpoint. */
  private def streamIn(checkpoint: File): ChangeStream = {
    val metadata = new File(checkpoint, "sources/0").getPath
    val definition = new DefinitionStore(metadata, new Configuration()).read().get
    ChangeStream(definition, new ChangeStore(metadata, new Configuration()).read().get)
  }

  /**
   * The rows at each offset, as the V1 source's partitions make them: change `offset`'s, unless
   * delivery is untidy. One maker and one decoder serve every offset asked.
   */
  private def rowsOf(stream: ChangeStream): Long => Seq[Row] = {
    val maker = stream.newRowMaker().asInstanceOf[MultiRowMaker]
    val toRow = ExpressionEncoder(RowEncoder.encoderFor(stream.schema)).resolveAndBind().createDeserializer()
    offset => (0 until maker.rowsAt(offset)).map(i => toRow(maker.rowOf(i).copy()))
  }

  test("a real-time query hands on each partition's changes in order, an update's two rows together, none early") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "checkpoint")
      val query = spark.readStream.format(Changes.ShortName).schema(Declared)
        .options(Options ++ Map("realTime" -> "true", "rowsPerSecond" -> "1000")).load()
        .writeStream.foreach(new KeepingWriter("changes")).outputMode(OutputMode.Update())
        .trigger(Trigger.RealTime("500 milliseconds"))
        .option("checkpointLocation", checkpoint.getPath).start()
      val deadline = System.currentTimeMillis() + 60000L
      while (KeepingWriter.kept("changes").size < 1500 && query.isActive && System.currentTimeMillis() < deadline) {
        Thread.sleep(50L)
      }
      query.exception.foreach(e => throw e)
      query.stop()
      val kept = KeepingWriter.kept("changes")
      assert(kept.size >= 1500, s"kept ${kept.size} rows")

      val stream = streamIn(checkpoint)
      val rowsAt = rowsOf(stream)
      assert(stream.spec == ChangeOptions.stream(Options, Some(StructType.fromDDL(Declared))).spec)
      // Each partition's rows in the order the sink got them: change after change, p, p + 2, ...,
      // each change's rows whole and in the envelope's order, none before the change existed.
      kept.groupBy { case (row, _) => (row.getLong(4) % 2).toInt }.foreach { case (p, rows) =>
        var expected = p.toLong
        var at = 0
        while (at < rows.size) {
          val change = rowsAt(expected)
          val got = rows.slice(at, at + change.size)
          // A batch that ends between an update's two rows hands the second on first thing in the
          // next batch; only the query's stop may cut the last change read short.
          if (got.size == change.size || at + got.size < rows.size) {
            assert(got.map(_._1) == change, s"partition $p, change $expected")
            got.foreach { case (_, gotAtMs) =>
              assert(gotAtMs >= stream.existsAtMs(expected), s"change $expected reached the sink before it existed")
            }
          }
          at += change.size
          expected += 2L
        }
      }
      val kinds = kept.map(_._1.getString(3)).toSet
      assert(kinds == Set("insert", "update_preimage", "update_postimage", "delete"), kinds)
    }
  }

  test("with untidy delivery a real-time query hands on each partition's reads in order, each once its read exists") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "checkpoint")
      val untidy = Options ++ Map(
        "envelope" -> "flat",
        "realTime" -> "true",
        "rowsPerSecond" -> "1000",
        "maxOutOfOrderMs" -> "300",
        "duplicateFraction" -> "0.1",
        "lateRowFraction" -> "0.05",
        "lateByMs" -> "600")
      val query = spark.readStream.format(Changes.ShortName).schema(Declared).options(untidy).load()
        .writeStream.foreach(new KeepingWriter("untidy")).outputMode(OutputMode.Update())
        .trigger(Trigger.RealTime("500 milliseconds"))
        .option("checkpointLocation", checkpoint.getPath).start()
      val deadline = System.currentTimeMillis() + 60000L
      while (KeepingWriter.kept("untidy").size < 800 && query.isActive && System.currentTimeMillis() < deadline) {
        Thread.sleep(50L)
      }
      query.exception.foreach(e => throw e)
      query.stop()
      val kept = KeepingWriter.keptWhole("untidy")
      assert(kept.size >= 800, s"kept ${kept.size} rows")
      val stream = streamIn(checkpoint)
      assert(stream.untidy)
      val rowsAt = rowsOf(stream)
      val delivery = stream.delivery().get
      // Partition p reads positions p, p + 2, ...: each position's change, not before the read
      // exists. A copy is its change's row again, so a row alone cannot say whose read it is: the
      // sink's partition (the source's, as the query has no shuffle) does.
      assert(kept.map(_.partition).toSet == Set(0L, 1L))
      kept.groupBy(_.partition).foreach { case (p, reads) =>
        reads.zipWithIndex.foreach { case (read, i) =>
          val position = p + 2L * i
          assert(Seq(read.row) == rowsAt(position), s"partition $p, read $position")
          assert(read.row.getLong(4) == delivery.changeAt(position), s"read $position is its change")
          assert(read.atMs >= stream.existsAtMs(position), s"read $position reached the sink before it existed")
        }
      }
      assert(kept.map(_.row.getLong(4)) != kept.map(_.row.getLong(4)).sorted, "changes read out of their order")
    }
  }

  test("under a micro-batch trigger a realTime stream reads the V1 source's rows, row for row") {
    withTempDir { dir =>
      val bounded = Options ++ Map("seed" -> "5", "startTimestamp" -> "1700000000000", "totalRows" -> "300")
      def read(realTime: Boolean) = collectAvailableNow(
        spark.readStream.format(Changes.ShortName).schema(Declared)
          .options(bounded ++ Map("realTime" -> realTime.toString)).load(),
        new File(dir, s"realTime-$realTime"))
      val v2 = read(realTime = true)
      val v1 = read(realTime = false)
      assert(v2.size > 300 && v2.map(_.getLong(4)).distinct.sorted == (0L until 300L))
      assert(v2.sortBy(_.toString) == v1.sortBy(_.toString))
    }
  }
}
