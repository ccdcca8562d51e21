package io.github.sparkrandomstrings.offsets

import java.util.Optional

import org.apache.spark.internal.Logging
import org.apache.spark.sql.{DataFrame, SparkSession}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.read.streaming.{
  Offset => StreamOffset,
  ReadLimit,
  ReadMaxRows,
  ReportsSourceMetrics,
  SupportsTriggerAvailableNow
}
import org.apache.spark.sql.execution.streaming.{Offset, Source}
import org.apache.spark.sql.sparkrandomstrings.StreamingDataFrames
import org.apache.spark.sql.types.StructType

import io.github.sparkrandomstrings.offsets.SparkOffsets.LongOffset
import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.rows.OffsetRows
import io.github.sparkrandomstrings.time.{RowClock, StreamClock}

/**
 * Spark's V1 `Source` contract over a stream of rows whose offsets are their 0-based positions
 * and whose every row is a pure function of its offset ([[rows.OffsetRows]]): the contract this
 * project exists to show done right, written once for every source of the jar.
 *
 * Design, method by method:
 *  - [[getOffset]] / [[latestOffset]]: the offset of the last row that exists now
 *    (by the clock, since the stream first started, capped at the stream's end); `latestOffset` also honours the read limit (the most rows per trigger), and under
 *    `Trigger.AvailableNow` the end fixed by [[prepareForTriggerAvailableNow]]. No rows exist
 *    yet: `None` / `null`.
 *  - [[getBatch]]: plans the rows (start, end] as an RDD whose partitions make their own
 *    slices on the executors ([[OffsetRange]], [[OffsetRowsRDD]]). It makes no row itself,
 *    so Spark may call it again for a batch it has already run (it does after a restart) at no
 *    cost. Offsets may arrive as `LongOffset` or, after a restart, as `SerializedOffset`.
 *  - [[commit]]: records the last committed offset (reported in the metrics). Rows are never
 *    held, so nothing is freed.
 *  - [[stop]]: marks the source stopped, after which it plans no batch; idempotent. The source
 *    owns no thread, file handle or cache, so there is nothing else to release.
 *
 * Replay: the stream's definition is fixed in the checkpoint when the query first starts, so a
 * batch planned before a crash is made again identically after the restart, and the query
 * continues exactly-once with Spark's offset and commit logs.
 *
 * Driver state is O(1) whatever the rate or run time: the definition and three numbers. Spark
 * calls the contract methods from the query's own thread; the fields are volatile so that
 * `toString` and metrics, read by progress reporting, see current values without a lock.
 *
 * @param sourceName    the source's short name, as messages say it
 * @param rows          what each partition makes its rows from
 * @param bound         how many rows the stream has; None: endless
 * @param maxPerTrigger the most rows one batch reads, if limited
 * @param clock         where the source reads the time (a test's manual clock, or the system's)
 */
