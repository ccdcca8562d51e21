package io.github.sparkrandomstrings.typed.fields

import scala.util.control.NonFatal

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.typed.cells.CellKind

/**
 * The `values` kind of a declared column: its JSON list read as the column's type, and how one is
 * picked (`weights`, or `distribution` zipf over the list's order).
 */
private[sparkrandomstrings] object FieldValues {
  import CellKind._
  import FieldProperties._
  import FieldUnits.unitsOf

  private val Mapper = new ObjectMapper()

  def values(p: Properties): CellKind = {
    val listed = p.get(VALUES).getOrElse(
      throw new IllegalArgumentException(
        s"Column '${p.shownPath}' has kind values, but '${p.option(VALUES)}' is not set. Give the values " +
          """as a JSON array, e.g. '["new", "paid"]'."""))
    val nodes = jsonArray(listed)
    if (nodes.isEmpty) {
      throw new IllegalArgumentException(
        s"Invalid value '${listed.value}' for option '${listed.option}': the list is empty. Allowed: a " +
          "JSON array of at least one value.")
    }
    val parsed = nodes.zipWithIndex.map { case (node, i) => valueOf(p, listed, node, i) }
    val weights = p.get(WEIGHTS).map { g =>
      val ws = jsonArray(g).zipWithIndex.map { case (node, i) =>
        if (!node.isNumber || !(node.asDouble() >= 0.0) || node.asDouble().isInfinite) {
          throw new IllegalArgumentException(
            s"Invalid value '${g.value}' for option '${g.option}': its element $i ($node) is not a " +
              "number >= 0. Allowed: a JSON array of numbers >= 0, one for each value.")
        }
        node.asDouble()
      }
      if (ws.length != nodes.length) {
        throw new IllegalArgumentException(
          s"Invalid value '${g.value}' for option '${g.option}': ${ws.length} weights for " +
            s"${nodes.length} values in '${listed.option}'. Give one weight for each value.")
      }
      if (!(ws.sum > 0.0)) {
        throw new IllegalArgumentException(
          s"Invalid value '${g.value}' for option '${g.option}': the weights add up to 0. Give at " +
            "least one value a weight above 0.")
      }
      ws
    }
    val zipf = p.get(DISTRIBUTION).map { g =>
      if (!g.value.trim.equalsIgnoreCase(ZipfDistribution) && !g.value.trim.equalsIgnoreCase(UniformDistribution)) {
        throw new IllegalArgumentException(
          s"Invalid value '${g.value}' for option '${g.option}'. Allowed for kind values: uniform or zipf " +
            "(case-insensitive).")
      }
      g.value.trim.equalsIgnoreCase(ZipfDistribution)
    }.getOrElse(false)
    if (zipf && weights.isDefined) {
      throw new IllegalArgumentException(
        s"Options that do not fit together: '${p.option(WEIGHTS)}' and '${p.option(DISTRIBUTION)}' = zipf " +
          s"both say how column '${p.shownPath}' picks its values. Keep one.")
    }
    val pick =
      if (zipf) PickZipf(p.get(ZIPF_EXPONENT).fold(1.0)(g => RandomStrings.ZipfExponentRange.parse(g.option, g.value)))
      else {
        if (p.get(ZIPF_EXPONENT).isDefined) {
          throw new IllegalArgumentException(
            s"Options that do not fit together: '${p.option(ZIPF_EXPONENT)}' is set, but " +
              s"'${p.option(DISTRIBUTION)}' is not zipf. Set it to zipf, or remove '${p.option(ZIPF_EXPONENT)}'.")
        }
        weights.fold[Pick](PickUniform)(ws => PickWeighted(ws, ws.scanLeft(0.0)(_ + _).tail))
      }
    p.only(Seq(VALUES, WEIGHTS, DISTRIBUTION, ZIPF_EXPONENT), Values(parsed.map(_._1), parsed.map(_._2), pick))
  }

  private def jsonArray(g: Given): IndexedSeq[JsonNode] = {
    val node =
      try Mapper.readTree(g.value)
      catch { case NonFatal(_) => null }
    if (node == null || !node.isArray) {
      throw new IllegalArgumentException(
        s"Invalid value '${g.value}' for option '${g.option}': not a JSON array. Allowed: a JSON array, " +
          """e.g. '["a", "b"]' or '[1, 2]'.""")
    }
    (0 until node.size()).map(node.get)
  }

  /** Element `i` of a `values` list as the column's Catalyst value, and its canonical text. */
  private def valueOf(p: Properties, g: Given, node: JsonNode, i: Int): (Any, String) = {
    def refuse(allowed: String): Nothing =
      throw new IllegalArgumentException(
        s"Invalid value '${g.value}' for option '${g.option}': its element $i ($node) is not a value of " +
          s"column '${p.shownPath}' (${typeName(p.dataType)}). Allowed: $allowed.")
    p.dataType match {
      case BooleanType => if (node.isBoolean) (node.asBoolean(), node.toString) else refuse("true or false")
      case StringType =>
        if (node.isTextual) (UTF8String.fromString(node.asText()), node.toString) else refuse("JSON strings")
      case BinaryType =>
        if (node.isTextual) {
          try { (java.util.Base64.getDecoder.decode(node.asText()), node.toString) }
          catch { case _: IllegalArgumentException => refuse("base64 strings") }
        } else refuse("base64 strings")
      case FloatType | DoubleType =>
        if (!node.isNumber) refuse("JSON numbers")
        else if (p.dataType == FloatType) (node.asDouble().toFloat, node.asDouble().toFloat.toString)
        else (node.asDouble(), node.asDouble().toString)
      case t =>
        val units = unitsOf(t)
        val text = if (node.isTextual) node.asText() else if (node.isNumber) node.asText() else refuse(units.allowed)
        val value = units.read(text).getOrElse(refuse(units.allowed))
        val catalyst: Any = t match {
          case ByteType => value.toByte
          case ShortType => value.toShort
          case IntegerType | DateType => value.toInt
          case _ => value
        }
        (catalyst, text)
    }
  }
}
