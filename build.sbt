// spark-random-strings: the sbt build of the JVM source, cross-built into one jar per Spark line.
//
// The lines, and their Spark and Scala versions, are the rows of spark-lines.txt;
// project/SparkLineProjects.scala makes one project of each (spark35_212, spark35_213,
// spark40, ... spark43). Spark is a `provided` dependency: the running Spark supplies it. Every
// line compiles the one shared source tree (jvm/src/main/scala) plus, for each API that moved
// between Spark lines, the folder under jvm/src/main/versioned/<api> whose name covers it
// (docs/design.md lists them); each defines the same names on every line. Spark comes from Maven Central, or, for
// a release Maven Central does not carry (4.3.0), from the jars of the pinned pyspark, which
// the Makefile installs into .venv and passes in as SPARK_JARS_DIR.

ThisBuild / organization := "io.github.sparkrandomstrings"
// The one place the version lives is the VERSION file, shared with the Python package.
ThisBuild / version := IO.read(file("VERSION")).trim
ThisBuild / scalaVersion := sparkLines.defaultBuilds.head.scala

lazy val root = (project in file("."))
  .aggregate(sparkLines.all.map(line => LocalProject(line.build): ProjectReference): _*)
  .settings(publish / skip := true)
