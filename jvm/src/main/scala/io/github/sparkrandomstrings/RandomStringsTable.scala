package io.github.sparkrandomstrings

import java.util.{Collections, EnumSet => JEnumSet, Set => JSet}

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.catalog.{SupportsRead, Table, TableCapability}
import org.apache.spark.sql.connector.read.{Scan, ScanBuilder}
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

/**
 * The source as Spark's DSv2 sees it. It reports `MICRO_BATCH_READ` only with `realTime=true`:
 * without it Spark falls back to the V1 `Source` ([[RandomStringsSource]]), which stays the path
 * of every query that does not ask for `realTime`. With it, a query reads a
 * [[RandomStringsStream]], under any trigger (real-time mode included, on Spark 4.1+).
 *
 * @param options the options `load()` was given, parsed and validated
 */
private[sparkrandomstrings] final class RandomStringsTable(options: SourceOptions) extends Table with SupportsRead {

  override def name(): String = RandomStrings.ShortName

  override def schema(): StructType = options.schema

  override def capabilities(): JSet[TableCapability] =
    if (options.realTime) JEnumSet.of(TableCapability.MICRO_BATCH_READ) else Collections.emptySet()

  override def newScanBuilder(ignored: CaseInsensitiveStringMap): ScanBuilder = () => new RandomStringsScan
  // The options are those the table was made with: Spark passes the same ones again.

  private final class RandomStringsScan extends Scan {
    override def readSchema(): StructType = schema()

    override def description(): String = s"${RandomStrings.ShortName}[${RandomStrings.REAL_TIME}=true]"

    /** Called when a query starts: fixes or reads back the definition, as the V1 source does. */
    override def toMicroBatchStream(checkpointLocation: String): MicroBatchStream = {
      val spark = SparkSession.active
      val definition = DefinitionStore.atStart(spark, checkpointLocation, options)
      new RandomStringsStream(definition, options, options.partitionsIn(spark))
    }
  }
}
