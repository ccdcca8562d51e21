package io.github.sparkrandomstrings.strings

import java.time.LocalDate

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import io.github.sparkrandomstrings.rows.{RowGenerator, StreamDefinition}
import io.github.sparkrandomstrings.rows.SourceOptions
import io.github.sparkrandomstrings.typed.cells.CellKind

class TypedColumnsSuite extends AnyFunSuite {

  private val Orders =
    "order_id BIGINT NOT NULL, user_id INT NOT NULL, amount DECIMAL(10,2), status STRING NOT NULL, " +
      "code STRING, tags ARRAY<STRING>, shipping STRUCT<city: STRING, zip: STRING>, " +
      "event_time TIMESTAMP NOT NULL, score DOUBLE, day DATE, flag BOOLEAN NOT NULL, raw BINARY"

  private val OrderFields = Seq(
    "fields.order_id.kind" -> "offset",
    "fields.user_id.min" -> "1",
    "fields.user_id.max" -> "100000",
    "fields.user_id.distribution" -> "zipf",
    "fields.user_id.zipfExponent" -> "1.2",
    "fields.amount.min" -> "0.50",
    "fields.amount.max" -> "999.99",
    "fields.amount.nullRate" -> "0.05",
    "fields.status.kind" -> "values",
    "fields.status.values" -> """["new", "paid", "shipped", "cancelled"]""",
    "fields.status.weights" -> "[2, 6, 1, 1]",
    "fields.code.pattern" -> "ORD-[0-9]{4}-[A-Z]{3}",
    "fields.tags.maxSize" -> "3",
    "fields.tags.element.kind" -> "values",
    "fields.tags.element.values" -> """["gift", "express", "fragile"]""",
    "fields.shipping.city.kind" -> "values",
    "fields.shipping.city.values" -> """["Lyon", "Porto", "Turin"]""",
    "fields.shipping.zip.pattern" -> "[0-9]{5}",
    "fields.event_time.kind" -> "eventTime",
    "fields.score.distribution" -> "normal",
    "fields.score.min" -> "0",
    "fields.score.max" -> "10",
    "fields.score.mean" -> "5",
    "fields.score.stddev" -> "2",
    "fields.day.min" -> "2024-01-01",
    "fields.day.max" -> "2024-01-31",
    "fields.raw.maxLength" -> "3")

  private def definition(ddl: String, fields: Seq[(String, String)], seed: Long = 7L): StreamDefinition = {
    val options = SourceOptions.parse(
      Map("seed" -> seed.toString, "rowsPerSecond" -> "1000") ++ fields,
      Some(StructType.fromDDL(ddl)))
    options.definition(1700000000000L, () => 0L)
  }

  /** The rows at `offsets`, each as Scala values of its columns (copied out of the reused row). */
  private def rows(d: StreamDefinition, offsets: Seq[Long]): Seq[Seq[Any]] = {
    val generator = new RowGenerator(d)
    val types = d.schema.fields.map(_.dataType)
    offsets.map { o =>
      val row = generator.row(o).copy()
      types.indices.map { i =>
        if (row.isNullAt(i)) null
        else
          row.get(i, types(i)) match {
            case bytes: Array[Byte] => bytes.toSeq // compared by value, not by reference
            case array: org.apache.spark.sql.catalyst.util.ArrayData => array.copy()
            case other => other
          }
      }
    }
  }

  private def error(ddl: String, fields: (String, String)*): String =
    intercept[IllegalArgumentException](definition(ddl, fields)).getMessage

  test("a declared schema is the stream's schema, in its order, types and nullability") {
    val d = definition(Orders, OrderFields)
    assert(d.schema == StructType.fromDDL(Orders))
  }

