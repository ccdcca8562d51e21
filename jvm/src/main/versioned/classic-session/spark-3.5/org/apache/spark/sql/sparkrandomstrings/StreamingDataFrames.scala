package org.apache.spark.sql.sparkrandomstrings

import org.apache.spark.rdd.RDD
import org.apache.spark.sql.{DataFrame, SparkSession}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types.StructType

/**
 * The one thing this project needs from inside `org.apache.spark.sql`: a streaming DataFrame
 * over an RDD of internal rows (`internalCreateDataFrame` is `private[sql]`). A V1 source's
 * `getBatch` must return such a DataFrame, and Spark's own sources build it the same way.
 * Spark 3.5 keeps the method on `SparkSession` itself.
 */
object StreamingDataFrames {
  def of(spark: SparkSession, rows: RDD[InternalRow], schema: StructType): DataFrame =
    spark.internalCreateDataFrame(rows, schema, isStreaming = true)
}
