package io.github.sparkrandomstrings.changes

import org.apache.spark.sql.catalyst.util.CaseInsensitiveMap
import org.apache.spark.sql.types.{StringType, StructField, StructType}

import io.github.sparkrandomstrings.options.Suggestions
import io.github.sparkrandomstrings.rows.SourceOptions
import io.github.sparkrandomstrings.typed.fields.FieldOptions

/**
 * The `changes` source's options, parsed once and checked whole at `load()`.
 *
 * @param spec the change options
 * @param rows the row options (rate, time, seed, partitions, limits) and the declared schema with
 *             its `fields.` options, parsed and checked as the random strings' typed columns are
 *             ([[rows.SourceOptions]])
 */
final case class ChangeOptions(
    spec: ChangeSpec,
    rows: SourceOptions,
    asOf: Option[Long] = None,
    history: Boolean = false) {

  /** The schema of the stream's rows: the declared columns in the envelope. */
  def schema: StructType = spec.envelope.schemaOf(rows.schema)

  /**
   * How many positions (reads) the stream has, if bounded: `totalRows`, and with untidy delivery
   * also the copies of the changes before it, floor(duplicateFraction * totalRows) ([[ChangeDelivery]]).
   */
  def positions: Option[Long] =
    rows.totalRows.map(n => n + ChangeDelivery.copiesBefore(rows.shape.duplicateFraction, n))

  /** The schema of a batch read's rows: the declared columns, and with `history` each version's validity. */
  def tableSchema: StructType =
    if (history) StructType(rows.schema.fields.toSeq ++ Changes.HistoryFields) else rows.schema

  /** Checks the options of a batch read: `asOf` and `seed` given, no option that only a stream reads. */
  private[changes] def forBatch(parameters: Map[String, String]): ChangeOptions = {
    def refuse(message: String): Nothing = throw new IllegalArgumentException(message)
    if (asOf.isEmpty) {
      refuse(s"A batch read of the ${Changes.ShortName} source makes the table after a number of changes, and " +
        s"""option '${Changes.AS_OF}' is not set. Set it to that number, e.g. .option("${Changes.AS_OF}", 1000000), """ +
        "or read the changes as a stream with spark.readStream.")
    }
    if (rows.seed.isEmpty) {
      refuse(s"A batch read of the ${Changes.ShortName} source needs the seed of the stream whose table it makes, " +
        s"and option '${Changes.SEED}' is not set. Set it to the stream's seed (a stream keeps the seed it drew " +
        "in its checkpoint).")
    }
    Changes.StreamNames.find(name => parameters.keys.exists(_.equalsIgnoreCase(name))).foreach { name =>
      refuse(s"Option '$name' says how a stream reads its changes, and a batch read makes the table after " +
        s"'${Changes.AS_OF}' changes at once. Remove '$name'.")
    }
    if (history) {
      val names = rows.schema.fieldNames
      Changes.HistoryFields.map(_.name).find(n => names.exists(_.equalsIgnoreCase(n))).foreach { name =>
        refuse(s"The declared column '$name' has the name of a column that '${Changes.HISTORY}' adds " +
          s"(${Changes.HistoryFields.map(_.name).mkString(", ")}). Rename it.")
      }
    }
    this
  }
}

object ChangeOptions {
  import Changes._

  /** The options of a stream, `spark.readStream`: [[parse]]d, after refusing those only a batch read takes. */
  def stream(parameters: Map[String, String], schema: Option[StructType]): ChangeOptions = {
    BatchNames.find(name => parameters.keys.exists(_.equalsIgnoreCase(name))).foreach { name =>
      throw new IllegalArgumentException(
        s"""Option '$name' is for a batch read, spark.read.format("$ShortName"), which makes the table """ +
          s"after a number of changes; a stream has no fixed end. Remove '$name', or read the table with " +
          "spark.read.")
    }
    parse(parameters, schema)
  }

  /** The options of a batch read, `spark.read`: [[parse]]d, then its own rules ([[ChangeOptions.forBatch]]). */
  def batch(parameters: Map[String, String], schema: Option[StructType]): ChangeOptions =
    parse(parameters, schema).forBatch(parameters)

