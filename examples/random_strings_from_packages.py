"""Add the source to a session by its Maven coordinates (spark.jars.packages), from Python.

    python examples/random_strings_from_packages.py \
        io.github.sparkrandomstrings:spark-random-strings-spark4.3_2.13:0.7.0 file:///path/to/dist/maven

The first argument is the artifact of your Spark's line and Scala version (README,
Compatibility). The second, a Maven repository, is needed where the artifacts are in no
repository Spark searches by itself: `make publish-local` puts every line's into dist/maven.
Then runs random_strings.py on that session, which prints the same ten seeded rows.
"""

import runpy
import sys
from pathlib import Path

from pyspark.sql import SparkSession

coordinates, *repositories = sys.argv[1:]
builder = SparkSession.builder.appName("random strings from packages")
builder = builder.config("spark.jars.packages", coordinates)
if repositories:
    builder = builder.config("spark.jars.repositories", ",".join(repositories))
spark = builder.getOrCreate()

# The example's own SparkSession.builder.getOrCreate() gets this session, with the package on it.
runpy.run_path(str(Path(__file__).with_name("random_strings.py")))
