package io.github.sparkrandomstrings.strings

import java.util.Optional

import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.read.streaming.ReadLimit
import org.apache.spark.sql.execution.LogicalRDD

import io.github.sparkrandomstrings.offsets.SparkOffsets.{LongOffset, SerializedOffset}
import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.rows.SourceOptions
import io.github.sparkrandomstrings.testing.{DigestedRows, SparkSessionSuite}
import io.github.sparkrandomstrings.time.ManualClock

/** The `Source` contract, called directly with a stepped clock (a [[time.ManualClock]]). */
class RandomStringsSourceSuite extends SparkSessionSuite {

  private val start = 1000000L
  private val clockNames = Iterator.from(0).map(i => s"source-suite-$i")

  /** A new manual clock reading `elapsedMs` after the stream's start. */
  private def clockAt(elapsedMs: Long): ManualClock = ManualClock.register(clockNames.next(), start + elapsedMs)

  private def source(
      options: Map[String, String] = Map.empty,
      numPartitions: Int = 2,
      clock: ManualClock = clockAt(0L),
      seed: Long = 42L): RandomStringsSource = {
    val parsed = SourceOptions.parse(options + (RandomStrings.MANUAL_CLOCK -> clock.name))
    new RandomStringsSource(spark, parsed.definition(start, () => seed), parsed, numPartitions)
  }

  /** The RDD a batch DataFrame reads. */
  private def rddOf(batch: DataFrame) = {
    assert(batch.isStreaming)
    batch.queryExecution.logical.collectFirst { case r: LogicalRDD => r.rdd }.get
  }

  /** The rows a batch DataFrame plans, made by running its RDD (as a query would). */
  private def rowsOf(batch: DataFrame): Seq[(String, Long, Long, Int)] = rowsOf(Seq(batch))

  /** The rows of several batches, in their order: their RDDs run as one job, each RDD's rows made
    * by its own partitions (a union keeps them, in order).
    */
  private def rowsOf(batches: Seq[DataFrame]): Seq[(String, Long, Long, Int)] =
    spark.sparkContext.union(batches.map(rddOf))
      .map((r: InternalRow) => (r.getUTF8String(0).toString, r.getLong(1), r.getLong(2), r.getInt(3)))
      .collect().toSeq

  private def partitionsOf(batch: DataFrame): Int = rddOf(batch).getNumPartitions

  test("getOffset is None before the first row exists, then the offset of the last row") {
    val clock = clockAt(0L)
    val s = source(Map("rowsPerSecond" -> "10"), clock = clock)
    assert(s.getOffset.isEmpty)
    clock.advance(99L)
    assert(s.getOffset.isEmpty)
    clock.advance(1L)
    assert(s.getOffset.contains(LongOffset(0L)))
    clock.advance(2450L)
    assert(s.getOffset.contains(LongOffset(24L)))
    assert(s.latestOffset(null, ReadLimit.allAvailable()) == LongOffset(24L))
  }

  test("totalRows caps the available rows; zero rows means no offset ever") {
    val bounded = source(Map("totalRows" -> "7", "rowsPerSecond" -> "1000"), clock = clockAt(60000L))
    assert(bounded.getOffset.contains(LongOffset(6L)))
    val empty = source(Map("totalRows" -> "0"), clock = clockAt(60000L))
    assert(empty.getOffset.isEmpty)
    assert(empty.latestOffset(null, ReadLimit.allAvailable()) == null)
  }

  test("latestOffset honours maxRows from the start offset, including SerializedOffset starts") {
    val s = source(Map("rowsPerSecond" -> "1000"), clock = clockAt(1000L)) // rows 0..999 exist
    assert(s.latestOffset(null, ReadLimit.maxRows(10)) == LongOffset(9L))
    assert(s.latestOffset(LongOffset(9L), ReadLimit.maxRows(10)) == LongOffset(19L))
    assert(s.latestOffset(SerializedOffset("19"), ReadLimit.maxRows(1000)) == LongOffset(999L))
    assert(s.latestOffset(LongOffset(999L), ReadLimit.maxRows(10)) == LongOffset(999L), "no new rows")
    assert(s.latestOffset(LongOffset(5L), ReadLimit.maxRows(Long.MaxValue)) == LongOffset(999L))
  }

  test("the default read limit is maxRowsPerTrigger, or all available") {
    assert(source(Map("maxRowsPerTrigger" -> "5")).getDefaultReadLimit == ReadLimit.maxRows(5))
    assert(source().getDefaultReadLimit == ReadLimit.allAvailable())
  }

