package io.github.sparkrandomstrings.changes

import java.io.File

import scala.collection.mutable
import scala.jdk.CollectionConverters._

import org.apache.spark.sql.Row
import org.apache.spark.sql.types.StructType

import io.github.sparkrandomstrings.changes.ChangeLifecycle.{Delete, Insert}
import io.github.sparkrandomstrings.testing.{AvailableNowQueries, DigestedRows, InvalidInputs, SparkSessionSuite}
import io.github.sparkrandomstrings.testing.Errors.messages

/** The `changes` source through Spark: its rows against the change model and the typed columns, its checkpoint and its refusals. */
class ChangesSourceSuite extends SparkSessionSuite with AvailableNowQueries {

  private val Declared = "id INT NOT NULL, name STRING, balance DECIMAL(12,2), tier STRING, at TIMESTAMP NOT NULL"
  private val Fields = Map(
    "fields.name.nullRate" -> "0.2",
    "fields.name.maxLength" -> "6",
    "fields.balance.min" -> "0",
    "fields.balance.max" -> "100000",
    "fields.tier.values" -> """["free", "pro", "team"]""",
    "fields.tier.weights" -> "[7, 2, 1]",
    "fields.at.kind" -> "eventTime")
  private val Row0Ms = 1700000000000L
  private val Rows = Map("seed" -> "7", "rowsPerSecond" -> "100", "startTimestamp" -> Row0Ms.toString)

  private def changes(options: Map[String, String], schema: String = Declared) =
    spark.readStream.format(Changes.ShortName).schema(schema).options(options).load()

  test(
    "an AvailableNow run reads each change once: the model's key and op, the typed columns' cells at its image",
    DigestedRows) {
    withTempDir { dir =>
      val options = Rows ++ Fields ++ Map(
        "keys" -> "50",
        "deleteFraction" -> "0.3",
        "totalRows" -> "1000",
        "numPartitions" -> "3",
        "maxRowsPerTrigger" -> "400")
      val df = changes(options)
      assert(df.schema == StructType.fromDDL(
        Declared + ", _op STRING NOT NULL, _seq BIGINT NOT NULL, _ts TIMESTAMP NOT NULL"))
      val rows = collectAvailableNow(df, new File(dir, "changes")).sortBy(_.getLong(6))
      assert(rows.map(_.getLong(6)) == (0L until 1000L))

      // The typed columns' rows of the same seed, schema and fields, with each row's offset beside them.
      val typed = collectAvailableNow(
        spark.readStream.format("InMemoryRandomStrings").schema(Declared + ", o BIGINT NOT NULL")
          .options(Rows ++ Fields ++ Map("fields.o.kind" -> "offset", "totalRows" -> "1000")).load(),
        new File(dir, "typed")).map(r => r.getLong(5) -> r).toMap

      val lifecycle =
        new ChangeLifecycle(
          7L,
          ChangeSpec.of(Map(Changes.KEYS -> 50L, Changes.DELETE_FRACTION -> 0.3)))
      val present = mutable.Map.empty[Int, Long] // key -> the seq of its last image
      for (row <- rows) {
        val seq = row.getLong(6)
        val key = row.getInt(0)
        lifecycle.locate(seq)
        val op = lifecycle.opOf(lifecycle.key, lifecycle.occurrence)
        assert(key.toLong == lifecycle.key && row.getString(5) == op.name, s"change $seq")
        assert(row.getTimestamp(7).getTime == Row0Ms + seq * 10L, s"change $seq commits at its row's time")
        assert((op == Insert) == !present.contains(key), s"change $seq: inserted exactly when absent")
        val image = if (op == Delete) present(key) else seq
        val cells = typed(image)
        for (i <- 1 to 4) assert(row.get(i) == cells.get(i), s"change $seq, column $i: the cell at its image $image")
        if (op == Delete) present.remove(key) else present(key) = seq
      }
      val ops = rows.groupBy(_.getString(5)).map { case (op, r) => op -> r.size }
      assert(ops("insert") >= 50 && ops("delete") > 0 && ops("update") > 0 && ops.values.sum == 1000, ops)
    }
  }

