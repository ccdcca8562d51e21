package io.github.sparkrandomstrings.changes

import org.apache.spark.sql.catalyst.util.CaseInsensitiveMap
import org.apache.spark.sql.types.{StringType, StructField, StructType}

import io.github.sparkrandomstrings.options.Suggestions
import io.github.sparkrandomstrings.rows.SourceOptions
import io.github.sparkrandomstrings.typed.fields.FieldOptions

/**
 * What makes the changes of a stream besides its rows' definition: the keyspace, the key column
 * and the lifecycle. It is fixed when a query first starts and kept in its checkpoint
 * ([[ChangeStore]]).
 *
 * @param key            the declared column that holds each change's key, as declared
 * @param keys           how many keys: a change's key is one of 0 to keys - 1
 * @param deleteFraction the probability that a change to a present key deletes it
 * @param hotKeys        how many keys are hot (keys 0 to hotKeys - 1), when hotKeyFraction > 0
 * @param hotKeyFraction the share of the live changes that go to the hot keys
 * @param snapshot       whether the stream begins with an insert of every key, in key order
 * @param envelope       the format of the rows
 * @param updateColumns  the declared columns an update changes, in the declared order and spelling,
 *                       comma-separated; every other column keeps the cell of the key's last image,
 *                       which is its insert's (None: an update changes every column)
 * @param end            with untidy delivery ([[ChangeDelivery]]), `totalRows`: the changes delivered
 *                       are 0 to end - 1, and where the windows are cut depends on it, so it is fixed
 *                       too (None without untidy delivery, where `totalRows` may change on a restart)
 */
final case class ChangeSpec(
    key: String,
    keys: Long,
    deleteFraction: Double,
    hotKeys: Long,
    hotKeyFraction: Double,
    snapshot: Boolean,
    envelope: ChangeEnvelope,
    updateColumns: Option[String] = None,
    end: Option[Long] = None) {

  /**
   * Each setting's name and value, in the documentation's order, as the checkpoint's file holds
   * them; `updateColumns` and `end` only when set, so a stream without them keeps the file it always
   * had.
   */
  def settings: Seq[(String, Any)] = Seq(
    Changes.KEY -> key,
    Changes.KEYS -> keys,
    Changes.DELETE_FRACTION -> deleteFraction,
    Changes.HOT_KEYS -> hotKeys,
    Changes.HOT_KEY_FRACTION -> hotKeyFraction,
    Changes.SNAPSHOT -> snapshot,
    Changes.ENVELOPE -> envelope.name) ++ updateColumns.map(Changes.UPDATE_COLUMNS -> _) ++
    end.map(Changes.TOTAL_ROWS -> _)

  /** The declared columns an update changes, if not every one. */
  def updatedColumns: Option[Seq[String]] = updateColumns.map(_.split(",").toSeq)

  /**
   * Checks the rules between the change options' values (each is in its range already): hot keys
   * leave at least one cold key.
   *
   * @param written the text of option `name` as the user wrote it, if given (None: its default)
   */
  def validate(written: String => Option[String]): Unit =
    if (hotKeyFraction > 0.0 && hotKeys >= keys) {
      def shown(name: String, value: Long) = written(name).getOrElse(s"$value (its default)")
      throw new IllegalArgumentException(
        s"Options that do not fit together: '${Changes.HOT_KEYS}' is ${shown(Changes.HOT_KEYS, hotKeys)} and " +
          s"'${Changes.KEYS}' is ${shown(Changes.KEYS, keys)}: the hot keys are keys 0 to hotKeys - 1, and " +
          s"the other changes need a key that is not hot. Set '${Changes.HOT_KEYS}' below '${Changes.KEYS}'.")
    }
}

object ChangeSpec {

  /**
   * The options a spec's [[ChangeSpec.settings]] may hold, in their order: the kept change options
   * of the table, then `totalRows`, which untidy delivery fixes (an option without a default is
   * held only when set).
   */
  val Stored: Seq[String] = Changes.Table.options.kept.filter(Changes.ChangeNames.contains) :+ Changes.TOTAL_ROWS

