package io.github.sparkrandomstrings

import java.time.Instant
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.{AtomicLong, AtomicLongArray, AtomicReferenceArray}

import org.apache.hadoop.conf.Configuration
import org.apache.spark.TaskContext
import org.apache.spark.sql.{ForeachWriter, Row}

import io.github.sparkrandomstrings.latency.MeasuredStream
import io.github.sparkrandomstrings.offsets.DefinitionStore
import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.rows.StreamDefinition

/**
 * A `foreach` sink that measures a pipeline fed by this source: for each row that reaches it,
 * the moment it arrived minus the moment the row came to exist
 * ([[rows.StreamDefinition.existsAtMs]], which it reads from the query's checkpoint). It runs in
 * real-time mode (Spark allows `foreach` sinks there) as under micro-batch triggers, so the two
 * can be compared on the same stream.
 *
 * {{{
 *   df.writeStream.foreach(new LatencySink("rt", checkpoint))
 *     .option("checkpointLocation", checkpoint).trigger(Trigger.RealTime("5 seconds")).start()
 *   LatencySink.summary("rt") // count, p50, p99, p99.9, max (ms), the gaps between batches, the last rows
 * }}}
 *
 * The measurements are kept in the JVM that runs the tasks, under `name`: read them with
 * [[LatencySink.summary]] from the driver in local mode (a cluster's executors keep their own).
 * Rows need what says when each came to exist ([[latency.MeasuredStream]]): for the random strings, the
 * column that holds each row's offset ([[rows.StreamDefinition.offsetColumn]]: `offset`, or, with a
 * declared schema, a column of kind `offset`); for the Nexmark events, `dateTime`; for a change
 * stream, the change's number (`_seq`, Delta's `_commit_version`, Debezium's `source.sequence`).
 * Latencies are counted in buckets of 0.1 ms up to 60 s (the percentiles are the bucket's upper
 * edge; the maximum is exact).
 *
 * It also times the gaps between batches: a batch's gap is the time from the last of its rows to
 * reach the sink to the first row of the next batch that has rows (to the microsecond). In
 * real-time mode that is where rows wait: those that come to exist in the gap wait for the next
 * batch's tasks.
 *
 * @param name       the name the measurements are kept under
 * @param checkpoint the query's checkpoint location (the source is its first: `sources/0`)
 */
final class LatencySink(name: String, checkpoint: String) extends ForeachWriter[Row] {
  @transient private var measured: MeasuredStream = _
  @transient private var latencies: LatencySink.Latencies = _
  @transient private var batch = 0L

  override def open(partitionId: Long, epochId: Long): Boolean = {
    if (measured == null) measured = LatencySink.measuredOf(name, checkpoint)
    latencies = LatencySink.latenciesOf(name)
    measured.declaredOffset.foreach(latencies.showDeclared)
    batch = epochId
    true
  }

  override def process(row: Row): Unit = {
    val now = Instant.now()
    val nowMicros = now.getEpochSecond * 1000000L + now.getNano / 1000L
    latencies.record(nowMicros - measured.existsAtMs(row) * 1000L, nowMicros, batch, row)
  }

  override def close(errorOrNull: Throwable): Unit = ()
}

object LatencySink {

  /** Bucket width, in µs, and how many buckets: 0.1 ms up to 60 s, then one for the rest. */
  private val BucketMicros = 100L
  private val Buckets = 600000

  /** How many of the last rows a summary shows. */
  private val RecentRows = 20

  private val registry = new ConcurrentHashMap[String, Latencies]()

  private def latenciesOf(name: String): Latencies = registry.computeIfAbsent(name, _ => new Latencies)

  /** The local property in which Spark gives a streaming query's tasks the query's id. */
  private val QueryIdProperty = "sql.streaming.queryId"

  /**
   * The definition each checkpoint holds, as the last query that ran on it read it: checkpoint ->
   * (query id, definition). Every task of a real-time batch deserializes a new sink, which opens
   * before the task reads its first row: reading the checkpoint there (a Hadoop configuration
   * and the file, about 20 ms on a 2-core machine) lengthened every gap between two batches. A
   * query's definition is fixed in its checkpoint, and so is the query's id: a checkpoint made
   * anew at the same path has a new id, and is read again.
   */
  private val definitions = new ConcurrentHashMap[String, (String, MeasuredStream)]()

