package io.github.sparkrandomstrings

import java.util.concurrent.ConcurrentLinkedQueue

import org.apache.spark.sql.SQLContext
import org.apache.spark.sql.execution.streaming.Source
import org.apache.spark.sql.types.StructType

import io.github.sparkrandomstrings.strings.RandomStringsSource

/** The source as made by Spark, remembered so that a test can look at it after its query. */
class TrackingSourceProvider extends RandomStringsSourceProvider {
  override def createSource(
      sqlContext: SQLContext,
      metadataPath: String,
      schema: Option[StructType],
      providerName: String,
      parameters: Map[String, String]): Source = {
    val source = super.createSource(sqlContext, metadataPath, schema, providerName, parameters)
    TrackingSourceProvider.made.add(source.asInstanceOf[RandomStringsSource])
    source
  }
}

object TrackingSourceProvider {
  val made = new ConcurrentLinkedQueue[RandomStringsSource]()
}
