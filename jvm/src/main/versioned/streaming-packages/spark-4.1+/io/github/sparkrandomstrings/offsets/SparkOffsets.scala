package io.github.sparkrandomstrings.offsets

/**
 * Spark's V1 offset classes under one name on every Spark line. Since Spark 4.1 the V1 offsets live in `execution.streaming.runtime` (before: `execution.streaming`).
 */
private[sparkrandomstrings] object SparkOffsets {
  type LongOffset = org.apache.spark.sql.execution.streaming.runtime.LongOffset
  val LongOffset: org.apache.spark.sql.execution.streaming.runtime.LongOffset.type =
    org.apache.spark.sql.execution.streaming.runtime.LongOffset
  type SerializedOffset = org.apache.spark.sql.execution.streaming.runtime.SerializedOffset
  val SerializedOffset: org.apache.spark.sql.execution.streaming.runtime.SerializedOffset.type =
    org.apache.spark.sql.execution.streaming.runtime.SerializedOffset
}
