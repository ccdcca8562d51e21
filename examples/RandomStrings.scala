// Read the InMemoryRandomStrings source from Scala, with nothing but Spark and the jar:
//
//   spark-shell --master "local[2]" --jars spark-random-strings-spark4.3_2.13-0.7.0.jar -I examples/RandomStrings.scala
//
// Prints the ten rows of a seeded, bounded stream, one per line: offset, value, length.
// The same options give the same rows as examples/random_strings.py. In an application,
// call RandomStrings.printTenRows(spark) with your own session.
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.streaming.Trigger

object RandomStrings {
  def printTenRows(spark: SparkSession): Unit = {
    val strings = spark.readStream
      .format("InMemoryRandomStrings")
      .option("seed", 42)
      .option("totalRows", 10)
      .option("minLength", 4)
      .option("maxLength", 8)
      .option("charset", "letters")
      .load()

    val query = strings.writeStream
      .format("memory")
      .queryName("strings")
      .trigger(Trigger.AvailableNow())
      .start()
    query.awaitTermination()

    spark.sql("SELECT offset, value, length FROM strings ORDER BY offset").collect().foreach { row =>
      println(s"${row.getLong(0)} ${row.getString(1)} ${row.getInt(2)}")
    }
  }
}

RandomStrings.printTenRows(spark)
