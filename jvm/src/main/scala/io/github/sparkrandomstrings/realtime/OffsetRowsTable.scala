package io.github.sparkrandomstrings.realtime

import java.util.{Collections, EnumSet => JEnumSet, Set => JSet}

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.catalog.{SupportsRead, Table, TableCapability}
import org.apache.spark.sql.connector.read.{Scan, ScanBuilder}
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import io.github.sparkrandomstrings.options.RandomStrings

/**
 * A source of this jar as Spark's DSv2 sees it. It reports `MICRO_BATCH_READ` only with
 * `realTime=true`: without it Spark falls back to the V1 `Source` ([[offsets.OffsetSource]]), which stays
 * the path of every query that does not ask for `realTime`. With it, a query reads an
 * [[OffsetRowsStream]], under any trigger (real-time mode included, on Spark 4.1+).
 *
 * @param sourceName the source's short name
 * @param schema     the rows' schema
 * @param realTime   whether the query asked for `realTime`
 * @param start      fixes or reads back the stream in the checkpoint folder it is given, as the
 *                   V1 source does when a query starts, and makes the stream
 */
private[sparkrandomstrings] final class OffsetRowsTable(
    sourceName: String,
    override val schema: StructType,
    realTime: Boolean,
    start: (SparkSession, String) => OffsetRowsStream)
    extends Table with SupportsRead {

  override def name(): String = sourceName

  override def capabilities(): JSet[TableCapability] =
    if (realTime) JEnumSet.of(TableCapability.MICRO_BATCH_READ) else Collections.emptySet()

  override def newScanBuilder(ignored: CaseInsensitiveStringMap): ScanBuilder = () => new OffsetRowsScan
  // The options are those the table was made with: Spark passes the same ones again.

  private final class OffsetRowsScan extends Scan {
    override def readSchema(): StructType = schema

    override def description(): String = s"$sourceName[${RandomStrings.REAL_TIME}=true]"

    /** Called when a query starts. */
    override def toMicroBatchStream(checkpointLocation: String): MicroBatchStream =
      start(SparkSession.active, checkpointLocation)
  }
}
