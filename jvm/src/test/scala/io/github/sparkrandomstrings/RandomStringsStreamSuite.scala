package io.github.sparkrandomstrings

import java.io.File

import scala.collection.mutable

import org.apache.spark.sql.{DataFrame, Row}
import org.apache.spark.sql.streaming.{StreamingQuery, Trigger}

import io.github.sparkrandomstrings.offsets.DefinitionStore
import io.github.sparkrandomstrings.offsets.OffsetRowsScanStrategy
import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.rows.RowGenerator
import io.github.sparkrandomstrings.testing.{DigestedRows, SparkSessionSuite}
import io.github.sparkrandomstrings.time.ManualClock

/** The source end to end, through `spark.readStream` and real streaming queries. */
class RandomStringsStreamSuite extends SparkSessionSuite {
  import RandomStrings.ShortName

  private def reader(options: (String, String)*) =
    spark.readStream.format(ShortName).options(options.toMap)

  /** Runs `df` under Trigger.AvailableNow, returns each batch's rows by batch id. */
  private def runAvailableNow(df: DataFrame, checkpoint: File): (StreamingQuery, Map[Long, Seq[Row]]) = {
    val batches = mutable.Map.empty[Long, Seq[Row]]
    val collect: (DataFrame, Long) => Unit = (batch, id) =>
      batches.synchronized {
        batches(id) = batch.collect().toSeq
      }
    val query = df.writeStream
      .foreachBatch(collect)
      .trigger(Trigger.AvailableNow())
      .option("checkpointLocation", checkpoint.getPath)
      .start()
    query.awaitTermination(120000L)
    assert(!query.isActive, "an AvailableNow query stops by itself")
    query.exception.foreach(e => throw e)
    (query, batches.synchronized(batches.toMap))
  }

  test("the short name works in any case, and so does the package name") {
    for (format <- Seq(
        "InMemoryRandomStrings",
        "inmemoryrandomstrings",
        "io.github.sparkrandomstrings",
        classOf[RandomStringsSourceProvider].getName)) {
      val df = spark.readStream.format(format).load()
      assert(df.isStreaming)
      assert(df.schema == RandomStrings.Schema, format)
    }
    // The provider's public names for them stay, with their values.
    assert(RandomStringsSourceProvider.ShortName == "InMemoryRandomStrings")
    assert(RandomStringsSourceProvider.Schema.toDDL ==
      "value STRING NOT NULL,ts BIGINT NOT NULL,offset BIGINT NOT NULL,length INT NOT NULL")
  }

  test("a bad option fails at load(), before any query starts") {
    val error = intercept[IllegalArgumentException](reader("maxLength" -> "-3").load())
    assert(error.getMessage == "Invalid value '-3' for option 'maxLength': out of range. " +
      "Allowed: a whole number from 0 to 1048576.")
  }

  test("AvailableNow with totalRows processes exactly N rows in batches of maxRowsPerTrigger, then stops") {
    withTempDir { dir =>
      val df = reader(
        "totalRows" -> "95",
        "maxRowsPerTrigger" -> "20",
        "rowsPerSecond" -> "1",
        "seed" -> "9",
        "numPartitions" -> "3").load()
      val (query, batches) = runAvailableNow(df, new File(dir, "checkpoint"))
      assert(batches.keys.toSeq.sorted == (0L to 4L))
      assert((0L to 4L).map(batches(_).size) == Seq(20, 20, 20, 20, 15))
      val offsets = batches.values.flatten.map(_.getAs[Long]("offset")).toSeq.sorted
      assert(offsets == (0L until 95L))
      assert(query.recentProgress.filter(_.numInputRows > 0).map(_.numInputRows).toSeq == Seq(20, 20, 20, 20, 15))
    }
  }

  // Deprecated since Spark 3.4 in favour of AvailableNow, but still what many jobs use.
  @annotation.nowarn("cat=deprecation")
  private def triggerOnce: Trigger = Trigger.Once()

  test("Trigger.Once reads all available rows in one batch, ignoring maxRowsPerTrigger") {
    withTempDir { dir =>
      val batches = mutable.Map.empty[Long, Long]
      val count: (DataFrame, Long) => Unit = (batch, id) => batches.synchronized { batches(id) = batch.count() }
      val query = reader("totalRows" -> "50", "maxRowsPerTrigger" -> "10", "rowsPerSecond" -> "1000000").load()
        .writeStream.foreachBatch(count).trigger(triggerOnce)
        .option("checkpointLocation", new File(dir, "c").getPath).start()
      query.awaitTermination(60000L)
      assert(batches.synchronized(batches.toMap) == Map(0L -> 50L))
    }
  }

