// The build's description of the Spark lines, read from spark-lines.txt at the root: the one
// place their versions are written (the Makefile and the tests read the same file).

import java.io.File

import scala.io.Source

/**
 * One row of spark-lines.txt: an sbt project that builds one jar.
 *
 * @param build   the sbt project's id, `spark<line digits>[_<scala digits>]`
 * @param spark   the Spark release compiled and tested against
 * @param scala   the Scala it is compiled with
 * @param javaRelease the Java release of the bytecode (`-release`)
 * @param pyspark the pyspark release on PyPI for the end-to-end tests, if there is one
 * @param jarsFromPyspark Spark's jars come from the pinned pyspark, not from Maven Central
 * @param javas   the Javas CI runs this build's suites on
 * @param hadoop  the Hadoop release that Spark release is built with (the HDFS test's)
 */
final case class SparkLine(
    build: String,
    spark: String,
    scala: String,
    javaRelease: String,
    pyspark: Option[String],
    jarsFromPyspark: Boolean,
    javas: Seq[Int],
    hadoop: String) {
  val line: String = spark.split('.').take(2).mkString(".")
  val scalaBinary: String = scala.split('.').take(2).mkString(".")

  /**
   * The version folders this line compiles. `jvm/src/main/versioned` holds one folder per Spark
   * API that changed between lines, named for that API; inside it, one folder per range of lines
   * that sees the API one way, named for the range: `spark-3.5` that line alone, `spark-3.5-4.0`
   * the lines 3.5 to 4.0, `spark-4.1+` 4.1 and every later line. A line compiles exactly one
   * range of each API; a line that none or two cover fails the build, naming the API.
   */
  def versionFolders(versioned: File): Seq[File] =
    SparkLine.subfolders(versioned).map { api =>
      SparkLine.subfolders(api).filter(f => SparkLine.folderRange(f.getName).exists(_.contains(line))) match {
        case Seq(one) => one
        case none if none.isEmpty =>
          sys.error(s"$api: no folder covers Spark $line; add one named for a range that does (spark-$line+)")
        case many => sys.error(s"$api: ${many.map(_.getName).mkString(" and ")} both cover Spark $line")
      }
    }
}

object SparkLine {

  /** The lines a version folder's name covers, from and to inclusive (to None: no end). */
  final case class Range(from: String, to: Option[String]) {
    def contains(line: String): Boolean = {
      val ordering = Ordering[(Int, Int)]
      ordering.gteq(order(line), order(from)) && to.forall(end => ordering.lteq(order(line), order(end)))
    }
  }

  private val Line = """\d+\.\d+"""
  private val Single = s"spark-($Line)".r
  private val Between = s"spark-($Line)-($Line)".r
  private val Onwards = s"spark-($Line)\\+".r

  def folderRange(name: String): Option[Range] = name match {
    case Single(line) => Some(Range(line, Some(line)))
    case Between(from, to) => Some(Range(from, Some(to)))
    case Onwards(from) => Some(Range(from, None))
    case _ => None
  }

  private def subfolders(folder: File): Seq[File] =
    Option(folder.listFiles()).toSeq.flatten.filter(_.isDirectory).sortBy(_.getName)

  private def order(line: String): (Int, Int) = {
    val Array(major, minor) = line.split('.').map(_.toInt)
    (major, minor)
  }

  /** Every row of the lines file, and the default line it names. */
  final case class Lines(default: String, all: Seq[SparkLine]) {
    def defaultBuilds: Seq[SparkLine] = all.filter(_.line == default)

    /**
     * Whether `line`'s build runs the suites of line-independent logic: the default line's builds
     * alone. Every other build runs only what can differ by line; its rows, another compiler's
     * collections and numbers included, are proven by the digest run of its line.
     */
    def runsLineIndependentSuites(line: SparkLine): Boolean = line.line == default
  }

  def read(file: File): Lines = {
    val source = Source.fromFile(file, "UTF-8")
    val rows =
      try source.getLines().map(_.trim).filterNot(l => l.isEmpty || l.startsWith("#"))
          .map(_.split("\\s+").toSeq).toList
      finally source.close()
    def fail(why: String): Nothing = sys.error(s"$file: $why")
    val default = rows.collect { case Seq("default", line) => line } match {
      case Seq(line) => line
      case other => fail(s"expected one `default <line>` row, found ${other.size}")
    }
    val lines = rows.filterNot(_.head == "default").map {
      case Seq(build, spark, scala, release, pyspark, jars, javas, hadoop) =>
        if (!Set("maven", "pyspark")(jars)) fail(s"$build: jars is '$jars', expected maven or pyspark")
        SparkLine(
          build,
          spark,
          scala,
          release,
          Some(pyspark).filter(_ != "-"),
          jars == "pyspark",
          javas.split(',').map(_.toInt).toSeq,
          hadoop)
      case row => fail(s"expected 8 columns, found ${row.size}: ${row.mkString(" ")}")
    }
    if (!lines.exists(_.line == default)) fail(s"the default line $default has no row")
    Lines(default, lines)
  }
}
