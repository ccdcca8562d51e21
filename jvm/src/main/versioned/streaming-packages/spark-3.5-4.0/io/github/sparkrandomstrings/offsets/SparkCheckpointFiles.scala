package io.github.sparkrandomstrings.offsets

/**
 * Spark's `CheckpointFileManager` under one name on every Spark line. Spark 3.5 and 4.0 keep it in
 * `execution.streaming`; 4.1 moved it to `execution.streaming.checkpointing`.
 */
private[sparkrandomstrings] object SparkCheckpointFiles {
  type CheckpointFileManager = org.apache.spark.sql.execution.streaming.CheckpointFileManager
  val CheckpointFileManager: org.apache.spark.sql.execution.streaming.CheckpointFileManager.type =
    org.apache.spark.sql.execution.streaming.CheckpointFileManager
}
