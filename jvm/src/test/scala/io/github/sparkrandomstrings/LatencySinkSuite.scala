package io.github.sparkrandomstrings

import java.io.File

import scala.jdk.CollectionConverters._
import scala.reflect.io.Directory

import com.fasterxml.jackson.databind.ObjectMapper
import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.Row
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema
import org.apache.spark.sql.types.StructType
import org.scalatest.funsuite.AnyFunSuite

import io.github.sparkrandomstrings.latency.MeasuredStream
import io.github.sparkrandomstrings.offsets.DefinitionStore
import io.github.sparkrandomstrings.rows.SourceOptions
import io.github.sparkrandomstrings.rows.StreamDefinition
import io.github.sparkrandomstrings.testing.TestDirectories
import io.github.sparkrandomstrings.text.{CharacterSet, StringValues}

/** LatencySink's arithmetic and bookkeeping, on constructed inputs (RealTimeStreamSuite runs it in a query). */
class LatencySinkSuite extends AnyFunSuite with TestDirectories {

  /** The shared cases (tests/vectors/latency_summary.json): row groups, and the summary they make. */
  private lazy val cases = {
    val in = getClass.getResourceAsStream("/latency_summary.json")
    require(in != null, "latency_summary.json is not on the test class path (tests/vectors)")
    val json = new ObjectMapper()
    val root =
      try json.readTree(in)
      finally in.close()
    root.get("cases").elements().asScala.toSeq.map { node =>
      val rows = node.get("rows").elements().asScala.toSeq.map(group => group.elements().asScala.map(_.asLong()).toSeq)
      val summary = json.convertValue(node.get("summary"), classOf[java.util.Map[String, String]]).asScala.toMap
      (node.get("name").asText(), rows, summary)
    }
  }

  /** A sink's figures after `rows`, row groups of [batch, arrival µs, latency µs, how many]. */
  private def summaryOf(rows: Seq[Seq[Long]]): Map[String, String] = {
    val latencies = new LatencySink.Latencies
    for (Seq(batch, arrival, latency, times) <- rows; _ <- 1L to times) {
      latencies.record(latency, arrival, batch, Row(batch))
    }
    latencies.summary().asScala.toMap - "recent"
  }

  test("the shared cases: count, p50, p99, p99.9, max, the first and last arrival, and the gaps, exactly") {
    assert(cases.size == 3)
    for ((name, rows, expected) <- cases) assert(summaryOf(rows) == expected, name)
  }

  test("percentiles count ranks in whole numbers: p99.9 of 1,000 rows is the 999th, of 1,001 the 1,000th") {
    // 998 rows at 0.05 ms, then one at 1 ms, one at 2 ms (and one at 3 ms).
    val thousand = Seq(Seq(0L, 1000L, 50L, 998L), Seq(0L, 1000L, 1000L, 1L), Seq(0L, 1000L, 2000L, 1L))
    assert(summaryOf(thousand)("p999Ms") == "1.1")
    assert(summaryOf(thousand :+ Seq(0L, 1000L, 3000L, 1L))("p999Ms") == "2.1")
  }

  test("a gap counts once both its sides are measured: a reset forgets the batch it comes in, not its arrivals") {
    val latencies = new LatencySink.Latencies
    def at(batch: Long, arrivalMs: Long): Unit = latencies.record(100L, arrivalMs * 1000L, batch, Row(batch))
    at(0L, 1000L)
    at(0L, 1900L)
    at(1L, 2100L) // a gap of 200 ms
    latencies.clear()
    at(1L, 2500L)
    at(2L, 2800L) // 300 ms, from batch 1's last row since the reset
    at(3L, 3000L)
    at(3L, 3100L)
    at(5L, 3500L) // batch 4 had no row: 400 ms to the next batch that had
    at(6L, 3600L)
    val summary = latencies.summary().asScala
    assert(summary("gapCount") == "4")
    assert(summary("gapMedianMs") == "250.0" && summary("gapMaxMs") == "400.0")
    latencies.clear()
    // What arrived stays through a reset: each batch's first and last arrival (batch 1's first
    // came before the first reset), for timing the boundaries against the query's progress.
    val arrivals = Seq(
      "0 1000000 1900000",
      "1 2100000 2500000",
      "2 2800000 2800000",
      "3 3000000 3100000",
      "5 3500000 3500000",
      "6 3600000 3600000")
    assert(
      latencies.summary().asScala.toMap - "recent" ==
        Map("count" -> "0", "gapCount" -> "0", "batches" -> arrivals.mkString("\n"), "arrived" -> "9"))
  }

