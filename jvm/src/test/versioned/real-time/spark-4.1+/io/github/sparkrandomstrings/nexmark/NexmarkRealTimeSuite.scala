package io.github.sparkrandomstrings.nexmark

import java.io.File

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.Row
import org.apache.spark.sql.catalyst.encoders.ExpressionEncoder
import org.apache.spark.sql.streaming.{OutputMode, Trigger}

import io.github.sparkrandomstrings.testing.{KeepingWriter, SparkSessionSuite}

/** `realTime=true` on the `nexmark` source: Beam's events, each handed on once it exists. */
class NexmarkRealTimeSuite extends SparkSessionSuite {

  override protected def sessionConfig: Map[String, String] =
    Map("spark.sql.streaming.realTimeMode.minBatchDuration" -> "500ms")

  test("a real-time query hands on each partition's events in order, none before it exists, each Beam's event") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "checkpoint")
      val options = Map(
        "realTime" -> "true",
        "numEvents" -> "0",
        "numPartitions" -> "2",
        "firstEventRate" -> "1000",
        "nextEventRate" -> "1000",
        "avgBidByteSize" -> "40")
      val query = spark.readStream.format(Nexmark.ShortName).options(options).load()
        .writeStream.foreach(new KeepingWriter("nexmark")).outputMode(OutputMode.Update())
        .trigger(Trigger.RealTime("500 milliseconds"))
        .option("checkpointLocation", checkpoint.getPath).start()
      val deadline = System.currentTimeMillis() + 60000L
      while (KeepingWriter.kept("nexmark").size < 1500 && query.isActive && System.currentTimeMillis() < deadline) {
        Thread.sleep(50L)
      }
      query.exception.foreach(e => throw e)
      query.stop()
      val kept = KeepingWriter.kept("nexmark")
      assert(kept.size >= 1500, s"kept ${kept.size} events")

      val stream = new NexmarkStore(new File(checkpoint, "sources/0").getPath, new Configuration()).read().get
      assert(stream.config == NexmarkOptions.parse(options).config)
      // Every event made so far, as rows: what each kept row must be one of.
      val toRow = ExpressionEncoder(Nexmark.Schema).resolveAndBind().createDeserializer()
      val rows = new NexmarkRows(stream.config)
      val last = kept.size * 2L + 4000L
      val offsetOf: Map[String, Long] = (0L until last).map(n => toRow(rows.row(n).copy()).toString -> n).toMap
      val offsets = kept.map { case (row: Row, gotAtMs) =>
        val offset = offsetOf.getOrElse(row.toString, fail(s"not one of the first $last events: $row"))
        assert(gotAtMs >= stream.existsAtMs(offset), s"event $offset reached the sink before it existed")
        offset
      }
      assert(offsets.toSet.size == offsets.size, "an event reached the sink twice")
      offsets.groupBy(o => (o % 2).toInt).foreach { case (p, seen) =>
        assert(seen == seen.indices.map(i => p + 2L * i), s"partition $p read ${seen.take(10)}...")
      }
    }
  }

  test("realTime with maxEventsPerTrigger fails when a real-time query starts, naming the option") {
    withTempDir { dir =>
      val query = spark.readStream.format(Nexmark.ShortName)
        .options(Map("realTime" -> "true", "maxEventsPerTrigger" -> "10")).load()
        .writeStream.foreach(new KeepingWriter("refused")).outputMode(OutputMode.Update())
        .trigger(Trigger.RealTime("500 milliseconds"))
        .option("checkpointLocation", new File(dir, "c").getPath).start()
      val message = intercept[Exception](query.awaitTermination(60000L)).getMessage
      assert(message.contains("Option 'maxEventsPerTrigger' is 10, but this query runs in real-time mode"), message)
    }
  }
}