  /** How many times this JVM's sinks have read a checkpoint's definition. */
  private val reads = new AtomicLong()

  private[sparkrandomstrings] def definitionReads: Long = reads.get()

  /** The stream in `checkpoint`, read once for each query (by its id) that runs on it. */
  private def measuredOf(name: String, checkpoint: String): MeasuredStream =
    measuredOf(name, checkpoint, Option(TaskContext.get()).flatMap(t => Option(t.getLocalProperty(QueryIdProperty))))

  /** [[measuredOf]] for the query `query`; None (not a streaming query's task): read each time. */
  private[sparkrandomstrings] def measuredOf(
      name: String,
      checkpoint: String,
      query: Option[String]): MeasuredStream =
    query match {
      case None => readMeasured(name, checkpoint)
      case Some(id) =>
        // The tasks of a query's first batch open at once: one reads, the others wait for it.
        definitions.compute(
          checkpoint,
          (_: String, known: (String, MeasuredStream)) =>
            if (known != null && known._1 == id) known else (id, readMeasured(name, checkpoint)))._2
    }

  /** The definition in `checkpoint`, for the random strings' tests. */
  private[sparkrandomstrings] def definitionOf(
      name: String,
      checkpoint: String,
      query: Option[String]): StreamDefinition =
    measuredOf(name, checkpoint, query) match {
      case MeasuredStream.Strings(definition, _) => definition
      case other => throw new IllegalStateException(s"LatencySink $name: $checkpoint holds $other")
    }

  private def readMeasured(name: String, checkpoint: String): MeasuredStream = {
    reads.incrementAndGet()
    val folder = s"${checkpoint.stripSuffix("/")}/sources/0"
    val definition = new DefinitionStore(folder, new Configuration()).read()
    // A change stream keeps its rows' definition too, and beside it its change options.
    val changeSpec = new changes.ChangeStore(folder, new Configuration()).read()
    changeSpec.flatMap(spec => definition.map(d => MeasuredStream.Changes(name, changes.ChangeStream(d, spec))))
      .orElse(definition.map(MeasuredStream.strings(name, _)))
      .orElse(new nexmark.NexmarkStore(folder, new Configuration()).read().map(MeasuredStream.nexmark(name, _)))
      .getOrElse(throw new IllegalStateException(
        s"LatencySink $name: the checkpoint $checkpoint holds no ${RandomStrings.ShortName} definition, no " +
          s"${changes.Changes.ShortName} stream and no ${nexmark.Nexmark.ShortName} stream at sources/0"))
  }

  /**
   * What the sink named `name` has measured so far, in this JVM: `count`; the latencies' `p50Ms`,
   * `p99Ms`, `p999Ms` (p99.9) and `maxMs`; `firstMs` and `lastMs` (epoch ms of the first and last
   * row's arrival); `gapCount`, the gaps between batches whose both sides it measured, with
   * `gapMedianMs` and `gapMaxMs`; `batches`: the arrivals of the last batches' rows, one batch a
   * line, its id, first and last arrival (epoch µs) separated by spaces, kept through a reset, for
   * timing the pause between two batches against the query's progress; `arrived`: every row that
   * has reached the sink, through resets, the last of them the last of `recent`; and `recent`: the
   * last rows that arrived, one per line, their columns separated by tabs (with a declared schema:
   * the row's offset, a tab and the row as a JSON object, whose strings hold no line break).
   * Figures of no row or no gap are left out.
   */
  def summary(name: String): java.util.Map[String, String] = latenciesOf(name).summary()

  /**
   * Forgets what the sink named `name` has measured so far (after a warm-up, say): from now on
   * it counts afresh, also in the tasks that are running. The last rows and the batches' arrivals
   * stay: they are what arrived, not a measurement, and a reader of them misses none across a
   * reset.
   */
  def reset(name: String): Unit = Option(registry.get(name)).foreach(_.clear())

