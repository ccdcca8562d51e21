package io.github.sparkrandomstrings

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

import io.github.sparkrandomstrings.SparkOffsets.LongOffset

/**
 * The `InMemoryRandomStrings` stream: Spark's V1 `Source` contract over an endless (or, with
 * `totalRows`, bounded) sequence of rows whose offsets are their 0-based positions.
 *
 * Design, method by method:
 *  - [[getOffset]] / [[latestOffset]]: the offset of the last row that exists now. Rows exist
 *    by the clock's time since the stream first started ([[RowClock]]; the clock is the system's
 *    unless a test steps a [[ManualClock]]), capped at `totalRows`;
 *    `latestOffset` also honours the read limit (`maxRowsPerTrigger`), and under
 *    `Trigger.AvailableNow` the end fixed by [[prepareForTriggerAvailableNow]]. No rows exist
 *    yet: `None` / `null`.
 *  - [[getBatch]]: plans the rows (start, end] as an RDD whose partitions make their own
 *    slices on the executors ([[OffsetRange]], [[RandomStringsRDD]]). It makes no row itself,
 *    so Spark may call it again for a batch it has already run (it does after a restart) at no
 *    cost. Offsets may arrive as `LongOffset` or, after a restart, as `SerializedOffset`.
 *  - [[commit]]: records the last committed offset (reported in the metrics). Rows are never
 *    held, so nothing is freed.
 *  - [[stop]]: marks the source stopped, after which it plans no batch; idempotent. The source
 *    owns no thread, file handle or cache, so there is nothing else to release.
 *
 * Replay: a row is a pure function of the [[StreamDefinition]] (seed, start time, rate, lengths,
 * characters), which is fixed in the checkpoint when the query first starts, and of its offset.
 * A batch planned before a crash is therefore made again identically after the restart, and
 * the query continues exactly-once with Spark's offset and commit logs.
 *
 * Driver state is O(1) whatever the rate or run time: the definition and three numbers. Spark
 * calls the contract methods from the query's own thread; the fields are volatile so that
 * `toString` and metrics, read by progress reporting, see current values without a lock.
 */