  test("a STRING key holds the key's decimal text, and the default schema is id BIGINT and a string", DigestedRows) {
    withTempDir { dir =>
      val text = collectAvailableNow(
        changes(Rows ++ Map("key" -> "k", "keys" -> "20", "totalRows" -> "40"), "k STRING NOT NULL, v INT"),
        new File(dir, "text"))
      val plain = collectAvailableNow(
        spark.readStream.format(Changes.ShortName).options(Rows ++ Map("keys" -> "20", "totalRows" -> "40")).load(),
        new File(dir, "plain"))
      assert(plain.head.schema.fieldNames.toSeq == Seq("id", "value", "_op", "_seq", "_ts"))
      val bySeq = plain.map(r => r.getLong(3) -> r.getLong(0)).toMap
      assert(text.map(r => r.getLong(3) -> r.getString(0)).toMap == bySeq.map { case (s, k) => s -> k.toString })
      assert(bySeq.filter(_._1 < 20L).values.toSeq.sorted == (0L until 20L), "round 0 inserts every key once")
    }
  }

  test("load() refuses bad change options with tests/vectors/changes_invalid_inputs.json's exact messages") {
    val vector = InvalidInputs.vector("changes_invalid_inputs.json")
    val cases = vector.get("cases").elements().asScala.toSeq
    assert(cases.size == 36)
    cases.foreach { c =>
      val options = InvalidInputs.strings(c.get("options"))
      val schema = Option(c.get("schema")).getOrElse(vector.get("declared")).asText()
      val error = intercept[IllegalArgumentException] {
        if (Option(c.get("read")).map(_.asText()).contains("batch")) {
          spark.read.format(Changes.ShortName).schema(schema).options(options).load()
        } else changes(options, schema)
      }
      assert(error.getMessage == c.get("message").asText(), c.get("name").asText())
    }
  }

  test(
    "each envelope carries the flat rows' changes: Debezium's before and after, Delta's and Flink's two rows an update",
    DigestedRows) {
    withTempDir { dir =>
      val options =
        Rows ++ Fields ++ Map("keys" -> "20", "deleteFraction" -> "0.3", "totalRows" -> "300", "numPartitions" -> "2")
      def read(envelope: String) =
        collectAvailableNow(changes(options ++ Map("envelope" -> envelope)), new File(dir, envelope))
      val flat = read("flat").map(r => r.getLong(6) -> r).toMap
      def image(r: Row) = (0 until 5).map(r.get)
      // Each key's image before change s: the image of its last insert or update before s.
      val before = mutable.Map.empty[Long, IndexedSeq[Any]]
      val last = mutable.Map.empty[Any, IndexedSeq[Any]]
      for (s <- 0L until 300L) {
        val r = flat(s)
        last.get(r.get(0)).foreach(before(s) = _)
        if (r.getString(5) == "delete") last.remove(r.get(0)) else last(r.get(0)) = image(r)
        if (r.getString(5) == "delete") assert(image(r) == before(s), "a flat delete carries the image before it")
      }

      val debezium = read("debezium")
      assert(debezium.head.schema.fieldNames.toSeq == Seq("before", "after", "source", "op", "ts_ms"))
      assert(debezium.map(_.getStruct(2).getLong(4)).sorted == (0L until 300L))
      for (r <- debezium) {
        val s = r.getStruct(2).getLong(4)
        val f = flat(s)
        val op = Map("insert" -> "c", "update" -> "u", "delete" -> "d")(f.getString(5))
        assert(r.getString(3) == op && r.getLong(4) == f.getTimestamp(7).getTime, s"change $s")
        assert(Option(r.getStruct(0)).map(image) == before.get(s).filter(_ => op != "c"), s"change $s: before")
        assert(Option(r.getStruct(1)).map(image) == (if (op == "d") None else Some(image(f))), s"change $s: after")
        assert(r.getStruct(2).toSeq.take(4) == Seq[Any](
          "spark-random-strings",
          "changes",
          f.getTimestamp(7).getTime,
          "false"))
      }

      for ((envelope, kinds) <- Seq(
          "delta" -> Map(
            "insert" -> Seq("insert"),
            "update" -> Seq("update_preimage", "update_postimage"),
            "delete" -> Seq("delete")),
          "flink" -> Map("insert" -> Seq("+I"), "update" -> Seq("-U", "+U"), "delete" -> Seq("-D")))) {
        val rows = read(envelope)
        val bySeq = rows.groupBy(_.getLong(6))
        assert(bySeq.keySet == (0L until 300L).toSet)
        assert(rows.size == 300 + flat.values.count(_.getString(5) == "update"), envelope)
        for ((s, group) <- bySeq) {
          val f = flat(s)
          val sorted = group.sortBy(r => kinds(f.getString(5)).indexOf(r.getString(5)))
          assert(sorted.map(_.getString(5)) == kinds(f.getString(5)), s"$envelope, change $s")
          assert(sorted.map(_.get(7)).distinct == Seq(f.get(7)))
          assert(image(sorted.last) == image(f), s"$envelope, change $s: the image after (or deleted)")
          if (sorted.size == 2) assert(image(sorted.head) == before(s), s"$envelope, change $s: the image before")
        }
      }
    }
  }