  test("every column is made as its fields. options say") {
    val d = definition(Orders, OrderFields)
    val made = rows(d, 0L until 20000L)
    val names = d.schema.fieldNames
    def column(name: String) = made.map(_(names.indexOf(name)))
    assert(column("order_id") == (0L until 20000L))
    val users = column("user_id").map(_.asInstanceOf[Int])
    assert(users.forall(u => u >= 1 && u <= 100000))
    assert(users.count(_ == 1) > users.count(_ == 2) && users.count(_ == 2) > users.count(_ == 10))
    val amounts = column("amount")
    val nulls = amounts.count(_ == null)
    assert(math.abs(nulls - 1000) < 4 * math.sqrt(20000 * 0.05 * 0.95), s"$nulls nulls")
    amounts.filter(_ != null).map(_.asInstanceOf[Decimal].toBigDecimal).foreach { a =>
      assert(a >= BigDecimal("0.50") && a <= BigDecimal("999.99") && a.scale == 2)
    }
    val statuses = column("status").map(_.toString)
    assert(statuses.toSet == Set("new", "paid", "shipped", "cancelled"))
    assert(math.abs(statuses.count(_ == "paid") - 12000) < 4 * math.sqrt(20000 * 0.6 * 0.4))
    assert(column("code").map(_.toString).forall(_.matches("ORD-[0-9]{4}-[A-Z]{3}")))
    val tags = column("tags").map(_.asInstanceOf[org.apache.spark.sql.catalyst.util.ArrayData])
    assert(tags.map(_.numElements()).toSet == Set(0, 1, 2, 3))
    assert(tags.flatMap(t => (0 until t.numElements()).map(t.getUTF8String(_).toString)).toSet ==
      Set("gift", "express", "fragile"))
    val shipping = column("shipping").map(_.asInstanceOf[InternalRow])
    assert(shipping.map(_.getUTF8String(0).toString).toSet == Set("Lyon", "Porto", "Turin"))
    assert(shipping.forall(_.getUTF8String(1).toString.matches("[0-9]{5}")))
    val times = column("event_time").map(_.asInstanceOf[Long])
    assert(times == (0L until 20000L).map(o => (1700000000000L + o) * 1000L))
    val scores = column("score").map(_.asInstanceOf[Double])
    assert(scores.forall(s => s >= 0.0 && s <= 10.0))
    assert(math.abs(scores.sum / scores.size - 5.0) < 0.1)
    val days = column("day").map(d => LocalDate.ofEpochDay(d.asInstanceOf[Int].toLong))
    assert(days.toSet == (1 to 31).map(LocalDate.of(2024, 1, _)).toSet)
    assert(column("flag").toSet == Set(true, false))
    assert(column("raw").map(_.asInstanceOf[Seq[Byte]].length).toSet == Set(0, 1, 2, 3))
  }

  test("a column's cells depend on its own path and options, not on the other columns") {
    val all = definition(Orders, OrderFields)
    val alone = definition(
      "code STRING, status STRING NOT NULL",
      OrderFields.filter { case (k, _) =>
        k.startsWith("fields.code.") || k.startsWith("fields.status.")
      })
    val names = all.schema.fieldNames
    val together = rows(all, 0L until 500L).map(r => (r(names.indexOf("code")), r(names.indexOf("status"))))
    assert(rows(alone, 0L until 500L).map(r => (r(0), r(1))) == together)
    assert(rows(definition(Orders, OrderFields, seed = 8L), 0L until 500L) != rows(all, 0L until 500L))
  }

  test("rows are pure functions of (seed, offset): in any order, the same cells") {
    val d = definition(Orders, OrderFields)
    val forward = rows(d, 0L until 300L)
    assert(rows(d, (0L until 300L).reverse).reverse == forward)
  }

  test("a sequence steps from start by step and wraps after end; kinds offset and eventTime") {
    val d = definition(
      "s INT NOT NULL, t SMALLINT NOT NULL",
      Seq(
        "fields.s.kind" -> "sequence",
        "fields.s.start" -> "10",
        "fields.s.step" -> "5",
        "fields.s.end" -> "22",
        "fields.t.kind" -> "sequence",
        "fields.t.start" -> "32766"))
    assert(rows(d, 0L until 7L).map(_(0)) == Seq(10, 15, 20, 10, 15, 20, 10))
    assert(rows(d, 0L until 4L).map(_(1)) == Seq[Short](32766, 32767, 32766, 32767))
  }

