package io.github.sparkrandomstrings

import java.io.File
import java.util.concurrent.{ConcurrentHashMap, ConcurrentLinkedQueue}

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.logging.log4j.{Level, LogManager}
import org.apache.logging.log4j.core.{LogEvent, LoggerContext}
import org.apache.logging.log4j.core.appender.AbstractAppender
import org.apache.logging.log4j.core.config.Property
import org.apache.spark.SPARK_VERSION
import org.apache.spark.scheduler.{SparkListener, SparkListenerJobEnd, SparkListenerTaskEnd, SparkListenerTaskStart}
import org.apache.spark.sql.{DataFrame, ForeachWriter, Row}
import org.apache.spark.sql.catalyst.encoders.{ExpressionEncoder, RowEncoder}
import org.apache.spark.sql.streaming.{OutputMode, StreamingQuery, StreamingQueryException, Trigger}
import org.apache.spark.sql.types.StructType

import io.github.sparkrandomstrings.offsets.DefinitionStore
import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.realtime.InterleavedReader
import io.github.sparkrandomstrings.rows.{RowGenerator, StreamDefinition}
import io.github.sparkrandomstrings.testing.Errors.messages
import io.github.sparkrandomstrings.testing.{KeepingWriter, SparkSessionSuite}
import io.github.sparkrandomstrings.time.ManualClock

/**
 * `realTime=true`: the same stream through Spark's DSv2 interfaces, in real-time mode and under
 * micro-batch triggers, and its restarts.
 */
class RealTimeStreamSuite extends SparkSessionSuite {
  import RandomStrings.ShortName

  // Real-time batches of half a second (5 s by default), so that a test sees several.
  override protected def sessionConfig: Map[String, String] =
    Map("spark.sql.streaming.realTimeMode.minBatchDuration" -> "500ms")

  private val origin = 1700000000000L

  private def reader(options: (String, String)*) = spark.readStream.format(ShortName).options(options.toMap)

  /** Starts `df` in real-time mode into a [[testing.KeepingWriter]] named `name`. */
  private def startRealTime(df: DataFrame, name: String, checkpoint: File): StreamingQuery =
    df.writeStream.foreach(new KeepingWriter(name)).outputMode(OutputMode.Update())
      .trigger(Trigger.RealTime("500 milliseconds"))
      .option("checkpointLocation", checkpoint.getPath).start()

  /** Runs `query` until its sink has kept `rows` rows (or the query fails), then stops it. */
  private def runUntil(query: StreamingQuery, name: String, rows: Int): Unit = {
    val deadline = System.currentTimeMillis() + 60000L
    while (KeepingWriter.kept(name).size < rows && query.isActive && System.currentTimeMillis() < deadline) {
      Thread.sleep(50L)
    }
    query.exception.foreach(e => throw e)
    query.stop()
    assert(KeepingWriter.kept(name).size >= rows, s"$name kept ${KeepingWriter.kept(name).size} rows, not $rows")
  }

  private def definitionIn(checkpoint: File): StreamDefinition =
    new DefinitionStore(new File(checkpoint, "sources/0").getPath, new Configuration()).read().get

  /** The rows the generator makes for `offsets`, as Spark's external rows. */
  private def generated(definition: StreamDefinition, offsets: Seq[Long]): Seq[Row] = {
    val generator = new RowGenerator(definition)
    val toRow = encoderFor(definition).createDeserializer()
    offsets.map(o => toRow(generator.row(o).copy()))
  }

  private def encoderFor(definition: StreamDefinition): ExpressionEncoder[Row] =
    ExpressionEncoder(RowEncoder.encoderFor(definition.schema)).resolveAndBind()

  /** Every row reached the sink no earlier than it came to exist. */
  private def assertNoEarlierThanTheyExist(kept: Seq[(Row, Long)], definition: StreamDefinition): Unit =
    for ((row, gotAtMs) <- kept) {
      val offset = row.getAs[Long]("offset")
      assert(gotAtMs >= definition.existsAtMs(offset), s"offset $offset reached the sink before it existed")
    }

  /** Every row is the generator's row at its offset. */
  private def assertTheGeneratorsRows(rows: Seq[Row], definition: StreamDefinition): Unit = {
    val sorted = rows.sortBy(_.getAs[Long]("offset"))
    assert(sorted == generated(definition, sorted.map(_.getAs[Long]("offset"))))
  }

