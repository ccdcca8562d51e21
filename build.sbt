// spark-random-strings: the sbt build of the JVM source, cross-built into one jar per Spark line.
//
// Versions are pinned here. Spark is a `provided` dependency: the running Spark supplies it.
// Every line compiles the one shared source tree (jvm/src/main/scala) plus the small folders
// that hold the few APIs that moved between Spark lines (jvm/src/main/spark-*), which define
// the same names on every line. Lines 3.5 to 4.2 resolve Spark from Maven Central. Spark 4.3.0
// is not on Maven Central, so that line compiles against the jars of the pinned pyspark 4.3.0
// (its `pyspark/jars` folder holds exactly the Spark runtime), which the Makefile installs into
// `.venv` and passes in as SPARK_JARS_DIR.

// The folders of the APIs that moved: `LongOffset` went to `...execution.streaming.runtime` in
// 4.1; `internalCreateDataFrame` went to the classic SparkSession in 4.0.
val offsetsUntil40 = "spark-3.5-4.0"
val offsetsFrom41 = "spark-4.1+"
val dataFrames35 = "spark-3.5"
val dataFramesFrom40 = "spark-4.0+"

// Each line is built with the Scala its Spark release is built with, and runs on every Java
// that Spark line supports (3.5 still runs on Java 8).
val spark35_212Line = SparkLine("3.5.9", "2.12.18", "8", Seq(offsetsUntil40, dataFrames35))
val spark35_213Line = SparkLine("3.5.9", "2.13.8", "8", Seq(offsetsUntil40, dataFrames35))
val spark40Line = SparkLine("4.0.4", "2.13.16", "17", Seq(offsetsUntil40, dataFramesFrom40))
val spark41Line = SparkLine("4.1.3", "2.13.17", "17", Seq(offsetsFrom41, dataFramesFrom40))
val spark42Line = SparkLine("4.2.0", "2.13.18", "17", Seq(offsetsFrom41, dataFramesFrom40))
val spark43Line = SparkLine("4.3.0", "2.13.18", "17", Seq(offsetsFrom41, dataFramesFrom40), jarsFromPyspark = true)
// The default line is 4.3 (DEFAULT_LINE in the Makefile): `make test` runs every suite on it.
val scalatestVersion = "3.2.19"

ThisBuild / organization := "io.github.sparkrandomstrings"
// The one place the version lives is the VERSION file, shared with the Python package.
ThisBuild / version := IO.read(file("VERSION")).trim
ThisBuild / scalaVersion := spark43Line.scala

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

lazy val sparkJarsDir = taskKey[File]("Folder holding the pyspark Spark runtime jars to compile and test against")

// The shared source tree, under the build's root folder.
val sharedMain = Def.setting((ThisBuild / baseDirectory).value / "jvm" / "src" / "main")
val sharedTest = Def.setting((ThisBuild / baseDirectory).value / "jvm" / "src" / "test")

/** The sbt project of one Spark line; its outputs go to jvm/lines/<line>/target. */
def sparkLineProject(id: String, line: SparkLine): Project =
  Project(id, file(s"jvm/lines/spark-${line.line}_${line.scalaBinary}"))
    .settings(
      name := s"spark-random-strings-spark${line.line}",
      moduleName := name.value, // keeps the dot of the Spark line: spark-random-strings-spark3.5_2.12-<version>.jar
      scalaVersion := line.scala,
      Compile / unmanagedSourceDirectories :=
        (sharedMain.value / "scala") +: line.versionFolders.map(sharedMain.value / _),
      Compile / unmanagedResourceDirectories := Seq(sharedMain.value / "resources"),
      Test / unmanagedSourceDirectories := Seq(sharedTest.value / "scala"),
      // The table of invalid inputs, shared with the Python tests.
      Test / unmanagedResourceDirectories :=
        Seq(sharedTest.value / "resources", (ThisBuild / baseDirectory).value / "tests" / "vectors"),
      sparkDependency(line),
      libraryDependencies += "org.scalatest" %% "scalatest" % scalatestVersion % Test,
      javacOptions ++= Seq("--release", line.javaRelease),
      scalacOptions ++= Seq("-release", line.javaRelease, "-deprecation", "-feature", "-unchecked",
        "-Xlint:-unused,_") ++
        // The same checks under Scala 2.12's names for them.
        (if (line.scalaBinary == "2.12") Seq("-Ywarn-unused:imports,privates,locals", "-Xfatal-warnings")
         else Seq("-Wunused:imports,privates,locals", "-Werror")),
      Test / fork := true,
      Test / javaOptions ++= sparkJava17Flags ++ Seq("-Xmx4g", "-Dfile.encoding=UTF-8", "-Dspark.ui.enabled=false"),
      Test / parallelExecution := false,
      Test / testOptions += Tests.Argument(TestFrameworks.ScalaTest, "-oD"),
      Compile / packageBin / packageOptions += Package.ManifestAttributes(
        "Spark-Version" -> line.spark, "Scala-Version" -> line.scalaBinary)
    )

/** Spark itself, `provided`: from Maven Central, or from the pinned pyspark for 4.3. */
def sparkDependency(line: SparkLine): Seq[Setting[_]] =
  if (!line.jarsFromPyspark) Seq(libraryDependencies += "org.apache.spark" %% "spark-sql" % line.spark % Provided)
  else Seq(
    sparkJarsDir := {
      val dir = sys.env.get("SPARK_JARS_DIR").map(file).getOrElse {
        sys.error("SPARK_JARS_DIR is not set. Run the build through `make jar` or `make test`, " +
          s"which install pyspark ${line.spark} into .venv and point SPARK_JARS_DIR at its jars.")
      }
      val expected = dir / s"spark-sql_${line.scalaBinary}-${line.spark}.jar"
      if (!expected.isFile) {
        sys.error(s"SPARK_JARS_DIR=$dir does not hold ${expected.getName}: this build needs Spark " +
          s"${line.spark}. Run `make bootstrap` to install the pinned pyspark ${line.spark}.")
      }
      dir
    },
    // Spark's own copies of the Scala jars are left out: sbt supplies the same version.
    Compile / unmanagedJars ++= (sparkJarsDir.value * "*.jar").classpath
      .filterNot(_.data.getName.matches("scala-(library|reflect|compiler)-.*"))
  )

lazy val spark35_212 = sparkLineProject("spark35_212", spark35_212Line)
lazy val spark35_213 = sparkLineProject("spark35_213", spark35_213Line)
lazy val spark40 = sparkLineProject("spark40", spark40Line)
lazy val spark41 = sparkLineProject("spark41", spark41Line)
lazy val spark42 = sparkLineProject("spark42", spark42Line)
lazy val spark43 = sparkLineProject("spark43", spark43Line)

lazy val root = (project in file("."))
  .aggregate(spark35_212, spark35_213, spark40, spark41, spark42, spark43)
  .settings(publish / skip := true)