  test("bad per-column options are refused at parse time, naming the column, option and value") {
    assert(error("user_id INT", "fields.usr_id.min" -> "1") ==
      "Unknown column 'usr_id' in option 'fields.usr_id.min': the declared schema has no such column. " +
      "Did you mean 'user_id'? Columns: user_id.")
    assert(error("user_id INT", "fields.user_id.minimum" -> "1").startsWith(
      "Unknown or misplaced property 'minimum' in option 'fields.user_id.minimum': column 'user_id' (INT, kind " +
        "random) takes kind, nullRate, min, max, distribution."))
    assert(error("user_id INT", "fields.user_id.min" -> "9", "fields.user_id.max" -> "3") ==
      "Invalid range for column 'user_id': 'fields.user_id.min' is 9 and 'fields.user_id.max' is 3. " +
      "'min' must be less than or equal to 'max'.")
    assert(error("user_id TINYINT", "fields.user_id.max" -> "300") ==
      "Invalid value '300' for option 'fields.user_id.max': not a value of column 'user_id' (TINYINT). " +
      "Allowed: a whole number from -128 to 127.")
    assert(error("id INT NOT NULL", "fields.id.nullRate" -> "0.1") ==
      "Option 'fields.id.nullRate' sets nulls on column 'id', which is NOT NULL. Declare the column " +
      "nullable (remove NOT NULL), or remove 'fields.id.nullRate'.")
    assert(error(
      "s STRING",
      "fields.s.kind" -> "values",
      "fields.s.values" -> """["a", "b"]""",
      "fields.s.weights" -> "[1]") ==
      "Invalid value '[1]' for option 'fields.s.weights': 1 weights for 2 values in 'fields.s.values'. " +
      "Give one weight for each value.")
    assert(error("a DECIMAL(5,2)", "fields.a.max" -> "1000.00").startsWith(
      "Invalid value '1000.00' for option 'fields.a.max': not a value of column 'a' (DECIMAL(5,2))."))
    assert(error("c STRING", "fields.c.pattern" -> "^ab").startsWith(
      "Invalid value '^ab' for option 'fields.c.pattern': the anchor '^' at position 0."))
    assert(error("c STRING", "fields.c.pattern" -> "(a)\\1").startsWith(
      "Invalid value '(a)\\1' for option 'fields.c.pattern': a back-reference at position 3."))
    assert(error("m MAP<STRING, INT>").startsWith(
      "Column 'm' has type MAP<STRING, INT>, which this source cannot generate."))
    assert(error(
      "c STRING",
      "fields.c.distinctValues" -> "100",
      "fields.c.maxLength" -> "1",
      "fields.c.charset" -> "digits") ==
      "Column 'c': Invalid value '100' for option 'distinctValues': the other options allow only 11 distinct " +
      "strings (lengths 0 to 1 of 10 characters). Lower 'distinctValues', or allow more strings with a larger " +
      "'maxLength' or more characters.")
  }

  test("the random strings' own options are refused with a declared schema, and fields. options without one") {
    val withSchema = intercept[IllegalArgumentException] {
      SourceOptions.parse(Map("maxLength" -> "5"), Some(StructType.fromDDL("a STRING")))
    }
    assert(withSchema.getMessage == "Option 'maxLength' shapes the random strings' own columns, and this " +
      "query declares its schema. Set it per column instead: 'fields.<column>.maxLength'. Or remove it.")
    val without = intercept[IllegalArgumentException](SourceOptions.parse(Map("fields.a.min" -> "1")))
    assert(without.getMessage.startsWith("Option 'fields.a.min' says how a declared column is made, but no " +
      "schema was declared."))
  }