  /**
   * The spec whose [[ChangeSpec.settings]] are `settings`, each field from its option's name: for
   * every spec, `of(spec.settings.toMap) == spec`.
   */
  def of(settings: Map[String, Any]): ChangeSpec = {
    import Changes._
    def value[T](name: String): T = settings(name).asInstanceOf[T]
    def optional[T](name: String): Option[T] = settings.get(name).map(_.asInstanceOf[T])
    ChangeSpec(
      key = value[String](KEY),
      keys = value[Long](KEYS),
      deleteFraction = value[Double](DELETE_FRACTION),
      hotKeys = value[Long](HOT_KEYS),
      hotKeyFraction = value[Double](HOT_KEY_FRACTION),
      snapshot = value[Boolean](SNAPSHOT),
      envelope = ChangeOptions.envelopeNamed(value[String](ENVELOPE)),
      updateColumns = optional[String](UPDATE_COLUMNS),
      end = optional[Long](TOTAL_ROWS))
  }
}

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
    val key = options.get(KEY).map(_.trim).getOrElse(DefaultKey)
    val keys = options.get(KEYS).map(KeysRange.parse(KEYS, _)).getOrElse(DefaultKeys)
    val deleteFraction =
      options.get(DELETE_FRACTION).map(DeleteFractionRange.parse(DELETE_FRACTION, _)).getOrElse(DefaultDeleteFraction)
    val envelope = options.get(ENVELOPE).map(envelopeNamed).getOrElse(envelopeNamed(DefaultEnvelope))
    val hotKeys = options.get(HOT_KEYS).map(HotKeysRange.parse(HOT_KEYS, _))
    val hotKeyFraction = options.get(HOT_KEY_FRACTION).map(HotKeyFractionRange.parse(HOT_KEY_FRACTION, _))
    val snapshot = options.get(SNAPSHOT).exists(Suggestions.boolean(SNAPSHOT, _))
    if (hotKeys.isDefined && hotKeyFraction.forall(_ == 0.0)) {
      throw new IllegalArgumentException(
        s"Options that do not fit together: '$HOT_KEYS' is ${options(HOT_KEYS)}, but '$HOT_KEY_FRACTION' is " +
          hotKeyFraction.fold("not set")(_ => options(HOT_KEY_FRACTION)) + ", so no change goes to a hot key. " +
          s"Set '$HOT_KEY_FRACTION' above 0, or remove '$HOT_KEYS'.")
    }
    val spec = ChangeSpec(
      key = key,
      keys = keys,
      deleteFraction = deleteFraction,
      hotKeys = hotKeys.getOrElse(DefaultHotKeys),
      hotKeyFraction = hotKeyFraction.getOrElse(0.0),
      snapshot = snapshot,
      envelope = envelope)
    spec.validate(options.get)

    val declared = schema.getOrElse(DefaultSchema)
    val added = envelope.schemaOf(StructType(Nil)).fieldNames.toSeq
    declared.fields.find(f => added.exists(_.equalsIgnoreCase(f.name))).foreach { field =>
      throw new IllegalArgumentException(
        s"The declared column '${field.name}' has the name of a column that the ${envelope.name} " +
          s"envelope adds (${added.mkString(", ")}). Rename it.")
    }
    val keyField = keyColumn(declared, key, options.contains(KEY))
    checkKeyColumn(keyField, keys, options.get(KEYS))
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
    ChangeOptions(spec.copy(key = keyField.name, updateColumns = updateColumns, end = end), rows, asOf, history)
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
  def envelopeNamed(name: String): ChangeEnvelope =
    ChangeEnvelope.All.find(_.name.equalsIgnoreCase(name.trim)).getOrElse {
      val hint = Suggestions.closest(name.trim, Envelopes).map(c => s" Did you mean '$c'?").getOrElse("")
      throw new IllegalArgumentException(
        s"Invalid value '$name' for option '$ENVELOPE'.$hint Allowed: ${Envelopes.mkString(", ")} " +
          "(case-insensitive).")
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
