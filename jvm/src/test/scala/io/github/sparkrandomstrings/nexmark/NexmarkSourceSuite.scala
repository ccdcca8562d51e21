package io.github.sparkrandomstrings.nexmark

import java.io.File

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.Row
import org.apache.spark.sql.catalyst.encoders.ExpressionEncoder

import io.github.sparkrandomstrings.testing.{AvailableNowQueries, DigestedRows, InvalidInputs, SparkSessionSuite}
import io.github.sparkrandomstrings.testing.Errors.messages
import io.github.sparkrandomstrings.time.ManualClock

/** The `nexmark` source through Spark: its rows, its clock, its checkpoint and its refusals. */
class NexmarkSourceSuite extends SparkSessionSuite with AvailableNowQueries {

  private def reader(options: Map[String, String]) = spark.readStream.format(Nexmark.ShortName).options(options)

  /** Events `numbers` of `config`, as Spark's Rows of the source's schema. */
  private def generated(config: NexmarkConfig, numbers: Seq[Long]): Seq[Row] = {
    val toRow = ExpressionEncoder(Nexmark.Schema).resolveAndBind().createDeserializer()
    val rows = new NexmarkRows(config)
    numbers.map(n => toRow(rows.row(n).copy()))
  }

  test(
    "an AvailableNow run reads every event of numEvents exactly once, each the generator's, over 3 partitions",
    DigestedRows) {
    withTempDir { dir =>
      val options = Map(
        "numEvents" -> "5000",
        "numPartitions" -> "3",
        "maxEventsPerTrigger" -> "1700",
        "avgBidByteSize" -> "40",
        "firstEventRate" -> "1000",
        "nextEventRate" -> "20000",
        "ratePeriodSec" -> "4")
      val df = reader(options).load()
      assert(df.schema == Nexmark.Schema)
      val rows = collectAvailableNow(df, new File(dir, "c"))
      val config = NexmarkOptions.parse(options).config
      assert(rows.size == 5000)
      assert(rows.map(_.toString).sorted == generated(config, 0L until 5000L).map(_.toString).sorted)
      assert(rows.count(_.getInt(0) == 0) == 100 && rows.count(_.getInt(0) == 1) == 300)
      val first = rows.find(r => r.getInt(0) == 0 && r.getStruct(1).getLong(0) == 1000L).get
      assert(first.isNullAt(2) && first.isNullAt(3))
      assert(first.getTimestamp(4).getTime == NexmarkConfig.BaseTimeMs)
    }
  }

  test("events exist by the wall clock from the first start, as their timestamps space them") {
    withTempDir { dir =>
      val clock = ManualClock.register("nexmark-steps", startMs = 1700000000000L)
      try {
        val provider = new NexmarkSourceProvider
        val parameters = Map(
          "_manualClock" -> "nexmark-steps",
          "numEvents" -> "0",
          "firstEventRate" -> "2000",
          "nextEventRate" -> "2000")
        val source = provider.createSource(spark.sqlContext, dir.getPath, None, Nexmark.ShortName, parameters)
        // 500 µs apart, event n's timestamp is n * 500 / 1000 ms (rounded down, as Beam's): at the
        // first start events 0 and 1 exist; 1 s later events 0 to 2001, 2 s later 0 to 4001.
        assert(source.getOffset.map(_.json).contains("1"))
        clock.advance(1000L)
        assert(source.getOffset.map(_.json).contains("2001"))
        clock.advance(1000L)
        assert(source.getOffset.map(_.json).contains("4001"))
        source.stop()
      } finally ManualClock.unregister("nexmark-steps")
    }
  }

  test("a restart that changes which events the stream makes is refused, naming each option and both values") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "c")
      collectAvailableNow(reader(Map("numEvents" -> "100")).load(), checkpoint)
      val stored = new String(
        java.nio.file.Files.readAllBytes(new File(checkpoint, s"sources/0/${NexmarkStore.FileName}").toPath),
        "UTF-8")
      assert(stored.startsWith("""{"version":1,"startTimeMs":"""))
      val error = intercept[Exception] {
        collectAvailableNow(reader(Map("numEvents" -> "200", "FIRSTEVENTRATE" -> "500")).load(), checkpoint)
      }
      assert(messages(error).contains("firstEventRate: the checkpoint has 10000, the query sets 500"), messages(error))
      // numEvents may grow: the same events, more of them.
      assert(collectAvailableNow(reader(Map("numEvents" -> "200")).load(), checkpoint).size == 100)
    }
  }

  test("bad options fail at load() with tests/vectors/nexmark_invalid_inputs.json's exact messages") {
    val cases = InvalidInputs.vector("nexmark_invalid_inputs.json").get("cases").elements().asScala.toSeq
    assert(cases.size == 17)
    cases.foreach { c =>
      val options = InvalidInputs.strings(c.get("options"))
      val error = intercept[IllegalArgumentException](reader(options).load())
      assert(error.getMessage == c.get("message").asText(), c.get("name").asText())
    }
    val schema = intercept[IllegalArgumentException] {
      spark.readStream.format(Nexmark.ShortName).schema("a INT").load()
    }
    assert(schema.getMessage.startsWith("The nexmark source makes Flink's Nexmark table and takes no other schema"))
  }
}
