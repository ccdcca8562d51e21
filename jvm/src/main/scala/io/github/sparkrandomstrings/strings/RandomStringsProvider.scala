package io.github.sparkrandomstrings.strings

import java.util.{Map => JMap}

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.SQLContext
import org.apache.spark.sql.connector.catalog.{Table, TableProvider}
import org.apache.spark.sql.connector.expressions.Transform
import org.apache.spark.sql.execution.streaming.Source
import org.apache.spark.sql.sources.{DataSourceRegister, StreamSourceProvider}
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import io.github.sparkrandomstrings.offsets.{DefinitionStore, OffsetRowsScanStrategy}
import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.realtime.{OffsetRowsStream, OffsetRowsTable, RealTimeMode}
import io.github.sparkrandomstrings.rows.SourceOptions
import io.github.sparkrandomstrings.typed.fields.FieldOptions

/**
 * The work of the random strings source behind its public face, `RandomStringsSourceProvider`,
 * whose Scaladoc lists the options: `load()`'s checks, the V1 source a micro-batch query reads
 * ([[RandomStringsSource]]) and, with `realTime`, the DSv2 table. The face's class is what Spark
 * instantiates; this one is abstract, so that the source has one name.
 */
abstract class RandomStringsProvider extends StreamSourceProvider with TableProvider with DataSourceRegister {
  import RandomStrings.ShortName

  override def shortName(): String = ShortName

  /**
   * Called by `load()`: validates everything the user gave, so errors surface there, and adds
   * this source's batch scan to the session's planner (`OffsetRowsScanStrategy`) if the
   * session was not started with `RandomStringsExtensions`. The options are checked before a
   * user-specified schema is refused, so that the refusal shows the schema those options make.
   */
  override def sourceSchema(
      sqlContext: SQLContext,
      schema: Option[StructType],
      providerName: String,
      parameters: Map[String, String]): (String, StructType) = {
    val options = SourceOptions.parse(parameters, schema)
    if (options.realTime) RealTimeMode.requireAvailable()
    val spark = sqlContext.sparkSession
    if (!OffsetRowsScanStrategy.extensionsConfiguredOn(spark.sparkContext)) OffsetRowsScanStrategy.addTo(spark)
    (ShortName, options.schema)
  }

  /** Called when a query starts: fixes or reads back the stream's definition. */
  override def createSource(
      sqlContext: SQLContext,
      metadataPath: String,
      schema: Option[StructType],
      providerName: String,
      parameters: Map[String, String]): Source = {
    val options = SourceOptions.parse(parameters, schema)
    val spark = sqlContext.sparkSession
    val definition = DefinitionStore.atStart(spark, metadataPath, options)
    new RandomStringsSource(spark, definition, options, options.partitionsIn(spark))
  }

  /**
   * DSv2: the schema of the table the options describe, when no schema was declared. Spark asks
   * for it after `sourceSchema` has validated the same options.
   */
  override def inferSchema(options: CaseInsensitiveStringMap): StructType =
    SourceOptions.parse(options.asCaseSensitiveMap().asScala.toMap).schema

  /** Spark passes a user-specified schema here only after `sourceSchema` has accepted it. */
  override def supportsExternalMetadata(): Boolean = true

  /**
   * DSv2: the table Spark reads a stream from if it reports `MICRO_BATCH_READ`, which it does
   * with `realTime=true` only ([[realtime.OffsetRowsTable]]); otherwise Spark uses [[createSource]].
   */
  override def getTable(schema: StructType, partitioning: Array[Transform], properties: JMap[String, String]): Table = {
    val parameters = properties.asScala.toMap
    // Spark passes the schema `inferSchema` made when none was declared: one of the random
    // strings' two. A declared schema is any other, or any with `fields.` options.
    val declared = parameters.keys.exists(FieldOptions.isFieldOption) ||
      (schema != RandomStrings.Schema && schema != RandomStrings.TimestampSchema)
    val options = SourceOptions.parse(parameters, if (declared) Some(schema) else None)
    new OffsetRowsTable(
      ShortName,
      options.schema,
      options.realTime,
      (spark, checkpoint) => {
        val definition = DefinitionStore.atStart(spark, checkpoint, options)
        val numPartitions = options.partitionsIn(spark)
        new OffsetRowsStream(
          definition,
          options.totalRows,
          options.maxRowsPerTrigger.map(RandomStrings.MAX_ROWS_PER_TRIGGER -> _),
          options.clock,
          numPartitions,
          s"$ShortName[${RandomStrings.REAL_TIME}=true, seed=${definition.seed}, numPartitions=$numPartitions]")
      })
  }
}
