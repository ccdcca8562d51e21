package io.github.sparkrandomstrings.nexmark

import org.apache.spark.sql.SQLContext
import org.apache.spark.sql.execution.streaming.Source
import org.apache.spark.sql.sources.{DataSourceRegister, StreamSourceProvider}
import org.apache.spark.sql.types.StructType

import io.github.sparkrandomstrings.{RandomStringsExtensions, RandomStringsScanStrategy}

/**
 * The events of the Nexmark benchmark (persons, auctions and bids of an online auction house),
 * identical to Apache Beam's reference generator: `spark.readStream.format("nexmark")`.
 *
 * Each row is Flink's Nexmark table ([[Nexmark.Schema]]): `event_type` INT (0 person, 1 auction,
 * 2 bid), `person`, `auction` and `bid` structs (the two that do not apply are null) and
 * `dateTime` TIMESTAMP, the event's time. With the same options, offset `n` is event `n` of
 * Beam's one unsplit generator (`NexmarkUtils.standardEventIterator`: first event id 0, base time
 * 2015-07-15T00:00:00Z), every field equal; a bid's `channel` and `url`, which Beam lacks, are
 * drawn as Flink draws them, from the event's own random, after Beam's fields.
 *
 * Options (Beam's `NexmarkConfiguration` names and defaults, case-insensitive, each checked at
 * `load()`):
 *  - `firstEventRate` (default: 10000), `nextEventRate` (default: 10000): the rate at the start
 *    and the other end of the shape, events per `rateUnit`, 1 to 1,000,000 per second (events are
 *    at least 1 µs apart);
 *  - `rateUnit` (default: PER_SECOND): PER_SECOND or PER_MINUTE;
 *  - `rateShape` (default: SINE): SQUARE (two steps) or SINE (ten steps along a cosine), when the
 *    two rates differ;
 *  - `ratePeriodSec` (default: 600): one cycle of the shape, in seconds;
 *  - `numEventGenerators` (default: 1; Beam's is 100): how many of Beam's generators the events'
 *    spacing is for: event time advances `numEventGenerators` times slower than the rate;
 *  - `avgPersonByteSize` (200), `avgAuctionByteSize` (500), `avgBidByteSize` (100): the sizes
 *    `extra` pads each kind towards, 0 to 1,048,576;
 *  - `hotAuctionRatio` (2), `hotSellersRatio` (4), `hotBiddersRatio` (4): 1 in ratio of bids,
 *    auctions and bidders is not on a hot auction, seller or bidder;
 *  - `numActivePeople` (1000), `numInFlightAuctions` (100): how far back references reach;
 *  - `outOfOrderGroupSize` (1): events are shuffled within groups of this many;
 *  - `numEvents` (default: 100000): the stream ends after this many events; 0 is endless;
 *  - `numPartitions` (default: the session's default parallelism): partitions per batch, each
 *    making its own slice of events on an executor;
 *  - `maxEventsPerTrigger` (default: no limit): the most events one micro-batch reads.
 *
 * Events come to exist at the wall clock their timestamps say, counted from the stream's first
 * start (as Beam's rate-limited source emits them), or as fast as the cluster allows with
 * `Trigger.AvailableNow`. The checkpoint keeps the configuration and the first start
 * ([[NexmarkStore]]); a restart that changes them is refused.
 */
class NexmarkSourceProvider extends StreamSourceProvider with DataSourceRegister {

  override def shortName(): String = Nexmark.ShortName

  /** Called by `load()`: checks every option, so errors surface there. */
  override def sourceSchema(
      sqlContext: SQLContext,
      schema: Option[StructType],
      providerName: String,
      parameters: Map[String, String]): (String, StructType) = {
    NexmarkOptions.parse(parameters)
    schema.foreach(refuseSchema)
    val spark = sqlContext.sparkSession
    if (!RandomStringsExtensions.configuredOn(spark.sparkContext)) RandomStringsScanStrategy.addTo(spark)
    (Nexmark.ShortName, Nexmark.Schema)
  }

  override def createSource(
      sqlContext: SQLContext,
      metadataPath: String,
      schema: Option[StructType],
      providerName: String,
      parameters: Map[String, String]): Source = {
    val options = NexmarkOptions.parse(parameters)
    val spark = sqlContext.sparkSession
    val stream = new NexmarkStore(metadataPath, spark.sparkContext.hadoopConfiguration)
      .loadOrCreate(options.config, options.clock.nowMs())
    new NexmarkSource(spark, stream, options, options.partitionsIn(spark))
  }

  private def refuseSchema(schema: StructType): Unit =
    if (schema != Nexmark.Schema) {
      throw new IllegalArgumentException(
        s"The ${Nexmark.ShortName} source makes Flink's Nexmark table and takes no other schema, and this " +
          s"query declares ${schema.toDDL}. Remove .schema(...); the table is ${Nexmark.Schema.toDDL}.")
    }
}
