package io.github.sparkrandomstrings.testing

import org.scalatest.Tag

/**
 * A test whose subject is the rows a source makes (their values, envelopes, shaping, partitioning)
 * rather than what Spark does around the source. The digest run of every line and Java
 * (tests/test_line_digests.py, over tests/digests/definitions.json) proves that each line's jar
 * makes those same rows, so such a test runs on the default line's build, and on a build whose
 * jar no digest run reads (one with no pyspark: 3.5's Scala 2.13 build); the other builds and
 * Javas leave it out (project/SparkLineProjects.scala, `-l`), and run the rest of their suites.
 */
object DigestedRows extends Tag("io.github.sparkrandomstrings.DigestedRows")