  test("a declared stream's definition file is version 4 and reads back to the same cells") {
    val d = definition(Orders, OrderFields)
    val restart = definition(
      Orders,
      OrderFields.map {
        case ("fields.user_id.max", _) => "fields.user_id.max" -> "50"
        case other => other
      })
    val error = intercept[IllegalArgumentException](StreamDefinition.checkRestart(d, restart, "here"))
    assert(
      error.getMessage.contains(
        "fields.user_id.max: the checkpoint has 100000, the query sets 50"),
      error.getMessage)
    StreamDefinition.checkRestart(d, definition(Orders, OrderFields.reverse), "here")
  }

  test("a spread is given in the type's terms, and a date's or a time's mean as a value") {
    def distribution(ddl: String, fields: (String, String)*): CellKind.Distribution =
      definition(ddl, fields).declared.get.cells.head.kind match {
        case CellKind.Wholes(_, _, d) => d
        case other => fail(s"not a whole number column: $other")
      }
    import CellKind.{Exponential, Normal}
    assert(distribution(
      "a DECIMAL(10,2)",
      "fields.a.distribution" -> "normal",
      "fields.a.mean" -> "25",
      "fields.a.stddev" -> "1.5") == Normal(2500.0, 150.0))
    assert(distribution(
      "d DATE",
      "fields.d.distribution" -> "normal",
      "fields.d.mean" -> "2000-01-02",
      "fields.d.stddev" -> "3") == Normal(10958.0, 3.0))
    assert(distribution("t TIMESTAMP_NTZ", "fields.t.distribution" -> "exponential", "fields.t.mean" -> "2") ==
      Exponential(2e6))
    assert(distribution("i INT", "fields.i.distribution" -> "normal", "fields.i.mean" -> "2.5") ==
      Normal(2.5, Int.MaxValue / 6.0 - Int.MinValue / 6.0))
    assert(error(
      "d DATE",
      "fields.d.min" -> "2020-01-01",
      "fields.d.distribution" -> "normal",
      "fields.d.mean" -> "2019-12-31") ==
      "Invalid value '2019-12-31' for option 'fields.d.mean': outside column 'd''s range [min, max]. " +
      "Allowed: from '2020-01-01' to the default max.")
    assert(error(
      "a DECIMAL(4,1)",
      "fields.a.min" -> "0",
      "fields.a.max" -> "1",
      "fields.a.distribution" -> "normal",
      "fields.a.stddev" -> "200").endsWith(
      "Allowed: a stddev of at most 110.0 (100 times max - min + 1, in the column's values)."))
  }

  test("an exponential over the whole BIGINT range draws just above its min, not at its max") {
    val d = definition("b BIGINT", Seq("fields.b.distribution" -> "exponential", "fields.b.mean" -> "1000"))
    val drawn = rows(d, 0L until 2000L).map(_.head.asInstanceOf[Long])
    assert(drawn.forall(b => b >= Long.MinValue && b < Long.MinValue + 100000L), drawn.take(5))
    assert(drawn.distinct.size > 1000, "spread over their first thousands")
  }

  test("a sequence inside an array is refused, as its elements are no rows") {
    assert(error("items ARRAY<STRUCT<qty: INT>>", "fields.items.element.qty.kind" -> "sequence") ==
      "Invalid value 'sequence' for option 'fields.items.element.qty.kind': a sequence counts rows, and " +
      "column 'items.element.qty' is inside an ARRAY, whose elements are no rows. Use kind sequence on a " +
      "column of the row, or another kind here.")
    assert(definition("s STRUCT<element: INT>", Seq("fields.s.element.kind" -> "sequence")).declared.isDefined)
  }

