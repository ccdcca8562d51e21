package io.github.sparkrandomstrings.changes

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.types.StructType

import io.github.sparkrandomstrings.offsets.OffsetSource

/**
 * The `changes` stream: Spark's V1 `Source` contract ([[offsets.OffsetSource]]) over a change
 * stream, offset `n` being change `n`. Changes exist by the wall clock from the stream's first
 * start at `rowsPerSecond` (or by the `rateProfile`), up to `totalRows`; a batch reads at most
 * `maxRowsPerTrigger`. With untidy delivery an offset is a read ([[ChangeDelivery]]), and the
 * stream ends once every change before `totalRows` is read, copies included.
 */
final class ChangesSource private[changes] (
    spark: SparkSession,
    val stream: ChangeStream,
    options: ChangeOptions,
    numPartitions: Int)
    extends OffsetSource(
      spark,
      Changes.ShortName,
      stream,
      options.positions,
      options.rows.maxRowsPerTrigger,
      options.rows.clock,
      numPartitions) {

  override def schema: StructType = stream.schema

  override protected def ownMetrics: Seq[(String, String)] = Seq("seed" -> stream.definition.seed.toString)

  /** The source's description in progress reports: its name and the settings in effect. */
  override def toString: String = {
    val d = stream.definition
    val rate = d.rateProfile.fold(s"${Changes.ROWS_PER_SECOND}=${d.rowsPerSecond}")(p => s"${Changes.RATE_PROFILE}=$p")
    val spec = stream.spec.settings.filter(_._1 != Changes.TOTAL_ROWS).map { case (name, value) => s"$name=$value" }
    (spec ++ Seq(rate, s"seed=${d.seed}", s"numPartitions=$numPartitions") ++
      options.rows.maxRowsPerTrigger.map(m => s"${Changes.MAX_ROWS_PER_TRIGGER}=$m") ++
      options.rows.totalRows.map(t => s"${Changes.TOTAL_ROWS}=$t") ++
      d.startTimestamp.map(t => s"${Changes.START_TIMESTAMP}=$t"))
      .mkString(s"${Changes.ShortName}[", ", ", "]")
  }
}