  test("getBatch returns exactly the rows start < offset <= end, once each") {
    val s = source(Map("rowsPerSecond" -> "1000"), clock = clockAt(1000L))
    assert(rowsOf(s.getBatch(None, LongOffset(9L))).map(_._3) == (0L to 9L))
    assert(rowsOf(s.getBatch(Some(LongOffset(9L)), LongOffset(14L))).map(_._3) == (10L to 14L))
    assert(rowsOf(s.getBatch(Some(LongOffset(14L)), LongOffset(15L))).map(_._3) == Seq(15L))
  }

  test("getBatch accepts the SerializedOffsets Spark passes after a restart") {
    val s = source()
    val fromLog = rowsOf(s.getBatch(Some(SerializedOffset("3")), SerializedOffset("8")))
    assert(fromLog == rowsOf(s.getBatch(Some(LongOffset(3L)), LongOffset(8L))))
    assert(fromLog.map(_._3) == (4L to 8L))
  }

  test("getBatch with start == end is an empty streaming DataFrame") {
    val batch = source().getBatch(Some(LongOffset(7L)), LongOffset(7L))
    assert(batch.isStreaming)
    assert(batch.schema == RandomStrings.Schema)
    assert(rowsOf(batch).isEmpty)
  }

  test("getBatch rejects a range that runs backwards") {
    val error = intercept[IllegalArgumentException](source().getBatch(Some(LongOffset(8L)), LongOffset(3L)))
    assert(error.getMessage.endsWith("was asked for the batch (8, 3], which runs backwards."))
  }

  test("getBatch rejects an offset that is not this source's") {
    val error = intercept[IllegalArgumentException](source().getBatch(None, SerializedOffset("""{"a":1}""")))
    assert(error.getMessage.contains("""'{"a":1}' is not an offset of the InMemoryRandomStrings source"""))
  }

  test("a batch has min(numPartitions, rows) partitions") {
    assert(partitionsOf(source(numPartitions = 4).getBatch(None, LongOffset(99L))) == 4)
    assert(partitionsOf(source(numPartitions = 4).getBatch(None, LongOffset(1L))) == 2)
    assert(partitionsOf(source(numPartitions = 4).getBatch(Some(LongOffset(1L)), LongOffset(1L))) == 0)
  }

  test("rows are identical across numPartitions 1 to 4 and any batch boundaries", DigestedRows) {
    val options = Map("maxLength" -> "12", "charset" -> "unicode")
    val reference = rowsOf(source(options, numPartitions = 1).getBatch(None, LongOffset(199L)))
    assert(reference.map(_._3) == (0L to 199L))
    for (partitions <- 1 to 4; batchSize <- Seq(1, 7, 50, 200)) {
      val s = source(options, numPartitions = partitions)
      val ends = (batchSize - 1 until 200 by batchSize).map(_.toLong) :+ 199L
      val starts = None +: ends.init.map(e => Some(LongOffset(e)))
      // Up to 200 batches: one job for them all, not one each.
      val rows = rowsOf(starts.zip(ends.distinct).map { case (st, e) => s.getBatch(st, LongOffset(e)) })
      assert(rows == reference, s"$partitions partitions, batches of $batchSize")
    }
  }

  test("getBatch only plans: it makes no row until the batch runs") {
    // A batch of 10^15 rows is planned instantly; making it would take years.
    val s = source(Map("totalRows" -> "1000000000000000"))
    val batch = s.getBatch(None, LongOffset(999999999999999L))
    assert(partitionsOf(batch) == 2)
  }

  test("commit records the committed offset, from a LongOffset or a SerializedOffset") {
    val s = source()
    assert(s.metrics(Optional.empty()).get("committedOffset") == "-1")
    s.commit(LongOffset(5L))
    assert(s.metrics(Optional.empty()).get("committedOffset") == "5")
    s.commit(SerializedOffset("6"))
    assert(s.metrics(Optional.empty()).get("committedOffset") == "6")
  }

  test("stop is safe to call twice, and a stopped source plans no batch") {
    val s = source()
    s.stop()
    s.stop()
    val error = intercept[IllegalStateException](s.getBatch(None, LongOffset(3L)))
    assert(error.getMessage.endsWith("is stopped: it plans no more batches."))
  }