  test(
    "a snapshot inserts every key in key order first, as Debezium's snapshot reads; hot keys take their share after it",
    DigestedRows) {
    withTempDir { dir =>
      val options = Rows ++ Map(
        "keys" -> "50",
        "snapshot" -> "true",
        "hotKeys" -> "2",
        "hotKeyFraction" -> "0.5",
        "totalRows" -> "250")
      val flat =
        collectAvailableNow(changes(options, "id BIGINT NOT NULL, v INT"), new File(dir, "flat")).sortBy(_.getLong(3))
      assert(flat.take(50).map(r => (r.getLong(0), r.getString(2))) == (0L until 50L).map(k => (k, "insert")))
      val live = flat.drop(50)
      // Live change m is hot when floor((m + 1) / 2) > floor(m / 2): the odd ones, each on key 0 or 1.
      assert(live.zipWithIndex.filter(_._2 % 2 == 1).forall(_._1.getLong(0) < 2L))
      assert(live.zipWithIndex.filter(_._2 % 2 == 0).forall(_._1.getLong(0) >= 2L))
      // Every key is present after the snapshot: per key, the live deletes lead the inserts by 0 or 1.
      for ((key, changes) <- live.groupBy(_.getLong(0))) {
        val lead = changes.count(_.getString(2) == "delete") - changes.count(_.getString(2) == "insert")
        assert(lead == 0 || lead == 1, s"key $key")
      }
      val debezium = collectAvailableNow(
        changes(options ++ Map("envelope" -> "debezium"), "id BIGINT NOT NULL, v INT"),
        new File(dir, "debezium")).sortBy(_.getStruct(2).getLong(4))
      assert(debezium.take(50).map(r => (r.getString(3), r.getStruct(2).getString(3))) ==
        Seq.fill(49)(("r", "true")) :+ (("r", "last")))
      assert(debezium.drop(50).forall(r => r.getString(3) != "r" && r.getStruct(2).getString(3) == "false"))
    }
  }

  test(
    "a batch read with asOf is the stream's changes applied in _seq order, and with history every version of every key",
    DigestedRows) {
    withTempDir { dir =>
      val options = Rows ++ Fields ++ Map(
        "keys" -> "40",
        "deleteFraction" -> "0.3",
        "hotKeys" -> "3",
        "hotKeyFraction" -> "0.2",
        "snapshot" -> "true")
      val stream =
        collectAvailableNow(changes(options ++ Map("totalRows" -> "700")), new File(dir, "s")).sortBy(_.getLong(6))
      def table(asOf: Long, more: Map[String, String] = Map.empty) =
        spark.read.format(Changes.ShortName).schema(Declared).options(options ++ more ++ Map(
          "asOf" -> asOf.toString,
          "numPartitions" -> "3")).load().collect().toSeq
      for (n <- Seq(0, 1, 39, 40, 41, 333, 700)) {
        val replay = mutable.LinkedHashMap.empty[Any, Seq[Any]]
        stream.take(n).foreach { r =>
          if (r.getString(5) == "delete") replay.remove(r.get(0)) else replay(r.get(0)) = (0 until 5).map(r.get)
        }
        assert(
          table(n).map(r => (0 until 5).map(r.get)).sortBy(_.head.asInstanceOf[Int]) ==
            replay.values.toSeq.sortBy(_.head.asInstanceOf[Int]),
          s"asOf $n")
      }
      // The history: each insert or update begins a version, held until the key's next change.
      val history = table(700, Map("history" -> "true"))
      assert(history.head.schema.fieldNames.toSeq.takeRight(4) == Seq(
        "valid_from_seq",
        "valid_to_seq",
        "valid_from",
        "valid_to"))
      val expected = stream.filter(_.getString(5) != "delete").map { r =>
        val next = stream.find(o => o.getLong(6) > r.getLong(6) && o.get(0) == r.get(0))
        (
          (0 until 5).map(r.get),
          r.getLong(6),
          next.map(_.getLong(6)),
          r.getTimestamp(7),
          next.map(_.getTimestamp(7)).orNull)
      }
      val actual = history.map(r =>
        (
          (0 until 5).map(r.get),
          r.getLong(5),
          Option(r.get(6)).map(_.asInstanceOf[Long]),
          r.getTimestamp(7),
          r.getTimestamp(8)))
      assert(actual.sortBy(_._2) == expected.sortBy(_._2))
    }
  }

