package io.github.sparkrandomstrings.testing

import java.io.File

import scala.collection.mutable

import org.apache.spark.sql.{DataFrame, Row}
import org.apache.spark.sql.streaming.Trigger

/** Runs a stream to its end under `Trigger.AvailableNow`, as the suites that check whole runs do. */
trait AvailableNowQueries {

  /** Every row that `df` reads to its end, each batch collected as it comes, with `checkpoint`. */
  protected def collectAvailableNow(df: DataFrame, checkpoint: File): Seq[Row] = {
    val rows = mutable.ArrayBuffer.empty[Row]
    val collect: (DataFrame, Long) => Unit = (batch, _) => rows.synchronized(rows ++= batch.collect())
    val query = df.writeStream.foreachBatch(collect).trigger(Trigger.AvailableNow())
      .option("checkpointLocation", checkpoint.getPath).start()
    query.awaitTermination(120000L)
    query.exception.foreach(e => throw e)
    rows.synchronized(rows.toList)
  }
}