  test("each step of the clock makes exactly its rows, and the next batch reads exactly those") {
    withTempDir { dir =>
      val clock = ManualClock.register("stream-suite-steps", 1700000000000L)
      val batches = mutable.ArrayBuffer.empty[(Long, Seq[Long])]
      val collect: (DataFrame, Long) => Unit = (batch, id) =>
        batches.synchronized(batches += id -> batch.select("offset").collect().map(_.getLong(0)).toSeq.sorted)
      // The default trigger: a batch as soon as rows exist, so each step is one batch.
      val query = reader("rowsPerSecond" -> "200", "seed" -> "1", RandomStrings.MANUAL_CLOCK -> clock.name).load()
        .writeStream.foreachBatch(collect).option("checkpointLocation", new File(dir, "c").getPath).start()
      try {
        query.processAllAvailable() // no row exists at the first start
        // 200 rows/s: 40 rows in 200 ms, 1 in 5 ms, 200 in 1 s; 3 ms more makes none, 2 ms more one.
        for (ms <- Seq(200L, 5L, 1000L, 3L, 2L)) {
          clock.advance(ms)
          query.processAllAvailable()
        }
      } finally query.stop()
      assert(query.exception.isEmpty)
      assert(batches.synchronized(batches.toList) == List(
        0L -> (0L until 40L),
        1L -> Seq(40L),
        2L -> (41L until 241L),
        3L -> Seq(241L)))
      assert(query.recentProgress.map(_.numInputRows).filter(_ > 0).toSeq == Seq(40L, 1L, 200L, 1L))
    }
  }

