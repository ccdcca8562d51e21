// spark-random-strings: the sbt build of the JVM source.
//
// Versions are pinned here. Spark is a `provided` dependency: the running Spark supplies it.
// Spark 4.3.0 is compiled against the jars of the pinned pyspark 4.3.0 distribution (its
// `pyspark/jars` folder holds exactly the Spark runtime), which the Makefile installs into
// `.venv` and passes in as SPARK_JARS_DIR. Maven Central, the only JVM registry reachable
// here, does not carry the Spark 4.3.0 artifacts; pyspark on PyPI does.

val sparkVersion = "4.3.0"
val scala213 = "2.13.18" // the Scala that Spark 4.3.0 itself is built with
val scalatestVersion = "3.2.19"

ThisBuild / organization := "io.github.sparkrandomstrings"
// The one place the version lives is the VERSION file, shared with the Python package.
ThisBuild / version := IO.read(file("VERSION")).trim
ThisBuild / scalaVersion := scala213

// Spark on Java 17 needs these to reach JDK internals (the same list Spark's launcher adds).
val sparkJava17Flags = Seq(
  "-XX:+IgnoreUnrecognizedVMOptions",
  "--add-modules=jdk.incubator.vector",
  "--add-opens=java.base/java.lang=ALL-UNNAMED",
  "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
  "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
  "--add-opens=java.base/java.io=ALL-UNNAMED",
  "--add-opens=java.base/java.net=ALL-UNNAMED",
  "--add-opens=java.base/java.nio=ALL-UNNAMED",
  "--add-opens=java.base/java.util=ALL-UNNAMED",
  "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
  "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
  "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
  "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
  "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
  "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
  "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
  "-Djdk.reflect.useDirectMethodHandle=false",
  "-Dio.netty.tryReflectionSetAccessible=true"
)

lazy val sparkJarsDir = settingKey[File]("Folder holding the Spark runtime jars to compile and test against")

lazy val source = (project in file("jvm"))
  .settings(
    name := "spark-random-strings",
    sparkJarsDir := {
      val dir = sys.env.get("SPARK_JARS_DIR").map(file).getOrElse {
        sys.error("SPARK_JARS_DIR is not set. Run the build through `make jar` or `make test`, " +
          "which install pyspark " + sparkVersion + " into .venv and point SPARK_JARS_DIR at its jars.")
      }
      val expected = dir / s"spark-sql_2.13-$sparkVersion.jar"
      if (!expected.isFile) {
        sys.error(s"SPARK_JARS_DIR=$dir does not hold ${expected.getName}: this build needs Spark " +
          s"$sparkVersion. Run `make bootstrap` to install the pinned pyspark $sparkVersion.")
      }
      dir
    },
    // Spark is "provided": its jars are on the compile and test class paths, never in our jar
    // (sbt packages only this project's classes). Spark's own copies of the Scala jars are left
    // out: sbt supplies the same version.
    Compile / unmanagedJars ++= (sparkJarsDir.value * "*.jar").classpath
      .filterNot(_.data.getName.matches("scala-(library|reflect|compiler)-.*")),
    libraryDependencies += "org.scalatest" %% "scalatest" % scalatestVersion % Test,
    javacOptions ++= Seq("--release", "17"),
    scalacOptions ++= Seq("-release", "17", "-deprecation", "-feature", "-unchecked",
      "-Xlint:-unused,_", "-Wunused:imports,privates,locals", "-Werror"),
    // The table of invalid inputs, shared with the Python tests.
    Test / unmanagedResourceDirectories += (ThisBuild / baseDirectory).value / "tests" / "vectors",
    Test / fork := true,
    Test / javaOptions ++= sparkJava17Flags ++ Seq("-Xmx4g", "-Dfile.encoding=UTF-8", "-Dspark.ui.enabled=false"),
    Test / parallelExecution := false,
    Test / testOptions += Tests.Argument(TestFrameworks.ScalaTest, "-oD"),
    Compile / packageBin / packageOptions += Package.ManifestAttributes(
      "Spark-Version" -> sparkVersion, "Scala-Version" -> scalaBinaryVersion.value)
  )

lazy val root = (project in file("."))
  .aggregate(source)
  .settings(publish / skip := true)
