package io.github.sparkrandomstrings.write

import java.io.File

import org.apache.spark.sql.streaming.Trigger

import io.github.sparkrandomstrings.testing.SparkSessionSuite

/**
 * The write's commit protocol: Spark's file sink, with a record of each data file its tasks create.
 * The records name exactly the data files in the folder, which the sink's log lists as Spark's own
 * protocol lists them.
 */
class RecordedFilesCommitProtocolSuite extends SparkSessionSuite {

  override protected def sessionConfig: Map[String, String] =
    Map("spark.sql.streaming.commitProtocolClass" -> classOf[RecordedFilesCommitProtocol].getName)

  private def names(folder: File, keep: String => Boolean): Set[String] =
    Option(folder.listFiles()).toSeq.flatten.map(_.getName).filter(keep).toSet

  test("every data file of a file sink's batches is recorded, and the sink's log lists each") {
    withTempDir { dir =>
      val output = new File(dir, "out")
      val query = spark.readStream.format("InMemoryRandomStrings")
        .option("seed", "3").option("totalRows", "3000").option("maxRowsPerTrigger", "1000")
        .option("numPartitions", "2").load()
        .writeStream.format("parquet")
        .option("path", output.getPath)
        .option("checkpointLocation", new File(dir, "checkpoint").getPath)
        .trigger(Trigger.AvailableNow())
        .start()
      query.awaitTermination(120000L)
      query.exception.foreach(e => throw e)

      val data = names(output, _.startsWith("part-"))
      assert(data.size == 6, "two files in each of three batches")
      val pending = new File(output, RecordedFilesCommitProtocol.PendingFolder)
      assert(names(pending, !_.startsWith(".")) == data)
      assert(new File(pending, data.head).length == 0L)
      val listed = spark.read.parquet(output.getPath).inputFiles.map(_.split("/").last).toSet
      assert(listed == data)
      assert(spark.read.parquet(output.getPath).count() == 3000L)
    }
  }
}