  test("a restart regenerates the uncommitted batch identically, then continues with no duplicate or gap") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "checkpoint")
      def load(total: Int) = reader(
        "totalRows" -> total.toString,
        "maxRowsPerTrigger" -> "10",
        "maxLength" -> "10"
      ).load() // no seed: it is drawn once and kept in the checkpoint
      val (_, first) = runAvailableNow(load(50), checkpoint)
      assert(first.keys.toSeq.sorted == (0L to 4L))

      // As if the query died after planning batch 4 but before committing it.
      assert(new File(checkpoint, "commits/4").delete())
      new File(checkpoint, "commits/.4.crc").delete() // the local file system's checksum of it
      val (_, second) = runAvailableNow(load(50), checkpoint)
      assert(second.keySet == Set(4L), "only the uncommitted batch runs again")
      assert(second(4L) == first(4L), "the replayed batch is identical, values and all")

      val (_, third) = runAvailableNow(load(80), checkpoint)
      assert(third.keys.toSeq.sorted == (5L to 7L))
      val all = (first ++ third).toSeq.sortBy(_._1).flatMap(_._2)
      assert(all.map(_.getAs[Long]("offset")) == (0L until 80L))
      assert(all.map(_.getAs[String]("value")).toSet.size > 60, "values are random, not repeated")
    }
  }

  test("a shaped stream is the generator's rows whatever the partitioning, batch sizes and restarts", DigestedRows) {
    withTempDir { dir =>
      val shaped = Seq(
        "seed" -> "5",
        "rowsPerSecond" -> "50",
        "maxLength" -> "6",
        "distinctValues" -> "40",
        "valueDistribution" -> "zipf",
        "zipfExponent" -> "1.3",
        "maxOutOfOrderMs" -> "500",
        "lateRowFraction" -> "0.1",
        "lateByMs" -> "5000",
        "duplicateFraction" -> "0.2",
        "maxDuplicateDistance" -> "5")
      def run(name: String, total: Int, more: (String, String)*): Seq[Row] = {
        val df = reader(shaped ++ more :+ ("totalRows" -> total.toString): _*).load()
        runAvailableNow(df, new File(dir, name))._2.toSeq.sortBy(_._1).flatMap(_._2)
      }
      def expected(name: String, offsets: Seq[Long]): Seq[Row] = {
        val definition =
          new DefinitionStore(new File(dir, s"$name/sources/0").getPath, spark.sparkContext.hadoopConfiguration)
            .read().get
        val generator = new RowGenerator(definition)
        offsets.map { o =>
          val row = generator.row(o)
          Row(row.getUTF8String(0).toString, row.getLong(1), row.getLong(2), row.getInt(3))
        }
      }
      val whole = run("whole", 120, "numPartitions" -> "1")
      assert(whole == expected("whole", 0L until 120L))

      // Another partitioning, small batches, and a restart that replays an uncommitted batch.
      val first = run("pieces", 60, "numPartitions" -> "3", "maxRowsPerTrigger" -> "17")
      assert(new File(dir, "pieces/commits/3").delete())
      new File(dir, "pieces/commits/.3.crc").delete()
      val rest = run("pieces", 120, "numPartitions" -> "2", "maxRowsPerTrigger" -> "17")
      val replayed = first.filter(_.getAs[Long]("offset") >= 51L)
      assert(rest.take(replayed.size) == replayed, "the uncommitted batch is made again identically")
      val pieces = first ++ rest.drop(replayed.size)
      assert(pieces == expected("pieces", 0L until 120L))
      def shifted(rows: Seq[Row], name: String) = {
        val start =
          new DefinitionStore(new File(dir, s"$name/sources/0").getPath, spark.sparkContext.hadoopConfiguration)
            .read().get.startTimeMs
        rows.map(r => (r.getString(0), r.getLong(1) - start, r.getLong(2), r.getInt(3)))
      }
      assert(shifted(pieces, "pieces") == shifted(whole, "whole"))
      assert(whole.map(_.getString(0)).toSet.size <= 40)
    }
  }

  test("the seed drawn at first start is stored and reused; a contradicting seed fails the restart") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "checkpoint")
      val (_, first) = runAvailableNow(reader("totalRows" -> "10").load(), checkpoint)
      val stored = new DefinitionStore(
        new File(checkpoint, "sources/0").getPath,
        spark.sparkContext.hadoopConfiguration).read().get

      // The same stream, made again from the stored seed in a fresh checkpoint, matches.
      val (_, replay) = runAvailableNow(
        reader("totalRows" -> "10", "seed" -> stored.seed.toString).load(),
        new File(dir, "fresh"))
      assert(replay(0L).map(r => (r.getString(0), r.getLong(2))) == first(0L).map(r => (r.getString(0), r.getLong(2))))

      val other = (stored.seed + 1).toString
      val query = reader("totalRows" -> "20", "seed" -> other).load().writeStream.format("noop")
        .trigger(Trigger.AvailableNow()).option("checkpointLocation", checkpoint.getPath).start()
      val error = intercept[Exception](query.awaitTermination(60000L))
      assert(error.getMessage.contains(s"seed: the checkpoint has ${stored.seed}, the query sets $other"))
    }
  }

  test("progress reports carry the source's description and metrics") {
    withTempDir { dir =>
      val (query, _) = runAvailableNow(
        reader("totalRows" -> "30", "maxRowsPerTrigger" -> "10", "seed" -> "5", "numPartitions" -> "2").load(),
        new File(dir, "c"))
      val progress = query.recentProgress.filter(_.numInputRows > 0)
      val first = progress.head.sources.head
      assert(first.description == "InMemoryRandomStrings[rowsPerSecond=10, minLength=0, maxLength=4, " +
        "charset=alphanumeric, seed=5, numPartitions=2, maxRowsPerTrigger=10, totalRows=30]")
      assert(first.metrics.get("latestOffset") == "29")
      assert(first.metrics.get("rowsBehind") == "20")
      assert(first.endOffset == "9")
      val last = progress.last.sources.head
      assert(last.metrics.get("rowsBehind") == "0")
      assert(last.latestOffset == "29")
    }
  }

  test("batches run as the source's own scan, with the rows and input counts of Spark's RDD scan") {

    /** The last batch's physical plan, every row by offset (less ts: each run starts anew), and
     *  the input counts. */
    def run(checkpoint: File, ownScan: Boolean): (String, Seq[Row], Seq[Long]) = {
      val df = reader(
        "totalRows" -> "1000",
        "maxRowsPerTrigger" -> "400",
        "rowsPerSecond" -> "1000000",
        "seed" -> "3",
        "maxLength" -> "12").load()
      val strategies = spark.experimental.extraStrategies
      // As in a session that never loaded the source: Spark plans its own RDDScanExec.
      if (!ownScan) spark.experimental.extraStrategies = strategies.filterNot(_ == OffsetRowsScanStrategy)
      val table = s"scan_${checkpoint.getName}"
      try {
        val query = df.writeStream.format("memory").queryName(table).trigger(Trigger.AvailableNow())
          .option("checkpointLocation", checkpoint.getPath).start()
        query.awaitTermination(120000L)
        query.exception.foreach(e => throw e)
        val plan = new java.io.ByteArrayOutputStream()
        Console.withOut(plan)(query.explain())
        (
          plan.toString("UTF-8"),
          spark.table(table).select("value", "offset", "length").orderBy("offset").collect().toSeq,
          query.recentProgress.map(_.numInputRows).toSeq)
      } finally spark.experimental.extraStrategies = strategies
    }
    withTempDir { dir =>
      val (plan, rows, counts) = run(new File(dir, "own"), ownScan = true)
      assert(plan.contains("Scan InMemoryRandomStrings[value#"), plan)
      assert(!plan.contains("ExistingRDD"), plan)
      assert(counts == Seq(400L, 400L, 200L))
      assert(rows.map(_.getAs[Long]("offset")) == (0L until 1000L))
      val (sparkPlan, sparkRows, sparkCounts) = run(new File(dir, "spark"), ownScan = false)
      assert(sparkPlan.contains("Scan ExistingRDD[value#"), sparkPlan)
      assert(sparkCounts == counts)
      assert(sparkRows == rows)
    }
  }
}
