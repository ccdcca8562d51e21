"""Read the InMemoryRandomStrings source with nothing but Spark and the jar.

    spark-submit --master "local[2]" --jars spark-random-strings-spark4.3_2.13-0.7.0.jar examples/random_strings.py

Prints the ten rows of a seeded, bounded stream, one per line: offset, value, length.
"""

from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("random strings example").getOrCreate()

strings = (
    spark.readStream.format("InMemoryRandomStrings")
    .option("seed", 42)
    .option("totalRows", 10)
    .option("minLength", 4)
    .option("maxLength", 8)
    .option("charset", "letters")
    .load()
)
query = (
    strings.writeStream.format("memory").queryName("strings").trigger(availableNow=True).start()
)
query.awaitTermination()

for row in spark.sql("SELECT offset, value, length FROM strings ORDER BY offset").collect():
    print(row.offset, row.value, row.length)

spark.stop()
