package io.github.sparkrandomstrings.testing

import java.io.File
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}

/**
 * The table of invalid inputs in `tests/vectors/invalid_inputs.json`, which the Python tests
 * read too (its "about" says what each field means). sbt puts that folder on the test class path.
 */
object InvalidInputs {

  /** How a case changes a copy of the prepared checkpoint before the query restarts on it. */
  final case class CheckpointChange(
      write: Map[String, String],
      lastLine: Map[String, String],
      remove: Seq[String],
      keepChecksum: Boolean) {

    def applyTo(checkpoint: File): Unit = {
      def path(relative: String): Path = new File(checkpoint, relative).toPath
      def dropChecksum(relative: String): Unit = if (!keepChecksum) {
        val file = path(relative)
        Files.deleteIfExists(file.resolveSibling(s".${file.getFileName}.crc"))
      }
      write.foreach { case (relative, content) =>
        Files.write(path(relative), content.getBytes(StandardCharsets.UTF_8))
        dropChecksum(relative)
      }
      lastLine.foreach { case (relative, line) =>
        val lines = Files.readAllLines(path(relative), StandardCharsets.UTF_8).asScala
        Files.write(path(relative), (lines.init :+ line).mkString("\n").getBytes(StandardCharsets.UTF_8))
        dropChecksum(relative)
      }
      remove.foreach { relative =>
        Files.delete(path(relative))
        dropChecksum(relative)
      }
    }
  }

  /** One invalid input: options (or a schema) that `load()` rejects, or a checkpoint a query start rejects. */
  final case class Case(
      name: String,
      options: Option[Map[String, String]],
      schema: Option[String],
      checkpoint: Option[CheckpointChange],
      expect: Seq[String]) {
    def failsAt: String = if (checkpoint.isDefined) "query start" else "load()"
  }

  final case class Table(checkpointRun: Map[String, String], cases: Seq[Case])

  lazy val table: Table = {
    val root = vector("invalid_inputs.json")
    Table(strings(root.get("checkpointRun")), root.get("cases").elements().asScala.map(parseCase).toSeq)
  }

  private def parseCase(node: JsonNode): Case = {
    def optional(name: String): Option[JsonNode] = Option(node.get(name))
    Case(
      name = node.get("name").asText(),
      options = optional("options").map(strings),
      schema = optional("schema").map(_.asText()),
      checkpoint = optional("checkpoint").map { change =>
        CheckpointChange(
          write = Option(change.get("write")).map(strings).getOrElse(Map.empty),
          lastLine = Option(change.get("lastLine")).map(strings).getOrElse(Map.empty),
          remove = Option(change.get("remove")).map(_.elements().asScala.map(_.asText()).toSeq).getOrElse(Nil),
          keepChecksum = Option(change.get("keepChecksum")).exists(_.asBoolean()))
      },
      expect = node.get("expect").elements().asScala.map(_.asText()).toSeq)
  }

  /** The table of `tests/vectors` in `file`, which sbt puts on the test class path. */
  def vector(file: String): JsonNode = {
    val in = getClass.getResourceAsStream(s"/$file")
    require(in != null, s"$file is not on the test class path (tests/vectors)")
    try new ObjectMapper().readTree(in)
    finally in.close()
  }

  /** A JSON object of strings, such as a case's options. */
  def strings(node: JsonNode): Map[String, String] =
    node.properties().asScala.map(entry => entry.getKey -> entry.getValue.asText()).toMap
}
