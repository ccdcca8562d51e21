package io.github.sparkrandomstrings.nexmark

import scala.util.control.NonFatal

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import org.apache.hadoop.conf.Configuration

import io.github.sparkrandomstrings.offsets.{KeptSettings, MetadataFile}

/**
 * Keeps a Nexmark stream ([[NexmarkStream]]: its configuration and first start) in the source's
 * metadata folder of the checkpoint, as one small JSON file written once ([[offsets.MetadataFile]]):
 *
 * {{{
 *   {"version":1,"startTimeMs":1763790000000,"config":{"firstEventRate":"10000",...}}
 * }}}
 *
 * A restart reads it back, and refuses options that contradict it, naming each.
 */
final class NexmarkStore(metadataPath: String, hadoopConf: Configuration) {
  import NexmarkStore._

  private val file = new MetadataFile(
    metadataPath,
    FileName,
    hadoopConf,
    holds = "the configuration and first start of the Nexmark stream")

  def location: String = file.location

  /** The stored stream, checked against `config`; or on the first start a new one, stored. */
  def loadOrCreate(config: NexmarkConfig, nowMs: => Long): NexmarkStream = read() match {
    case Some(stored) =>
      checkRestart(stored, config)
      stored
    case None =>
      file.refuseIfBatchesExist()
      val stream = NexmarkStream(config, nowMs)
      val text = render(stream)
      val stored = file.store(text)
      if (stored == text) stream else parse(stored)
  }

  def read(): Option[NexmarkStream] = file.read().map(parse)

  private def checkRestart(stored: NexmarkStream, requested: NexmarkConfig): Unit =
    KeptSettings.refuseChanged(
      stored.config.settings,
      requested.settings,
      stream = "Nexmark stream",
      makes = "which events the stream makes",
      names = Nexmark.EventNames,
      location = location)

  private def render(stream: NexmarkStream): String = {
    val node = Mapper.createObjectNode()
    node.put("version", Version)
    node.put("startTimeMs", stream.startTimeMs)
    val config = node.putObject("config")
    stream.config.settings.foreach { case (name, value) => config.put(name, value) }
    Mapper.writeValueAsString(node)
  }

  private def parse(text: String): NexmarkStream = {
    val json: JsonNode =
      try Mapper.readTree(text)
      catch { case NonFatal(e) => file.corrupt(s"not valid JSON: ${e.getMessage.linesIterator.next()}", e) }
    if (json == null || !json.isObject) file.corrupt("not a JSON object")
    val version = json.get("version")
    if (version == null || !version.isInt || version.asInt != Version) {
      file.corrupt(s"its version is ${Option(version).fold("missing")(_.toString)}, and this source reads $Version")
    }
    val start = json.get("startTimeMs")
    if (start == null || !start.isIntegralNumber || !start.canConvertToLong) file.corrupt("'startTimeMs' is missing")
    val config = json.get("config")
    if (config == null || !config.isObject) file.corrupt("'config' is missing")
    val settings = Nexmark.EventNames.flatMap(name => Option(config.get(name)).map(name -> _.asText)).toMap
    val missing = Nexmark.EventNames.filterNot(settings.contains)
    if (missing.nonEmpty) file.corrupt(s"'config' has no ${missing.mkString(", ")}")
    val parsed =
      try NexmarkOptions.parse(settings).config
      catch { case e: IllegalArgumentException => file.corrupt(s"'config' is invalid: ${e.getMessage}", e) }
    NexmarkStream(parsed, start.asLong)
  }
}

object NexmarkStore {

  /** The file's name inside the source's metadata folder. */
  val FileName = "nexmark-source.json"

  val Version = 1
  private val Mapper = new ObjectMapper()
}
