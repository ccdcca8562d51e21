package io.github.sparkrandomstrings.offsets

import java.io.File
import java.nio.charset.StandardCharsets
import java.nio.file.Files

import org.apache.hadoop.conf.Configuration
import org.scalatest.funsuite.AnyFunSuite

import io.github.sparkrandomstrings.rows.{RowShape, StreamDefinition}
import io.github.sparkrandomstrings.rows.SourceOptions
import io.github.sparkrandomstrings.testing.TestDirectories
import io.github.sparkrandomstrings.text.{CharacterSet, StringValues}

class DefinitionStoreSuite extends AnyFunSuite with TestDirectories {

  private def store(dir: File) = new DefinitionStore(new File(dir, "sources/0").getPath, new Configuration())
  private def options(pairs: (String, String)*) = SourceOptions.parse(pairs.toMap)
  private def file(dir: File) = new File(dir, s"sources/0/${DefinitionStore.FileName}")

  test("the first start draws the seed once, stores it with the start time, and leaves no temp file") {
    withTempDir { dir =>
      var draws = 0
      val created = store(dir).loadOrCreate(options("maxLength" -> "9"), 123456L, () => { draws += 1; 77L })
      assert(created == StreamDefinition(77L, 123456L, 10L, StringValues(0, 9, CharacterSet.Alphanumeric)))
      assert(draws == 1)
      // (The local file system adds a .crc checksum beside the file; no temporary file is left.)
      assert(file(dir).getParentFile.list().toSeq.filterNot(_.endsWith(".crc")) == Seq(DefinitionStore.FileName))
      assert(store(dir).read().contains(created))
    }
  }

  test("a restart without a seed reuses the stored seed and start time, drawing nothing") {
    withTempDir { dir =>
      val first = store(dir).loadOrCreate(options("charset" -> "unicode"), 1000L, () => 5L)
      val again = store(dir).loadOrCreate(
        options("charset" -> "unicode"),
        999999L,
        () => fail("no seed may be drawn on a restart"))
      assert(again == first)
      assert(again.seed == 5L && again.startTimeMs == 1000L)
    }
  }

  test("a restart with the stored seed given explicitly is accepted") {
    withTempDir { dir =>
      store(dir).loadOrCreate(options("seed" -> "11"), 1000L, () => fail("seed was given"))
      assert(store(dir).loadOrCreate(options("seed" -> "11"), 2000L, () => 0L).seed == 11L)
    }
  }

  test("a restart whose seed contradicts the stored one fails, naming both seeds") {
    withTempDir { dir =>
      store(dir).loadOrCreate(options("seed" -> "11"), 1000L, () => 0L)
      val error = intercept[IllegalArgumentException] {
        store(dir).loadOrCreate(options("seed" -> "12"), 2000L, () => 0L)
      }
      assert(error.getMessage.contains("seed: the checkpoint has 11, the query sets 12"))
      assert(error.getMessage.contains(file(dir).getName))
      assert(store(dir).read().get.seed == 11L, "the stored definition is left as it was")
    }
  }

  test("a restart that changes how rows look fails, naming every option that differs") {
    withTempDir { dir =>
      store(dir).loadOrCreate(options("maxLength" -> "9", "rowsPerSecond" -> "100"), 1000L, () => 3L)
      val error = intercept[IllegalArgumentException] {
        store(dir).loadOrCreate(options("maxLength" -> "10", "charset" -> "hex"), 2000L, () => 0L)
      }
      Seq(
        "rowsPerSecond: the checkpoint has 100, the query sets 10",
        "maxLength: the checkpoint has 9, the query sets 10",
        "characters: the checkpoint has charset=alphanumeric, the query sets charset=hex",
        "new checkpoint location").foreach(w => assert(error.getMessage.contains(w), error.getMessage))
      assert(!error.getMessage.contains("seed:"))
    }
  }

