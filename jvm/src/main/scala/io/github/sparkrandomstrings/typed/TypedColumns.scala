package io.github.sparkrandomstrings.typed

import java.util.Locale

import org.apache.spark.sql.types._

import io.github.sparkrandomstrings.options.{RandomStrings, Whole}
import io.github.sparkrandomstrings.typed.cells.{CellKind, CellSpec, RowBytes}
import io.github.sparkrandomstrings.typed.fields.{
  FieldNumbers,
  FieldOptions,
  FieldProperties,
  FieldStrings,
  FieldValues
}

/**
 * A declared schema and its `fields.<column>.<property>` options, read into the [[cells.CellSpec]] of
 * each column: every property checked against the column's type and kind, with a message that
 * names the option, the value and what is allowed. This is where the properties, their defaults
 * and their rules are written, once (the names and the common checks in [[fields.FieldProperties]], the
 * kinds' own in [[fields.FieldNumbers]], [[fields.FieldValues]] and [[fields.FieldStrings]], the types' units in
 * [[fields.FieldUnits]]); the provider's Scaladoc and `docs/typed-columns.md` list them.
 */
object TypedColumns {
  import CellKind._
  import FieldNumbers.{reals, sequence, wholes}
  import FieldProperties._
  import FieldStrings.strings
  import FieldValues.values

  /** The declared column's type, as messages name it. */
  private def typeName(t: DataType): String = t.sql

  /**
   * The cells of `schema`'s columns, in order, as the per-column `options` say.
   *
   * @param schema  the schema the user declared
   * @param options each `fields.` option, its name as the user wrote it, and its value
   * @throws IllegalArgumentException naming the column, the option, the value and what is allowed;
   *                                  or a column whose rows may not fit in Spark's ([[cells.RowBytes]])
   */
  def parse(schema: StructType, options: Seq[(String, String)]): IndexedSeq[CellSpec] = {
    if (schema.isEmpty) {
      throw new IllegalArgumentException(
        s"The ${RandomStrings.ShortName} source was given a schema with no column. Declare at " +
          "least one, e.g. .schema(\"id BIGINT, name STRING\").")
    }
    checkNames(schema, Nil)
    schema.fields.foreach(f => checkType(Seq(f.name), f.dataType))
    val byPath = group(schema, options)
    val cells = schema.fields.toIndexedSeq.map(f => spec(Seq(f.name), f.dataType, f.nullable, byPath))
    RowBytes.check(cells)
    cells
  }

  private def checkNames(struct: StructType, parent: Seq[String]): Unit = {
    val lower = struct.fields.map(_.name.toLowerCase(Locale.ROOT))
    // The first column, in the schema's order, that another one names again.
    struct.fields.zip(lower).find { case (_, l) => lower.count(_ == l) > 1 }.map(f => Seq(f._1)).foreach { twins =>
      throw new IllegalArgumentException(
        s"The declared schema has two columns named '${FieldOptions.shown(parent :+ twins.head.name)}' " +
          "(names are case-insensitive). Give each column its own name.")
    }
  }

  /** Refuses a type no generator makes, naming the column. */
  private def checkType(path: Seq[String], t: DataType): Unit = t match {
    case BooleanType | ByteType | ShortType | IntegerType | LongType | FloatType | DoubleType | StringType |
        BinaryType | DateType | TimestampType | TimestampNTZType =>
    case _: DecimalType =>
    case ArrayType(element, _) => checkType(path :+ Element, element)
    case s: StructType =>
      if (s.isEmpty) {
        throw new IllegalArgumentException(
          s"Column '${FieldOptions.shown(path)}' is a STRUCT with no field. Declare at least one field.")
      }
      checkNames(s, path)
      s.fields.foreach(f => checkType(path :+ f.name, f.dataType))
    case other =>
      throw new IllegalArgumentException(
        s"Column '${FieldOptions.shown(path)}' has type ${typeName(other)}, which this source cannot " +
          "generate. Allowed: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p,s), " +
          "STRING, BINARY, DATE, TIMESTAMP, TIMESTAMP_NTZ, and ARRAY and STRUCT of them.")
  }

  /**
   * The options grouped by the column path they name, each path as the schema spells it; a
   * path that names no column, or a property given twice, is refused.
   */
  private def group(schema: StructType, options: Seq[(String, String)]): Map[Seq[String], Map[String, Given]] = {
    val resolved = options.map { case (name, value) =>
      val (path, property) = FieldOptions.split(name)
      (resolve(schema, path, name), property, Given(name, value))
    }
    // In the order of the options' names, so that of several faults the first is always refused.
    val seen = scala.collection.mutable.LinkedHashMap.empty[(Seq[String], String), Given]
    resolved.sortBy(_._3.option).foreach { case (path, property, given) =>
      val key = (path, property.toLowerCase(Locale.ROOT))
      seen.get(key).foreach { first =>
        throw new IllegalArgumentException(
          s"Options '${first.option}' and '${given.option}' set the same property of column " +
            s"'${FieldOptions.shown(path)}'. Keep one.")
      }
      seen(key) = given
    }
    seen.toSeq.groupBy(_._1._1).map { case (path, entries) =>
      path -> entries.map { case ((_, property), given) => property -> given }.toMap
    }
  }

