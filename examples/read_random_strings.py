"""Read the InMemoryRandomStrings source from Python, with the package's helpers.

    pip install spark-random-strings      # or the wheel that `make dist` builds
    python examples/read_random_strings.py

Prints the same ten rows as the other examples, one per line: offset, value, length.
"""

from pyspark.sql import SparkSession

from spark_random_strings import configure_spark_with_random_strings, read_random_strings

builder = SparkSession.builder.master("local[2]").appName("random strings example")
spark = configure_spark_with_random_strings(builder).getOrCreate()  # the bundled jar

strings = read_random_strings(
    spark, seed=42, total_rows=10, min_length=4, max_length=8, charset="letters"
)
query = (
    strings.writeStream.format("memory").queryName("strings").trigger(availableNow=True).start()
)
query.awaitTermination()

for row in spark.sql("SELECT offset, value, length FROM strings ORDER BY offset").collect():
    print(row.offset, row.value, row.length)

spark.stop()