  test("the shaping options are stored, read back, and a restart may not change one") {
    withTempDir { dir =>
      val pairs = Seq(
        "distinctValues" -> "100",
        "maxLength" -> "2",
        "charset" -> "hex",
        "valueDistribution" -> "zipf",
        "zipfExponent" -> "1.5",
        "maxOutOfOrderMs" -> "10",
        "lateRowFraction" -> "0.5",
        "lateByMs" -> "60000",
        "duplicateFraction" -> "0.05",
        "maxDuplicateDistance" -> "3",
        "seed" -> "1",
        "rowsPerSecond" -> "1")
      val shaped = options(pairs: _*)
      val created = store(dir).loadOrCreate(shaped, 1L, () => 9L)
      val text = new String(Files.readAllBytes(file(dir).toPath), StandardCharsets.UTF_8)
      assert(text == v2Shaped.replace("\"version\":2", "\"version\":3").stripSuffix("}") +
        ""","timestampColumn":false,"startTimestamp":null,"rateProfile":null}""")
      assert(store(dir).read().contains(created))
      assert(created.strings == shaped.strings && created.shape == shaped.shape)
      val error = intercept[IllegalArgumentException] {
        store(dir).loadOrCreate(
          options(pairs.map { case ("lateRowFraction", _) => "lateRowFraction" -> "0.25"; case p => p }: _*),
          2L,
          () => 0L)
      }
      assert(error.getMessage.contains("lateRowFraction: the checkpoint has 0.5, the query sets 0.25"))
      assert(!error.getMessage.contains("duplicateFraction:"))
    }
  }

  test("the options of time are stored as version 3 and read back") {
    withTempDir { dir =>
      val timed = options(
        "seed" -> "4",
        "timestampColumn" -> "TRUE",
        "startTimestamp" -> "-1700000000000",
        "rateProfile" -> " 10s@5 , 2s@5..0,REPEAT")
      val created = store(dir).loadOrCreate(timed, 1000L, () => fail("seed was given"))
      assert(new String(Files.readAllBytes(file(dir).toPath), StandardCharsets.UTF_8) == v3Timed)
      assert(store(dir).read().contains(created))
      assert(created.timestampColumn && created.startTimestamp.contains(-1700000000000L))
      assert(created.rateProfile.map(_.canonical).contains("10s@5,2s@5..0,REPEAT"))
    }
  }

  test("a stream without the options of time is stored as version 3 with false, null and null") {
    withTempDir { dir =>
      store(dir).loadOrCreate(options("seed" -> "4"), 1000L, () => 0L)
      val text = new String(Files.readAllBytes(file(dir).toPath), StandardCharsets.UTF_8)
      assert(text.startsWith("""{"version":3,"seed":4,"startTimeMs":1000,"rowsPerSecond":10,"""))
      assert(text.endsWith(""""maxDuplicateDistance":1000,"timestampColumn":false,"startTimestamp":null,""" +
        """"rateProfile":null}"""))
    }
  }

  test("a version 2 file, as 0.2.0 wrote it, reads as none of the options of time set") {
    withTempDir { dir =>
      file(dir).getParentFile.mkdirs()
      Files.write(file(dir).toPath, v2Shaped.getBytes(StandardCharsets.UTF_8))
      val read = store(dir).read().get
      assert(!read.timestampColumn && read.startTimestamp.isEmpty && read.rateProfile.isEmpty)
      assert(read.strings.distinctValues.contains(100L) && read.eventTimeOriginMs == 1L)
    }
  }

  /** The message of a restart with `changed` on a checkpoint first started with `first`. */
  private def restartError(first: Seq[(String, String)], changed: Seq[(String, String)]): String =
    withTempDir { dir =>
      store(dir).loadOrCreate(options(first: _*), 1000L, () => 3L)
      intercept[IllegalArgumentException](store(dir).loadOrCreate(options(changed: _*), 2000L, () => 0L))
        .getMessage
    }

  test("a restart that changes timestampColumn is refused") {
    val message = restartError(Seq("timestampColumn" -> "true"), Seq("timestampColumn" -> "false"))
    assert(message.contains(": timestampColumn: the checkpoint has true, the query sets false. A checkpoint's"))
    assert(message.contains("the options that shape rows (distinctValues to rateProfile) are fixed"))
  }

  test("a restart that sets, changes or drops startTimestamp is refused") {
    assert(restartError(Nil, Seq("startTimestamp" -> "5"))
      .contains(": startTimestamp: the checkpoint has none, the query sets 5. "))
    assert(restartError(Seq("startTimestamp" -> "5"), Seq("startTimestamp" -> "6"))
      .contains(": startTimestamp: the checkpoint has 5, the query sets 6. "))
    assert(restartError(Seq("startTimestamp" -> "5"), Nil)
      .contains(": startTimestamp: the checkpoint has 5, the query sets none. "))
  }

  test("a restart that changes rateProfile is refused, naming both canonical texts") {
    assert(restartError(Seq("rateProfile" -> "10s@5, repeat"), Seq("rateProfile" -> "10s@6, repeat"))
      .contains(": rateProfile: the checkpoint has 10s@5,repeat, the query sets 10s@6,repeat. "))
    assert(restartError(Nil, Seq("rateProfile" -> "1s@10"))
      .contains(": rateProfile: the checkpoint has none, the query sets 1s@10. "))
    val toRate = restartError(Seq("rateProfile" -> "1s@10"), Seq("rowsPerSecond" -> "20"))
    assert(toRate.contains(": rowsPerSecond: the checkpoint has 10, the query sets 20; rateProfile: the " +
      "checkpoint has 1s@10, the query sets none. "))
  }

