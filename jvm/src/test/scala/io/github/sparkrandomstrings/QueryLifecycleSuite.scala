package io.github.sparkrandomstrings

import java.io.File
import java.lang.management.{ManagementFactory, MemoryType}
import java.lang.ref.WeakReference

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.streaming.StreamingQueryException

import io.github.sparkrandomstrings.offsets.SparkOffsets.LongOffset
import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.strings.RandomStringsSource
import io.github.sparkrandomstrings.testing.SparkSessionSuite
import io.github.sparkrandomstrings.time.ManualClock

/**
 * Starting and stopping many queries leaks nothing: the JVM's live threads and the driver heap
 * after a full GC come back to where they were, every source is stopped, also when its query
 * fails, and no source stays reachable once its query has ended.
 */
class QueryLifecycleSuite extends SparkSessionSuite {

  // Its queries fail on purpose, each with the error the test asserts: Spark's log of every
  // failure, stack trace and all, would only bury the test report.
  override protected def logLevel: String = "OFF"

  // Spark keeps bounded histories of finished jobs, stages and SQL executions for its UI and
  // status API (1,000 of each by default). Kept small here, they fill up during the warm-up and
  // stay full, so that what remains to grow would be the source's.
  override protected def sessionConfig: Map[String, String] = Map(
    "spark.ui.retainedJobs" -> "10",
    "spark.ui.retainedStages" -> "10",
    "spark.ui.retainedTasks" -> "100",
    "spark.sql.ui.retainedExecutions" -> "10",
    "spark.sql.streaming.ui.retainedQueries" -> "5",
    "spark.sql.streaming.numRecentProgressUpdates" -> "5")

  // 25: a thread a query leaks shows as 25 over the 8 allowed, a source a query keeps as one
  // reachable source, and a heap a query keeps past 330 KB over the 8 MB allowed. Each query
  // costs about a second beside make test's pytest (50 took 53 s of it), and the suite runs on
  // every build and Java.
  private val queries = 25
  private val threadTolerance = 8
  private val heapToleranceMb = 8.0

  /**
   * The live threads that stay: all but idle workers of thread pools that end them after a
   * keep-alive. Spark's cached pools (the block manager's, for one) start a worker per task
   * when all are busy and end it once it has idled for 60 s; such a worker waits for its next
   * task in a timed `poll` of the pool's queue, called by `ThreadPoolExecutor.getTask`. A pool's
   * permanent workers wait in an untimed `take` instead, and count.
   */
  private def lastingThreads: Seq[Thread] =
    Thread.getAllStackTraces.asScala.toSeq.collect { case (thread, stack) if !endsWhenIdle(stack) => thread }

  private def endsWhenIdle(stack: Array[StackTraceElement]): Boolean = {
    val getTask = stack.indexWhere(frame =>
      frame.getClassName == "java.util.concurrent.ThreadPoolExecutor" && frame.getMethodName == "getTask")
    getTask > 0 && stack(getTask - 1).getMethodName == "poll"
  }

  private def liveThreads: Int = lastingThreads.size

  /** Lasting threads by name, digits dropped (`stream execution thread for q [id = ...]`, ...). */
  private def threadKinds: Map[String, Int] =
    lastingThreads.map(_.getName.replaceAll("[0-9a-f-]{8,}|\\d+", "#"))
      .groupBy(identity).map { case (name, all) => name -> all.size }

  /** The live heap as a full GC left it: the heap pools' usage after their last collection. */
  private def heapAfterGcMb: Double = {
    System.gc()
    ManagementFactory.getMemoryPoolMXBeans.asScala.filter(_.getType == MemoryType.HEAP)
      .map(_.getCollectionUsage.getUsed).sum / 1048576.0
  }

  private val failOnFirstBatch: (DataFrame, Long) => Unit = (_, _) =>
    throw new IllegalStateException("this query fails on purpose")

