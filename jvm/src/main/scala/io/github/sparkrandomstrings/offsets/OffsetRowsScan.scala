package io.github.sparkrandomstrings.offsets

import org.apache.spark.SparkContext
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.execution.{LeafExecNode, LogicalRDD, SparkPlan, SparkStrategy}
import org.apache.spark.sql.execution.metric.{SQLMetric, SQLMetrics}

/**
 * The physical scan of one batch: hands the rows of a [[OffsetRowsRDD]] on as they are made.
 *
 * Spark plans a V1 source's batch (a `LogicalRDD`) as `RDDScanExec`, which copies every row into
 * a new `UnsafeRow`, since a foreign RDD's rows may be in any format. Ours are `UnsafeRow`s
 * already, made in place by [[rows.RowGenerator]], so this scan skips that copy (`docs/design.md`,
 * "The batch scan", has what it saves). Like any scan's rows, a row is valid until the next
 * one; operators that keep rows copy them.
 */
private[sparkrandomstrings] final case class OffsetRowsScanExec(
    output: Seq[Attribute],
    rows: RDD[InternalRow],
    sourceName: String)
    extends LeafExecNode {

  override def nodeName: String = s"Scan $sourceName"

  override lazy val metrics: Map[String, SQLMetric] =
    Map("numOutputRows" -> SQLMetrics.createMetric(sparkContext, "number of output rows"))

  override protected def doExecute(): RDD[InternalRow] = {
    val numOutputRows = longMetric("numOutputRows") // progress reports read it as numInputRows
    rows.mapPartitions(
      partition =>
        partition.map { row =>
          numOutputRows += 1
          row
        },
      preservesPartitioning = true)
  }

  /** As in `explain()`: the node and its columns. */
  override def simpleString(maxFields: Int): String = nodeName + output.mkString("[", ",", "]")
}

/**
 * Plans the batches of this source with [[OffsetRowsScanExec]]; every other plan is left to
 * Spark. A session gets it through `RandomStringsExtensions` or, without them, from `load()`
 * ([[addTo]]). Without it (a session it reached neither way), Spark plans the same batches with
 * its own `RDDScanExec`: the same rows, one copy slower.
 */
private[sparkrandomstrings] object OffsetRowsScanStrategy extends SparkStrategy {

  override def apply(plan: LogicalPlan): Seq[SparkPlan] = plan match {
    case batch: LogicalRDD if batch.rdd.isInstanceOf[OffsetRowsRDD] =>
      OffsetRowsScanExec(batch.output, batch.rdd, batch.rdd.asInstanceOf[OffsetRowsRDD].stream.sourceName) :: Nil
    case _ => Nil
  }

  /** The setting that installs [[ExtensionsClass]]: Spark's static `spark.sql.extensions`. */
  val ExtensionsKey = "spark.sql.extensions"

  /**
   * The extensions that plant this strategy when a session starts, by name: the class
   * `io.github.sparkrandomstrings.RandomStringsExtensions`, which sits in the package that users
   * name, above this one, so that every source's provider can ask [[extensionsConfiguredOn]].
   */
  val ExtensionsClass = "io.github.sparkrandomstrings.RandomStringsExtensions"

  /** Whether the session of `context` was started with [[ExtensionsClass]] (then [[addTo]] is not needed). */
  def extensionsConfiguredOn(context: SparkContext): Boolean =
    context.getConf.get(ExtensionsKey, "").split(",").map(_.trim).contains(ExtensionsClass)

  /**
   * Adds the strategy to the session's `experimental.extraStrategies`, once. `load()` does it,
   * for a session that was not started with `RandomStringsExtensions`, so that it is in place
   * before a query starts: a streaming query plans its batches in a copy of its session taken
   * when it starts, with the strategies the session had then.
   */
  def addTo(spark: SparkSession): Unit = {
    val experimental = spark.experimental
    experimental.synchronized { // the lock that orders the read and the write of this session's list
      if (!experimental.extraStrategies.contains(this)) {
        experimental.extraStrategies = experimental.extraStrategies :+ this
      }
    }
  }
}
