package io.github.sparkrandomstrings.nexmark.queries

import org.apache.spark.SPARK_VERSION
import org.apache.spark.sql.DataFrame

/**
 * Spark 3.5 has no `transformWithState`: the queries that keep a processor's state refuse to be
 * made here, naming the Spark they need.
 */
object RankingQueries {

  /** Refuses: q19's processor needs `transformWithState`, Spark 4.0 and later. */
  def q19(bids: DataFrame): DataFrame = throw new UnsupportedOperationException(
    s"q19 keeps each auction's top bids with transformWithState, which Spark 4.0 added; this is Spark $SPARK_VERSION. " +
      "Run it on Spark 4.0 or later.")
}
