package io.github.sparkrandomstrings.offsets

/**
 * Spark's `CheckpointFileManager` under one name on every Spark line. Since Spark 4.1 it lives in
 * `execution.streaming.checkpointing` (before: `execution.streaming`).
 */
private[sparkrandomstrings] object SparkCheckpointFiles {
  type CheckpointFileManager = org.apache.spark.sql.execution.streaming.checkpointing.CheckpointFileManager
  val CheckpointFileManager: org.apache.spark.sql.execution.streaming.checkpointing.CheckpointFileManager.type =
    org.apache.spark.sql.execution.streaming.checkpointing.CheckpointFileManager
}
