package io.github.sparkrandomstrings

import java.io.File

import org.apache.spark.sql.streaming.Trigger

import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.testing.SparkSessionSuite

/** A session started with `spark.sql.extensions` gets the scan from them; `load()` leaves it be. */
class RandomStringsExtensionsSuite extends SparkSessionSuite {

  override protected def sessionConfig: Map[String, String] =
    Map(RandomStringsExtensions.ConfigKey -> classOf[RandomStringsExtensions].getName)

  test("with the extensions, load() adds no strategy and batches are planned as the source's own scan") {
    assert(RandomStringsExtensions.configuredOn(spark.sparkContext))
    val df = spark.readStream.format(RandomStrings.ShortName)
      .options(Map("totalRows" -> "1000", "maxRowsPerTrigger" -> "400", "rowsPerSecond" -> "1000000", "seed" -> "3"))
      .load()
    assert(spark.experimental.extraStrategies.isEmpty)
    withTempDir { dir =>
      val query = df.writeStream.format("memory").queryName("extended").trigger(Trigger.AvailableNow())
        .option("checkpointLocation", new File(dir, "checkpoint").getPath).start()
      try {
        assert(query.awaitTermination(120000L))
        query.exception.foreach(e => throw e)
        val plan = new java.io.ByteArrayOutputStream()
        Console.withOut(plan)(query.explain())
        assert(plan.toString("UTF-8").contains("Scan InMemoryRandomStrings[value#"), plan)
        assert(!plan.toString("UTF-8").contains("ExistingRDD"), plan)
        assert(query.recentProgress.map(_.numInputRows).toSeq == Seq(400L, 400L, 200L))
        val offsets = spark.table("extended").select("offset").collect().map(_.getLong(0)).sorted.toSeq
        assert(offsets == (0L until 1000L))
      } finally query.stop()
    }
    assert(spark.experimental.extraStrategies.isEmpty)
  }
}