  /**
   * Reads the options Spark passes (case-insensitive names) and the declared schema, if any.
   * In order: unknown names; the change options; the key column's rules; then the rows' options,
   * as [[rows.SourceOptions.parse]] checks them.
   *
   * @throws IllegalArgumentException naming the option, the value given and what is allowed
   */
  def parse(parameters: Map[String, String], schema: Option[StructType]): ChangeOptions = {
    val written = parameters match {
      case insensitive: CaseInsensitiveMap[String @unchecked] => insensitive.originalMap
      case other => other
    }
    Suggestions.rejectUnknown(ShortName, Names, InternalNames, written.keys.filterNot(FieldOptions.isFieldOption))
    val options = CaseInsensitiveMap(written)
    // Each kept change option by its row of the table: its kind and range, in the table's order.
    val parsed = ChangeSpec.Stored.filter(ChangeNames.contains).flatMap { name =>
      options.get(name).map(text => name -> Table.options(name).parse(text))
    }.toMap
    val key = options.get(KEY).map(_.trim).getOrElse(DefaultKey)
    if (parsed.contains(HOT_KEYS) && parsed.get(HOT_KEY_FRACTION).forall(_ == 0.0)) {
      throw new IllegalArgumentException(
        s"Options that do not fit together: '$HOT_KEYS' is ${options(HOT_KEYS)}, but '$HOT_KEY_FRACTION' is " +
          parsed.get(HOT_KEY_FRACTION).fold("not set")(_ => options(HOT_KEY_FRACTION)) + ", so no change goes to " +
          s"a hot key. Set '$HOT_KEY_FRACTION' above 0, or remove '$HOT_KEYS'.")
    }
    val spec = ChangeSpec.of(parsed - UPDATE_COLUMNS)
    spec.validate(options.get)

    val declared = schema.getOrElse(DefaultSchema)
    val added = spec.envelope.schemaOf(StructType(Nil)).fieldNames.toSeq
    declared.fields.find(f => added.exists(_.equalsIgnoreCase(f.name))).foreach { field =>
      throw new IllegalArgumentException(
        s"The declared column '${field.name}' has the name of a column that the ${spec.envelope.name} " +
          s"envelope adds (${added.mkString(", ")}). Rename it.")
    }
    val keyField = keyColumn(declared, key, options.contains(KEY))
    checkKeyColumn(keyField, spec.keys, options.get(KEYS))
    written.keys.filter(FieldOptions.isFieldOption).toSeq.sorted.foreach { name =>
      val (path, _) = FieldOptions.split(name)
      if (path.head.equalsIgnoreCase(keyField.name)) {
        throw new IllegalArgumentException(
          s"Option '$name' says how the key column '${keyField.name}' is made, and a change stream makes " +
            s"its keys itself: 0 to $KEYS - 1, as '$KEYS' says. Remove it.")
      }
    }
    val updateColumns = options.get(UPDATE_COLUMNS).map(updatedColumns(declared, keyField, _))
    val rowOptions = written.filter { case (name, _) => !ChangeNames.exists(_.equalsIgnoreCase(name)) }
    val asOf = options.get(AS_OF).map(AsOfRange.parse(AS_OF, _))
    val history = options.get(HISTORY).exists(Suggestions.boolean(HISTORY, _))
    if (options.contains(HISTORY) && asOf.isEmpty) {
      throw new IllegalArgumentException(
        s"Options that do not fit together: '$HISTORY' is ${options(HISTORY)}, but '$AS_OF' is not set. A " +
          s"history is that of the table after '$AS_OF' changes: set '$AS_OF' too, on a batch read.")
    }
    val rows = SourceOptions.parse(rowOptions, Some(declared))
    checkDelivery(rows, options)
    val end = if (ChangeDelivery.isUntidy(rows.shape)) rows.totalRows else None
    val kept = spec.updated(KEY, Some(keyField.name)).updated(UPDATE_COLUMNS, updateColumns).updated(TOTAL_ROWS, end)
    ChangeOptions(kept, rows, asOf, history)
  }

  /**
   * The delivery options' own bounds for a change stream (the random strings take any): windows and
   * lateness of at most 365 days, so that every change is read in time that a long can count, and
   * a bounded stream's reads, `totalRows` and its copies, fit a long.
   */
  private def checkDelivery(rows: SourceOptions, options: CaseInsensitiveMap[String]): Unit = {
    val shape = rows.shape
    Table.options(MAX_OUT_OF_ORDER_MS).whole.check(
      MAX_OUT_OF_ORDER_MS,
      shape.maxOutOfOrderMs,
      options.getOrElse(MAX_OUT_OF_ORDER_MS, "0"))
    shape.lateByMs.foreach(by => Table.options(LATE_BY_MS).whole.check(LATE_BY_MS, by, options(LATE_BY_MS)))
    rows.totalRows.foreach { total =>
      val copies = ChangeDelivery.copiesBefore(shape.duplicateFraction, total)
      if (copies > Long.MaxValue - total) {
        throw new IllegalArgumentException(
          s"Options that do not fit together: '$TOTAL_ROWS' is ${options(TOTAL_ROWS)} and '$DUPLICATE_FRACTION' is " +
            s"${options(DUPLICATE_FRACTION)}: the stream would read $total changes and $copies copies, more " +
            s"than ${Long.MaxValue} reads. Lower '$TOTAL_ROWS'.")
      }
    }
  }

