package io.github.sparkrandomstrings.offsets

import java.security.SecureRandom

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.SparkSession

import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.rows.{RowShape, SourceOptions, StreamDefinition}
import io.github.sparkrandomstrings.text.{CharacterSet, StringValues}
import io.github.sparkrandomstrings.time.RateProfile
import io.github.sparkrandomstrings.typed.DeclaredSchema

/**
 * Keeps a stream's [[rows.StreamDefinition]] in the source's metadata folder of the checkpoint (the
 * `metadataPath` Spark hands to `createSource`), as one small JSON file:
 *
 * {{{
 *   {"version":3,"seed":-4962768465676381896,"startTimeMs":1763790000000,"rowsPerSecond":10,
 *    "minLength":0,"maxLength":4,"characters":"charset=alphanumeric","distinctValues":1000,
 *    "valueDistribution":"zipf","zipfExponent":1.2,"maxOutOfOrderMs":5000,
 *    "lateRowFraction":0.01,"lateByMs":60000,"duplicateFraction":0.0,
 *    "maxDuplicateDistance":1000,"timestampColumn":true,"startTimestamp":1700000000000,
 *    "rateProfile":"60s@1000,30s@1000..20000,repeat"}
 * }}}
 *
 * Version 4 is written for a stream with a declared schema only, and adds `schema` (its JSON,
 * as Spark writes a `StructType`) and `fields` (each `fields.` option's name and value); every
 * other stream's file is still version 3, byte for byte. Version 3 added `timestampColumn`, `startTimestamp` and `rateProfile` (its canonical text,
 * parsed again by [[time.RateProfile.parse]]; `null` for an option not set). Version 2, which 0.2.0
 * wrote, added the options that shape rows (a [[rows.RowShape]]). Version 1, which 0.1.0 wrote, has
 * none of them and reads as [[rows.RowShape.Plain]], the stream 0.1.0 made; versions 1 and 2 read as
 * none of version 3's options set. A file that cannot be read, or whose values break the rules
 * the options follow ([[rows.StreamDefinition.validate]], with the options' messages), is refused as
 * corrupt.
 *
 * The file is written once, when the query first starts, and whole ([[offsets.MetadataFile]]: through
 * Spark's `CheckpointFileManager.createAtomic`, as Spark writes its own offset and commit logs).
 * The first definition written wins: a start that finds the file already there reads it back.
 *
 * A checkpoint whose offset log already holds batches but whose file is gone is refused: a new
 * seed would replay other rows under the old offsets.
 */
final class DefinitionStore(metadataPath: String, hadoopConf: Configuration) {
  import DefinitionStore._
  import RandomStrings._

  private val file =
    new MetadataFile(metadataPath, FileName, hadoopConf, holds = "the seed and start time of the stream")

  /** Where the definition lives, for messages. */
  def location: String = file.location

  /**
   * The stream's definition: the stored one, checked against `options`, or on the first start
   * a new one made from `options`, stored before it is returned.
   */
  def loadOrCreate(options: SourceOptions, nowMs: => Long, drawSeed: () => Long): StreamDefinition =
    read() match {
      case Some(stored) =>
        StreamDefinition.checkRestart(stored, options.definition(stored.startTimeMs, () => stored.seed), location)
        stored
      case None =>
        file.refuseIfBatchesExist()
        store(options.definition(nowMs, drawSeed))
    }

  /** The stored definition, if the file exists. */
  def read(): Option[StreamDefinition] = file.read().map(parse)

  private def corrupt(why: String, cause: Throwable = null): Nothing = file.corrupt(why, cause)

  /**
   * Stores `definition` unless a definition is stored already, and returns the stored one: the
   * first writer's, if two starts race.
   */
  private[sparkrandomstrings] def store(definition: StreamDefinition): StreamDefinition = {
    val text = render(definition)
    val stored = file.store(text)
    if (stored == text) definition else parse(stored)
  }

