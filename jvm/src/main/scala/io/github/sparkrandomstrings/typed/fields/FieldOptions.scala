package io.github.sparkrandomstrings.typed.fields

import java.util.Locale

/**
 * The `fields.<column>.<property>` options (Flink DataGen's convention): each one's column path
 * and property, read from the option's name. A path names a column of the declared schema, then
 * a field of a STRUCT by its name, the elements of an ARRAY by `element`; the last part is the
 * property. A name with dots or backticks is quoted in backticks, a backtick in it doubled, as in
 * Spark SQL: ``fields.`a.b`.min``.
 */
object FieldOptions {

  /** What every per-column option's name starts with, case-insensitive. */
  val Prefix = "fields."

  /** Whether option `name` is a per-column option. */
  def isFieldOption(name: String): Boolean = name.toLowerCase(Locale.ROOT).startsWith(Prefix)

  /**
   * The parts of `name` after [[Prefix]]: the column path and the property, its last part.
   *
   * @throws IllegalArgumentException naming the option, if its backticks do not close or it
   *                                  has fewer than a column and a property
   */
  def split(name: String): (Seq[String], String) = {
    val rest = name.substring(Prefix.length)
    val parts = Seq.newBuilder[String]
    val part = new StringBuilder
    var quoted = false
    var i = 0
    def refuse(why: String): Nothing =
      throw new IllegalArgumentException(
        s"Invalid option name '$name': $why. A per-column option is named " +
          s"'${Prefix}<column>.<property>', with '.' between the names of nested fields and " +
          "backticks around a name that holds a dot, e.g. 'fields.`a.b`.min'.")
    while (i < rest.length) {
      val c = rest.charAt(i)
      if (quoted) {
        if (c == '`') {
          if (i + 1 < rest.length && rest.charAt(i + 1) == '`') {
            part += '`'
            i += 1
          } else quoted = false
        } else part += c
      } else if (c == '`') {
        if (part.nonEmpty) refuse(s"a backtick in the middle of a name, at position ${Prefix.length + i}")
        quoted = true
      } else if (c == '.') {
        if (part.isEmpty) refuse(s"an empty name at position ${Prefix.length + i}")
        parts += part.result()
        part.clear()
      } else part += c
      i += 1
    }
    if (quoted) refuse("a backtick that does not close")
    if (part.isEmpty) refuse("it ends without a property")
    parts += part.result()
    val all = parts.result()
    if (all.length < 2) refuse("it names no column, or no property")
    (all.init, all.last)
  }

  /** `path` as the messages show it: names joined by dots, quoted in backticks where needed. */
  def shown(path: Seq[String]): String =
    path.map(p => if (p.exists(c => c == '.' || c == '`') || p.isEmpty) s"`${p.replace("`", "``")}`" else p).mkString(
      ".")
}