abstract class OffsetSource(
    spark: SparkSession,
    sourceName: String,
    rows: OffsetRows,
    bound: Option[Long],
    maxPerTrigger: Option[Long],
    clock: StreamClock,
    numPartitions: Int)
    extends Source with SupportsTriggerAvailableNow with ReportsSourceMetrics with Logging {

  import OffsetSource._

  /** Under Trigger.AvailableNow, the offset of the last row the query reads. */
  @volatile private var availableNowEnd: Option[Long] = None
  @volatile private var lastCommitted: Long = NoOffset
  @volatile private var stopped = false

  /** Metrics of the source's own, reported after the offsets. */
  protected def ownMetrics: Seq[(String, String)] = Nil

  /** The offset of the last row that exists now (by the clock and the end); NoOffset if none. */
  private def lastExisting(): Long = {
    val existing = rows.rowsAvailableAt(clock.nowMs())
    bound.fold(existing)(math.min(existing, _)) - 1
  }

  /** The offset of the last row that the query may read now; NoOffset when there is none. */
  private def lastAvailable(): Long = availableNowEnd.getOrElse(lastExisting())

  override def getOffset: Option[Offset] = asOffset(lastAvailable())

  override def getDefaultReadLimit: ReadLimit = maxPerTrigger.fold(ReadLimit.allAvailable())(ReadLimit.maxRows)

  /**
   * The end of the next batch: all available rows after `start`, or at most `maxRows` of them.
   * `start` is null on the very first batch. Any other limit Spark passes (`allAvailable`, as
   * for `Trigger.Once`) reads everything available.
   */
  override def latestOffset(start: StreamOffset, limit: ReadLimit): StreamOffset = {
    val from = Option(start).fold(NoOffset)(offsetValue(sourceName, _))
    val last = lastAvailable()
    val batchEnd = limit match {
      case max: ReadMaxRows => math.min(last, RowClock.saturatedAdd(from, max.maxRows))
      case _ => last
    }
    asOffset(math.max(from, batchEnd)).orNull
  }

  override def reportLatestOffset(): StreamOffset = asOffset(lastAvailable()).orNull

  override def prepareForTriggerAvailableNow(): Unit = {
    // A bounded stream is available as a whole; an endless one up to what exists now.
    val last = bound.fold(lastExisting())(_ - 1)
    logInfo(s"Trigger.AvailableNow: reading up to offset $last")
    availableNowEnd = Some(last)
  }

  override def getBatch(start: Option[Offset], end: Offset): DataFrame = {
    if (stopped) throw new IllegalStateException(s"$this is stopped: it plans no more batches.")
    val startValue = start.map(offsetValue(sourceName, _))
    val endValue = offsetValue(sourceName, end)
    if (startValue.exists(_ > endValue)) {
      throw new IllegalArgumentException(
        s"$this was asked for the batch (${startValue.get}, $endValue], which runs backwards.")
    }
    val offsets = OffsetRange.ofBatch(startValue, endValue)
    val batch =
      if (offsets.count == 0) spark.sparkContext.emptyRDD[InternalRow]
      else {
        val slices = math.min(numPartitions.toLong, offsets.count).toInt
        new OffsetRowsRDD(spark.sparkContext, rows, offsets, slices)
      }
    StreamingDataFrames.of(spark, batch, schema)
  }

  override def commit(end: Offset): Unit = lastCommitted = offsetValue(sourceName, end)

  override def stop(): Unit = if (!stopped) {
    stopped = true
    logInfo(s"$this stopped at committed offset $lastCommitted")
  }

  /** Reported with every query progress, under `sources[i].metrics`. */
  override def metrics(latestConsumedOffset: Optional[StreamOffset]): java.util.Map[String, String] = {
    val latest = lastAvailable()
    val consumed =
      if (latestConsumedOffset.isPresent) offsetValue(sourceName, latestConsumedOffset.get) else NoOffset
    val metrics = new java.util.LinkedHashMap[String, String]()
    metrics.put("latestOffset", latest.toString)
    metrics.put("rowsBehind", math.max(0L, latest - consumed).toString)
    metrics.put("committedOffset", lastCommitted.toString)
    ownMetrics.foreach { case (name, value) => metrics.put(name, value) }
    metrics
  }

  override def schema: StructType
}

private[sparkrandomstrings] object OffsetSource {

  /** The position before the first row: where a stream that has read nothing stands. */
  val NoOffset: Long = -1L

  def asOffset(value: Long): Option[LongOffset] = if (value < 0) None else Some(LongOffset(value))

  /** The value of an offset of source `sourceName`, whether a `LongOffset` or read back from the log. */
  def offsetValue(sourceName: String, offset: StreamOffset): Long = offset match {
    case LongOffset(value) => value
    case other =>
      val json = other.json()
      scala.util.Try(json.trim.toLong).toOption.filter(_ >= 0).getOrElse {
        if (json.contains(s""""${InterleavedOffset.Field}"""")) {
          throw new IllegalArgumentException(
            s"'$json' is an offset of the $sourceName source read with '${RandomStrings.REAL_TIME}' " +
              s"(per partition), and this query reads it without. Restart it with '${RandomStrings.REAL_TIME}' " +
              "set to true, or start a new checkpoint.")
        }
        throw new IllegalArgumentException(
          s"'$json' is not an offset of the $sourceName source, " +
            "whose offsets are whole numbers >= 0. Was this checkpoint written by another source?")
      }
  }
}