  /** Each partition's offsets are p, p + n, p + 2n, ... with no gap. */
  private def assertInterleavedWithoutGaps(offsets: Seq[Long], n: Int): Unit =
    offsets.groupBy(o => (o % n).toInt).foreach { case (p, seen) =>
      val distinct = seen.distinct.sorted
      assert(distinct == distinct.indices.map(i => p + i.toLong * n), s"partition $p read ${distinct.take(20)}...")
    }

  test(
    "a real-time query hands on each partition's rows in offset order, no earlier than they exist, the generator's rows") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "checkpoint")
      val query = startRealTime(
        reader(
          "realTime" -> "true",
          "seed" -> "3",
          "rowsPerSecond" -> "400",
          "numPartitions" -> "2",
          "startTimestamp" -> origin.toString,
          "maxLength" -> "12",
          "distinctValues" -> "50",
          "duplicateFraction" -> "0.1",
          "timestampColumn" -> "true").load(),
        "in-order",
        checkpoint)
      runUntil(query, "in-order", 800)
      val kept = KeepingWriter.kept("in-order")
      val definition = definitionIn(checkpoint)
      // In order within each partition, each row once (no batch ran twice), every partition moving.
      kept.groupBy { case (row, _) => row.getAs[Long]("offset") % 2 }.foreach { case (p, rows) =>
        val offsets = rows.map(_._1.getAs[Long]("offset"))
        assert(offsets == offsets.indices.map(i => p + 2L * i), s"partition $p")
      }
      assert(kept.map(_._1.getAs[Long]("offset")).toSet.size == kept.size)
      assertNoEarlierThanTheyExist(kept, definition)
      assertTheGeneratorsRows(kept.map(_._1), definition)
    }
  }

  test("a declared schema in real-time mode hands on the generator's typed rows, no earlier than they exist") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "checkpoint")
      // Its comments, top-level and nested, are the DSv2 table's schema's too.
      val ddl = "offset BIGINT NOT NULL COMMENT 'own', amount DECIMAL(6,2), " +
        "tags ARRAY<STRUCT<tag: STRING COMMENT 'a label'>> COMMENT 'labels', at TIMESTAMP NOT NULL"
      val df = reader(
        "realTime" -> "true",
        "seed" -> "4",
        "rowsPerSecond" -> "400",
        "numPartitions" -> "2",
        "duplicateFraction" -> "0.1",
        "fields.offset.kind" -> "offset",
        "fields.amount.nullRate" -> "0.2",
        "fields.amount.max" -> "99.99",
        "fields.tags.element.tag.pattern" -> "[a-z]{2,4}",
        "fields.at.kind" -> "eventTime").schema(ddl).load()
      assert(df.schema == StructType.fromDDL(ddl))
      val query = startRealTime(df, "typed", checkpoint)
      runUntil(query, "typed", 600)
      val kept = KeepingWriter.kept("typed")
      val definition = definitionIn(checkpoint)
      assert(definition.declared.isDefined)
      assert(kept.map(_._1.getAs[Long]("offset")).toSet.size == kept.size)
      assertNoEarlierThanTheyExist(kept, definition)
      assertTheGeneratorsRows(kept.map(_._1), definition)
    }
  }

  test("a profiled stream in real-time mode hands each row on once the profile makes it exist, the generator's row") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "checkpoint")
      // 300 rows/s for 400 ms, then none for 400 ms, over and over.
      val query = startRealTime(
        reader(
          "realTime" -> "true",
          "seed" -> "9",
          "rateProfile" -> "400ms@300, 400ms@0, repeat",
          "numPartitions" -> "2").load(),
        "profiled",
        checkpoint)
      runUntil(query, "profiled", 300)
      val kept = KeepingWriter.kept("profiled")
      val definition = definitionIn(checkpoint)
      assertNoEarlierThanTheyExist(kept, definition)
      // A cycle makes 120 rows: the last of the first at 400 ms, the first of the second 804 ms
      // after the first start (300 rows/s: a row every 3 1/3 ms).
      assert(definition.existsAtMs(119L) == definition.startTimeMs + 400L)
      assert(definition.existsAtMs(120L) == definition.startTimeMs + 804L)
      assertInterleavedWithoutGaps(kept.map(_._1.getAs[Long]("offset")), 2)
      assertTheGeneratorsRows(kept.map(_._1), definition)
    }
  }

  test("a restarted real-time query continues from the committed offsets: no offset skipped, repeats identical") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "checkpoint")
      val options = Seq("realTime" -> "true", "seed" -> "4", "rowsPerSecond" -> "300", "numPartitions" -> "2")
      runUntil(startRealTime(reader(options: _*).load(), "restart-1", checkpoint), "restart-1", 300)
      runUntil(startRealTime(reader(options: _*).load(), "restart-2", checkpoint), "restart-2", 300)
      val first = KeepingWriter.kept("restart-1").map(_._1)
      val second = KeepingWriter.kept("restart-2").map(_._1)
      val both = first ++ second
      assertInterleavedWithoutGaps(both.map(_.getAs[Long]("offset")), 2)
      both.groupBy(_.getAs[Long]("offset")).foreach { case (offset, rows) =>
        assert(rows.distinct.size == 1, s"offset $offset was handed on with different rows")
      }
      val offsetsSecond = second.map(_.getAs[Long]("offset")).toSet
      assert(offsetsSecond.exists(o => !first.exists(_.getAs[Long]("offset") == o)), "the second run read on")
    }
  }

  test("under micro-batch triggers the same stream reads whole, the V1 source's rows, within maxRowsPerTrigger") {
    withTempDir { dir =>
      val options = Seq(
        "seed" -> "5",
        "totalRows" -> "900",
        "rowsPerSecond" -> "100000",
        "numPartitions" -> "3",
        "maxRowsPerTrigger" -> "250",
        "startTimestamp" -> origin.toString,
        "maxOutOfOrderMs" -> "40")
      val (realTime, batches) =
        readAvailableNow(reader(options :+ ("realTime" -> "true"): _*).load(), new File(dir, "v2"))
      val (v1, _) = readAvailableNow(reader(options: _*).load(), new File(dir, "v1"))
      assert(realTime.map(_.getAs[Long]("offset")) == (0L until 900L))
      assert(realTime == v1)
      assert(batches == Seq(250L, 250L, 250L, 150L), s"batches of $batches rows")
    }
  }

  test("realTime with maxRowsPerTrigger fails when a real-time query starts, naming the option") {
    withTempDir { dir =>
      val query = startRealTime(
        reader("realTime" -> "true", "maxRowsPerTrigger" -> "100").load(),
        "limited",
        new File(dir, "checkpoint"))
      val error = intercept[Exception](query.awaitTermination(60000L))
      assert(
        error.getMessage.contains(
          "Option 'maxRowsPerTrigger' is 100, but this query runs in real-time mode, whose batches read each row as " +
            "it comes to exist and have no row limit."),
        error.getMessage)
    }
  }

  test("a stepped clock makes a realTime stream's micro-batches exact; real-time mode refuses it, naming it") {
    withTempDir { dir =>
      val clock = ManualClock.register("real-time-suite-steps", origin)
      val offsets = new ConcurrentLinkedQueue[Seq[Long]]()
      val collect: (DataFrame, Long) => Unit = (batch, _) =>
        offsets.add(batch.select("offset").collect().map(_.getLong(0)).toSeq.sorted)
      val stepped = Seq("seed" -> "3", "rowsPerSecond" -> "1000", "numPartitions" -> "3", "realTime" -> "true") :+
        (RandomStrings.MANUAL_CLOCK -> clock.name)
      val query = reader(stepped: _*).load().writeStream.foreachBatch(collect)
        .option("checkpointLocation", new File(dir, "micro").getPath).start()
      try {
        query.processAllAvailable()
        for (ms <- Seq(10L, 1L, 25L)) {
          clock.advance(ms)
          query.processAllAvailable()
        }
      } finally query.stop()
      assert(query.exception.isEmpty)
      // (Spark may run a first batch on the initial offsets, empty.)
      assert(offsets.asScala.toList.filter(_.nonEmpty) == List(0L until 10L, Seq(10L), 11L until 36L))

      val realTime = startRealTime(reader(stepped: _*).load(), "stepped", new File(dir, "real-time"))
      val error = intercept[Exception](realTime.awaitTermination(60000L))
      assert(
        error.getMessage.contains(
          "Option '_manualClock' is real-time-suite-steps, but this query runs in real-time mode, whose batches " +
            "Spark times by the system clock."),
        error.getMessage)
    }
  }

  test("a checkpoint's realTime stream refuses another numPartitions, and a V1 query refuses its offsets") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "checkpoint")
      val options = Seq("seed" -> "6", "totalRows" -> "40", "rowsPerSecond" -> "100000")
      readAvailableNow(reader(options ++ Seq("realTime" -> "true", "numPartitions" -> "2"): _*).load(), checkpoint)
      val more = Seq("seed" -> "6", "totalRows" -> "80", "rowsPerSecond" -> "100000")
      val partitions = intercept[Exception] {
        readAvailableNow(reader(more ++ Seq("realTime" -> "true", "numPartitions" -> "3"): _*).load(), checkpoint)
      }
      assert(
        partitions.getMessage.contains("'numPartitions' is 3, but this checkpoint's realTime stream was read in 2"))
      val v1 = intercept[Exception](readAvailableNow(reader(more: _*).load(), checkpoint))
      assert(v1.getMessage.contains(
        """'{"next":[40,41]}' is an offset of the InMemoryRandomStrings source read with 'realTime'"""))
    }
  }

  test("a checkpoint of the V1 source continues with realTime after the last row it read") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "checkpoint")
      val options = Seq("seed" -> "7", "rowsPerSecond" -> "100000", "numPartitions" -> "2")
      val (v1, _) = readAvailableNow(reader(options :+ ("totalRows" -> "50"): _*).load(), checkpoint)
      val (realTime, _) =
        readAvailableNow(reader(options ++ Seq("totalRows" -> "120", "realTime" -> "true"): _*).load(), checkpoint)
      assert(v1.map(_.getAs[Long]("offset")) == (0L until 50L))
      assert(realTime.map(_.getAs[Long]("offset")) == (50L until 120L))
    }
  }

  test("LatencySink counts each row that reaches it, with percentiles in order, and shows the last rows") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "checkpoint").getPath
      val reads = LatencySink.definitionReads
      val query = reader("realTime" -> "true", "seed" -> "8", "rowsPerSecond" -> "500", "numPartitions" -> "2").load()
        .writeStream.foreach(new LatencySink("probe", checkpoint)).outputMode(OutputMode.Update())
        .trigger(Trigger.RealTime("500 milliseconds")).option("checkpointLocation", checkpoint).start()
      // Until 400 rows and rows of two batches have reached it: on a loaded machine the first batch
      // may hold every row that came to exist while the query started, and a batch may end with
      // none (two progress reports alone do not make a gap between two batches' rows).
      def seen(key: String): Long = LatencySink.summary("probe").get(key).toLong
      val deadline = System.currentTimeMillis() + 60000L
      while ((seen("count") < 400L || seen("gapCount") < 1L || query.recentProgress.length < 2) &&
        System.currentTimeMillis() < deadline) {
        Thread.sleep(50L)
      }
      stopAndAwaitTasks(query) // rows reach the sink until its tasks end, after stop() returns
      // Two tasks a batch, each opening a sink of its own, over two batches or more: one read.
      assert(LatencySink.definitionReads - reads == 1)
      val summary = LatencySink.summary("probe").asScala
      assert(summary("count").toLong >= 400L)
      def ms(key: String): Double = summary(key).toDouble
      assert(0.1 <= ms("p50Ms") && ms("p50Ms") <= ms("p99Ms") && ms("p99Ms") <= ms("p999Ms"), summary)
      assert(ms("p999Ms") <= ms("maxMs") + 0.1, summary)
      // Two batches done: a gap between them at least.
      assert(summary("gapCount").toInt >= 1 && 0.0 < ms("gapMedianMs") && ms("gapMedianMs") <= ms("gapMaxMs"), summary)
      val recent = summary("recent").split("\n").toSeq
      assert(recent.size == 20 && recent.forall(_.split("\t").length == 4), recent)
      // Each batch's arrivals, first before last, in batch order; every row counted.
      val batches = summary("batches").split("\n").toSeq.map(_.split(" ").map(_.toLong).toSeq)
      assert(batches.size >= 2 && batches.forall(b => b.size == 3 && b(1) <= b(2)), batches)
      assert(batches.map(_.head) == batches.map(_.head).sorted && summary("arrived").toLong == ms("count").toLong)
      LatencySink.reset("probe")
      // What arrived stays: the last rows, the batches' arrivals and the count of every row.
      assert(LatencySink.summary("probe").asScala == Map(
        "count" -> "0",
        "gapCount" -> "0",
        "batches" -> summary("batches"),
        "arrived" -> summary("arrived"),
        "recent" -> summary("recent")))
    }
  }

  test("stopping a real-time query mid-batch ends its parked readers quietly: no error from this source's tasks") {
    withTempDir { dir =>
      // A row every 500 ms in each partition: stop() is called once both tasks' readers are
      // parked, waiting for their next row (a kill that lands in Spark's own code, between two
      // rows or while a batch's tasks start, is Spark's to log). Into the console sink (no row
      // passes the filter, so it prints only its batches' headers), then into a foreach sink.
      val stream = reader("realTime" -> "true", "seed" -> "10", "rowsPerSecond" -> "4", "numPartitions" -> "2").load()
      val console = stream.where("length < 0").writeStream.format("console").outputMode(OutputMode.Update())
        .trigger(Trigger.RealTime("500 milliseconds"))
        .option("checkpointLocation", new File(dir, "console").getPath).start()
      awaitBatches(console, 2)
      awaitParkedReaders(2)
      val consoleErrors = ErrorEvents.during(stopAndAwaitTasks(console))
      // Spark logs the cancelled batch's abort on the driver, for any source; on a loaded machine
      // a batch may end between the readers' parking and stop(), and the kill then lands in
      // Spark's own code, which logs it too. Neither is this source's: no error is.
      assert(!consoleErrors.exists(ErrorEvents.fromThisSource), consoleErrors.mkString("\n"))

      val foreach = startRealTime(stream, "stopped", new File(dir, "foreach"))
      awaitBatches(foreach, 2)
      val foreachErrors = ErrorEvents.during(stopAndAwaitTasks(foreach))
      // A foreach sink's commit of the cancelled batch is denied, and Spark logs that as an error,
      // whatever the source: but no error carries an exception from this source's code.
      assert(!foreachErrors.exists(ErrorEvents.fromThisSource), foreachErrors.mkString("\n"))
      assert(KeepingWriter.kept("stopped").nonEmpty)
    }
  }

  test("a stopped stateful real-time query ends all its tasks: none is left on the shuffle, holding a slot") {
    assume(
      Ordering[(Int, Int)].gteq(sparkLine, (4, 3)),
      s"real-time mode's stateful operators arrived in Spark 4.3; this is $SPARK_VERSION")
    withTempDir { dir =>
      // Its reader then waits for the batch's deadline, and stop() kills it there; the count's
      // shuffle reader is killed beside it.
      val query = startBoundedCount(new KeepingWriter("stateful"), dir)
      // Each length's latest count, as the sink got them: every row counted once.
      def counted: Long =
        KeepingWriter.kept("stateful").map { case (row, _) => row.getInt(0) -> row.getLong(1) }.toMap.values.sum
      val deadline = System.currentTimeMillis() + 60000L
      while (counted < 200L && query.isActive && System.currentTimeMillis() < deadline) Thread.sleep(20L)
      query.exception.foreach(e => throw e)
      assert(counted == 200L)
      awaitParkedReaders(1)
      stopAndAwaitTasks(query)
    }
  }

  test(
    "a stateful real-time query whose sink fails ends all its tasks: the source's shuffle writer is not left waiting") {
    assume(
      Ordering[(Int, Int)].gteq(sparkLine, (4, 3)),
      s"real-time mode's stateful operators arrived in Spark 4.3; this is $SPARK_VERSION")
    withTempDir { dir =>
      // The reader parks until the batch's deadline once it has read the stream whole. The count's
      // sink fails once it has counted every row, so the job's cancel kills the source's task
      // while its reader is parked, after the shuffle's reader is gone: the source's shuffle writer
      // then waits for that reader's acknowledgement until its thread is interrupted, and only the
      // kill's interrupt can end it.
      val query = startBoundedCount(new FailingWriter(rows = 200L), dir)
      val failed = intercept[StreamingQueryException](query.awaitTermination(60000L))
      assert(messages(failed).contains(FailingWriter.Message), messages(failed))
      stopAndAwaitTasks(query)
    }
  }

  /**
   * Each length's count of a bounded stream of 200 rows, read whole within 0.2 s of the first 5 s
   * batch, into `sink`: one source partition and one shuffle partition, the source's task and the
   * count's filling local[2]'s two slots.
   */
  private def startBoundedCount(sink: ForeachWriter[Row], dir: File): StreamingQuery = {
    val stream =
      reader(
        "realTime" -> "true",
        "seed" -> "4",
        "rowsPerSecond" -> "1000",
        "totalRows" -> "200",
        "numPartitions" -> "1")
        .load()
    val shufflePartitions = spark.conf.get("spark.sql.shuffle.partitions")
    spark.conf.set("spark.sql.shuffle.partitions", "1")
    try {
      stream.groupBy("length").count().writeStream.foreach(sink).outputMode(OutputMode.Update())
        .trigger(Trigger.RealTime("5 seconds")).option("checkpointLocation", new File(dir, "checkpoint").getPath)
        .start()
    } finally spark.conf.set("spark.sql.shuffle.partitions", shufflePartitions)
  }

  /** The Spark line this suite runs on, as (major, minor). */
  private def sparkLine: (Int, Int) = {
    val parts = SPARK_VERSION.split('.').take(2).map(_.toInt)
    (parts(0), parts(1))
  }

  /** Waits until `query` has done `batches` batches, and well into the next one. */
  private def awaitBatches(query: StreamingQuery, batches: Int): Unit = {
    val deadline = System.currentTimeMillis() + 60000L
    while (query.recentProgress.length < batches && query.isActive && System.currentTimeMillis() < deadline) {
      Thread.sleep(20L)
    }
    query.exception.foreach(e => throw e)
    assert(query.recentProgress.length >= batches, s"$batches batches done")
    Thread.sleep(200L)
  }

  /** Waits until `readers` task threads are parked in a reader's wait for its next row. */
  private def awaitParkedReaders(readers: Int): Unit = {
    def parked: Int = Thread.getAllStackTraces.asScala.values.count { stack =>
      stack.headOption.exists(_.getMethodName == "park") &&
      stack.exists(f => f.getClassName == classOf[InterleavedReader].getName && f.getMethodName == "waitUntil")
    }
    val deadline = System.currentTimeMillis() + 60000L
    while (parked < readers && System.currentTimeMillis() < deadline) Thread.sleep(5L)
    assert(parked >= readers, s"$readers readers parked")
  }

  /** The tasks that started and have not ended, as the listener bus tells: known from the suite's start. */
  private lazy val running: RunningTasks = {
    val tasks = new RunningTasks
    spark.sparkContext.addSparkListener(tasks)
    tasks
  }

  override def beforeAll(): Unit = {
    super.beforeAll()
    running
  }

  /**
   * Stops `query`, and waits until its tasks have ended: they end after stop() returns. The
   * listener bus tells of a task's start later than it starts (on a loaded machine, a batch's
   * tasks may run unseen for a while), but in order: a job run after stop() ends after the starts
   * of every task launched before it, so once its end has reached the listener, no task of the
   * query is running unseen.
   */
  private def stopAndAwaitTasks(query: StreamingQuery): Unit = {
    query.stop()
    val barrier = spark.sparkContext.parallelize(Seq(0), 1).countAsync()
    val deadline = System.currentTimeMillis() + 60000L
    while (!barrier.jobIds.forall(running.jobEnded) && System.currentTimeMillis() < deadline) Thread.sleep(10L)
    assert(barrier.jobIds.nonEmpty && barrier.jobIds.forall(running.jobEnded), "a job after stop() ended")
    // A task's end reaches the listener after the task has logged all it logs.
    while (!running.none && System.currentTimeMillis() < deadline) Thread.sleep(10L)
    assert(running.none, "the stopped query's tasks ended")
  }

  /** Every row of `df` under Trigger.AvailableNow, in offset order, and each batch's row count. */
  private def readAvailableNow(df: DataFrame, checkpoint: File): (Seq[Row], Seq[Long]) = {
    val rows = new ConcurrentLinkedQueue[Row]()
    val counts = new ConcurrentLinkedQueue[Long]()
    val collect: (DataFrame, Long) => Unit = { (batch, _) =>
      val got = batch.collect()
      rows.addAll(got.toSeq.asJava)
      counts.add(got.length.toLong)
    }
    val query = df.writeStream.foreachBatch(collect).trigger(Trigger.AvailableNow())
      .option("checkpointLocation", checkpoint.getPath).start()
    assert(query.awaitTermination(120000L), "an AvailableNow query stops by itself")
    query.exception.foreach(e => throw e)
    (rows.asScala.toSeq.sortBy(_.getAs[Long]("offset")), counts.asScala.toSeq.filter(_ > 0))
  }
}