  /** The envelope called `name`, case-insensitive; any other name is refused with the closest one. */
  def envelopeNamed(name: String): ChangeEnvelope = {
    val named = Table.options(ENVELOPE).choice(name)
    ChangeEnvelope.All.find(_.name == named).getOrElse(sys.error(s"table.json: no envelope '$named'"))
  }

  /**
   * The declared columns `text` (`updateColumns`) names, comma-separated and case-insensitive, as
   * the spec keeps them: in the declared order and spelling, joined by commas. Each is a declared
   * top-level column other than the key.
   */
  private def updatedColumns(declared: StructType, keyField: StructField, text: String): String = {
    val columns = declared.fields.map(_.name).toSeq
    val named = text.split(",", -1).map(_.trim).toSeq
    named.foreach { name =>
      if (name.isEmpty) {
        throw new IllegalArgumentException(
          s"Option '$UPDATE_COLUMNS' is '$text', which has an empty column name. Give the declared columns " +
            "an update changes, separated by commas.")
      }
      if (name.equalsIgnoreCase(keyField.name)) {
        throw new IllegalArgumentException(
          s"Option '$UPDATE_COLUMNS' names the key column '${keyField.name}', which no update changes: it " +
            "is the change's key. Remove it.")
      }
      if (!columns.exists(_.equalsIgnoreCase(name))) {
        val others = columns.filterNot(_ == keyField.name)
        val hint = Suggestions.closest(name, others).map(c => s" Did you mean '$c'?").getOrElse("")
        throw new IllegalArgumentException(
          s"Option '$UPDATE_COLUMNS' names '$name', which is no declared column.$hint The declared columns: " +
            s"${columns.mkString(", ")}.")
      }
    }
    columns.filter(column => named.exists(_.equalsIgnoreCase(column))).mkString(",")
  }

  /** The declared column `key` names, at the top level. */
  private def keyColumn(declared: StructType, key: String, keyGiven: Boolean): StructField = {
    val columns = declared.fields.map(_.name)
    val field = declared.fields.find(_.name.equalsIgnoreCase(key)).getOrElse {
      val said =
        if (keyGiven) s"Option '$KEY' is '$key', which" else s"Option '$KEY' is not set, and its default '$key'"
      val hint = Suggestions.closest(key, columns.toSeq).map(c => s" Did you mean '$c'?").getOrElse("")
      throw new IllegalArgumentException(
        s"$said names no declared column.$hint The declared columns: ${columns.mkString(", ")}. Set " +
          s"'$KEY' to the column that holds each change's key.")
    }
    field
  }

  /** The key column: one of [[Changes.KeyTypes]], holding `keys` distinct keys, and NOT NULL. */
  private def checkKeyColumn(field: StructField, keys: Long, keysText: Option[String]): Unit =
    KeyTypes.find(_._1 == field.dataType) match {
      case None =>
        throw new IllegalArgumentException(
          s"Option '$KEY' is '${field.name}', a ${field.dataType.sql} column. A key column is " +
            s"${KeyTypes.map(_._1.sql).mkString(", ")}: declare it as one of them.")
      case Some((dataType, most)) if keys > most =>
        val shown = keysText.getOrElse(s"$keys (its default)")
        throw new IllegalArgumentException(
          s"Option '$KEYS' is $shown, and the key column '${field.name}' is ${dataType.sql}, whose " +
            s"values hold at most $most keys (0 to ${most - 1}). Lower '$KEYS', or declare a wider " +
            s"key type${if (dataType == StringType) "" else " (BIGINT holds 2^62)"}.")
      case Some(_) =>
        if (field.nullable) {
          throw new IllegalArgumentException(
            s"Option '$KEY' is '${field.name}', a nullable column: every change has a key. Declare it " +
              s"${field.name} ${field.dataType.sql} NOT NULL.")
        }
    }
}