  /**
   * Start query `i` on an endless stream read by a manual clock, step the clock by one second
   * (1,000 rows) and let one batch read them, then stop it (every tenth query fails instead).
   */
  private def startAndStop(i: Int, dir: File): Unit = {
    val clock = ManualClock.register(s"lifecycle-$i", 1700000000000L)
    val df = spark.readStream.format(classOf[TrackingSourceProvider].getName)
      .option("rowsPerSecond", "1000").option("seed", i.toString)
      .option(RandomStrings.MANUAL_CLOCK, clock.name).load()
    val checkpoint = new File(dir, s"checkpoint-$i").getPath
    try {
      if (i % 10 == 9) {
        val query = df.writeStream.foreachBatch(failOnFirstBatch).option("checkpointLocation", checkpoint).start()
        query.processAllAvailable() // started, with no row yet
        clock.advance(1000L)
        val error = intercept[StreamingQueryException](query.awaitTermination(60000L))
        assert(error.getCause.getMessage == "this query fails on purpose")
      } else {
        val query = df.writeStream.format("noop").option("checkpointLocation", checkpoint).start()
        query.processAllAvailable()
        clock.advance(1000L)
        query.processAllAvailable()
        assert(query.recentProgress.map(_.numInputRows).sum == 1000L, "one batch of the second's rows")
        query.stop()
      }
    } finally ManualClock.unregister(clock.name)
    assert(spark.streams.active.isEmpty)
  }

  /** The lasting threads once the last stopped query's have ended, waiting at most `patienceMs`. */
  private def threadsSettledTo(limit: Int, patienceMs: Long = 20000L): Int = {
    val deadline = System.currentTimeMillis() + patienceMs
    while (liveThreads > limit && System.currentTimeMillis() < deadline) Thread.sleep(200)
    liveThreads
  }

  test(s"$queries queries started and stopped leave threads and driver heap at their baseline, " +
    "and every source stopped, failed queries included") {
    withTempDir { dir =>
      // Warm-up: Spark's lazily made threads and caches start, and its bounded histories fill.
      (0 until 10).foreach(i => startAndStop(-1 - i, dir))
      val baselineThreads = liveThreads
      val baselineKinds = threadKinds
      val baselineHeap = heapAfterGcMb
      TrackingSourceProvider.made.clear()

      (0 until queries).foreach(startAndStop(_, dir))
      val sources = takeMadeSources()
      assert(sources.seeds == (0L until queries.toLong), "one source per query")
      assert(sources.allStopped, "every query stopped its source, failed ones too")

      val threads = threadsSettledTo(baselineThreads + threadTolerance)
      val heap = heapAfterGcMb
      info(f"live threads: $baselineThreads before, $threads after; driver heap after GC: " +
        f"$baselineHeap%.1f MB before, $heap%.1f MB after")
      lazy val grown = threadKinds.map { case (kind, n) => kind -> (n - baselineKinds.getOrElse(kind, 0)) }
        .filter(_._2 > 0).toSeq.sortBy(-_._2).map { case (kind, n) => s"+$n $kind" }
      assert(
        threads <= baselineThreads + threadTolerance,
        s"live threads grew from $baselineThreads to $threads: ${grown.mkString("; ")}")
      assert(heap <= baselineHeap + heapToleranceMb, f"heap grew from $baselineHeap%.1f to $heap%.1f MB")
      val reachable = sources.weak.count(_.get != null)
      assert(reachable == 0, s"$reachable of $queries sources outlived their stopped queries")
    }
  }

  private case class MadeSources(seeds: Seq[Long], allStopped: Boolean, weak: Seq[WeakReference[RandomStringsSource]])

  /** What the tracked sources are, holding them only weakly once this returns. */
  private def takeMadeSources(): MadeSources = {
    val made =
      TrackingSourceProvider.made.asScala.toList // strict: on Scala 2.12 toSeq is a lazy Stream, emptied by the clear() below
    TrackingSourceProvider.made.clear()
    MadeSources(made.map(_.definition.seed).sorted, made.forall(isStopped), made.map(new WeakReference(_)))
  }

  /** Whether `source` was stopped: a stopped source refuses to plan a batch. */
  private def isStopped(source: RandomStringsSource): Boolean =
    try {
      source.getBatch(None, LongOffset(0L))
      false
    } catch { case e: IllegalStateException if e.getMessage.contains("is stopped") => true }
}
