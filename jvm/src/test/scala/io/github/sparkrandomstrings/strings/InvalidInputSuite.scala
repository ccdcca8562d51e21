package io.github.sparkrandomstrings.strings

import java.io.File
import java.nio.file.{Files, StandardCopyOption}

import scala.jdk.CollectionConverters._
import scala.reflect.io.Directory

import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.streaming.{StreamingQueryException, Trigger}

import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.testing.{InvalidInputs, SparkSessionSuite}

/**
 * Every invalid input of the shared table (tests/vectors/invalid_inputs.json) fails with a
 * message that names the option or the file, at `load()` or when the query starts; nothing
 * hangs, no query is left running, and the same session then runs a valid query.
 */
class InvalidInputSuite extends SparkSessionSuite {
  import InvalidInputs._

  // Its queries fail on purpose, each with the error the test asserts: Spark's log of every
  // failure, stack trace and all, would only bury the test report.
  override protected def logLevel: String = "OFF"

  /** A finished query's checkpoint, which each checkpoint case changes a copy of. */
  private lazy val preparedCheckpoint: File = {
    val dir = Files.createTempDirectory("invalid-input-checkpoint").toFile
    val checkpoint = new File(dir, "checkpoint")
    val query = reader(table.checkpointRun).load().writeStream.format("noop")
      .trigger(Trigger.AvailableNow()).option("checkpointLocation", checkpoint.getPath).start()
    assert(query.awaitTermination(60000L) && query.exception.isEmpty)
    checkpoint
  }

  override def afterAll(): Unit = {
    try new Directory(preparedCheckpoint.getParentFile).deleteRecursively()
    finally super.afterAll()
  }

  private def reader(options: Map[String, String]) =
    spark.readStream.format(RandomStrings.ShortName).options(options)

  private def copyOf(from: File, to: File): File = {
    val stream = Files.walk(from.toPath)
    try stream.iterator().asScala.foreach { path =>
        Files.copy(path, to.toPath.resolve(from.toPath.relativize(path)), StandardCopyOption.COPY_ATTRIBUTES)
      }
    finally stream.close()
    to
  }

  /** The message of the error `load()` raises. */
  private def loadError(c: Case): String = {
    val error = intercept[IllegalArgumentException] {
      val withOptions = reader(c.options.getOrElse(Map.empty))
      c.schema.fold(withOptions)(withOptions.schema).load()
    }
    error.getMessage
  }

  /** The message of the error that ends a query restarted on the changed checkpoint. */
  private def startError(c: Case, change: CheckpointChange): String = withTempDir { dir =>
    val checkpoint = copyOf(preparedCheckpoint, new File(dir, "checkpoint"))
    change.applyTo(checkpoint)
    val df: DataFrame = reader(c.options.getOrElse(table.checkpointRun)).load()
    val query = df.writeStream.format("noop").trigger(Trigger.AvailableNow())
      .option("checkpointLocation", checkpoint.getPath).start()
    try {
      val error = intercept[StreamingQueryException](query.awaitTermination(60000L))
      val cause = error.getCause
      assert(
        cause.isInstanceOf[IllegalArgumentException] || cause.isInstanceOf[IllegalStateException],
        s"the query failed with ${cause.getClass.getName}, not the source's own error: $cause")
      cause.getMessage
    } finally query.stop()
  }

  for (c <- table.cases) {
    test(s"an invalid input fails at ${c.failsAt}, naming what is wrong: ${c.name}") {
      val message = c.checkpoint.fold(loadError(c))(startError(c, _))
      c.expect.foreach(word => assert(message.contains(word), s"'$word' is not in: $message"))
      assert(spark.streams.active.isEmpty, "no query is left running")
    }
  }

  test("the table holds at least 40 invalid inputs, of load() and of query start") {
    assert(table.cases.size >= 40)
    assert(table.cases.map(_.failsAt).toSet == Set("load()", "query start"))
  }

  test("after every invalid input, the same session runs a valid query to the exact rows") {
    withTempDir { dir =>
      val query = reader(Map("totalRows" -> "25", "seed" -> "3")).load().writeStream.format("memory")
        .queryName("after_invalid_inputs").trigger(Trigger.AvailableNow())
        .option("checkpointLocation", new File(dir, "c").getPath).start()
      assert(query.awaitTermination(60000L) && query.exception.isEmpty)
      val offsets = spark.table("after_invalid_inputs").select("offset").collect().map(_.getLong(0)).sorted
      assert(offsets.toSeq == (0L until 25L))
    }
  }
}
