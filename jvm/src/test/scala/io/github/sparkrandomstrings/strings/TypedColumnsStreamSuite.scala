package io.github.sparkrandomstrings.strings

import java.io.File

import scala.collection.mutable

import org.apache.spark.sql.{DataFrame, Row}
import org.apache.spark.sql.catalyst.encoders.ExpressionEncoder
import org.apache.spark.sql.streaming.Trigger
import org.apache.spark.sql.types.StructType

import io.github.sparkrandomstrings.offsets.DefinitionStore
import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.rows.RowGenerator
import io.github.sparkrandomstrings.testing.{AvailableNowQueries, Errors, SparkSessionSuite}

class TypedColumnsStreamSuite extends SparkSessionSuite with AvailableNowQueries {
  import RandomStrings.ShortName

  private val Ddl = "id BIGINT NOT NULL, user_id INT NOT NULL, amount DECIMAL(10,2), status STRING NOT NULL, " +
    "tags ARRAY<STRING>, event_time TIMESTAMP NOT NULL"

  private val Fields = Map(
    "fields.id.kind" -> "offset",
    "fields.user_id.min" -> "1",
    "fields.user_id.max" -> "1000",
    "fields.user_id.distribution" -> "zipf",
    "fields.amount.min" -> "0.50",
    "fields.amount.max" -> "99.99",
    "fields.amount.nullRate" -> "0.1",
    "fields.status.kind" -> "values",
    "fields.status.values" -> """["new", "paid", "shipped"]""",
    "fields.tags.element.pattern" -> "[a-z]{3}",
    "fields.event_time.kind" -> "eventTime")

  private def reader(options: Map[String, String]) =
    spark.readStream.format(ShortName).schema(Ddl).options(options)

  /** The rows the generator makes for the definition stored in `checkpoint`, as Spark's Rows. */
  private def generated(checkpoint: File, offsets: Seq[Long]): Seq[Row] = {
    val definition =
      new DefinitionStore(new File(checkpoint, "sources/0").getPath, spark.sparkContext.hadoopConfiguration)
        .read().get
    val toRow = ExpressionEncoder(definition.schema).resolveAndBind().createDeserializer()
    val generator = new RowGenerator(definition)
    offsets.map(o => toRow(generator.row(o).copy()))
  }

  test("a declared schema streams exactly the rows its definition makes, in every batch") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "c")
      val df = reader(Fields ++ Map(
        "totalRows" -> "250",
        "maxRowsPerTrigger" -> "100",
        "seed" -> "5",
        "numPartitions" -> "3")).load()
      assert(df.schema == StructType.fromDDL(Ddl))
      val rows = collectAvailableNow(df, checkpoint).sortBy(_.getLong(0))
      assert(rows.map(_.getLong(0)) == (0L until 250L))
      assert(rows == generated(checkpoint, 0L until 250L))
      assert(rows.exists(_.isNullAt(2)) && rows.map(_.getString(3)).toSet == Set("new", "paid", "shipped"))
      val stored = new String(
        java.nio.file.Files.readAllBytes(new File(
          checkpoint,
          "sources/0/random-strings-source.json").toPath),
        "UTF-8")
      assert(stored.startsWith("""{"version":4,"seed":5,"""))
    }
  }

  test("a restart that changes a column's options is refused, naming the option and both values") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "c")
      collectAvailableNow(reader(Fields ++ Map("totalRows" -> "10", "seed" -> "5")).load(), checkpoint)
      val error = intercept[Exception] {
        collectAvailableNow(
          reader(Fields ++ Map("totalRows" -> "20", "fields.user_id.max" -> "50")).load(),
          checkpoint)
      }
      val message = Errors.messages(error)
      assert(message.contains("fields.user_id.max: the checkpoint has 1000, the query sets 50"), message)
    }
  }

  test("bad per-column options fail at load(), before any query starts") {
    val error = intercept[IllegalArgumentException](reader(Fields + ("fields.amount.nullRate" -> "2")).load())
    assert(error.getMessage == "Invalid value '2' for option 'fields.amount.nullRate': out of range. " +
      "Allowed: a decimal number >= 0 and <= 1.")
    val noSchema = intercept[IllegalArgumentException] {
      spark.readStream.format(ShortName).option("fields.a.min", "1").load()
    }
    assert(noSchema.getMessage.startsWith("Option 'fields.a.min' says how a declared column is made"))
  }

  test("a declared schema's comments, top-level and nested, are the stream's: at load(), in every batch, on restart") {
    // A quote in a comment escaped with a backslash, which every line's parser reads ('' only 4.1 on).
    val commented = "id BIGINT NOT NULL COMMENT 'the row\\'s offset', " +
      "shipping STRUCT<city: STRING COMMENT 'where it goes', zip: INT> COMMENT 'the address', " +
      "tags ARRAY<STRUCT<name: STRING COMMENT 'a label'>> COMMENT 'labels'"
    val plain = "id BIGINT NOT NULL, shipping STRUCT<city: STRING, zip: INT>, tags ARRAY<STRUCT<name: STRING>>"
    def load(ddl: String, totalRows: Int): DataFrame = spark.readStream.format(ShortName).schema(ddl)
      .options(Map("fields.id.kind" -> "offset", "seed" -> "5", "totalRows" -> totalRows.toString)).load()

    /** Each batch's schema (its columns' metadata is the source's own schema's), and every row. */
    def run(df: DataFrame, checkpoint: File): (Seq[StructType], Seq[Row]) = {
      val (schemas, rows) = (mutable.ArrayBuffer.empty[StructType], mutable.ArrayBuffer.empty[Row])
      val collect: (DataFrame, Long) => Unit = (batch, _) =>
        synchronized { schemas += batch.schema; rows ++= batch.collect() }
      val query = df.writeStream.foreachBatch(collect).trigger(Trigger.AvailableNow())
        .option("checkpointLocation", checkpoint.getPath).start()
      query.awaitTermination(120000L)
      query.exception.foreach(e => throw e)
      synchronized((schemas.toList, rows.toList))
    }
    withTempDir { dir =>
      val declared = StructType.fromDDL(commented)
      val first = load(commented, 10)
      assert(first.schema == declared)
      assert(first.schema.fields.map(_.getComment()).toSeq == Seq(
        Some("the row's offset"),
        Some("the address"),
        Some("labels")))
      val (firstSchemas, firstRows) = run(first, new File(dir, "commented"))
      val restarted = load(commented, 20)
      assert(restarted.schema == declared)
      val (restartSchemas, restartRows) = run(restarted, new File(dir, "commented"))
      assert(firstSchemas.nonEmpty && restartSchemas.nonEmpty)
      assert((firstSchemas ++ restartSchemas).forall(_ == declared), firstSchemas ++ restartSchemas)
      val (_, uncommented) = run(load(plain, 20), new File(dir, "plain"))
      assert((firstRows ++ restartRows).sortBy(_.getLong(0)) == uncommented.sortBy(_.getLong(0)))
      assert(uncommented.map(_.getLong(0)).sorted == (0L until 20L))
    }
  }
}
