package io.github.sparkrandomstrings.changes

import io.github.sparkrandomstrings.options.OptionRow

/**
 * What makes the changes of a stream besides its rows' definition: the keyspace, the key column
 * and the lifecycle. It is fixed when a query first starts and kept in its checkpoint
 * ([[ChangeStore]]).
 *
 * A spec holds each option it keeps under its name, as a value of the kind its row of the table of
 * options gives it ([[options.OptionRow.typed]]): [[ChangeSpec.Stored]] says which, in their order.
 * So a spec is built by name, written and read back by name and compared on a restart by name, and
 * a new kept option needs no code here: the draw that reads it asks for it by name and kind
 * ([[whole]], [[decimal]], [[flag]], [[text]]), and a name or kind the table does not give it is
 * refused. The named accessors below are the options the lifecycle, the images and the envelopes
 * have read since 0.7.0:
 *
 *  - `key`: the declared column that holds each change's key, as declared;
 *  - `keys`: how many keys: a change's key is one of 0 to keys - 1;
 *  - `deleteFraction`: the probability that a change to a present key deletes it;
 *  - `hotKeys`: how many keys are hot (keys 0 to hotKeys - 1), when hotKeyFraction > 0;
 *  - `hotKeyFraction`: the share of the live changes that go to the hot keys;
 *  - `snapshot`: whether the stream begins with an insert of every key, in key order;
 *  - `envelope`: the format of the rows;
 *  - `updateColumns`: the declared columns an update changes, in the declared order and spelling,
 *    comma-separated; every other column keeps the cell of the key's last image, which is its
 *    insert's (None: an update changes every column);
 *  - `totalRows` ([[end]]): with untidy delivery ([[ChangeDelivery]]), the changes delivered are 0
 *    to end - 1, and where the windows are cut depends on it, so it is fixed too (None without
 *    untidy delivery, where `totalRows` may change on a restart).
 *
 * @param settings each option's name and value, in the order of [[ChangeSpec.Stored]], as the
 *                 checkpoint's file holds them; an option without a default only when set, so a
 *                 stream without `updateColumns` or untidy delivery keeps the file it always had
 */
final class ChangeSpec private (val settings: Seq[(String, Any)]) extends Serializable {
  import Changes._

  private val values: Map[String, Any] = settings.toMap

  /** The value of the kept whole option `name`, which has a default. */
  def whole(name: String): Long = required(name, "whole").asInstanceOf[Long]

  /** The value of the kept decimal option `name`, which has a default. */
  def decimal(name: String): Double = required(name, "decimal").asInstanceOf[Double]

  /** The value of the kept boolean option `name`, which has a default. */
  def flag(name: String): Boolean = required(name, "boolean").asInstanceOf[Boolean]

  /** The value of the kept text or choice option `name`, which has a default. */
  def text(name: String): String = required(name, "text", "choice").asInstanceOf[String]

  /** The value of the kept whole option `name`, if set: one without a default. */
  def wholeIfSet(name: String): Option[Long] = value(name, "whole").map(_.asInstanceOf[Long])

  /** The value of the kept text option `name`, if set: one without a default. */
  def textIfSet(name: String): Option[String] = value(name, "text", "choice").map(_.asInstanceOf[String])

  def key: String = text(KEY)
  def keys: Long = whole(KEYS)
  def deleteFraction: Double = decimal(DELETE_FRACTION)
  def hotKeys: Long = whole(HOT_KEYS)
  def hotKeyFraction: Double = decimal(HOT_KEY_FRACTION)
  def snapshot: Boolean = flag(SNAPSHOT)
  val envelope: ChangeEnvelope = ChangeOptions.envelopeNamed(text(ENVELOPE))
  def updateColumns: Option[String] = textIfSet(UPDATE_COLUMNS)
  def end: Option[Long] = wholeIfSet(TOTAL_ROWS)

  /** The declared columns an update changes, if not every one. */
  def updatedColumns: Option[Seq[String]] = updateColumns.map(_.split(",").toSeq)

  /** This spec with option `name` set to `value`, or unset (None: an option without a default). */
  def updated(name: String, value: Option[Any]): ChangeSpec =
    ChangeSpec.of(values - name ++ value.map(name -> _))

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
        s"Options that do not fit together: '$HOT_KEYS' is ${shown(HOT_KEYS, hotKeys)} and " +
          s"'$KEYS' is ${shown(KEYS, keys)}: the hot keys are keys 0 to hotKeys - 1, and " +
          s"the other changes need a key that is not hot. Set '$HOT_KEYS' below '$KEYS'.")
    }

  private def required(name: String, kinds: String*): Any =
    value(name, kinds: _*).getOrElse(throw new IllegalArgumentException(
      s"Option '$name' has no default in the table of options: read it with ${ChangeSpec.Rows(name).kind}IfSet."))

  private def value(name: String, kinds: String*): Option[Any] = {
    val row = ChangeSpec.row(name)
    if (!kinds.contains(row.kind)) {
      throw new IllegalArgumentException(
        s"Option '$name' is ${row.kind} in the table of options, not ${kinds.mkString(" or ")}.")
    }
    values.get(name)
  }

  override def equals(other: Any): Boolean = other match {
    case that: ChangeSpec => settings == that.settings
    case _ => false
  }

  override def hashCode: Int = settings.hashCode

  override def toString: String =
    settings.map { case (name, value) => s"$name=$value" }.mkString("ChangeSpec(", ", ", ")")
}

object ChangeSpec {

  /**
   * The options a spec's [[ChangeSpec.settings]] may hold, in their order: the kept change options
   * of the table, then `totalRows`, which untidy delivery fixes (an option without a default is
   * held only when set).
   */
  val Stored: Seq[String] = Changes.Table.options.kept.filter(Changes.ChangeNames.contains) :+ Changes.TOTAL_ROWS

  private val Rows: Map[String, OptionRow] = Stored.map(name => name -> Changes.Table.options(name)).toMap

  private def row(name: String): OptionRow = Rows.getOrElse(
    name,
    throw new IllegalArgumentException(
      s"'$name' is no option a change stream keeps. The kept options: ${Stored.mkString(", ")}."))

  /**
   * The spec whose settings are `settings`, by name, and every other option's default (an option
   * without one stays unset): for every spec, `of(spec.settings.toMap) == spec`.
   *
   * @throws IllegalArgumentException a name that is no kept option, or a value not of its kind
   */
  def of(settings: Map[String, Any]): ChangeSpec = {
    settings.keys.foreach(row)
    new ChangeSpec(Stored.flatMap { name =>
      settings.get(name).map(Rows(name).typed).orElse(Rows(name).defaultValue).map(name -> _)
    }.toVector)
  }

  /** The spec of a stream that sets no change option: every default. */
  val Default: ChangeSpec = of(Map.empty)
}
