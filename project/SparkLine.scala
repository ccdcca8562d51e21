// The build's description of one Spark line; build.sbt lists the lines and their versions.

/** One Spark line: the Spark and Scala it is built against, and its version-specific folders. */
final case class SparkLine(
    spark: String,
    scala: String,
    javaRelease: String,
    versionFolders: Seq[String],
    jarsFromPyspark: Boolean = false) {
  val line: String = spark.split('.').take(2).mkString(".")
  val scalaBinary: String = scala.split('.').take(2).mkString(".")
}