  test("metrics report the latest available offset and how many rows the query is behind") {
    val s = source(Map("rowsPerSecond" -> "10"), clock = clockAt(1000L)) // rows 0..9
    val behind = s.metrics(Optional.of(LongOffset(3L)))
    assert(behind.get("latestOffset") == "9")
    assert(behind.get("rowsBehind") == "6")
    assert(behind.get("seed") == "42")
    assert(behind.keySet.size == 4)
    assert(s.metrics(Optional.empty()).get("rowsBehind") == "10")
  }

  test("toString names the source and every setting in effect") {
    val s = source(
      Map("rowsPerSecond" -> "5", "maxLength" -> "8", "charset" -> "hex", "totalRows" -> "9"),
      numPartitions = 3,
      seed = -3L)
    assert(s.toString == "InMemoryRandomStrings[rowsPerSecond=5, minLength=0, maxLength=8, " +
      "charset=hex, seed=-3, numPartitions=3, maxRowsPerTrigger=none, totalRows=9]")
    val long = source(Map("alphabet" -> ("abcdefghijklmnopqrstuvwxyz" * 2 + "0123456789ABCDEF")))
    assert(long.toString.contains("alphabet=0123456789ABCDEFabcdefghijkl..., seed=42"))
  }

  test("with a profile, the rows that exist at each instant are floor(C(t) / 1000), pauses included") {
    val clock = clockAt(0L)
    val s = source(Map("rateProfile" -> "1s@10, 1s@0, 2s@10..30, repeat"), clock = clock)
    val expected = Seq(
      0L -> None,
      99L -> None,
      100L -> Some(0L),
      999L -> Some(8L),
      1000L -> Some(9L),
      1999L -> Some(9L),
      2000L -> Some(9L),
      2067L -> Some(10L),
      3000L -> Some(24L),
      3040L -> Some(25L),
      4000L -> Some(49L),
      4100L -> Some(50L),
      5000L -> Some(59L),
      6000L -> Some(59L),
      8000L -> Some(99L))
    for ((elapsed, last) <- expected) {
      clock.advance(start + elapsed - clock.nowMs)
      assert(s.getOffset == last.map(LongOffset(_)), s"at $elapsed ms")
    }
  }

  test("toString shows the profile in place of the rate, and the options of time where set") {
    val s = source(
      Map("rateProfile" -> "10s@5 , repeat", "timestampColumn" -> "true", "startTimestamp" -> "-7"),
      numPartitions = 1)
    assert(s.toString == "InMemoryRandomStrings[rateProfile=10s@5,repeat, minLength=0, maxLength=4, " +
      "charset=alphanumeric, seed=42, numPartitions=1, maxRowsPerTrigger=none, totalRows=unbounded, " +
      "timestampColumn=true, startTimestamp=-7]")
    val shaped = source(Map("lateRowFraction" -> "0.5", "lateByMs" -> "9", "startTimestamp" -> "0"), numPartitions = 1)
    assert(shaped.toString.endsWith("totalRows=unbounded, lateRowFraction=0.5, lateByMs=9, startTimestamp=0]"))
    assert(!source(Map("timestampColumn" -> "false")).toString.contains("timestampColumn"))
  }

  test("with timestampColumn, the source's schema and its batches have the timestamp column last") {
    val s = source(Map("timestampColumn" -> "true", "startTimestamp" -> "1700000000000"))
    assert(s.schema == RandomStrings.TimestampSchema)
    val batch = s.getBatch(None, LongOffset(4L))
    assert(batch.schema == RandomStrings.TimestampSchema)
    val made = rddOf(batch).map((r: InternalRow) => (r.getLong(1), r.getLong(4))).collect().toSeq
    assert(made == (0L to 4L).map(o => (1700000000000L + 100L * o, (1700000000000L + 100L * o) * 1000L)))
  }

  test("Trigger.AvailableNow fixes its end when prepared: totalRows whole, else what exists") {
    val bounded = source(Map("totalRows" -> "1000", "rowsPerSecond" -> "1"))
    assert(bounded.getOffset.isEmpty)
    bounded.prepareForTriggerAvailableNow()
    assert(bounded.latestOffset(null, ReadLimit.maxRows(300)) == LongOffset(299L))
    assert(bounded.latestOffset(LongOffset(899L), ReadLimit.maxRows(300)) == LongOffset(999L))

    val clock = clockAt(500L)
    val endless = source(Map("rowsPerSecond" -> "10"), clock = clock)
    endless.prepareForTriggerAvailableNow()
    clock.advance(4500L)
    assert(endless.latestOffset(null, ReadLimit.allAvailable()) == LongOffset(4L))
  }
}
