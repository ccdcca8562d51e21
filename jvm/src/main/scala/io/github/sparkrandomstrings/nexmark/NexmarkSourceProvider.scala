package io.github.sparkrandomstrings.nexmark

import java.util.{Map => JMap}

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.{SQLContext, SparkSession}
import org.apache.spark.sql.connector.catalog.{Table, TableProvider}
import org.apache.spark.sql.connector.expressions.Transform
import org.apache.spark.sql.execution.streaming.Source
import org.apache.spark.sql.sources.{DataSourceRegister, StreamSourceProvider}
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import io.github.sparkrandomstrings.offsets.OffsetRowsScanStrategy
import io.github.sparkrandomstrings.realtime.{OffsetRowsStream, OffsetRowsTable, RealTimeMode}

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
 * `load()`), in the order of the option table (`options/table.json`):
 *  - `firstEventRate` (default: 10000): events per rate unit at the start.
 *  - `nextEventRate` (default: 10000): events per rate unit at the shape's other end.
 *  - `rateUnit` (default: PER_SECOND): PER_SECOND or PER_MINUTE.
 *  - `rateShape` (default: SINE): SQUARE or SINE, when the two rates differ.
 *  - `ratePeriodSec` (default: 600): one cycle of the shape, in seconds.
 *  - `numEventGenerators` (default: 1): event time advances this many times slower than the rate
 *    (Beam: 100).
 *  - `avgPersonByteSize` (default: 200): the size a person's extra pads towards, in bytes.
 *  - `avgAuctionByteSize` (default: 500): the size an auction's extra pads towards, in bytes.
 *  - `avgBidByteSize` (default: 100): the size a bid's extra pads towards, in bytes.
 *  - `hotAuctionRatio` (default: 2): 1 in this many bids is not on a hot auction.
 *  - `hotSellersRatio` (default: 4): 1 in this many auctions is not by a hot seller.
 *  - `hotBiddersRatio` (default: 4): 1 in this many bids is not by a hot bidder.
 *  - `numActivePeople` (default: 1000): how many recent people auctions and bids refer to.
 *  - `numInFlightAuctions` (default: 100): how many recent auctions bids refer to.
 *  - `outOfOrderGroupSize` (default: 1): events are shuffled within groups of this many.
 *  - `numEvents` (default: 100000): the stream ends after this many events; 0 is endless.
 *  - `numPartitions` (default: the session's default parallelism): partitions (tasks) per batch.
 *  - `maxEventsPerTrigger` (default: no limit): the most events one micro-batch reads.
 *  - `realTime` (default: false): read through Spark's DSv2 interfaces, which real-time mode needs
 *    (4.1+).
 *
 * The list is made from the options table of `docs/nexmark.md` (`make options`). The rates are 1 to
 * 1,000,000 events per second (events are at least 1 µs apart); with `numEventGenerators`, the
 * events' spacing is that of so many of Beam's generators. The `extra` sizes are 0 to 1,048,576.
 * With `realTime`, each partition hands its events on as they come to exist
 * ([[realtime.OffsetRowsStream]]); micro-batch triggers read it too (not with `maxEventsPerTrigger`
 * in real-time mode), it is refused at `load()` before Spark 4.1, and its offsets are per
 * partition, so `numPartitions` is then fixed for the checkpoint.
 *
 * Events come to exist at the wall clock their timestamps say, counted from the stream's first
 * start (as Beam's rate-limited source emits them), or as fast as the cluster allows with
 * `Trigger.AvailableNow`. The checkpoint keeps the configuration and the first start
 * ([[NexmarkStore]]); a restart that changes them is refused.
 */
class NexmarkSourceProvider extends StreamSourceProvider with TableProvider with DataSourceRegister {

  override def shortName(): String = Nexmark.ShortName

  /** Called by `load()`: checks every option, so errors surface there. */
  override def sourceSchema(
      sqlContext: SQLContext,
      schema: Option[StructType],
      providerName: String,
      parameters: Map[String, String]): (String, StructType) = {
    val options = NexmarkOptions.parse(parameters)
    schema.foreach(refuseSchema)
    if (options.realTime) RealTimeMode.requireAvailable()
    val spark = sqlContext.sparkSession
    if (!OffsetRowsScanStrategy.extensionsConfiguredOn(spark.sparkContext)) OffsetRowsScanStrategy.addTo(spark)
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
    new NexmarkSource(spark, atStart(spark, metadataPath, options), options, options.partitionsIn(spark))
  }

  /** The stream a query starts: read back from its checkpoint, or fixed now (the first start). */
  private def atStart(spark: SparkSession, metadataPath: String, options: NexmarkOptions): NexmarkStream =
    new NexmarkStore(metadataPath, spark.sparkContext.hadoopConfiguration)
      .loadOrCreate(options.config, options.clock.nowMs())

  /** DSv2: the table's schema, always Flink's Nexmark table. */
  override def inferSchema(options: CaseInsensitiveStringMap): StructType = Nexmark.Schema

  /** Spark passes a user-specified schema on only after `sourceSchema` has accepted it. */
  override def supportsExternalMetadata(): Boolean = true

  /**
   * DSv2: the table Spark reads a stream from if it reports `MICRO_BATCH_READ`, which it does
   * with `realTime=true` only ([[realtime.OffsetRowsTable]]); otherwise Spark uses [[createSource]].
   */
  override def getTable(schema: StructType, partitioning: Array[Transform], properties: JMap[String, String]): Table = {
    val options = NexmarkOptions.parse(properties.asScala.toMap)
    new OffsetRowsTable(
      Nexmark.ShortName,
      Nexmark.Schema,
      options.realTime,
      (spark, checkpoint) => {
        val stream = atStart(spark, checkpoint, options)
        val numPartitions = options.partitionsIn(spark)
        new OffsetRowsStream(
          stream,
          options.numEvents,
          options.maxEventsPerTrigger.map(Nexmark.MAX_EVENTS_PER_TRIGGER -> _),
          options.clock,
          numPartitions,
          s"${Nexmark.ShortName}[${Nexmark.REAL_TIME}=true, numPartitions=$numPartitions]")
      })
  }

  private def refuseSchema(schema: StructType): Unit =
    if (schema != Nexmark.Schema) {
      throw new IllegalArgumentException(
        s"The ${Nexmark.ShortName} source makes Flink's Nexmark table and takes no other schema, and this " +
          s"query declares ${schema.toDDL}. Remove .schema(...); the table is ${Nexmark.Schema.toDDL}.")
    }
}
