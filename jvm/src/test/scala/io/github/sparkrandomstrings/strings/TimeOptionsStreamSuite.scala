package io.github.sparkrandomstrings.strings

import java.io.File

import scala.collection.mutable

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.{DataFrame, Row}
import org.apache.spark.sql.functions.{col, window}
import org.apache.spark.sql.streaming.Trigger

import io.github.sparkrandomstrings.offsets.DefinitionStore
import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.rows.StreamDefinition
import io.github.sparkrandomstrings.testing.SparkSessionSuite
import io.github.sparkrandomstrings.time.{ManualClock, RateProfile}

/** `timestampColumn`, `startTimestamp` and `rateProfile` end to end, through real streaming queries. */
class TimeOptionsStreamSuite extends SparkSessionSuite {
  import RandomStrings.ShortName

  private val origin = 1700000000000L
  private val burst = "2s@200, 1s@200..4000, 1s@4000, 500ms@0, repeat"

  private def reader(options: (String, String)*) = spark.readStream.format(ShortName).options(options.toMap)

  /** Every row of `df` under Trigger.AvailableNow, in offset order, and the checkpoint's definition. */
  private def readWhole(df: DataFrame, checkpoint: File): (Seq[Row], StreamDefinition) = {
    val rows = mutable.ArrayBuffer.empty[Row]
    val collect: (DataFrame, Long) => Unit = (batch, _) => rows.synchronized(rows ++= batch.collect())
    val query = df.writeStream.foreachBatch(collect).trigger(Trigger.AvailableNow())
      .option("checkpointLocation", checkpoint.getPath).start()
    assert(query.awaitTermination(120000L), "an AvailableNow query stops by itself")
    query.exception.foreach(e => throw e)
    val stored = new DefinitionStore(new File(checkpoint, "sources/0").getPath, new Configuration()).read().get
    (rows.synchronized(rows.toSeq).sortBy(_.getAs[Long]("offset")), stored)
  }

  /** E(o) for offsets 0 until `rows`, found by walking C(t) one ms at a time: min k with C(k + 1) > 1000 o. */
  private def opensByWalking(profile: RateProfile, rows: Int): Seq[Long] = {
    val opens = mutable.ArrayBuffer.empty[Long]
    var k = 0L
    while (opens.size < rows) {
      val next = profile.cumulative(k + 1)
      while (opens.size < rows && next > BigInt(1000L) * opens.size) opens += k
      k += 1
    }
    opens.toSeq
  }

  test("without timestampColumn the schema is exactly today's; with it, timestamp TIMESTAMP NOT NULL is last") {
    assert(reader().load().schema == RandomStrings.Schema)
    assert(reader("timestampColumn" -> "false").load().schema == RandomStrings.Schema)
    val schema = reader("timestampColumn" -> "true").load().schema
    assert(schema == RandomStrings.TimestampSchema)
    assert(schema.simpleString == "struct<value:string,ts:bigint,offset:bigint,length:int,timestamp:timestamp>")
    assert(schema.fields.forall(!_.nullable))
  }

  test("with startTimestamp, two fresh runs started at different times make the same rows, ts included") {
    withTempDir { dir =>
      val options =
        Seq("seed" -> "5", "totalRows" -> "300", "rowsPerSecond" -> "7", "startTimestamp" -> origin.toString)
      def startedAt(ms: Long, name: String) = readWhole(
        reader(options :+ (RandomStrings.MANUAL_CLOCK -> ManualClock.register(name, ms).name): _*).load(),
        new File(dir, name))
      val (first, firstDefinition) = startedAt(origin + 5L, "first")
      val (second, secondDefinition) = startedAt(origin + 86400000L, "second")
      assert(firstDefinition.startTimeMs == origin + 5L && secondDefinition.startTimeMs == origin + 86400000L)
      assert(first == second)
      assert(first.map(_.getAs[Long]("ts")) == (0L until 300L).map(o => origin + Math.floorDiv(o * 1000L, 7L)))
    }
  }