  test("a restart with the stored profile written with other spaces is accepted") {
    withTempDir { dir =>
      val first = store(dir).loadOrCreate(options("rateProfile" -> "10s@5,repeat"), 1000L, () => 3L)
      val again = store(dir).loadOrCreate(options("rateProfile" -> " 10s@5 ,  repeat"), 2000L, () => 0L)
      assert(again == first)
    }
  }

  test("a version 1 file, as 0.1.0 wrote it, reads as the plain shape; a shaping option contradicts it") {
    withTempDir { dir =>
      file(dir).getParentFile.mkdirs()
      val v1 = """{"version":1,"seed":5,"startTimeMs":7,"rowsPerSecond":10,"minLength":0,"maxLength":4,""" +
        """"characters":"charset=alphanumeric"}"""
      Files.write(file(dir).toPath, v1.getBytes(StandardCharsets.UTF_8))
      val read = store(dir).loadOrCreate(options(), 1L, () => 1L)
      assert(read == StreamDefinition(5L, 7L, 10L, StringValues(0, 4, CharacterSet.Alphanumeric), RowShape.Plain))
      val error = intercept[IllegalArgumentException] {
        store(dir).loadOrCreate(options("distinctValues" -> "10"), 1L, () => 1L)
      }
      assert(error.getMessage.contains("distinctValues: the checkpoint has none, the query sets 10"))
    }
  }

  test("options that do not shape rows may change between restarts") {
    withTempDir { dir =>
      val first = store(dir).loadOrCreate(options("numPartitions" -> "1"), 1000L, () => 3L)
      val again = store(dir).loadOrCreate(
        options("numPartitions" -> "7", "maxRowsPerTrigger" -> "5", "totalRows" -> "100"),
        2000L,
        () => 0L)
      assert(again == first)
    }
  }

  test("an alphabet round-trips through the file, whatever characters it holds") {
    withTempDir { dir =>
      val alphabet = "\"\\{}\n\uD83D\uDE00é,:"
      val created = store(dir).loadOrCreate(options("alphabet" -> alphabet), 1L, () => 2L)
      assert(store(dir).read().contains(created))
      assert(created.strings.characters == CharacterSet.alphabet("alphabet", alphabet))
    }
  }

  test("the first definition stored wins: a second start's store returns it and leaves no temp file") {
    withTempDir { dir =>
      val first = StreamDefinition(1L, 1000L, 10L, StringValues(0, 4, CharacterSet.Alphanumeric))
      val second = StreamDefinition(2L, 2000L, 10L, StringValues(0, 4, CharacterSet.Alphanumeric))
      assert(store(dir).store(first) == first)
      assert(store(dir).store(second) == first)
      assert(store(dir).read().contains(first))
      assert(file(dir).getParentFile.list().toSeq.filterNot(_.endsWith(".crc")) == Seq(DefinitionStore.FileName))
    }
  }

  private def offsetLog(dir: File, batches: Int*): Unit = {
    val log = new File(dir, "offsets")
    log.mkdirs()
    batches.foreach(b => Files.write(new File(log, b.toString).toPath, "v1\n{}\n0".getBytes(StandardCharsets.UTF_8)))
  }

  test("a checkpoint whose offset log holds batches but whose metadata file is gone fails, drawing no seed") {
    withTempDir { dir =>
      offsetLog(dir, 0, 1, 2)
      val error = intercept[IllegalStateException] {
        store(dir).loadOrCreate(options(), 1L, () => fail("no seed may be drawn for a checkpoint with batches"))
      }
      Seq(file(dir).getPath, "is missing", new File(dir, "offsets").getPath, "holds 3 batches", "the last is batch 2")
        .foreach(w => assert(error.getMessage.contains(w), error.getMessage))
      assert(!file(dir).exists(), "nothing is written")
    }
  }

  test("a checkpoint with an empty offset log (stopped before its first batch) starts a new stream") {
    withTempDir { dir =>
      offsetLog(dir)
      assert(store(dir).loadOrCreate(options(), 5L, () => 9L).seed == 9L)
    }
  }

