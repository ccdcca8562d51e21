package io.github.sparkrandomstrings.testing

import org.apache.spark.sql.SparkSession
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

/** A suite with one local Spark session of two cores, stopped when the suite ends. */
abstract class SparkSessionSuite extends AnyFunSuite with BeforeAndAfterAll with TestDirectories {

  /** Spark's log level while the suite runs. */
  protected def logLevel: String = "WARN"

  /** Settings a suite adds to its session's. */
  protected def sessionConfig: Map[String, String] = Map.empty

  protected lazy val spark: SparkSession = SparkSession.builder()
    .master("local[2]")
    .appName(getClass.getSimpleName)
    .config("spark.ui.enabled", "false")
    .config("spark.sql.shuffle.partitions", "2")
    .config(sessionConfig)
    .getOrCreate()

  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sparkContext.setLogLevel(logLevel)
  }

  override def afterAll(): Unit = {
    try spark.stop()
    finally super.afterAll()
  }
}
