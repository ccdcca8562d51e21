package io.github.sparkrandomstrings.offsets

import com.fasterxml.jackson.databind.JsonNode
import com.fasterxml.jackson.databind.node.ObjectNode

import io.github.sparkrandomstrings.options.OptionRow

/**
 * The options a checkpoint keeps, as its source's file holds them: each under its own name, written
 * by its value's type and read back by its row of the table of options ([[options.OptionTable]]):
 * its kind says how to read it and its range what it may be. A restart's options are compared
 * with them by name. [[changes.ChangeStore]] keeps the change options so, and [[nexmark.NexmarkStore]]
 * compares its configuration so: a new kept option needs no code here or there. The Python twin is
 * `offsets/kept_settings.py`.
 */
object KeptSettings {

  /** Puts each setting into `node` under its name: a whole number, a decimal, a boolean or text. */
  def write(node: ObjectNode, settings: Seq[(String, Any)]): Unit = settings.foreach {
    case (name, value: Long) => node.put(name, value)
    case (name, value: Double) => node.put(name, value)
    case (name, value: Boolean) => node.put(name, value)
    case (name, value) => node.put(name, value.toString)
  }

  /**
   * The settings of `rows` in `json`, in the rows' order, each read as its kind says and then
   * checked against its range before the next is read, so a file with several bad values is
   * refused naming the first. An option whose default is none is optional: absent from the file,
   * it is absent from the settings. A text or choice option named in `values` is given to its
   * reader there, whose refusal says what is allowed; any other is taken as stored.
   *
   * @param values the readers of the text options that hold more than text, by name
   * @throws IllegalStateException the file's refusal ([[MetadataFile.corrupt]]), naming the setting
   */
  def read(
      json: JsonNode,
      rows: Seq[OptionRow],
      file: MetadataFile,
      values: Map[String, String => Any] = Map.empty): Seq[(String, Any)] =
    rows.filter(row => row.hasDefault || json.has(row.name)).map { row =>
      val name = row.name
      val node = Option(json.get(name)).getOrElse(file.corrupt(s"the field '$name' is missing"))
      def checked[T](check: => T): T =
        try check
        catch { case e: IllegalArgumentException => file.corrupt(e.getMessage, e) }
      val value: Any = row.kind match {
        case "whole" =>
          if (!node.isIntegralNumber || !node.canConvertToLong) file.corrupt(s"'$name' is not a whole number")
          checked(row.whole.check(name, node.asLong, node.asLong.toString))
        case "decimal" =>
          if (!node.isNumber) file.corrupt(s"'$name' is not a number")
          checked(row.real.check(name, node.asDouble, node.asDouble.toString))
        case "boolean" =>
          if (!node.isBoolean) file.corrupt(s"'$name' is not true or false")
          node.asBoolean
        case _ =>
          if (!node.isTextual) file.corrupt(s"'$name' is not a string")
          values.get(name).fold[Any](node.asText)(reader => checked(reader(node.asText)))
      }
      name -> value
    }

  /**
   * Refuses a restart whose options change a kept one, naming each with the checkpoint's value
   * and the query's (`none` where one has none), the stored settings' order first.
   *
   * @param stream what the checkpoint holds, for the message: `change stream`, `Nexmark stream`
   * @param makes  what the kept options say, for the message: `which changes the stream makes`
   * @param names  the kept options, as the message lists them
   * @throws IllegalArgumentException naming each option that differs, with both values
   */
  def refuseChanged(
      stored: Seq[(String, Any)],
      requested: Seq[(String, Any)],
      stream: String,
      makes: String,
      names: Seq[String],
      location: String): Unit = {
    val (was, now) = (stored.toMap, requested.toMap)
    val all = stored.map(_._1) ++ requested.map(_._1).filterNot(was.contains)
    val contradictions = all.filter(name => was.get(name) != now.get(name)).map { name =>
      def shown(value: Option[Any]) = value.fold("none")(_.toString)
      s"$name: the checkpoint has ${shown(was.get(name))}, the query sets ${shown(now.get(name))}"
    }
    if (contradictions.nonEmpty) {
      throw new IllegalArgumentException(
        s"The options of this query contradict the $stream stored in its checkpoint ($location): " +
          contradictions.mkString("; ") + s". The options that say $makes (${names.mkString(", ")}) are fixed " +
          "when its query first starts, so that every batch can be replayed identically. Restart with the " +
          "stored values, or use a new checkpoint location to start a different stream.")
    }
  }
}