  private[sparkrandomstrings] final class Latencies {
    private val counts = new AtomicLongArray(Buckets + 1)
    private val total = new AtomicLong()
    private val maxMicros = new AtomicLong(Long.MinValue)
    private val firstMicros = new AtomicLong(Long.MaxValue)
    private val lastMicros = new AtomicLong(Long.MinValue)
    private val recent = new AtomicReferenceArray[Row](RecentRows)
    private val arrived = new AtomicLong()
    private val batches = new Batches
    @volatile private var declaredOffset: Option[String] = None

    /** Show `recent` rows as those of a declared schema: offset (from `offsetColumn`) and JSON. */
    def showDeclared(offsetColumn: String): Unit = if (declaredOffset.isEmpty) declaredOffset = Some(offsetColumn)

    private def shown(row: Row): String = declaredOffset match {
      case None => row.toSeq.mkString("\t")
      case Some(column) =>
        val json = if (row.schema == null) None else scala.util.Try(row.json).toOption
        s"${row.getAs[Long](column)}\t${json.getOrElse(row.toSeq.mkString("[", ", ", "]").replace("\n", "\\n"))}"
    }

    def clear(): Unit = {
      (0 to Buckets).foreach(counts.set(_, 0L))
      total.set(0L)
      maxMicros.set(Long.MinValue)
      firstMicros.set(Long.MaxValue)
      lastMicros.set(Long.MinValue)
      batches.clear()
    }

    /** A row of batch `batch` that arrived at `arrivalMicros` (epoch µs), `latencyMicros` after it existed. */
    def record(latencyMicros: Long, arrivalMicros: Long, batch: Long, row: Row): Unit = {
      val bucket = math.min(math.max(0L, latencyMicros) / BucketMicros, Buckets.toLong).toInt
      counts.incrementAndGet(bucket)
      total.incrementAndGet()
      maxMicros.accumulateAndGet(latencyMicros, math.max)
      firstMicros.accumulateAndGet(arrivalMicros, math.min)
      lastMicros.accumulateAndGet(arrivalMicros, math.max)
      batches.record(batch, arrivalMicros)
      recent.set((arrived.getAndIncrement() % RecentRows).toInt, row)
    }

    /**
     * The latency (ms) below which the fraction `numerator / denominator` of the `n` rows lie:
     * the upper edge of the bucket of the row of that rank (counted exactly, in whole numbers).
     */
    private def percentileMs(numerator: Long, denominator: Long, n: Long): Double = {
      val rank = math.max(1L, (n * numerator + denominator - 1) / denominator)
      var seen = 0L
      var bucket = 0
      while (bucket <= Buckets && seen + counts.get(bucket) < rank) {
        seen += counts.get(bucket)
        bucket += 1
      }
      (bucket + 1) * BucketMicros / 1000.0
    }

    def summary(): java.util.Map[String, String] = {
      val n = total.get()
      val result = new java.util.LinkedHashMap[String, String]()
      result.put("count", n.toString)
      if (n > 0) {
        result.put("p50Ms", percentileMs(1L, 2L, n).toString)
        result.put("p99Ms", percentileMs(99L, 100L, n).toString)
        result.put("p999Ms", percentileMs(999L, 1000L, n).toString)
        result.put("maxMs", (maxMicros.get() / 1000.0).toString)
        result.put("firstMs", (firstMicros.get() / 1000L).toString)
        result.put("lastMs", (lastMicros.get() / 1000L).toString)
      }
      val gaps = batches.gapsMicros()
      result.put("gapCount", gaps.length.toString)
      if (gaps.nonEmpty) {
        val sorted = gaps.sorted
        val middle = sorted.length / 2
        val medianMicros =
          if (sorted.length % 2 == 1) sorted(middle).toDouble else (sorted(middle - 1) + sorted(middle)) / 2.0
        result.put("gapMedianMs", (medianMicros / 1000.0).toString)
        result.put("gapMaxMs", (sorted.last / 1000.0).toString)
      }
      result.put(
        "batches",
        batches.history().map { case (batch, first, last) => s"$batch $first $last" }.mkString("\n"))
      val last = arrived.get()
      val rows = (math.max(0L, last - RecentRows) until last).flatMap(i => Option(recent.get((i % RecentRows).toInt)))
      result.put("arrived", last.toString)
      result.put("recent", rows.map(shown).mkString("\n"))
      result
    }
  }

