package io.github.sparkrandomstrings.changes

import scala.util.control.NonFatal

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.SparkSession

import io.github.sparkrandomstrings.offsets.DefinitionStore
import io.github.sparkrandomstrings.offsets.MetadataFile
import io.github.sparkrandomstrings.options.RandomStrings.TotalRowsRange

/**
 * Keeps a change stream in the source's metadata folder of the checkpoint: its rows' definition
 * as the random strings keep theirs ([[offsets.DefinitionStore]]'s file), and beside it the change
 * options, one small JSON file written once ([[offsets.MetadataFile]]):
 *
 * {{{
 *   {"version":1,"key":"id","keys":1000,"deleteFraction":0.1,"hotKeys":10,"hotKeyFraction":0.0,
 *    "snapshot":false,"envelope":"flat"}
 * }}}
 *
 * A restart reads both back and refuses options that contradict them, naming each.
 */
final class ChangeStore(metadataPath: String, hadoopConf: Configuration) {
  import ChangeStore._

  private val file =
    new MetadataFile(metadataPath, FileName, hadoopConf, holds = "the keyspace and lifecycle of the change stream")

  def location: String = file.location

  /** The stored change options, checked against `requested`; or on the first start `requested`, stored. */
  def loadOrCreate(requested: ChangeSpec): ChangeSpec = read() match {
    case Some(stored) =>
      checkRestart(stored, requested)
      stored
    case None =>
      file.refuseIfBatchesExist()
      val text = render(requested)
      val stored = file.store(text)
      if (stored == text) requested else parse(stored)
  }

  def read(): Option[ChangeSpec] = file.read().map(parse)

  private def checkRestart(stored: ChangeSpec, requested: ChangeSpec): Unit = {
    val (was, now) = (stored.settings.toMap, requested.settings.toMap)
    val names = stored.settings.map(_._1) ++ requested.settings.map(_._1).filterNot(was.contains)
    val contradictions = names.filter(name => was.get(name) != now.get(name)).map { name =>
      def shown(value: Option[Any]) = value.fold("none")(_.toString)
      s"$name: the checkpoint has ${shown(was.get(name))}, the query sets ${shown(now.get(name))}"
    }
    if (contradictions.nonEmpty) {
      throw new IllegalArgumentException(
        s"The options of this query contradict the change stream stored in its checkpoint ($location): " +
          contradictions.mkString("; ") + s". The options that say which changes the stream makes " +
          s"(${stored.settings.map(_._1).mkString(", ")}) are fixed when its query first starts, so that every " +
          "batch can be replayed identically. Restart with the stored values, or use a new checkpoint " +
          "location to start a different stream.")
    }
  }

  private def render(spec: ChangeSpec): String = {
    val node = Mapper.createObjectNode()
    node.put("version", Version)
    spec.settings.foreach {
      case (name, value: Long) => node.put(name, value)
      case (name, value: Double) => node.put(name, value)
      case (name, value: Boolean) => node.put(name, value)
      case (name, value) => node.put(name, value.toString)
    }
    Mapper.writeValueAsString(node)
  }

  private def parse(text: String): ChangeSpec = {
    val json: JsonNode =
      try Mapper.readTree(text)
      catch { case NonFatal(e) => file.corrupt(s"not valid JSON: ${e.getMessage.linesIterator.next()}", e) }
    if (json == null || !json.isObject) file.corrupt("not a JSON object")
    def field(name: String): JsonNode = Option(json.get(name)).getOrElse(file.corrupt(s"the field '$name' is missing"))
    val version = field("version")
    if (!version.isInt || version.asInt != Version) {
      file.corrupt(s"its version is $version, and this source reads $Version")
    }
    def textOf(name: String): String = {
      val node = field(name)
      if (!node.isTextual) file.corrupt(s"'$name' is not a string")
      node.asText
    }
    def whole(name: String): Long = {
      val node = field(name)
      if (!node.isIntegralNumber || !node.canConvertToLong) file.corrupt(s"'$name' is not a whole number")
      node.asLong
    }
    def real(name: String): Double = {
      val node = field(name)
      if (!node.isNumber) file.corrupt(s"'$name' is not a number")
      node.asDouble
    }
    def boolean(name: String): Boolean = {
      val node = field(name)
      if (!node.isBoolean) file.corrupt(s"'$name' is not true or false")
      node.asBoolean
    }
    import Changes._
    try {
      val spec = ChangeSpec(
        key = textOf(KEY),
        keys = KeysRange.check(KEYS, whole(KEYS), whole(KEYS).toString),
        deleteFraction =
          DeleteFractionRange.check(DELETE_FRACTION, real(DELETE_FRACTION), real(DELETE_FRACTION).toString),
        hotKeys = HotKeysRange.check(HOT_KEYS, whole(HOT_KEYS), whole(HOT_KEYS).toString),
        hotKeyFraction =
          HotKeyFractionRange.check(HOT_KEY_FRACTION, real(HOT_KEY_FRACTION), real(HOT_KEY_FRACTION).toString),
        snapshot = boolean(SNAPSHOT),
        envelope = ChangeOptions.envelopeNamed(textOf(ENVELOPE)),
        updateColumns = Option(json.get(UPDATE_COLUMNS)).map(_ => textOf(UPDATE_COLUMNS)),
        end = Option(json.get(TOTAL_ROWS)).map(_ =>
          TotalRowsRange.check(TOTAL_ROWS, whole(TOTAL_ROWS), whole(TOTAL_ROWS).toString)))
      spec.validate(name => Some(spec.settings.toMap.apply(name).toString))
      spec
    } catch { case e: IllegalArgumentException => file.corrupt(e.getMessage, e) }
  }
}

object ChangeStore {

  /** The file's name inside the source's metadata folder. */
  val FileName = "changes-source.json"

  val Version = 1
  private val Mapper = new ObjectMapper()

  /**
   * The change stream a query starts: its rows' definition and its change options, read back from
   * the checkpoint and checked against `options`, or fixed now (the first start).
   */
  def atStart(spark: SparkSession, metadataPath: String, options: ChangeOptions): ChangeStream = {
    val definition = DefinitionStore.atStart(spark, metadataPath, options.rows)
    val spec = new ChangeStore(metadataPath, spark.sparkContext.hadoopConfiguration).loadOrCreate(options.spec)
    ChangeStream(definition, spec)
  }
}