final class RandomStringsSource private[sparkrandomstrings] (
    spark: SparkSession,
    val definition: StreamDefinition,
    options: SourceOptions,
    numPartitions: Int)
    extends Source with SupportsTriggerAvailableNow with ReportsSourceMetrics with Logging {

  import RandomStringsSource._

  /** Under Trigger.AvailableNow, the offset of the last row the query reads. */
  @volatile private var availableNowEnd: Option[Long] = None
  @volatile private var lastCommitted: Long = NoOffset
  @volatile private var stopped = false

  override def schema: StructType = definition.schema

  /** The offset of the last row that exists now (by the clock and totalRows); NoOffset if none. */
  private def lastExisting(): Long = {
    val exist = definition.rowsAvailableAt(options.clock.nowMs())
    options.totalRows.fold(exist)(math.min(exist, _)) - 1
  }

  /** The offset of the last row that the query may read now; NoOffset when there is none. */
  private def lastAvailable(): Long = availableNowEnd.getOrElse(lastExisting())

  override def getOffset: Option[Offset] = asOffset(lastAvailable())

  override def getDefaultReadLimit: ReadLimit =
    options.maxRowsPerTrigger.fold(ReadLimit.allAvailable())(ReadLimit.maxRows)

  /**
   * The end of the next batch: all available rows after `start`, or at most `maxRows` of them.
   * `start` is null on the very first batch. Any other limit Spark passes (`allAvailable`, as
   * for `Trigger.Once`) reads everything available.
   */
  override def latestOffset(start: StreamOffset, limit: ReadLimit): StreamOffset = {
    val from = Option(start).fold(NoOffset)(offsetValue)
    val last = lastAvailable()
    val end = limit match {
      case max: ReadMaxRows => math.min(last, RowClock.saturatedAdd(from, max.maxRows))
      case _ => last
    }
    asOffset(math.max(from, end)).orNull
  }

  override def reportLatestOffset(): StreamOffset = asOffset(lastAvailable()).orNull

  override def prepareForTriggerAvailableNow(): Unit = {
    // A bounded stream is available as a whole; an endless one up to what exists now.
    val end = options.totalRows.fold(lastExisting())(_ - 1)
    logInfo(s"Trigger.AvailableNow: reading up to offset $end")
    availableNowEnd = Some(end)
  }

  override def getBatch(start: Option[Offset], end: Offset): DataFrame = {
    if (stopped) throw new IllegalStateException(s"$this is stopped: it plans no more batches.")
    val startValue = start.map(offsetValue)
    val endValue = offsetValue(end)
    if (startValue.exists(_ > endValue)) {
      throw new IllegalArgumentException(
        s"$this was asked for the batch (${startValue.get}, $endValue], which runs backwards.")
    }
    val offsets = OffsetRange.ofBatch(startValue, endValue)
    val rows =
      if (offsets.count == 0) spark.sparkContext.emptyRDD[InternalRow]
      else {
        val slices = math.min(numPartitions.toLong, offsets.count).toInt
        new RandomStringsRDD(spark.sparkContext, definition, offsets, slices)
      }
    StreamingDataFrames.of(spark, rows, schema)
  }

  override def commit(end: Offset): Unit = lastCommitted = offsetValue(end)

  override def stop(): Unit = if (!stopped) {
    stopped = true
    logInfo(s"$this stopped at committed offset $lastCommitted")
  }

  /** Reported with every query progress, under `sources[i].metrics`. */
  override def metrics(latestConsumedOffset: Optional[StreamOffset]): java.util.Map[String, String] = {
    val latest = lastAvailable()
    val consumed = if (latestConsumedOffset.isPresent) offsetValue(latestConsumedOffset.get) else NoOffset
    val metrics = new java.util.LinkedHashMap[String, String]()
    metrics.put("latestOffset", latest.toString)
    metrics.put("rowsBehind", math.max(0L, latest - consumed).toString)
    metrics.put("committedOffset", lastCommitted.toString)
    metrics.put("seed", definition.seed.toString)
    metrics
  }

  /** The source's description in progress reports: its name and the settings in effect. */
  override def toString: String = {
    val characters = definition.strings.characters.description
    val shownCharacters =
      if (characters.length <= 40) characters else characters.take(37) + "..."
    val rate = definition.rateProfile.fold(s"rowsPerSecond=${definition.rowsPerSecond}")(p => s"rateProfile=$p")
    val columns = definition.declared.fold(
      s"minLength=${definition.strings.minLength}, maxLength=${definition.strings.maxLength}, $shownCharacters")(d =>
      s"schema=${d.schema.toDDL}")
    s"${RandomStrings.ShortName}[$rate, $columns, " +
      s"seed=${definition.seed}, numPartitions=$numPartitions, " +
      s"maxRowsPerTrigger=${options.maxRowsPerTrigger.fold("none")(_.toString)}, " +
      s"totalRows=${options.totalRows.fold("unbounded")(_.toString)}$shownShape$shownTime]"
  }

  /** The shaping options in effect, if any differ from a plain stream's. */
  private def shownShape: String = {
    val plain = StringValues.Default.poolSettings ++ RowShape.Plain.settings
    (definition.strings.poolSettings ++ definition.shape.settings).zip(plain).collect {
      case ((name, Some(value)), (_, default)) if !default.contains(value) => s", $name=$value"
    }.mkString
  }

  /** `timestampColumn` and `startTimestamp`, where set (the profile is shown in place of the rate). */
  private def shownTime: String =
    (if (definition.timestampColumn) s", ${RandomStrings.TIMESTAMP_COLUMN}=true" else "") +
      definition.startTimestamp.fold("")(t => s", ${RandomStrings.START_TIMESTAMP}=$t")
}

private[sparkrandomstrings] object RandomStringsSource {

  /** The position before the first row: where a stream that has read nothing stands. */
  val NoOffset: Long = -1L

  def asOffset(value: Long): Option[LongOffset] = if (value < 0) None else Some(LongOffset(value))

  /** The value of an offset of this source, whether a `LongOffset` or read back from the log. */
  def offsetValue(offset: StreamOffset): Long = offset match {
    case LongOffset(value) => value
    case other =>
      val json = other.json()
      scala.util.Try(json.trim.toLong).toOption.filter(_ >= 0).getOrElse {
        if (json.contains(s""""${InterleavedOffset.Field}"""")) {
          throw new IllegalArgumentException(
            s"'$json' is an offset of the ${RandomStrings.ShortName} source read with '${RandomStrings.REAL_TIME}' " +
              s"(per partition), and this query reads it without. Restart it with '${RandomStrings.REAL_TIME}' " +
              "set to true, or start a new checkpoint.")
        }
        throw new IllegalArgumentException(
          s"'$json' is not an offset of the ${RandomStrings.ShortName} source, " +
            "whose offsets are whole numbers >= 0. Was this checkpoint written by another source?")
      }
  }
}
