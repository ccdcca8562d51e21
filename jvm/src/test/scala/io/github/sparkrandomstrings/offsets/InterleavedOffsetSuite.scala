package io.github.sparkrandomstrings.offsets

import io.github.sparkrandomstrings.rows.StreamDefinition
import io.github.sparkrandomstrings.text.{CharacterSet, StringValues}
import io.github.sparkrandomstrings.time.{RateProfile, RowClock}

/** The offsets of a `realTime` stream, and when each row comes to exist: the arithmetic, on every line. */
class InterleavedOffsetSuite extends org.scalatest.funsuite.AnyFunSuite {

  test(
    "partition p of n starts at offset p, and a micro-batch takes each to the first of its offsets at the frontier") {
    val start = InterleavedOffset.start(3)
    assert(start.next == Seq(0L, 1L, 2L) && start.frontier == 0L)
    val end = start.advancedTo(7L) // rows 0 to 6: partition 0 read 0, 3, 6; 1 read 1, 4; 2 read 2, 5
    assert(end.next == Seq(9L, 7L, 8L) && end.frontier == 7L)
    assert(end.rowsSince(start) == 7L)
    assert(InterleavedOffset(Vector(9L, 13L, 8L)).advancedTo(10L).next == Seq(12L, 13L, 11L))
    assert(end.advancedTo(3L) == end, "a frontier behind a partition leaves it where it is")
  }

  test("the JSON form is {\"next\":[...]} and reads back as the same offset") {
    val offset = InterleavedOffset(Vector(9L, 13L, 8L))
    assert(offset.json() == """{"next":[9,13,8]}""")
    assert(InterleavedOffset.parseJson(offset.json(), 3) == offset)
  }

  test("a partition that handed on some rows of an offset says how many, in JSON only then, and reads back") {
    val offset = InterleavedOffset(Vector(9L, 13L, 8L), Vector(0, 1, 0))
    assert(offset.json() == """{"next":[9,13,8],"handed":[0,1,0]}""")
    assert(InterleavedOffset.parseJson(offset.json(), 3) == offset)
    assert(InterleavedOffset.parseJson("""{"next":[9,13,8],"handed":[0,0,0]}""", 3).json() == """{"next":[9,13,8]}""")
    // A micro-batch takes a partition it moves to the start of an offset; one it leaves keeps its rows handed.
    assert(offset.advancedTo(14L) == InterleavedOffset(Vector(15L, 16L, 14L), Vector(0, 0, 0)))
    assert(offset.advancedTo(10L) == InterleavedOffset(Vector(12L, 13L, 11L), Vector(0, 1, 0)))
    for (json <-
        Seq("""{"next":[0,1],"handed":[1]}""", """{"next":[0,1],"handed":[0,-1]}""", """{"next":[0,1],"handed":1}""")) {
      val error = intercept[IllegalArgumentException](InterleavedOffset.parseJson(json, 2))
      assert(error.getMessage.startsWith(s"'$json' is not an offset of the InMemoryRandomStrings source"))
    }
  }

  test("a V1 offset (the last row read) continues with every partition after that row") {
    assert(InterleavedOffset.parseJson("49", 4).next == Seq(52L, 53L, 50L, 51L))
    assert(InterleavedOffset.parseJson("-1", 2).next == Seq(0L, 1L))
  }

  test("an offset of another number of partitions is refused, saying how to restart") {
    val error = intercept[IllegalArgumentException](InterleavedOffset.parseJson("""{"next":[4,5]}""", 3))
    assert(error.getMessage ==
      """'numPartitions' is 3, but this checkpoint's realTime stream was read in 2 partitions (its offset is """ +
      """{"next":[4,5]}), and its offsets are per partition. Restart with 'numPartitions' set to 2, or start a new checkpoint.""")
  }

  test("JSON that is no offset of this source is refused, naming it") {
    for (json <- Seq("""{"next":[1,0]}""", """{"next":[]}""", """{"other":1}""", "-2", "x", """{"next":[0.5]}""")) {
      val error = intercept[IllegalArgumentException](InterleavedOffset.parseJson(json, 2))
      assert(error.getMessage.startsWith(s"'$json' is not an offset of the InMemoryRandomStrings source with realTime"))
    }
  }

  test("a row comes to exist at the first ms at which the clock counts it, at a steady rate") {
    for (rate <- Seq(1L, 3L, 4L, 7L, 1000L, 10000L, 999983L); offset <- Seq(0L, 1L, 2L, 5L, 999L, 123456L)) {
      val after = RowClock.existsAfterMs(offset, rate)
      assert(RowClock.rowsAvailable(after, rate) > offset, s"rate $rate, offset $offset")
      assert(RowClock.rowsAvailable(after - 1, rate) <= offset, s"rate $rate, offset $offset")
    }
    assert(RowClock.existsAfterMs(2L, 4L) == 750L) // RowClock's worked example
    assert(RowClock.existsAfterMs(Long.MaxValue, 1L) == Long.MaxValue)
  }

  test("a row comes to exist at the first ms at which a profile's clock counts it") {
    for (text <- Seq("2s@0..1000, repeat", "1s@300, 500ms@0, 1500ms@7..7000", "250ms@1, 1s@0, 2s@9000, repeat")) {
      val profile = RateProfile.parse(text)
      for (offset <- (0L until 400L) ++ Seq(5000L, 77777L)) {
        val after = profile.existsAfterMs(offset)
        assert(profile.rowsAvailable(after) > offset, s"$text, offset $offset")
        assert(profile.rowsAvailable(after - 1) <= offset, s"$text, offset $offset")
      }
    }
    val definition = StreamDefinition(1L, 1000000L, 4L, StringValues(0, 4, CharacterSet.Alphanumeric))
    assert(definition.existsAtMs(2L) == 1000750L)
  }
}
