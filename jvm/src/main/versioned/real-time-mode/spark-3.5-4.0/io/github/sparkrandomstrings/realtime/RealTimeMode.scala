package io.github.sparkrandomstrings.realtime

import org.apache.spark.SPARK_VERSION

import io.github.sparkrandomstrings.options.RandomStrings

/**
 * Spark 3.5 and 4.0 have no real-time mode: a `realTime` stream would have nothing to run it,
 * so `load()` refuses the option here, and the stream's real-time side is empty.
 */
private[sparkrandomstrings] trait RealTimeMode

private[sparkrandomstrings] object RealTimeMode {

  /** Called by `load()` when `realTime` is true: refuses it, naming the Spark it needs. */
  def requireAvailable(): Unit = throw new IllegalArgumentException(
    s"Option '${RandomStrings.REAL_TIME}' is true, but this is Spark $SPARK_VERSION, which has no real-time " +
      s"mode: it needs Spark ${RandomStrings.RealTimeSpark} or later. Remove '${RandomStrings.REAL_TIME}' to read " +
      "the stream with micro-batch triggers, or run on a later Spark.")
}