  /** A version 3 file with the options of time set, as the source writes it. */
  private val v3Timed =
    """{"version":3,"seed":4,"startTimeMs":1000,"rowsPerSecond":10,"minLength":0,"maxLength":4,""" +
      """"characters":"charset=alphanumeric","distinctValues":null,"valueDistribution":"uniform",""" +
      """"zipfExponent":1.0,"maxOutOfOrderMs":0,"lateRowFraction":0.0,"lateByMs":null,""" +
      """"duplicateFraction":0.0,"maxDuplicateDistance":1000,"timestampColumn":true,""" +
      """"startTimestamp":-1700000000000,"rateProfile":"10s@5,2s@5..0,REPEAT"}"""

  /** A version 2 file with every shaping option set, as the source writes it. */
  private val v2Shaped =
    """{"version":2,"seed":1,"startTimeMs":1,"rowsPerSecond":1,"minLength":0,"maxLength":2,""" +
      """"characters":"charset=hex","distinctValues":100,"valueDistribution":"zipf",""" +
      """"zipfExponent":1.5,"maxOutOfOrderMs":10,"lateRowFraction":0.5,"lateByMs":60000,""" +
      """"duplicateFraction":0.05,"maxDuplicateDistance":3}"""

  private val corruptions = Seq(
    "" -> "the file is empty",
    "{\"version\":1,\"seed\":5,\"startTi" -> "not valid JSON",
    "[1,2]" -> "not a JSON object",
    "{\"version\":1}" -> "the field 'seed' is missing",
    "{\"version\":5,\"seed\":1}" -> "version 5 is not 1 to 4, the versions this source reads",
    "{\"version\":0,\"seed\":1}" -> "version 0 is not 1 to 4",
    """{"version":2,"seed":1,"startTimeMs":1,"rowsPerSecond":1,"minLength":0,"maxLength":1,"characters":"charset=hex"}""" -> "the field 'distinctValues' is missing",
    (v2Shaped.replace("\"zipf\"", "\"pareto\"")) -> "'pareto' for option 'valueDistribution'",
    (v2Shaped.replace("0.05", "1.5")) -> "'duplicateFraction': out of range",
    (v2Shaped.replace("\"lateByMs\":60000", "\"lateByMs\":null")) -> "'lateByMs' is not set",
    (v2Shaped.replace("\"distinctValues\":100", "\"distinctValues\":99999")) -> "allow only 273",
    v2Shaped.replace("\"version\":2", "\"version\":3") -> "the field 'timestampColumn' is missing",
    (v3Timed.replace("2s@5..0", "2s@5..-1")) ->
      ("Invalid value '10s@5,2s@5..-1,REPEAT' for option 'rateProfile': phase 2, '2s@5..-1', has the rate -1. " +
        "Allowed: rates from 0 to 1000000000 rows per second."),
    (v3Timed.replace("\"timestampColumn\":true", "\"timestampColumn\":\"true\"")) ->
      "'timestampColumn' is not true or false",
    (v3Timed.replace("\"10s@5,2s@5..0,REPEAT\"", "5")) -> "'rateProfile' is not a string",
    (v3Timed.replace("-1700000000000", "\"x\"")) -> "'startTimestamp' is not a whole number",
    """{"version":1,"seed":"x","startTimeMs":1,"rowsPerSecond":1,"minLength":0,"maxLength":1,"characters":"charset=hex"}""" -> "'seed' is not a whole number",
    """{"version":1,"seed":1,"startTimeMs":1,"rowsPerSecond":1,"minLength":0,"maxLength":1,"characters":"charset=nope"}""" -> "'characters' is invalid",
    """{"version":1,"seed":1,"startTimeMs":1,"rowsPerSecond":1,"minLength":0,"maxLength":1,"characters":"plain"}""" -> "neither a charset nor an alphabet",
    """{"version":1,"seed":1,"startTimeMs":1,"rowsPerSecond":0,"minLength":0,"maxLength":1,"characters":"charset=hex"}""" -> "out of range",
    """{"version":1,"seed":1,"startTimeMs":1,"rowsPerSecond":1,"minLength":0,"maxLength":99999999999,"characters":"charset=hex"}""" -> "'maxLength' is out of range")

  for (((content, why), i) <- corruptions.zipWithIndex) {
    test(s"a corrupt or truncated metadata file fails with its path and what is wrong ($i: $why)") {
      withTempDir { dir =>
        file(dir).getParentFile.mkdirs()
        Files.write(file(dir).toPath, content.getBytes(StandardCharsets.UTF_8))
        val error = intercept[IllegalStateException](store(dir).loadOrCreate(options(), 1L, () => 1L))
        assert(error.getMessage.contains(file(dir).getPath), error.getMessage)
        assert(error.getMessage.contains(why), error.getMessage)
        assert(error.getMessage.contains("corrupt or truncated"))
      }
    }
  }
}