/** The tasks that started and have not ended, and the jobs that ended, as the listener bus tells. */
/**
 * A sink of each length's count that fails once the counts it got add up to `rows`, in the task
 * that writes them: once the source has handed on every row of its bounded stream.
 */
final class FailingWriter(rows: Long) extends ForeachWriter[Row] {
  private val counts = scala.collection.mutable.Map.empty[Int, Long]
  override def open(partitionId: Long, epochId: Long): Boolean = true
  override def process(row: Row): Unit = {
    counts(row.getInt(0)) = row.getLong(1)
    if (counts.values.sum == rows) throw new IllegalStateException(FailingWriter.Message)
  }
  override def close(errorOrNull: Throwable): Unit = ()
}

object FailingWriter {
  val Message = "the sink fails, as this test wants"
}

final class RunningTasks extends SparkListener {
  private val ids = ConcurrentHashMap.newKeySet[Long]()
  private val endedJobs = ConcurrentHashMap.newKeySet[Int]()
  def none: Boolean = ids.isEmpty
  def jobEnded(jobId: Int): Boolean = endedJobs.contains(jobId)
  override def onTaskStart(start: SparkListenerTaskStart): Unit = ids.add(start.taskInfo.taskId)
  override def onTaskEnd(end: SparkListenerTaskEnd): Unit = ids.remove(end.taskInfo.taskId)
  override def onJobEnd(end: SparkListenerJobEnd): Unit = endedJobs.add(end.jobId)
}

