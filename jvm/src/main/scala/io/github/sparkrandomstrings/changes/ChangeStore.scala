package io.github.sparkrandomstrings.changes

import scala.util.control.NonFatal

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.SparkSession

import io.github.sparkrandomstrings.offsets.{DefinitionStore, KeptSettings, MetadataFile}

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
 * Each option is stored under its own name and read back by its row of the table of options
 * ([[offsets.KeptSettings]]); the spec is rebuilt from them by name ([[ChangeSpec.of]]). A restart
 * reads both files back and refuses options that contradict them, naming each.
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

  private def checkRestart(stored: ChangeSpec, requested: ChangeSpec): Unit =
    KeptSettings.refuseChanged(
      stored.settings,
      requested.settings,
      stream = "change stream",
      makes = "which changes the stream makes",
      names = stored.settings.map(_._1),
      location = location)

  private def render(spec: ChangeSpec): String = {
    val node = Mapper.createObjectNode()
    node.put("version", Version)
    KeptSettings.write(node, spec.settings)
    Mapper.writeValueAsString(node)
  }

  private def parse(text: String): ChangeSpec = {
    val json: JsonNode =
      try Mapper.readTree(text)
      catch { case NonFatal(e) => file.corrupt(s"not valid JSON: ${e.getMessage.linesIterator.next()}", e) }
    if (json == null || !json.isObject) file.corrupt("not a JSON object")
    val version = Option(json.get("version")).getOrElse(file.corrupt("the field 'version' is missing"))
    if (!version.isInt || version.asInt != Version) {
      file.corrupt(s"its version is $version, and this source reads $Version")
    }
    // Each stored option read by its row of the table of options, then the rules between them.
    val rows = ChangeSpec.Stored.map(Changes.Table.options(_))
    val choices = rows.filter(_.kind == "choice").map(row => row.name -> (row.choice(_: String))).toMap
    val settings = KeptSettings.read(json, rows, file, choices)
    try {
      val spec = ChangeSpec.of(settings.toMap)
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
