"""Read the InMemoryRandomStrings source through Spark Connect, from a client with no JVM.

Start a Connect server with the jar on its class path (pyspark ships the launcher):

    spark-submit --class org.apache.spark.sql.connect.service.SparkConnectServer \
        --jars "$(python -c 'import spark_random_strings as s; print(s.jar_path())')"

then, with `pip install "spark-random-strings[connect]"`:

    python examples/connect_random_strings.py sc://localhost:15002

Prints the same ten rows as examples/random_strings.py: offset, value, length.
"""

import sys

from pyspark.sql import SparkSession

from spark_random_strings import read_random_strings

spark = SparkSession.builder.remote(sys.argv[1]).getOrCreate()

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
