// What each line's jar ships with, and how it is published as a Maven artifact for
// `spark-submit --packages`: the license in every jar, a sources jar, a Scaladoc jar, and a POM
// with Spark and Scala `provided` (the running Spark supplies both, so Ivy fetches our jar only).

import scala.xml.{Elem, Node, NodeSeq}
import scala.xml.transform.{RewriteRule, RuleTransformer}

import sbt._
import sbt.Keys._

object MavenArtifacts {

  /**
   * Where `publish` puts every line, in Maven's layout: the folder the Makefile names and passes
   * in as MAVEN_REPO (`make publish-local`). Without it, sbt has nowhere to publish.
   */
  private def repository: Option[File] = sys.env.get("MAVEN_REPO").filter(_.nonEmpty).map(file)

  def settings(line: SparkLine): Seq[Setting[_]] = {
    val root = Def.setting((ThisBuild / baseDirectory).value)
    val license = Def.setting(root.value / "LICENSE" -> "META-INF/LICENSE")
    Seq(
      description := s"The InMemoryRandomStrings Spark Structured Streaming source of random strings, " +
        s"for Spark ${line.line} on Scala ${line.scalaBinary}",
      licenses := Seq("Apache-2.0" -> url("https://www.apache.org/licenses/LICENSE-2.0.txt")),
      // Scala's library is Spark's: `provided`, so the POM asks Ivy for nothing but our jar.
      autoScalaLibrary := false,
      libraryDependencies += "org.scala-lang" % "scala-library" % line.scala % Provided,
      Compile / packageBin / mappings += license.value,
      Compile / packageSrc / mappings += license.value,
      Compile / packageDoc / mappings += license.value,
      // Links to Spark's and the JDK's classes cannot resolve without their Scaladoc at hand.
      Compile / doc / scalacOptions ++=
        Seq("-doc-title", "spark-random-strings", "-doc-version", version.value, "-no-link-warnings"),
      publishMavenStyle := true,
      versionScheme := Some("early-semver"),
      publishTo := repository.map(MavenCache("publish-local", _)),
      // Publishing the same version again (a rebuild) replaces what an earlier run put there.
      publishConfiguration := publishConfiguration.value.withOverwrite(true),
      pomIncludeRepository := (_ => false),
      pomPostProcess := { pom: Node => new RuleTransformer(new PomDependencies(line)).transform(pom).head })
  }

  /**
   * The POM's dependencies as a user's build needs them: the test-only ones left out, and
   * Spark named `provided` even where the build compiles against pyspark's jars (a Spark
   * release Maven Central does not carry), so every POM says which Spark it is for.
   */
  private final class PomDependencies(line: SparkLine) extends RewriteRule {
    override def transform(node: Node): Seq[Node] = node match {
      case dependencies: Elem if dependencies.label == "dependencies" =>
        val kept = dependencies.child.filterNot(d => (d \ "scope").text == "test")
        val spark =
          if (!line.jarsFromPyspark) NodeSeq.Empty
          else
            <dependency>
              <groupId>org.apache.spark</groupId>
              <artifactId>spark-sql_{line.scalaBinary}</artifactId>
              <version>{line.spark}</version>
              <scope>provided</scope>
            </dependency>
        dependencies.copy(child = kept ++ spark)
      case other => other
    }
  }
}