  test("a sink keeps the arrivals of its last 256 batches, oldest first") {
    val latencies = new LatencySink.Latencies
    (0L until 300L).foreach(batch => latencies.record(100L, (batch + 1) * 1000L, batch, Row(batch)))
    val kept = latencies.summary().asScala("batches").split("\n").toSeq
    assert(kept.size == 256)
    assert(kept.head == "44 45000 45000" && kept.last == "299 300000 300000")
  }

  private def storeIn(checkpoint: File, definition: StreamDefinition): Unit =
    new DefinitionStore(new File(checkpoint, "sources/0").getPath, new Configuration()).store(definition)

  test("a sink reads its checkpoint's definition once a query, and anew for a new checkpoint at the same path") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "checkpoint")
      val first = StreamDefinition(1L, 1000L, 10L, StringValues(1, 5, CharacterSet.Alphanumeric))
      storeIn(checkpoint, first)
      val path = checkpoint.getPath
      val before = LatencySink.definitionReads
      // Each batch's task opens a new sink: the query's id finds the definition read before.
      assert((1 to 3).map(_ => LatencySink.definitionOf("s", path, Some("query-1"))) == Seq.fill(3)(first))
      assert(LatencySink.definitionReads - before == 1)
      // Outside a streaming query's task there is no id: read each time.
      assert(LatencySink.definitionOf("s", path, None) == first)
      assert(LatencySink.definitionReads - before == 2)
      // The checkpoint made anew at the same path, for a new query: its own definition.
      new Directory(checkpoint).deleteRecursively()
      val second = first.copy(seed = 2L, rowsPerSecond = 500L)
      storeIn(checkpoint, second)
      assert(LatencySink.definitionOf("s", path, Some("query-2")) == second)
      assert(LatencySink.definitionOf("s", path, Some("query-2")) == second)
      assert(LatencySink.definitionReads - before == 3)
    }
  }

  test("on a nexmark checkpoint a sink measures each event from its dateTime's place after the first start") {
    withTempDir { dir =>
      val folder = new File(dir, "checkpoint/sources/0").getPath
      val stored = new nexmark.NexmarkStore(folder, new Configuration())
        .loadOrCreate(nexmark.NexmarkConfig.Default, nowMs = 1700000000000L)
      val measured = LatencySink.measuredOf("n", new File(dir, "checkpoint").getPath, None)
      assert(measured == MeasuredStream.Nexmark(stored))
      val schema = org.apache.spark.sql.types.StructType.fromDDL("dateTime TIMESTAMP")
      val event = new org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema(
        Array[Any](new java.sql.Timestamp(nexmark.NexmarkConfig.BaseTimeMs + 2500L)),
        schema)
      assert(measured.existsAtMs(event) == 1700000002500L)
      val shuffled = intercept[IllegalArgumentException] {
        MeasuredStream.nexmark("n", stored.copy(config = stored.config.copy(outOfOrderGroupSize = 10L)))
      }
      assert(shuffled.getMessage.contains("this stream's outOfOrderGroupSize is 10"))
    }
  }

  test("a sink finds each row's offset in the column the definition makes of the rows' offsets") {
    def declared(ddl: String, fields: (String, String)*): StreamDefinition =
      SourceOptions.parse(Map("seed" -> "1") ++ fields, Some(StructType.fromDDL(ddl))).definition(0L, () => 0L)
    val plain = StreamDefinition(1L, 1000L, 10L, StringValues(1, 5, CharacterSet.Alphanumeric))
    assert(plain.offsetColumn.contains("offset"))
    assert(declared("k INT, id BIGINT, again BIGINT", "fields.id.kind" -> "offset", "fields.again.kind" -> "offset")
      .offsetColumn.contains("id"))
    assert(declared("k INT, offset BIGINT").offsetColumn.isEmpty, "a column named offset, of kind random")
  }

  test("the last rows of a declared schema read back as the offset and the row as one line of JSON") {
    val latencies = new LatencySink.Latencies
    val schema = StructType.fromDDL("s STRING, id BIGINT, n INT")
    latencies.showDeclared("id")
    latencies.record(100L, 1000L, 0L, new GenericRowWithSchema(Array[Any]("a\tb\nc", 7L, null), schema))
    assert(latencies.summary().get("recent") == "7\t{\"s\":\"a\\tb\\nc\",\"id\":7,\"n\":null}")
  }
}
