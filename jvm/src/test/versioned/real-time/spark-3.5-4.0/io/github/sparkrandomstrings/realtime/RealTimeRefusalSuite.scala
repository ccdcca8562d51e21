package io.github.sparkrandomstrings.realtime

import org.apache.spark.SPARK_VERSION

import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.testing.SparkSessionSuite

/** Spark 3.5 and 4.0 have no real-time mode: `realTime=true` fails at `load()`, naming the Spark it needs. */
class RealTimeRefusalSuite extends SparkSessionSuite {

  test("realTime=true fails at load() saying real-time mode needs Spark 4.1 or later") {
    val error = intercept[IllegalArgumentException] {
      spark.readStream.format(RandomStrings.ShortName).option("REALTIME", "true").load()
    }
    assert(error.getMessage ==
      s"Option 'realTime' is true, but this is Spark $SPARK_VERSION, which has no real-time mode: it needs " +
      "Spark 4.1 or later. Remove 'realTime' to read the stream with micro-batch triggers, or run on a later Spark.")
  }

  test("the nexmark source's realTime=true fails at load() the same way") {
    val error = intercept[IllegalArgumentException] {
      spark.readStream.format("nexmark").option("realTime", "true").load()
    }
    assert(error.getMessage.startsWith(s"Option 'realTime' is true, but this is Spark $SPARK_VERSION"))
  }

  test("the changes source's realTime=true fails at load() the same way") {
    val error = intercept[IllegalArgumentException] {
      spark.readStream.format("changes").option("realTime", "true").load()
    }
    assert(error.getMessage.startsWith(s"Option 'realTime' is true, but this is Spark $SPARK_VERSION"))
  }

  test("realTime=false reads the V1 source as before") {
    val df = spark.readStream.format(RandomStrings.ShortName).option("realTime", "false").load()
    assert(df.isStreaming && df.schema == RandomStrings.Schema)
  }
}