  /**
   * The arrivals of each batch's rows, for the gaps between batches: the first and last arrival
   * (epoch µs) of the batch that rows arrive in now, and of the batches before it until their
   * gaps are final. A batch runs only once the one before it has ended, so the gap after a batch
   * is final once the batch after the next has rows: it is then kept as a number, and the batch
   * is forgotten. Each row updates its batch's two arrivals; a batch's first row finds it.
   *
   * The last [[Batches.Kept]] batches' arrivals are also kept by id, through a reset (a reset
   * mid-batch keeps that batch's first arrival): a boundary between two batches is timed from
   * them against the query's progress.
   */
  private final class Batches {

    /** A batch's rows so far: their first and last arrival. */
    private final class Arrivals(val batch: Long) {
      val first = new AtomicLong(Long.MaxValue)
      val last = new AtomicLong(Long.MinValue)
    }

    /** The batch that rows arrive in now. */
    @volatile private var current: Arrivals = _

    /** The batches whose gap after them is not final yet, by batch (guarded by this). */
    private val open = new java.util.TreeMap[Long, Arrivals]()

    /** The last batches' arrivals, by batch, kept through a reset (guarded by this). */
    private val kept = new java.util.TreeMap[Long, Arrivals]()

    /** The gaps that are final, in µs (guarded by this). */
    private var gaps = new Array[Long](0)
    private var gapCount = 0

    def record(batch: Long, arrivalMicros: Long): Unit = {
      val known = current
      val arrivals = if (known != null && known.batch == batch) known else arrivalsOf(batch)
      arrivals.first.accumulateAndGet(arrivalMicros, math.min)
      arrivals.last.accumulateAndGet(arrivalMicros, math.max)
    }

    private def arrivalsOf(batch: Long): Arrivals = synchronized {
      val arrivals = open.computeIfAbsent(batch, b => kept.computeIfAbsent(b, new Arrivals(_)))
      while (kept.size > Batches.Kept) kept.pollFirstEntry()
      if (current == null || batch > current.batch) current = arrivals
      // The gaps between the batches before the one before `batch` are final: keep them as numbers.
      while (open.size > 2 && open.firstKey < batch) {
        val earlier = open.pollFirstEntry().getValue
        gapBetween(earlier, open.firstEntry().getValue).foreach(keep)
      }
      arrivals
    }

    private def keep(gap: Long): Unit = {
      if (gapCount == gaps.length) gaps = java.util.Arrays.copyOf(gaps, math.max(16, 2 * gapCount))
      gaps(gapCount) = gap
      gapCount += 1
    }

    /** The gap from `before`'s last row to `after`'s first, if both had rows. */
    private def gapBetween(before: Arrivals, after: Arrivals): Option[Long] = {
      val (last, first) = (before.last.get(), after.first.get())
      if (last == Long.MinValue || first == Long.MaxValue) None else Some(first - last)
    }

    /** Every gap between two batches so far: the final ones, and those of the batches still open. */
    def gapsMicros(): Seq[Long] = synchronized {
      val batches = open.values().toArray(Array.empty[Arrivals]).toSeq
      gaps.take(gapCount).toSeq ++ batches.zip(batches.drop(1)).flatMap { case (a, b) => gapBetween(a, b) }
    }

    /** The kept batches' arrivals, oldest first: (batch, first, last arrival in epoch µs). */
    def history(): Seq[(Long, Long, Long)] = synchronized {
      kept.values().toArray(Array.empty[Arrivals]).toSeq.map(a => (a.batch, a.first.get(), a.last.get()))
    }

    def clear(): Unit = synchronized {
      open.clear()
      current = null
      gaps = new Array[Long](0)
      gapCount = 0
    }
  }

  private object Batches {

    /** How many batches' arrivals are kept. */
    val Kept = 256
  }
}