  private def parse(text: String): StreamDefinition = {
    if (text.trim.isEmpty) corrupt("the file is empty")
    val json: JsonNode =
      try Mapper.readTree(text)
      catch { case NonFatal(e) => corrupt(s"not valid JSON: ${e.getMessage.linesIterator.next()}", e) }
    if (json == null || !json.isObject) corrupt("not a JSON object")
    def field(name: String): JsonNode =
      Option(json.get(name)).getOrElse(corrupt(s"the field '$name' is missing"))
    def long(name: String): Long = {
      val node = field(name)
      if (!node.isIntegralNumber || !node.canConvertToLong) corrupt(s"'$name' is not a whole number")
      node.asLong()
    }
    def int(name: String): Int = {
      val value = long(name)
      if (!value.isValidInt) corrupt(s"'$name' is out of range")
      value.toInt
    }
    def characters(name: String): CharacterSet = {
      def parsed(set: => CharacterSet) =
        try set
        catch { case e: IllegalArgumentException => corrupt(s"'$name' is invalid", e) }
      field(name).asText("") match {
        case c if c.startsWith("charset=") => parsed(CharacterSet.named(name, c.stripPrefix("charset=")))
        case a if a.startsWith("alphabet=") => parsed(CharacterSet.alphabet(name, a.stripPrefix("alphabet=")))
        case other => corrupt(s"'$name' is '$other', neither a charset nor an alphabet")
      }
    }
    def optionalLong(name: String): Option[Long] =
      if (field(name).isNull) None else Some(long(name))
    def double(name: String): Double = {
      val node = field(name)
      if (!node.isNumber) corrupt(s"'$name' is not a number")
      node.asDouble()
    }
    def boolean(name: String): Boolean = {
      val node = field(name)
      if (!node.isBoolean) corrupt(s"'$name' is not true or false")
      node.asBoolean()
    }
    def optionalText(name: String): Option[String] = {
      val node = field(name)
      if (node.isNull) None
      else if (!node.isTextual) corrupt(s"'$name' is not a string")
      else Some(node.asText())
    }
    def declaredSchema(): Option[DeclaredSchema] = {
      val schema =
        try org.apache.spark.sql.types.DataType.fromJson(field("schema").toString)
        catch { case NonFatal(e) => corrupt(s"'schema' is not a schema: ${e.getMessage}", e) }
      val fields = field("fields")
      if (!fields.isObject) corrupt("'fields' is not an object")
      schema match {
        case struct: org.apache.spark.sql.types.StructType =>
          val options = fields.properties().asScala.map { entry =>
            if (!entry.getValue.isTextual) corrupt(s"the value of '${entry.getKey}' in 'fields' is not a string")
            entry.getKey -> entry.getValue.asText()
          }.toSeq
          Some(DeclaredSchema(struct, options))
        case other => corrupt(s"'schema' is ${other.simpleString}, not a STRUCT")
      }
    }
    def profile(text: String): RateProfile =
      try RateProfile.parse(text)
      catch { case e: IllegalArgumentException => corrupt(e.getMessage, e) }
    val version = long("version")
    if (version < 1 || version > Version) {
      corrupt(s"version $version is not 1 to $Version, the versions this source reads")
    }
    // Fields are read in the order they always were, so that a file with several bad fields is
    // refused naming the same one.
    val pool: StringValues => StringValues =
      if (version == 1) identity
      else {
        val (distinctValues, distribution, zipfExponent) =
          (optionalLong(DISTINCT_VALUES), field(VALUE_DISTRIBUTION).asText(""), double(ZIPF_EXPONENT))
        _.copy(distinctValues = distinctValues, valueDistribution = distribution, zipfExponent = zipfExponent)
      }
    val shape =
      if (version == 1) RowShape.Plain
      else {
        RowShape(
          maxOutOfOrderMs = long(MAX_OUT_OF_ORDER_MS),
          lateRowFraction = double(LATE_ROW_FRACTION),
          lateByMs = optionalLong(LATE_BY_MS),
          duplicateFraction = double(DUPLICATE_FRACTION),
          maxDuplicateDistance = long(MAX_DUPLICATE_DISTANCE))
      }
    val (seed, startTimeMs, rowsPerSecond) = (long("seed"), long("startTimeMs"), long("rowsPerSecond"))
    val definition = StreamDefinition(
      seed,
      startTimeMs,
      rowsPerSecond,
      pool(StringValues(int("minLength"), int("maxLength"), characters("characters"))),
      shape,
      timestampColumn = version >= 3 && boolean(TIMESTAMP_COLUMN),
      startTimestamp = if (version >= 3) optionalLong(START_TIMESTAMP) else None,
      rateProfile = if (version >= 3) optionalText(RATE_PROFILE).map(profile) else None,
      declared = if (version >= 4) declaredSchema() else None)
    // The stored values must pass the very rules, and messages, that the options pass.
    try definition.validated()
    catch { case e: IllegalArgumentException => corrupt(e.getMessage, e) }
  }

  private def render(d: StreamDefinition): String = {
    val node = Mapper.createObjectNode()
    node.put("version", if (d.declared.isDefined) Version else 3)
    node.put("seed", d.seed)
    node.put("startTimeMs", d.startTimeMs)
    node.put("rowsPerSecond", d.rowsPerSecond)
    node.put("minLength", d.strings.minLength)
    node.put("maxLength", d.strings.maxLength)
    node.put("characters", d.strings.characters.description)
    d.shapeSettings.foreach {
      case (name, None) => node.putNull(name)
      case (name, Some(value: Long)) => node.put(name, value)
      case (name, Some(value: Double)) => node.put(name, value)
      case (name, Some(value: Boolean)) => node.put(name, value)
      case (name, Some(value)) => node.put(name, value.toString)
    }
    d.declared.foreach { declared =>
      node.set[JsonNode]("schema", Mapper.readTree(declared.schema.json))
      val fields = node.putObject("fields")
      declared.fields.foreach { case (name, value) => fields.put(name, value) }
    }
    Mapper.writeValueAsString(node)
  }
}

object DefinitionStore {

  /** The file's name inside the source's metadata folder. */
  val FileName = "random-strings-source.json"

  /** The layout of the file this source writes; it also reads versions 1 and 2, and refuses others. */
  val Version = 4
  private val Mapper = new ObjectMapper()

  /**
   * The definition of the stream a query starts, in the source's metadata folder of its
   * checkpoint: read back and checked against `options`, or fixed now (the first start), with
   * the seed given or a new one drawn, starting now by the options' clock. The V1 source and the
   * `realTime` stream both start here.
   */
  def atStart(spark: SparkSession, metadataPath: String, options: SourceOptions): StreamDefinition =
    new DefinitionStore(metadataPath, spark.sparkContext.hadoopConfiguration)
      .loadOrCreate(options, options.clock.nowMs(), () => new SecureRandom().nextLong())
}
