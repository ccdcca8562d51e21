package io.github.sparkrandomstrings.strings

import java.io.File
import java.nio.file.Files

import scala.collection.mutable
import scala.reflect.io.Directory

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileSystem, Path}
import org.apache.hadoop.hdfs.MiniDFSCluster
import org.apache.spark.sql.{DataFrame, Row}
import org.apache.spark.sql.streaming.{StreamingQuery, Trigger}

import io.github.sparkrandomstrings.offsets.DefinitionStore
import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.testing.SparkSessionSuite
import io.github.sparkrandomstrings.time.ManualClock

/**
 * A checkpoint on a real HDFS, not the local disk: an in-process cluster (Hadoop's
 * `MiniDFSCluster`, a NameNode and a DataNode, of the Hadoop release the Spark line is built
 * with) holds the query's checkpoint, the source's metadata file included.
 */
class HdfsCheckpointSuite extends SparkSessionSuite {

  private val clusterDir = Files.createTempDirectory("random-strings-hdfs").toFile
  private var cluster: MiniDFSCluster = _
  private def dfs: FileSystem = cluster.getFileSystem

  override def beforeAll(): Unit = {
    super.beforeAll()
    val conf = new Configuration()
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, clusterDir.getAbsolutePath)
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build()
    cluster.waitActive()
  }

  override def afterAll(): Unit = {
    try if (cluster != null) cluster.shutdown()
    finally {
      new Directory(clusterDir).deleteRecursively()
      super.afterAll()
    }
  }

  private def hdfs(path: String): String = s"${cluster.getURI}$path"

  // Every row exists from the start; batches of 50 make 8 of them.
  private val options =
    Map(
      "seed" -> "31",
      "totalRows" -> "400",
      "maxRowsPerTrigger" -> "50",
      "maxLength" -> "9",
      "rowsPerSecond" -> "100000")

  /** Starts the stream (with `more` options) into `batches` (each batch's rows by batch id) with `checkpoint`. */
  private def start(
      checkpoint: String,
      trigger: Trigger,
      batches: mutable.Map[Long, Seq[Row]],
      more: Map[String, String] = Map.empty): StreamingQuery = {
    val stream = spark.readStream.format(RandomStrings.ShortName).options(options ++ more).load()
    val collect: (DataFrame, Long) => Unit = (batch, id) => {
      val rows = batch.collect().toSeq
      batches.synchronized {
        // A batch that runs again after a restart must be the same batch.
        batches.get(id).foreach(before => assert(before == rows, s"batch $id replayed with other rows"))
        batches(id) = rows
      }
    }
    stream.writeStream.foreachBatch(collect).trigger(trigger).option("checkpointLocation", checkpoint).start()
  }

  /** How many batches the commit log holds (none before the query has made its folder). */
  private def committed(checkpoint: String): Int = {
    val log = new Path(checkpoint, "commits")
    if (!dfs.exists(log)) 0 else dfs.listStatus(log).count(_.getPath.getName.forall(_.isDigit))
  }

  private def finishAvailableNow(checkpoint: String, batches: mutable.Map[Long, Seq[Row]]): Unit = {
    val query = start(checkpoint, Trigger.AvailableNow(), batches)
    assert(query.awaitTermination(120000L), "an AvailableNow query stops by itself")
    query.exception.foreach(e => throw e)
  }

  test("a query stopped mid-stream and restarted from an HDFS checkpoint delivers every row once, as on local disk") {
    val checkpoint = hdfs("/checkpoints/stopped")
    val batches = mutable.Map.empty[Long, Seq[Row]]
    // A stepped clock at 100,000 rows/s: each ms makes 100 rows, two batches of 50.
    val clock = ManualClock.register("hdfs-steps", 1700000000000L)
    val first = start(checkpoint, Trigger.ProcessingTime(0L), batches, Map(RandomStrings.MANUAL_CLOCK -> clock.name))
    try {
      first.processAllAvailable()
      clock.advance(1L)
      first.processAllAvailable()
      assert(committed(checkpoint) == 2, "0.001 s at 100,000 rows/s: 100 rows, two batches")
      clock.advance(1L)
      first.processAllAvailable()
    } finally first.stop()
    assert(committed(checkpoint) == 4, "stopped mid-stream: 200 rows in four batches")
    assert(batches.keys.toSeq.sorted == (0L to 3L))

    // The source's definition lives on HDFS, written whole: no temporary file beside it.
    val metadata = dfs.listStatus(new Path(checkpoint, "sources/0")).map(_.getPath.getName).toSeq
    assert(metadata.filterNot(_.endsWith(".crc")) == Seq(DefinitionStore.FileName))

    finishAvailableNow(checkpoint, batches)
    assert(committed(checkpoint) == 8)
    assert(batches.keys.toSeq.sorted == (0L to 7L))
    val delivered = batches.toSeq.sortBy(_._1).flatMap(_._2)
    assert(delivered.map(_.getAs[Long]("offset")) == (0L until 400L), "every offset once, in order")

    // The same stream on the local disk, uninterrupted: the same values at the same offsets
    // (its ts differ: they count from each checkpoint's own start time).
    def valuesOf(rows: Seq[Row]) =
      rows.map(r => (r.getAs[Long]("offset"), r.getAs[String]("value"), r.getAs[Int]("length")))
    withTempDir { dir =>
      val local = mutable.Map.empty[Long, Seq[Row]]
      finishAvailableNow(new File(dir, "checkpoint").getPath, local)
      assert(valuesOf(local.toSeq.sortBy(_._1).flatMap(_._2)) == valuesOf(delivered))
    }
  }

  test("an HDFS checkpoint with batches whose source metadata file is gone fails at start") {
    val checkpoint = hdfs("/checkpoints/lost")
    finishAvailableNow(checkpoint, mutable.Map.empty)
    val file = new Path(checkpoint, s"sources/0/${DefinitionStore.FileName}")
    assert(dfs.delete(file, false))
    val query = start(checkpoint, Trigger.AvailableNow(), mutable.Map.empty)
    val error = intercept[Exception](query.awaitTermination(60000L))
    Seq(s"sources/0/${DefinitionStore.FileName} is missing", "holds 8 batches", "a new checkpoint location")
      .foreach(words => assert(error.getMessage.contains(words), error.getMessage))
    assert(!dfs.exists(file), "no new definition was written")
  }
}