/** The events logged at ERROR or above, by any logger, while a block runs. */
object ErrorEvents {

  /** An event: its logger, its message and the exception it carries, if any. */
  final case class Event(logger: String, message: String, thrown: Option[Throwable]) {
    override def toString: String = s"$logger: $message" + thrown.fold("")(t => s" ($t)")
  }

  private final class Capture extends AbstractAppender("error-events", null, null, true, Property.EMPTY_ARRAY) {
    val events = new ConcurrentLinkedQueue[Event]()
    override def append(event: LogEvent): Unit =
      events.add(Event(event.getLoggerName, event.getMessage.getFormattedMessage, Option(event.getThrown)))
  }

  /** Runs `block`; returns what was logged at ERROR meanwhile. */
  def during(block: => Unit): Seq[Event] = {
    val context = LogManager.getContext(false).asInstanceOf[LoggerContext]
    val root = context.getConfiguration.getRootLogger
    val capture = new Capture
    capture.start()
    root.addAppender(capture, Level.ERROR, null)
    context.updateLoggers()
    try block
    finally {
      root.removeAppender(capture.getName)
      context.updateLoggers()
      capture.stop()
    }
    capture.events.asScala.toSeq
  }

  private val ThisSource = "io.github.sparkrandomstrings."

  /** Whether `event` is this source's: logged by its code, or carrying an exception thrown there. */
  def fromThisSource(event: Event): Boolean =
    event.logger.startsWith(ThisSource) || event.thrown.exists(thrownFromThisSource)

  /** Whether `thrown`, or an exception it wraps, was thrown from this source's code. */
  def thrownFromThisSource(thrown: Throwable): Boolean =
    Iterator.iterate(thrown)(_.getCause).takeWhile(_ != null).exists(
      _.getStackTrace.exists(_.getClassName.startsWith(ThisSource)))
}