  /** `path` as the schema spells it (names match case-insensitively). */
  private def resolve(schema: StructType, path: Seq[String], option: String): Seq[String] = {
    var current: DataType = schema
    path.zipWithIndex.map { case (part, i) =>
      val next = current match {
        case s: StructType =>
          s.fields.find(_.name.equalsIgnoreCase(part)).map(f => (f.name, f.dataType))
        case ArrayType(element, _) if part.equalsIgnoreCase(Element) => Some((Element, element))
        case _ => None
      }
      next match {
        case Some((name, t)) =>
          current = t
          name
        case None =>
          val prefix = path.take(i)
          val known = pathsOf(schema, Nil).map(FieldOptions.shown)
          val wanted = FieldOptions.shown(prefix :+ part)
          val hint = closest(wanted, known).map(c => s" Did you mean '$c'?").getOrElse("")
          val where =
            if (prefix.isEmpty) "the declared schema has no such column"
            else s"'${FieldOptions.shown(prefix)}' (${typeName(current)}) has no part '$part'"
          throw new IllegalArgumentException(
            s"Unknown column '$wanted' in option '$option': $where.$hint Columns: ${known.mkString(", ")}.")
      }
    }
  }

  /** Every path a `fields.` option may name, in the schema's order. */
  private def pathsOf(t: DataType, prefix: Seq[String]): Seq[Seq[String]] = t match {
    case s: StructType => s.fields.toSeq.flatMap(f => (prefix :+ f.name) +: pathsOf(f.dataType, prefix :+ f.name))
    case ArrayType(element, _) => (prefix :+ Element) +: pathsOf(element, prefix :+ Element)
    case _ => Nil
  }

  /** The cell spec of the column at `path`, with the properties `byPath` gives it; `inArray`: under an ARRAY's elements. */
  private def spec(
      path: Seq[String],
      t: DataType,
      nullable: Boolean,
      byPath: Map[Seq[String], Map[String, Given]],
      inArray: Boolean = false): CellSpec = {
    val properties = new Properties(path, t, byPath.getOrElse(path, Map.empty))
    val nullRate = properties.get(NULL_RATE).fold(0.0) { g =>
      if (!nullable) {
        throw new IllegalArgumentException(
          s"Option '${g.option}' sets nulls on column '${FieldOptions.shown(path)}', which is NOT NULL. " +
            s"Declare the column nullable (remove NOT NULL), or remove '${g.option}'.")
      }
      NullRateRange.parse(g.option, g.value)
    }
    val kindText = properties.get(KIND).map(g => g -> g.value.trim)
    val kind = kindText.fold(properties.impliedKind) { case (g, text) =>
      Kinds.find(_.equalsIgnoreCase(text)).getOrElse(
        throw new IllegalArgumentException(
          s"Invalid value '${g.value}' for option '${g.option}'. Allowed: ${Kinds.mkString(", ")} " +
            "(case-insensitive)."))
    }
    val made = (kind, t) match {
      case (OffsetKind, LongType) => properties.only(Nil, RowOffset)
      case (OffsetKind, _) => properties.kindOnly(OffsetKind, "BIGINT")
      case (EventTimeKind, TimestampType | TimestampNTZType) => properties.only(Nil, EventTime(micros = true))
      case (EventTimeKind, LongType) => properties.only(Nil, EventTime(micros = false))
      case (EventTimeKind, _) => properties.kindOnly(EventTimeKind, "TIMESTAMP, TIMESTAMP_NTZ or BIGINT (epoch ms)")
      case (SequenceKind, _) if inArray =>
        val g = properties.get(KIND).get
        throw new IllegalArgumentException(
          s"Invalid value '${g.value}' for option '${g.option}': a sequence counts rows, and column " +
            s"'${properties.shownPath}' is inside an ARRAY, whose elements are no rows. Use kind sequence " +
            "on a column of the row, or another kind here.")
      case (SequenceKind, ByteType | ShortType | IntegerType | LongType) => sequence(properties)
      case (SequenceKind, _) => properties.kindOnly(SequenceKind, "TINYINT, SMALLINT, INT or BIGINT")
      case (ValuesKind, _: ArrayType | _: StructType) =>
        properties.kindOnly(ValuesKind, "a type other than ARRAY and STRUCT")
      case (ValuesKind, _) => values(properties)
      case (_, ArrayType(element, containsNull)) =>
        properties.only(Seq(MIN_SIZE, MAX_SIZE), ())
        val (minSize, maxSize) = properties.range(MIN_SIZE, MAX_SIZE, Whole(0, MaxSize), DefaultMinSize, DefaultMaxSize)
        Arrays(minSize.toInt, maxSize.toInt, spec(path :+ Element, element, containsNull, byPath, inArray = true))
      case (_, s: StructType) =>
        properties.only(Nil, ())
        Structs(s.fields.toIndexedSeq.map(f => spec(path :+ f.name, f.dataType, f.nullable, byPath, inArray)))
      case (_, BooleanType) => properties.only(Nil, Booleans)
      case (_, StringType) => strings(properties)
      case (_, BinaryType) =>
        properties.only(Seq(MIN_LENGTH, MAX_LENGTH), ())
        val (min, max) = properties.range(MIN_LENGTH, MAX_LENGTH, Whole(0, MaxSize), DefaultMinBytes, DefaultMaxBytes)
        Bytes(min.toInt, max.toInt)
      case (_, FloatType | DoubleType) => reals(properties)
      case _ => wholes(properties)
    }
    CellSpec(path, t, nullable, nullRate, made)
  }
}
