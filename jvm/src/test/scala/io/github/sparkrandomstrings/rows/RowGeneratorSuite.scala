package io.github.sparkrandomstrings.rows

import java.nio.charset.StandardCharsets

import org.scalatest.funsuite.AnyFunSuite

import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.randomness.CounterRandom
import io.github.sparkrandomstrings.text.{CharacterSet, StringValues}
import io.github.sparkrandomstrings.time.{RateProfile, RowClock}

class RowGeneratorSuite extends AnyFunSuite {

  private def definition(
      characters: CharacterSet = CharacterSet.Alphanumeric,
      minLength: Int = 0,
      maxLength: Int = 4,
      seed: Long = 42L,
      rowsPerSecond: Long = 10L) =
    StreamDefinition(seed, startTimeMs = 1000000L, rowsPerSecond, StringValues(minLength, maxLength, characters))

  /** (value, ts, offset, length) of each row, copied out of the reused row. */
  private def rows(d: StreamDefinition, offsets: Seq[Long]): Seq[(String, Long, Long, Int)] = {
    val generator = new RowGenerator(d)
    offsets.map { o =>
      val row = generator.row(o)
      (row.getUTF8String(0).toString, row.getLong(1), row.getLong(2), row.getInt(3))
    }
  }

  /** Whether `set` holds `codePoint`: its characters are in code point order, so search them. */
  private def holds(set: CharacterSet, codePoint: Int): Boolean = {
    var lo = 0
    var hi = set.size - 1
    while (lo < hi) {
      val mid = (lo + hi) >>> 1
      if (set.codePoint(mid) < codePoint) lo = mid + 1 else hi = mid
    }
    set.codePoint(lo) == codePoint
  }

  test("a row depends only on (seed, offset), not on which rows were made before it") {
    val d = definition(maxLength = 12)
    val forward = rows(d, 0L until 200L)
    val backward = rows(d, (0L until 200L).reverse).reverse
    val alone = (0L until 200L).map(o => rows(d, Seq(o)).head)
    assert(forward == backward)
    assert(forward == alone)
    assert(forward.map(_._3) == (0L until 200L))
  }

  test("the same seed gives the same values; another seed gives other values") {
    val a = rows(definition(seed = 1L, minLength = 8, maxLength = 8), 0L until 50L).map(_._1)
    val again = rows(definition(seed = 1L, minLength = 8, maxLength = 8), 0L until 50L).map(_._1)
    val other = rows(definition(seed = 2L, minLength = 8, maxLength = 8), 0L until 50L).map(_._1)
    assert(a == again)
    assert(a.zip(other).count { case (x, y) => x == y } == 0)
    assert(a.distinct.size == 50, "8 alphanumeric characters should not repeat in 50 rows")
  }

  test("neighbouring rows are not shifted copies of each other") {
    val values = rows(definition(minLength = 16, maxLength = 16), 0L until 100L).map(_._1)
    values.zip(values.tail).foreach { case (a, b) => assert(a.drop(1) != b.dropRight(1), s"$a, $b") }
  }

  for ((name, set) <- CharacterSet.Named) {
    test(s"charset $name: lengths stay in [minLength, maxLength] and characters in the set") {
      val d = definition(characters = set, minLength = 3, maxLength = 9)
      val made = rows(d, 0L until 2000L)
      made.foreach { case (value, _, _, length) =>
        val codePoints = value.codePoints().toArray
        assert(codePoints.length == length)
        assert(length >= 3 && length <= 9)
        codePoints.foreach(cp => assert(holds(set, cp), f"U+$cp%04X is not in $name"))
      }
      assert(made.map(_._4).toSet == (3 to 9).toSet, "every length in the range occurs")
    }
  }

