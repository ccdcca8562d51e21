package io.github.sparkrandomstrings.strings

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.types.StructType

import io.github.sparkrandomstrings.offsets.OffsetSource
import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.rows.{RowShape, StreamDefinition}
import io.github.sparkrandomstrings.rows.SourceOptions
import io.github.sparkrandomstrings.text.StringValues

/**
 * The `InMemoryRandomStrings` stream: Spark's V1 `Source` contract ([[offsets.OffsetSource]]) over an
 * endless (or, with `totalRows`, bounded) sequence of rows whose offsets are their 0-based
 * positions. Rows exist by the clock's time since the stream first started ([[time.RowClock]]; the
 * clock is the system's unless a test steps a [[time.ManualClock]]), capped at `totalRows`; a batch
 * reads at most `maxRowsPerTrigger`.
 *
 * Replay: a row is a pure function of the [[rows.StreamDefinition]] (seed, start time, rate, lengths,
 * characters), which is fixed in the checkpoint when the query first starts, and of its offset.
 */
final class RandomStringsSource private[sparkrandomstrings] (
    spark: SparkSession,
    val definition: StreamDefinition,
    options: SourceOptions,
    numPartitions: Int)
    extends OffsetSource(
      spark,
      RandomStrings.ShortName,
      definition,
      options.totalRows,
      options.maxRowsPerTrigger,
      options.clock,
      numPartitions) {

  override def schema: StructType = definition.schema

  override protected def ownMetrics: Seq[(String, String)] = Seq("seed" -> definition.seed.toString)

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
