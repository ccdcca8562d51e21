"""Read the same stream through a Spark Connect server that has no jar: the Python data source.

Any Spark Connect server of Spark 4.2 or later will do, started without --jars and without this
package: the data source's code travels with the client, and the server's Python workers need
only numpy and pyarrow, which pyspark's Arrow path needs anyway. For example:

    spark-submit --class org.apache.spark.sql.connect.service.SparkConnectServer

then, with `pip install "spark-random-strings[connect]"`:

    python examples/connect_without_jar.py sc://localhost:15002

Prints the same ten rows as examples/random_strings.py (offset, value, length): the Python data
source makes the jar's rows.
"""

import sys

from pyspark.sql import SparkSession

from spark_random_strings import read_random_strings

spark = SparkSession.builder.remote(sys.argv[1]).getOrCreate()

strings = read_random_strings(
    spark,
    engine="python",
    seed=42,
    total_rows=10,
    min_length=4,
    max_length=8,
    charset="letters",
)
query = (
    strings.writeStream.format("memory").queryName("strings").trigger(availableNow=True).start()
)
query.awaitTermination()

for row in spark.sql("SELECT offset, value, length FROM strings ORDER BY offset").collect():
    print(row.offset, row.value, row.length)

spark.stop()