  test("small charsets use every one of their characters, about equally often") {
    for (set <- Seq(CharacterSet.Digits, CharacterSet.Hex, CharacterSet.Alphanumeric)) {
      val d = definition(characters = set, minLength = 100, maxLength = 100)
      val counts = rows(d, 0L until 2000L).flatMap(_._1).groupBy(identity).map { case (c, cs) => c -> cs.size }
      assert(counts.size == set.size, set.description)
      val expected = 200000.0 / set.size
      counts.values.foreach(n => assert(math.abs(n - expected) < expected * 0.1, s"$n vs $expected"))
    }
  }

  test("an alphabet draws only its distinct characters, each counted once") {
    val d = definition(
      characters = CharacterSet.alphabet("alphabet", "AAAAAAAAAC"),
      minLength = 1000,
      maxLength = 1000)
    val chars = rows(d, 0L until 20L).flatMap(_._1)
    assert(chars.toSet == Set('A', 'C'))
    val as = chars.count(_ == 'A')
    assert(math.abs(as - 10000) < 400, s"'A' drawn $as times of 20000: the repeats must not weigh")
  }

  test("unicode gives valid strings with no surrogate halves, and length counts code points") {
    val d = definition(characters = CharacterSet.Unicode, minLength = 0, maxLength = 40)
    val made = rows(d, 0L until 3000L)
    var beyondBmp = 0
    made.foreach { case (value, _, _, length) =>
      assert(value.codePointCount(0, value.length) == length)
      value.codePoints().toArray.foreach { cp =>
        assert(Character.isValidCodePoint(cp) && Character.getType(cp) != Character.SURROGATE)
        assert(Character.getType(cp) != Character.CONTROL, f"U+$cp%04X is a control character")
        if (cp > 0xFFFF) beyondBmp += 1
      }
      // Valid UTF-8 round-trips exactly.
      assert(new String(value.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8) == value)
    }
    assert(beyondBmp > 0, "most of unicode lies beyond the Basic Multilingual Plane")
  }

  test("ts is start time + floor(offset * 1000 / rowsPerSecond)") {
    val made = rows(definition(rowsPerSecond = 4L), Seq(0L, 1L, 2L, 3L, 4L, 5L, 1000L))
    assert(made.map(_._2) == Seq(1000000L, 1000250L, 1000500L, 1000750L, 1001000L, 1001250L, 1250000L))
    val fast = rows(definition(rowsPerSecond = 3000L), Seq(0L, 1L, 2L, 3L, 2999L, 3000L))
    assert(fast.map(_._2) == Seq(1000000L, 1000000L, 1000000L, 1000001L, 1000999L, 1001000L))
  }

  test("startTimestamp is ts of offset 0, whenever the stream first started") {
    val fixed = definition(rowsPerSecond = 4L).copy(startTimestamp = Some(-1000L))
    val made = rows(fixed, 0L until 100L)
    assert(rows(fixed.copy(startTimeMs = 987654321L), 0L until 100L) == made)
    assert(made.map(_._2).take(6) == Seq(-1000L, -750L, -500L, -250L, 0L, 250L))
    assert(made.map(r => (r._1, r._3, r._4)) == rows(definition(rowsPerSecond = 4L), 0L until 100L).map(r =>
      (r._1, r._3, r._4)))
  }

  test("with timestampColumn, a fifth field holds ts in microseconds; the rest of the row is unchanged") {
    for (shaped <- Seq(RowShape.Plain, RowShape.Plain.copy(duplicateFraction = 0.5, maxOutOfOrderMs = 700L))) {
      val without = definition(rowsPerSecond = 3L).copy(shape = shaped)
      val generator = new RowGenerator(without.copy(timestampColumn = true))
      val reference = rows(without, 0L until 300L)
      (0L until 300L).foreach { o =>
        val row = generator.row(o)
        assert(row.numFields == 5)
        assert((row.getUTF8String(0).toString, row.getLong(1), row.getLong(2), row.getInt(3)) == reference(o.toInt))
        assert(row.getLong(4) == row.getLong(1) * 1000L)
      }
    }
  }

