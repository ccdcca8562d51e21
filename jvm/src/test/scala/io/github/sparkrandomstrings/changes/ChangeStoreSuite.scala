package io.github.sparkrandomstrings.changes

import java.io.File
import java.nio.charset.StandardCharsets
import java.nio.file.Files

import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.databind.node.ObjectNode
import org.apache.hadoop.conf.Configuration
import org.scalatest.funsuite.AnyFunSuite

import io.github.sparkrandomstrings.testing.{InvalidInputs, TestDirectories}

/**
 * The change options' file in the checkpoint (`changes-source.json`) without Spark: written under
 * each option's name, read back by the table's rows, and refused as corrupt with the reasons that
 * `tests/vectors/changes_corrupt_stores.json` states, which the Python engine's store gives too
 * (`tests/test_change_store.py`).
 */
class ChangeStoreSuite extends AnyFunSuite with TestDirectories {

  private val Mapper = new ObjectMapper()

  private def store(folder: File) = new ChangeStore(folder.getPath, new Configuration())

  private def fileOf(folder: File): String =
    new String(Files.readAllBytes(new File(folder, ChangeStore.FileName).toPath), StandardCharsets.UTF_8)

  test("the default spec's file is the one every released change stream wrote, and reads back equal") {
    withTempDir { folder =>
      val spec = ChangeOptions.parse(Map.empty, None).spec
      assert(store(folder).loadOrCreate(spec) == spec)
      assert(fileOf(folder) ==
        """{"version":1,"key":"id","keys":1000,"deleteFraction":0.1,"hotKeys":10,"hotKeyFraction":0.0,""" +
        """"snapshot":false,"envelope":"flat"}""")
      assert(store(folder).read().contains(spec))
    }
  }

  test("a spec with every field set is stored under each field's option and reads back equal") {
    withTempDir { folder =>
      val spec = ChangeSpec.of(Map(
        Changes.KEYS -> 9L,
        Changes.DELETE_FRACTION -> 1e-5,
        Changes.HOT_KEYS -> 2L,
        Changes.HOT_KEY_FRACTION -> 0.25,
        Changes.SNAPSHOT -> true,
        Changes.ENVELOPE -> "flink",
        Changes.UPDATE_COLUMNS -> "value",
        Changes.TOTAL_ROWS -> 7L))
      store(folder).loadOrCreate(spec)
      assert(fileOf(folder) ==
        """{"version":1,"key":"id","keys":9,"deleteFraction":1.0E-5,"hotKeys":2,"hotKeyFraction":0.25,""" +
        """"snapshot":true,"envelope":"flink","updateColumns":"value","totalRows":7}""")
      assert(store(folder).read().contains(spec))
    }
  }

  test("every corrupt file of the shared vectors is refused naming its first bad value, as the Python engine does") {
    val vector = InvalidInputs.vector("changes_corrupt_stores.json")
    val cases = vector.get("cases").elements().asScala.toSeq
    assert(cases.nonEmpty)
    for (c <- cases) withTempDir { folder =>
      val stored = vector.get("stored").deepCopy[ObjectNode]()
      Option(c.get("set")).foreach(set => set.properties().asScala.foreach(e => stored.replace(e.getKey, e.getValue)))
      Option(c.get("remove")).foreach(_.elements().asScala.foreach(name => stored.remove(name.asText())))
      Files.write(new File(folder, ChangeStore.FileName).toPath, Mapper.writeValueAsBytes(stored))
      val why = c.get("why").asText()
      val refused = intercept[IllegalStateException](store(folder).read())
      assert(refused.getMessage.contains(s"is corrupt or truncated ($why). It holds"), c.get("name").asText())
    }
  }
}
