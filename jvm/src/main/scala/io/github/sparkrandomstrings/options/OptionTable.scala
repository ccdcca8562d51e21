package io.github.sparkrandomstrings.options

import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}

/**
 * One row of the table of options: an option of a source, or a property of a declared column.
 * `kind` is `whole`, `decimal`, `text`, `choice` or `boolean`, or empty for a property whose
 * kind is its column's type.
 */
final case class OptionRow(name: String, kind: String, private val node: JsonNode) {

  /** The whole numbers a `whole` option allows. */
  def whole: Whole = {
    require(kind == "whole", s"table.json: option '$name' is $kind, not whole")
    Whole(node.get("min").asLong, node.get("max").asLong)
  }

  /** The decimal numbers a `decimal` option allows. */
  def real: Real = {
    require(kind == "decimal", s"table.json: option '$name' is $kind, not decimal")
    Real(
      node.get("min").asDouble,
      node.get("minIncluded").asBoolean,
      node.get("max").asDouble,
      node.get("maxIncluded").asBoolean)
  }

  /** The values a `choice` allows, as the documentation writes them. */
  def values: Seq[String] = Option(node.get("values")).toSeq.flatMap(_.elements.asScala.map(_.asText)).toVector

  /** Whether the option has a default; one without is decided elsewhere, or unset. */
  def hasDefault: Boolean = Option(node.get("default")).exists(!_.isNull)

  private def default: JsonNode =
    Option(node.get("default")).filterNot(_.isNull).getOrElse(sys.error(s"table.json: option '$name' has no default"))

  /**
   * Which reads take the option: `stream` (a batch read refuses it), `batch` (a stream refuses it)
   * or `both`. Only the `changes` source has a batch read; every option of the other two is `stream`.
   */
  def reads: String = role("reads").asText

  /** Whether the checkpoint keeps the option: a restart that changes it is refused, naming it. */
  def kept: Boolean = role("kept").asBoolean

  /** Whether the option shapes rows, and so is a keyword of the oracles; else it is one of delivery alone. */
  def shapes: Boolean = role("shapes").asBoolean

  private def role(field: String): JsonNode =
    Option(node.get(field)).getOrElse(sys.error(s"table.json: option '$name' has no '$field'"))

  /**
   * The value of this option written as `text`, by its kind: a whole or a decimal number in its
   * range, true or false, one of a choice's values as the table spells it, or text as written.
   *
   * @throws IllegalArgumentException naming the option, the value and what is allowed
   */
  def parse(text: String): Any = kind match {
    case "whole" => whole.parse(name, text)
    case "decimal" => real.parse(name, text)
    case "boolean" => Suggestions.boolean(name, text)
    case "choice" => choice(text)
    case _ => text
  }

  /**
   * The value of a `choice` that `text` names, case-insensitive and trimmed, as the table spells it.
   *
   * @throws IllegalArgumentException any other text, with the closest value
   */
  def choice(text: String): String = {
    val allowed = values
    allowed.find(_.equalsIgnoreCase(text.trim)).getOrElse {
      val hint = Suggestions.closest(text.trim, allowed).map(c => s" Did you mean '$c'?").getOrElse("")
      throw new IllegalArgumentException(
        s"Invalid value '$text' for option '$name'.$hint Allowed: ${allowed.mkString(", ")} (case-insensitive).")
    }
  }

  /** The default as a value of the option's kind ([[typed]]), if it has one. */
  def defaultValue: Option[Any] = if (!hasDefault) None
  else Some(kind match {
    case "whole" => default.asLong
    case "decimal" => default.asDouble
    case "boolean" => default.asBoolean
    case _ => default.asText
  })

  /**
   * `value` as a value of this option's kind holds it: a Long for a whole option (an Int widened),
   * a Double for a decimal one (a whole number widened), a Boolean, or a String for text and choices.
   *
   * @throws IllegalArgumentException a value of another type
   */
  def typed(value: Any): Any = (kind, value) match {
    case ("whole", n: Long) => n
    case ("whole", n: Int) => n.toLong
    case ("decimal", d: Double) => d
    case ("decimal", n: Long) => n.toDouble
    case ("decimal", n: Int) => n.toDouble
    case ("boolean", b: Boolean) => b
    case ("text" | "choice", s: String) => s
    case _ => throw new IllegalArgumentException(s"Option '$name' is $kind, and $value is not.")
  }

  def defaultLong: Long = default.asLong
  def defaultInt: Int = Math.toIntExact(default.asLong)
  def defaultDouble: Double = default.asDouble
  def defaultText: String = default.asText
}