  test("the timestamp column saturates at the long bounds where ts in microseconds would not fit") {
    assert(RowClock.timestampMicros(Long.MaxValue / 1000L) == Long.MaxValue / 1000L * 1000L)
    assert(RowClock.timestampMicros(Long.MaxValue / 1000L + 1L) == Long.MaxValue)
    assert(RowClock.timestampMicros(Long.MinValue / 1000L) == Long.MinValue / 1000L * 1000L)
    assert(RowClock.timestampMicros(Long.MinValue / 1000L - 1L) == Long.MinValue)
    val late = definition().copy(timestampColumn = true, startTimestamp = Some(Long.MaxValue - 5L))
    val row = new RowGenerator(late).row(1000L)
    assert(row.getLong(1) == Long.MaxValue && row.getLong(4) == Long.MaxValue)
  }

  test("with a profile, ts is the origin + E(offset), whichever order rows are made in") {
    val profile = RateProfile.parse("1s@3, 2s@0..500, 400ms@0, 1500ms@9000, repeat")
    val profiled = definition().copy(rateProfile = Some(profile), startTimestamp = Some(1700000000000L))
    val offsets = 0L until 20000L
    val forward = rows(profiled, offsets)
    assert(forward.map(_._2) == offsets.map(o => 1700000000000L + profile.eventOffsetMs(o)))
    assert(rows(profiled, offsets.reverse).reverse == forward)
    assert(forward.map(r => (r._1, r._3, r._4)) == rows(definition(), offsets).map(r => (r._1, r._3, r._4)))
  }

  test("with a profile, repeats carry their original's ts and out-of-order rows move back from E") {
    val profile = RateProfile.parse("700ms@50..2000, 1s@20, repeat")
    val shape = RowShape.Plain.copy(duplicateFraction = 0.3, maxDuplicateDistance = 40L, maxOutOfOrderMs = 250L)
    val profiled = definition().copy(rateProfile = Some(profile), shape = shape)
    val disorder = new RowDisorder(profiled.seed, shape)
    rows(profiled, 0L until 5000L).foreach { case (_, ts, offset, _) =>
      val original = disorder.originalOf(offset)
      assert(ts == disorder.eventTimeMs(1000000L + profile.eventOffsetMs(original), original), s"offset $offset")
    }
  }

  test("fixed lengths: minLength == maxLength, including empty strings") {
    assert(rows(definition(minLength = 7, maxLength = 7), 0L until 100L).forall(_._4 == 7))
    assert(rows(definition(minLength = 0, maxLength = 0), 0L until 100L).forall(_._1 == ""))
  }

  test("the longest allowed string, 1,048,576 unicode characters, is made whole") {
    val cap = RandomStrings.LengthCap
    val (value, _, _, length) = rows(definition(CharacterSet.Unicode, cap, cap), Seq(5L)).head
    assert(length == cap)
    assert(value.codePointCount(0, value.length) == cap)
  }

  test("the ASCII fast path draws exactly what nextBounded draws, character by character") {
    for (size <- Seq(1, 2, 10, 16, 62, 95); offset <- Seq(0L, 1L, 977L, Long.MaxValue)) {
      val table = Array.tabulate(size)(i => (33 + i).toByte)
      val slow = new CounterRandom(-7L)
      val fast = new CounterRandom(-7L)
      slow.reset(offset)
      fast.reset(offset)
      // Odd counts leave a spare half-word for the next fill to start from; 0 must keep it.
      for (count <- Seq(7, 0, 1, 300, 2)) {
        val expected = Array.fill(count)(table(slow.nextBounded(size)))
        val filled = new Array[Byte](count + 3)
        fast.fillFrom(table, filled, 3, count)
        assert(filled.drop(3).toSeq == expected.toSeq, s"size $size, offset $offset, count $count")
        assert(fast.nextLong() == slow.nextLong(), "both streams stand at the same place after it")
      }
    }
  }
}
