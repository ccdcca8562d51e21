package io.github.sparkrandomstrings.nexmark

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.types.StructType

import io.github.sparkrandomstrings.offsets.OffsetSource

/**
 * The `nexmark` stream: Spark's V1 `Source` contract ([[offsets.OffsetSource]]) over Nexmark's events,
 * offset `n` being event `n`. Events exist by the wall clock from the stream's first start, as
 * their timestamps space them (or all at once under `Trigger.AvailableNow` for a bounded run),
 * up to `numEvents`; a batch reads at most `maxEventsPerTrigger`.
 */
final class NexmarkSource private[nexmark] (
    spark: SparkSession,
    val stream: NexmarkStream,
    options: NexmarkOptions,
    numPartitions: Int)
    extends OffsetSource(
      spark,
      Nexmark.ShortName,
      stream,
      options.numEvents,
      options.maxEventsPerTrigger,
      options.clock,
      numPartitions) {

  override def schema: StructType = Nexmark.Schema

  override protected def ownMetrics: Seq[(String, String)] = Seq("startTimeMs" -> stream.startTimeMs.toString)

  /** The source's description in progress reports: its name and the settings that differ from Beam's. */
  override def toString: String = {
    val changed = stream.config.settings.zip(NexmarkConfig.Default.settings).collect {
      case ((name, value), (_, default)) if value != default => s"$name=$value"
    }
    (Seq(s"numEvents=${options.numEvents.fold("endless")(_.toString)}") ++ changed ++
      Seq(s"numPartitions=$numPartitions") ++
      options.maxEventsPerTrigger.map(m => s"maxEventsPerTrigger=$m")).mkString(s"${Nexmark.ShortName}[", ", ", "]")
  }
}