/** A source's options, or a declared column's properties, in the order the documentation lists them. */
final case class OptionRows(rows: Seq[OptionRow]) {

  /** The row called `name`, exactly; a name missing from the table is a fault of this build. */
  def apply(name: String): OptionRow =
    rows.find(_.name == name).getOrElse(sys.error(s"table.json has no option '$name'"))

  def names: Seq[String] = rows.map(_.name)

  /** The names of the options that `reads` says `reads`, in the table's order. */
  def read(reads: String): Seq[String] = rows.filter(_.reads == reads).map(_.name)

  /** The names of the options the checkpoint keeps, in the table's order. */
  def kept: Seq[String] = rows.filter(_.kept).map(_.name)
}

/**
 * The one table of options, `table.json`: every option of this jar's three sources and every
 * property of a declared column, with its name, kind, allowed range or values, default, line of
 * documentation and role (which reads take it, whether the checkpoint keeps it, whether it shapes
 * rows). The wheel carries the same file, which the Python engine reads, so
 * both take their names, ranges and defaults, and so the words of each refusal, from one place.
 * sbt copies it into the jar from `python/src/spark_random_strings/options/`.
 */
object OptionTable {

  /** Where the jar holds the table. */
  val Resource = "/io/github/sparkrandomstrings/options/table.json"

  private lazy val root: JsonNode = {
    val stream = Option(getClass.getResourceAsStream(Resource))
      .getOrElse(sys.error(s"$Resource is missing from the jar: build it with sbt, which copies it in"))
    try new ObjectMapper().readTree(stream)
    finally stream.close()
  }

  private def texts(node: JsonNode): Seq[String] =
    Option(node).toSeq.flatMap(_.elements.asScala.map(_.asText)).toVector

  private def rows(node: JsonNode): OptionRows =
    OptionRows(node.elements.asScala.map(row =>
      OptionRow(row.get("name").asText, row.path("kind").asText(""), row)).toVector)

  /** A source's options (by its short name), the internal ones its docs do not list, and the options of its own columns. */
  final case class Source(options: OptionRows, internal: Seq[String], ownColumns: Seq[String])

  /** The source called `shortName`: `InMemoryRandomStrings`, `nexmark` or `changes`. */
  def source(shortName: String): Source = {
    val node = root.get("sources").get(shortName)
    require(node != null, s"table.json has no source '$shortName'")
    Source(rows(node.get("options")), texts(node.get("internal")), texts(node.get("ownColumns")))
  }

  /** The properties of a declared column, and the defaults that are no property's. */
  final case class Fields(
      properties: OptionRows,
      element: String,
      stringProperties: Seq[String],
      private val defaults: JsonNode,
      normalSpread: Double) {

    /** The default called `name` (`binaryMaxLength`, `minDate`, ...). */
    def default(name: String): JsonNode =
      Option(defaults.get(name)).getOrElse(sys.error(s"table.json has no field default '$name'"))
  }

  lazy val fields: Fields = {
    val node = root.get("fields")
    Fields(
      rows(node.get("properties")),
      node.get("element").asText,
      texts(node.get("stringProperties")),
      node.get("defaults"),
      node.get("normalSpread").asDouble)
  }
}