  test("a declaration whose rows may not fit in Spark's is refused at parse time, naming the column and its bound") {
    assert(error(
      "a ARRAY<ARRAY<STRING>>",
      "fields.a.maxSize" -> "65536",
      "fields.a.element.maxSize" -> "65536",
      "fields.a.element.element.maxLength" -> "1048576") ==
      "Column 'a' can take up to 4,503,634,525,036,560 bytes of a row, and a row must fit in 2,147,483,632 bytes " +
      "(Spark's limit). Lower 'fields.a.maxSize', 'fields.a.element.maxSize' or 'fields.a.element.element.maxLength'.")
    // Into a STRUCT's largest field; a pattern at its longest UTF-8 (é and € take 2 and 3 bytes).
    assert(error(
      "id BIGINT, s STRUCT<n: INT, t: ARRAY<STRING>, u: STRING>",
      "fields.s.t.maxSize" -> "65536",
      "fields.s.t.element.pattern" -> "x[é€]{1048575}") ==
      "Column 's' can take up to 206,158,962,744 bytes of a row, and a row must fit in 2,147,483,632 bytes " +
      "(Spark's limit). Lower 'fields.s.t.maxSize' or 'fields.s.t.element.pattern'.")
    assert(error(
      "a ARRAY<ARRAY<STRING>>",
      "fields.a.maxSize" -> "65536",
      "fields.a.element.maxSize" -> "65536",
      "fields.a.element.element.values" -> """["a", "€€€€€€€€€"]""").endsWith(
      "Lower 'fields.a.maxSize', 'fields.a.element.maxSize' or 'fields.a.element.element.values'."))
    // Columns that fit alone, but not together: the largest is named.
    def strings(n: Int) = (0 until n).map(i => s"c$i STRING").mkString(", ")
    def unicode(n: Int) =
      (0 until n).flatMap(i => Seq(s"fields.c$i.maxLength" -> "1048576", s"fields.c$i.charset" -> "unicode"))
    assert(error(strings(512), unicode(512): _*) ==
      "A row of the declared columns can take up to 2,147,487,808 bytes, and a row must fit in 2,147,483,632 " +
      "bytes (Spark's limit); its largest column, 'c0', up to 4,194,312. Lower 'fields.c0.maxLength', or " +
      "declare fewer columns.")
    assert(definition(strings(511), unicode(511)).declared.get.cells.size == 511)
  }

  test("a declared row of up to 2,147,483,632 bytes, Spark's limit, is taken; one byte more a cell is refused") {
    // 8 null bytes, an 8-byte slot, then the array: 8 bytes of size, 5,448 of null bits, 348,560 of
    // slots and 43,570 values of 49,280 bytes: 2,147,483,632 bytes in all.
    val exact = Seq("fields.a.maxSize" -> "43570", "fields.a.element.maxLength" -> "49280")
    assert(definition("a ARRAY<BINARY>", exact).declared.get.cells.size == 1)
    assert(error("a ARRAY<BINARY>", "fields.a.maxSize" -> "43570", "fields.a.element.maxLength" -> "49281") ==
      "Column 'a' can take up to 2,147,832,184 bytes of a row, and a row must fit in 2,147,483,632 bytes " +
      "(Spark's limit). Lower 'fields.a.maxSize' or 'fields.a.element.maxLength'.")
    // A column that is always null takes its slot alone, however large its values could be.
    val huge = Seq(
      "fields.a.maxSize" -> "65536",
      "fields.a.element.maxSize" -> "65536",
      "fields.a.element.element.maxLength" -> "1048576")
    assert(definition("a ARRAY<ARRAY<STRING>>", huge :+ ("fields.a.nullRate" -> "1")).declared.isDefined)
    assert(definition("a ARRAY<ARRAY<STRING>>", huge :+ ("fields.a.element.nullRate" -> "1")).declared.isDefined)
    // A wide DECIMAL keeps 16 bytes in a row or a struct, null or not; in an array a null one takes none.
    val decimals = Seq("fields.d.maxSize" -> "4000", "fields.d.element.maxSize" -> "65536")
    assert(definition("d ARRAY<ARRAY<DECIMAL(38,0)>>", decimals :+ ("fields.d.element.element.nullRate" -> "1"))
      .declared.isDefined)
    assert(error("d ARRAY<ARRAY<DECIMAL(38,0)>>", decimals :+ ("fields.d.element.element.nullRate" -> "0.5"): _*) ==
      "Column 'd' can take up to 6,324,288,520 bytes of a row, and a row must fit in 2,147,483,632 bytes " +
      "(Spark's limit). Lower 'fields.d.maxSize' or 'fields.d.element.maxSize'.")
  }
}