  test("a batch read needs asOf and the seed, and a stream refuses asOf and history") {
    def batch(options: Map[String, String]) = spark.read.format(Changes.ShortName).options(options).load()
    val cases: Seq[(() => Any, Seq[String])] = Seq(
      (() => batch(Map("seed" -> "1")), Seq("option 'asOf' is not set")),
      (() => batch(Map("asOf" -> "10")), Seq("option 'seed' is not set")),
      (
        () => batch(Map("asOf" -> "10", "seed" -> "1", "totalRows" -> "5")),
        Seq("Option 'totalRows'", "Remove 'totalRows'")),
      (
        () => batch(Map("asOf" -> "10", "seed" -> "1", "realTime" -> "true")),
        Seq("Option 'realTime' says how a stream reads its changes", "Remove 'realTime'")),
      (() => batch(Map("asOf" -> "-1", "seed" -> "1")), Seq("'-1'", "'asOf'")),
      (() => changes(Map("asOf" -> "10")), Seq("Option 'asOf' is for a batch read")),
      (() => changes(Map("history" -> "true")), Seq("Option 'history' is for a batch read")),
      (() => batch(Map("seed" -> "1", "history" -> "true")), Seq("'history' is true, but 'asOf' is not set")))
    for ((read, expected) <- cases) {
      val error = intercept[IllegalArgumentException](read())
      expected.foreach(words => assert(error.getMessage.contains(words), error.getMessage))
    }
    assert(batch(Map("asOf" -> "10", "seed" -> "1", "keys" -> "20")).count() == 10L)
  }

  test("a restart replays the stored changes, and one that changes a change option is refused, naming it") {
    withTempDir { dir =>
      val checkpoint = new File(dir, "c")
      val options = Rows ++ Map("keys" -> "30", "deleteFraction" -> "0.2", "totalRows" -> "60")
      val first = collectAvailableNow(changes(options), checkpoint)
      assert(first.size == 60)
      val stored =
        new String(java.nio.file.Files.readAllBytes(new File(checkpoint, "sources/0/changes-source.json").toPath))
      assert(stored == """{"version":1,"key":"id","keys":30,"deleteFraction":0.2,"hotKeys":10,""" +
        """"hotKeyFraction":0.0,"snapshot":false,"envelope":"flat"}""")
      val more = collectAvailableNow(changes(options ++ Map("totalRows" -> "90")), checkpoint)
      val fresh = collectAvailableNow(changes(options ++ Map("totalRows" -> "90")), new File(dir, "fresh"))
      assert(more.size == 30)
      assert(more.map(_.toString).sorted == fresh.filter(_.getLong(6) >= 60L).map(_.toString).sorted)
      val error = intercept[Exception](collectAvailableNow(
        changes(options ++ Map("keys" -> "31", "deleteFraction" -> "0.25")),
        checkpoint))
      assert(messages(error).contains(
        "keys: the checkpoint has 30, the query sets 31; deleteFraction: the checkpoint has 0.2, the query sets 0.25. " +
          "The options that say which changes the stream makes (key, keys, deleteFraction, hotKeys, hotKeyFraction, " +
          "snapshot, envelope) are fixed when its query first starts"))
    }
  }
}
