package io.github.sparkrandomstrings.nexmark.queries

import org.apache.spark.sql.{DataFrame, Encoders, Row}
import org.apache.spark.sql.functions.{col, timestamp_micros, unix_micros}
import org.apache.spark.sql.streaming.{OutputMode, TimeMode}

/**
 * The Nexmark queries whose state is a processor's in the JVM (Spark 4.0 and later): Spark's
 * `transformWithState` runs a JVM processor in real-time mode, where it refuses Python's. The
 * Python package's `nexmark_queries.q19` calls this where the session's driver has the jar.
 */
object RankingQueries {

  /**
   * Nexmark's q19, each auction's 10 highest bids numbered 1 to 10, from the `bid` view (the
   * columns `auction`, `bidder`, `price`, `channel`, `url`, `dateTime`, `extra`): the rows of the
   * ranks each batch changes, to write in update mode as upserts of `(auction, rank_number)`. Its
   * state needs the RocksDB state store, as `transformWithState`'s does.
   */
  def q19(bids: DataFrame): DataFrame = {
    val ranked = bids
      .select(
        col("auction"),
        col("bidder"),
        col("price"),
        col("channel"),
        col("url"),
        unix_micros(col("dateTime")).as("micros"),
        col("extra"))
      .groupByKey((bid: Row) => bid.getLong(0))(Encoders.scalaLong)
      .transformWithState(new TopBidsProcessor, TimeMode.None(), OutputMode.Update())(
        Encoders.row(TopBids.RankedSchema))
    ranked.select(
      col("auction"),
      col("bidder"),
      col("price"),
      col("channel"),
      col("url"),
      timestamp_micros(col("micros")).as("dateTime"),
      col("extra"),
      col("rank_number"))
  }
}
