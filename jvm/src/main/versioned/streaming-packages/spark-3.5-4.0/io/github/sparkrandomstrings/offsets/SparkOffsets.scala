package io.github.sparkrandomstrings.offsets

/**
 * Spark's V1 offset classes under one name on every Spark line. Spark 3.5 and 4.0 keep the V1 offsets in `execution.streaming`; 4.1 moved them to `execution.streaming.runtime`.
 */
private[sparkrandomstrings] object SparkOffsets {
  type LongOffset = org.apache.spark.sql.execution.streaming.LongOffset
  val LongOffset: org.apache.spark.sql.execution.streaming.LongOffset.type =
    org.apache.spark.sql.execution.streaming.LongOffset
  type SerializedOffset = org.apache.spark.sql.execution.streaming.SerializedOffset
  val SerializedOffset: org.apache.spark.sql.execution.streaming.SerializedOffset.type =
    org.apache.spark.sql.execution.streaming.SerializedOffset
}