  test("a profiled bounded stream reads whole under AvailableNow, each ts where its interval opens") {
    withTempDir { dir =>
      val df = reader(
        "seed" -> "8",
        "totalRows" -> "8000",
        "maxRowsPerTrigger" -> "1500",
        "numPartitions" -> "3",
        "rateProfile" -> burst,
        "startTimestamp" -> origin.toString,
        "timestampColumn" -> "true").load()
      val (rows, stored) = readWhole(df, new File(dir, "checkpoint"))
      assert(rows.map(_.getAs[Long]("offset")) == (0L until 8000L))
      val opens = opensByWalking(RateProfile.parse(burst), 8000)
      assert(rows.map(_.getAs[Long]("ts")) == opens.map(origin + _))
      assert(rows.map(_.getAs[java.sql.Timestamp]("timestamp").getTime) == opens.map(origin + _))
      assert(stored.rateProfile.map(_.canonical).contains(burst.replace(" ", "")))
      assert(stored.timestampColumn && stored.startTimestamp.contains(origin))
    }
  }

  test("withWatermark and window take the timestamp column with no cast: each second's count is the profile's") {
    withTempDir { dir =>
      val totalRows = 12000L
      val stream = reader(
        "seed" -> "2",
        "totalRows" -> totalRows.toString,
        "maxRowsPerTrigger" -> "5000",
        "rateProfile" -> burst,
        "startTimestamp" -> origin.toString,
        "timestampColumn" -> "true").load()
        .withWatermark("timestamp", "10 seconds")
      // Each batch's rows by one-second window of `timestamp`, summed over the batches (no state to keep).
      val made = mutable.Map.empty[Long, Long].withDefaultValue(0L)
      val count: (DataFrame, Long) => Unit = (batch, _) => {
        val windows = batch.groupBy(window(col("timestamp"), "1 second")).count().collect()
        made.synchronized {
          windows.foreach(r => made(r.getStruct(0).getAs[java.sql.Timestamp]("start").getTime) += r.getLong(1))
        }
      }
      val query = stream.writeStream.foreachBatch(count).trigger(Trigger.AvailableNow())
        .option("checkpointLocation", new File(dir, "c").getPath).start()
      assert(query.awaitTermination(120000L) && query.exception.isEmpty)
      assert(query.recentProgress.exists(_.eventTime.containsKey("watermark")))
      // Rows whose interval opens before `ms`: the o with 1000 o < C(ms), i.e. ceil(C(ms) / 1000), at most totalRows.
      val profile = RateProfile.parse(burst)
      def before(ms: Long): Long = ((profile.cumulative(ms) + 999) / 1000).toLong.min(totalRows)
      val expected = Iterator.from(0).map(_ * 1000L).takeWhile(before(_) < totalRows)
        .map(ms => (origin + ms) -> (before(ms + 1000L) - before(ms))).filter(_._2 > 0).toMap
      assert(made.synchronized(made.toMap) == expected)
      assert(expected.values.sum == totalRows)
    }
  }

  test("under a trigger, a profiled stream's batches hold exactly the rows the profile makes by each step") {
    withTempDir { dir =>
      val profile = RateProfile.parse(burst)
      val clock = ManualClock.register("profile-steps", origin)
      val batches = mutable.ArrayBuffer.empty[Seq[Long]]
      val collect: (DataFrame, Long) => Unit = (batch, _) =>
        batches.synchronized(batches += batch.select("offset").collect().map(_.getLong(0)).toSeq.sorted)
      val query = reader("seed" -> "4", "rateProfile" -> burst, RandomStrings.MANUAL_CLOCK -> clock.name).load()
        .writeStream.foreachBatch(collect).option("checkpointLocation", new File(dir, "c").getPath).start()
      // Into the steady phase, through the ramp and the pause, and on into the repeat.
      val steps = Seq(0L, 1L, 5L, 1999L, 2000L, 2499L, 3000L, 3999L, 4000L, 4300L, 4500L, 6001L)
      try steps.foreach { at =>
          clock.advance(origin + at - clock.nowMs)
          query.processAllAvailable()
        }
      finally query.stop()
      assert(query.exception.isEmpty)
      val ends = steps.map(profile.rowsAvailable).distinct.filter(_ > 0)
      val expected = (0L +: ends).zip(ends).map { case (from, until) => from until until }
      assert(batches.synchronized(batches.toList) == expected)
      // 200 rows/s to 2 s (t / 5), the ramp's one step at 2100 rows/s, 4000 rows/s, the pause, and
      // the repeat's 200 rows/s again: 6500 + 1501 / 5 at 6001 ms.
      assert(ends == Seq(1L, 399L, 400L, 400L + 2100L * 499 / 1000, 2500L, 2500L + 4 * 999, 6500L, 6800L))
    }
  }
}
