package io.github.sparkrandomstrings.strings

import java.io.File
import java.nio.charset.StandardCharsets
import java.nio.file.Files

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import org.apache.hadoop.conf.Configuration
import org.scalatest.funsuite.AnyFunSuite

import io.github.sparkrandomstrings.offsets.DefinitionStore
import io.github.sparkrandomstrings.rows.RowGenerator
import io.github.sparkrandomstrings.testing.TestDirectories

/**
 * The streams of each released version, as that release made them (tests/fixtures/<version>/
 * streams.json, written by tests/fixtures/make_released_fixtures.py from the release itself):
 * its definition file still reads, and the row generator makes the very same rows from it.
 * A new version adds options; it never changes the rows of a definition an older one stored.
 */
class ReleasedStreamsSuite extends AnyFunSuite with TestDirectories {

  /** tests/fixtures, which the build names in a system property of the test JVM. */
  private val fixtures = new File(
    Option(System.getProperty(ReleasedStreamsSuite.FixturesProperty))
      .getOrElse(sys.error(s"-D${ReleasedStreamsSuite.FixturesProperty} is not set (the build sets it)")))

  private val releases: Seq[File] =
    Option(fixtures.listFiles()).toSeq.flatten.filter(r => new File(r, "streams.json").isFile).sortBy(_.getName)

  test("the fixtures of the first release are there") {
    assert(releases.map(_.getName).headOption.contains("0.1.0"))
  }

  for {
    release <- releases
    stream <- ReleasedStreamsSuite.items(new ObjectMapper().readTree(new File(release, "streams.json")).get("streams"))
    // A stream of a declared schema, or of the nexmark source, keeps its rows as Spark's JSON of
    // each row: the end-to-end test (tests/test_released_streams.py) compares them on every line,
    // through to_json.
    if !stream.has("schema") && !stream.has("format")
  } {
    val name = stream.get("name").asText()
    test(s"${release.getName} stream $name: its stored definition reads and makes the same rows") {
      val definition = withTempDir { dir =>
        Files.write(
          new File(dir, DefinitionStore.FileName).toPath,
          stream.get("definition").asText().getBytes(StandardCharsets.UTF_8))
        new DefinitionStore(dir.getPath, new Configuration()).read().get
      }
      val released = ReleasedStreamsSuite.items(stream.get("rows"))
      val generator = new RowGenerator(definition)
      released.foreach { expected: JsonNode =>
        val offset = expected.get(2).asLong()
        val row = generator.row(offset)
        val made = (row.getUTF8String(0).toString, row.getLong(1), row.getLong(2), row.getInt(3))
        assert(made == ((expected.get(0).asText(), expected.get(1).asLong(), offset, expected.get(3).asInt())))
      }
      assert(released.map(_.get(2).asLong()) == released.indices.map(_.toLong), "offsets 0 to n - 1")
    }
  }
}

object ReleasedStreamsSuite {
  val FixturesProperty = "spark-random-strings.fixtures"

  /** The items of a JSON array. */
  def items(array: JsonNode): Seq[JsonNode] = (0 until array.size()).map(array.get)
}
