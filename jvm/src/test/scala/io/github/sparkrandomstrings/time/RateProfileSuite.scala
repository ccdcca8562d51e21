package io.github.sparkrandomstrings.time

import org.scalatest.funsuite.AnyFunSuite

/**
 * `rateProfile`: its parser's rules and messages, and its arithmetic, checked against an
 * independent computation that sums the rate millisecond by millisecond, as the spec defines it.
 */
class RateProfileSuite extends AnyFunSuite {
  import RateProfile.parse

  private def error(text: String): String = intercept[IllegalArgumentException](parse(text)).getMessage

  private def message(text: String, why: String, allowed: String = RateProfile.Phases): String =
    s"Invalid value '$text' for option 'rateProfile': $why. Allowed: $allowed."

  /** The rate during ms `k` of `phase`, straight from the definition: the steps' midpoints, rounded down. */
  private def rateDuring(phase: RateProfile.Phase, k: Long): Long =
    if (phase.from == phase.to) phase.from
    else {
      val steps = BigInt(phase.durationMs + 999) / 1000
      val j = k / 1000
      (BigInt(phase.from) + floorDiv(BigInt(phase.to - phase.from) * (2 * j + 1), 2 * steps)).toLong
    }

  private def floorDiv(a: BigInt, b: BigInt): BigInt = {
    val (q, r) = a /% b
    if (r != 0 && (r.signum != b.signum)) q - 1 else q
  }

  /** The rate during each ms of the first `ms` ms, phase by phase, cycle by cycle, then the last rate. */
  private def ratesByMs(profile: RateProfile, ms: Int): Array[Long] = {
    val rates = Array.newBuilder[Long]
    var t = 0L
    var cycleDone = false
    while (t < ms && !(cycleDone && !profile.repeats)) {
      profile.phases.foreach { phase =>
        var k = 0L
        while (k < phase.durationMs && t < ms) {
          rates += rateDuring(phase, k)
          k += 1
          t += 1
        }
      }
      cycleDone = true
    }
    while (t < ms) {
      rates += profile.lastRate
      t += 1
    }
    rates.result()
  }

  /** C(t) for t = 0 to ms, by summing the rate of every millisecond. */
  private def independentC(profile: RateProfile, ms: Int): Array[BigInt] =
    ratesByMs(profile, ms).scanLeft(BigInt(0))(_ + _)

  private val mixed = parse("1500ms@7, 2500ms@3..1000, 700ms@0, 1s@1000..0, 2ms@5, 3s@0..2, 1200ms@40..41, repeat")
  private val endless = parse("1500ms@7, 2500ms@3..1000, 700ms@0, 2s@1000..9")

  // The parser: every rule, with its message.

  test("no phase: empty, blank, or only repeat") {
    for (text <- Seq("", "   ", "repeat", " REPEAT ", ",repeat")) {
      assert(error(text) == message(text, "no phase"), text)
    }
  }

  test("an item not of the form DURATION@RATE or DURATION@FROM..TO names the phase and the item") {
    for ((text, number, item) <- Seq(
        ("60s", 1, "60s"),
        ("10s@5, 60s@", 2, "60s@"),
        ("10s@5..", 1, "10s@5.."),
        ("1.5s@5", 1, "1.5s@5"),
        ("10s@+5", 1, "10s@+5"),
        ("10 s@5", 1, "10 s@5"),
        ("10s@5,,10s@6", 2, ""),
        ("10s@5,", 2, ""))) {
      assert(
        error(text) == message(text, s"phase $number, '$item', is not DURATION@RATE or DURATION@FROM..TO"),
        text)
    }
  }

  test("an unknown unit names the unit, '' for none, case-sensitively") {
    val allowed = "a duration in ms, s or m (e.g. 500ms, 30s, 2m)"
    for ((text, item, unit) <- Seq(
        ("10h@5", "10h@5", "h"),
        ("10s@5, 10@5", "10@5", ""),
        ("10MS@5..6", "10MS@5..6", "MS"),
        ("10sec@5", "10sec@5", "sec"))) {
      val number = if (text.contains(",")) 2 else 1
      assert(error(text) == message(text, s"phase $number, '$item', has the unit '$unit'", allowed), text)
    }
  }

  test("a duration of 0 or over 60m names it in ms, a ramp's too") {
    val allowed = "a duration from 1ms to 60m"
    for ((text, ms) <- Seq(
        ("0s@5", "0"),
        ("0ms@1..5", "0"),
        ("61m@5", "3660000"),
        ("3600001ms@5", "3600001"),
        ("99999999999999999999m@5", "5999999999999999999940000"))) {
      assert(error(text) == message(text, s"phase 1, '$text', lasts $ms ms", allowed), text)
    }
    assert(parse("1ms@5").phases.head.durationMs == 1L)
    assert(parse("60m@5").phases.head.durationMs == 3600000L)
  }

  test("a negative or too large rate names it, FROM before TO") {
    val allowed = "rates from 0 to 1000000000 rows per second"
    for ((text, rate) <- Seq(
        ("10s@-1", "-1"),
        ("10s@1000000001", "1000000001"),
        ("10s@5..-3", "-3"),
        ("10s@-7..-3", "-7"),
        ("10s@05..99999999999999999999", "99999999999999999999"))) {
      assert(error(text) == message(text, s"phase 1, '$text', has the rate $rate", allowed), text)
    }
    assert(parse("10s@-0..1000000000").phases.head == RateProfile.Phase(10000L, 0L, 1000000000L))
  }

  test("repeat anywhere but last is refused, naming its phase") {
    for ((text, number) <- Seq(("10s@5, repeat, 10s@6", 2), ("repeat, 10s@5", 1), ("Repeat,repeat", 1))) {
      assert(error(text) == message(text, s"phase $number is 'repeat', which only ends a profile"), text)
    }
  }

  test("more than 1000 phases are refused; 1000 are accepted, repeat not counted") {
    val thousand = Seq.fill(1000)("1ms@1").mkString(",")
    assert(parse(thousand + ",repeat").phases.size == 1000)
    val text = thousand + ",1ms@1"
    assert(error(text) == message(text, "1001 phases", "at most 1000 phases"))
  }

  test("a profile that makes no row (every rate 0, or ramps between 0 and 1 that round down to 0) is refused") {
    for (text <- Seq("10s@0, 5s@0..0, repeat", "10s@0", "2s@0..1, 1s@1..0, 3s@0, repeat")) {
      assert(
        error(text) == message(
          text,
          "every phase has the rate 0, so no row would ever exist",
          "a phase with a rate above 0"),
        text)
    }
  }

  test("a profile that ends at the rate 0 without repeat is refused; with repeat it is accepted") {
    for (text <- Seq("10s@5, 10s@5..0", "10s@5, 1s@0")) {
      assert(
        error(text) == message(
          text,
          "it ends at the rate 0 without repeat, and the last rate holds, so the stream would stop for ever",
          "a last rate above 0, or repeat at the end"),
        text)
      assert(parse(text + ", repeat").repeats)
    }
  }

  test("the first error wins: items in order, then the count, then the rules on the rates") {
    assert(error("10h@5, 0s@-1").contains("phase 1, '10h@5', has the unit 'h'"))
    assert(error("0s@-1").contains("lasts 0 ms"))
    assert(error("10s@5, repeat, 10h@5").contains("phase 2 is 'repeat'"))
    assert(error(Seq.fill(1001)("1ms@0").mkString(",") + ",x").contains("phase 1002, 'x', is not"))
    assert(error(Seq.fill(1001)("1ms@0").mkString(",")).contains("1001 phases"))
  }

  test("the canonical text is the items trimmed and joined by commas, as written otherwise") {
    val profile = parse(" 60s@1000 ,\t30s@01000..20000,  REPEAT ")
    assert(profile.canonical == "60s@1000,30s@01000..20000,REPEAT")
    assert(profile.toString == profile.canonical)
    assert(profile.repeats)
    assert(profile.phases == Seq(RateProfile.Phase(60000L, 1000L, 1000L), RateProfile.Phase(30000L, 1000L, 20000L)))
    assert(profile == parse("60s@1000,30s@01000..20000,REPEAT"))
    assert(profile != parse("60s@1000,30s@1000..20000,repeat"))
    assert(parse(profile.canonical).canonical == profile.canonical)
  }

  // The arithmetic.

  test("floor_sum equals the sum it stands for, for negative and positive terms") {
    for (n <- 0L to 12L; m <- 1L to 9L; a <- -20L to 20L by 3L; b <- -17L to 17L by 4L) {
      val direct = (0L until n).map(i => Math.floorDiv(a * i + b, m)).sum
      assert(RateProfile.floorSum(n, m, a, b) == direct, s"n=$n m=$m a=$a b=$b")
    }
    val (n, m, a, b) = (3600L, 7200L, -2000000000L, -1000000000L)
    assert(RateProfile.floorSum(n, m, a, b) == (0L until n).map(i => Math.floorDiv(a * i + b, m)).sum)
  }

  test("C(t) at every millisecond of three cycles equals the rate summed ms by ms") {
    val ms = (3 * mixed.cycleMs).toInt
    val expected = independentC(mixed, ms)
    for (t <- 0 to ms) assert(mixed.cumulative(t.toLong) == expected(t), s"t = $t")
    assert(mixed.cycleCount == expected(mixed.cycleMs.toInt))
  }

  test("C(t) at every millisecond of a profile without repeat, into the rate that holds after it") {
    val ms = (endless.cycleMs + 5000).toInt
    val expected = independentC(endless, ms)
    for (t <- 0 to ms) assert(endless.cumulative(t.toLong) == expected(t), s"t = $t")
  }

  test("C(t) at every phase boundary and every step of a 60-minute ramp to 10^9, and a falling one") {
    for (text <- Seq("60m@0..1000000000", "3599999ms@1000000000..3, 1ms@1", "1001ms@7..1000")) {
      val profile = parse(text)
      val rates = ratesByMs(profile, profile.cycleMs.toInt)
      var c = 0L
      var t = 0
      while (t < rates.length) {
        if (t % 1000 == 0 || t == rates.length - 1) assert(profile.cumulative(t.toLong) == BigInt(c), s"$text, t = $t")
        c += rates(t)
        t += 1
      }
      assert(profile.cumulative(profile.cycleMs) == BigInt(c))
      assert(profile.cycleCount == c)
    }
  }

  test("rows available are floor(C(t) / 1000), 0 before the start") {
    for (t <- -5L to 3L * mixed.cycleMs) {
      assert(mixed.rowsAvailable(t) == (mixed.cumulative(t) / 1000).toLong, s"t = $t")
    }
    assert(mixed.rowsAvailable(Long.MinValue) == 0L)
    for (t <- -5L to endless.cycleMs + 5000L) {
      assert(endless.rowsAvailable(t) == (endless.cumulative(t) / 1000).toLong, s"t = $t")
    }
  }

  test("the worked example: 2s@0..1000, repeat") {
    val profile = parse("2s@0..1000, repeat")
    assert(Seq(1000L, 2000L, 3000L).map(profile.rowsAvailable) == Seq(250L, 1000L, 1250L))
    assert(profile.eventOffsetMs(300L) == 1066L)
    assert(profile.eventOffsetMs(1300L) == 3066L)
  }

  test("E(o) is when the row's interval opens: C(E(o)) <= 1000 o < C(E(o) + 1)") {
    for (profile <- Seq(mixed, endless); o <- 0L to 12000L) {
      val e = profile.eventOffsetMs(o)
      assert(profile.cumulative(e) <= 1000 * o && 1000 * o < profile.cumulative(e + 1), s"$profile, o = $o: $e")
    }
  }

  test("E(o) counts whole cycles with repeat: a cycle of 1000 k amounts shifts E by the cycle's length") {
    val profile = parse("1s@3000, 500ms@0, 1s@0..4000, repeat") // C(P) = 3,000,000 + 2,000,000
    assert(profile.cycleCount % 1000 == 0)
    val rowsPerCycle = profile.cycleCount / 1000
    for (o <- 0L until rowsPerCycle; q <- Seq(1L, 7L, 1000000L)) {
      assert(profile.eventOffsetMs(o + q * rowsPerCycle) == profile.eventOffsetMs(o) + q * profile.cycleMs)
    }
  }

  test("without a profile's changes, the arithmetic is today's RowClock, to the limits") {
    for (rate <- Seq(1L, 3L, 7L, 1000L, 3000L, 999999937L, 1000000000L)) {
      val steady = parse(s"1ms@$rate")
      for (t <- Seq(-1L, 0L, 1L, 2L, 999L, 1000L, 123456789L, Long.MaxValue / 1000, Long.MaxValue)) {
        assert(steady.rowsAvailable(t) == RowClock.rowsAvailable(t, rate), s"rate $rate, t = $t")
      }
      for (o <-
          Seq(0L, 1L, 2L, 999L, 1000L, 123456789L, EventTimeCursor.MaxStepped, Long.MaxValue / 7, Long.MaxValue)) {
        assert(steady.eventOffsetMs(o) == RowClock.mulDivFloor(o, 1000L, rate), s"rate $rate, o = $o")
      }
    }
  }

  test("huge times and offsets saturate at Long.MaxValue instead of wrapping") {
    val fast = parse("1s@1000000000, repeat")
    assert(fast.rowsAvailable(Long.MaxValue) == Long.MaxValue)
    assert(fast.rowsAvailable(Long.MaxValue / 1000000) == (fast.cumulative(Long.MaxValue / 1000000) / 1000).toLong)
    val slow = parse("1ms@1, 59m@0, repeat") // a thousandth of a row per cycle of 59 minutes
    assert(slow.eventOffsetMs(Long.MaxValue) == Long.MaxValue)
    assert(slow.eventOffsetMs(EventTimeCursor.MaxStepped) == Long.MaxValue)
    assert(slow.eventOffsetMs(2L) == 2L * 1000L * slow.cycleMs)
    assert(parse("1ms@1").eventOffsetMs(Long.MaxValue) == Long.MaxValue)
  }

  test("the rate at a moment: each phase's, a ramp's step, the last rate after the end, or the cycle's") {
    assert(Seq(-1L, 0L, 1499L, 1500L, 2499L, 2500L, 3999L, 4000L).map(endless.rateAt) ==
      Seq(0L, 7L, 7L, 169L, 169L, 501L, 833L, 0L))
    assert(endless.rateAt(endless.cycleMs + 99999L) == 9L)
    assert(mixed.rateAt(mixed.cycleMs + 1500L) == 169L)
  }

  // The cursor: the same event times, stepped.

  private def cursorTimes(profile: RateProfile, origin: Long, offsets: Seq[Long]): Seq[Long] = {
    val cursor = new ProfileCursor(profile, origin)
    offsets.map(cursor.at)
  }

  private def direct(profile: RateProfile, origin: Long, offsets: Seq[Long]): Seq[Long] =
    offsets.map(o => RowClock.saturatedAdd(origin, profile.eventOffsetMs(o)))

  test("stepped event times equal E(o) in runs through steps, pauses, phases and cycles") {
    val sparse = parse("3s@0..2, 2ms@0..1, 1ms@1000, 4s@0, 10ms@1000000, repeat") // many empty stretches
    val gaps = parse("1s@1, 6s@0..1, 1ms@1000, 2s@1..0, repeat") // more empty stretches in a row than it walks
    for (profile <- Seq(mixed, endless, sparse, gaps); origin <- Seq(0L, 1700000000000L, -5L)) {
      val offsets = 0L until 30000L
      assert(cursorTimes(profile, origin, offsets) == direct(profile, origin, offsets), s"$profile from $origin")
    }
  }

  test("stepped event times equal E(o) after jumps: forward, backward, within a stretch, far") {
    val offsets = Seq(5L, 6L, 7L, 3L, 4L, 900L, 901L, 17L, 18L, 5000000L, 5000001L, 2L, 123456789012L, 0L, 1L) ++
      (40000L until 40100L) ++ Seq(39999L, 40100L, 40101L)
    for (profile <- Seq(mixed, endless)) {
      assert(cursorTimes(profile, 1000L, offsets) == direct(profile, 1000L, offsets), profile.toString)
    }
  }

  test("stepped event times at the limits: across MaxStepped, beyond it, and saturating") {
    val max = EventTimeCursor.MaxStepped
    val offsets = Seq(max - 3, max - 2, max - 1, max, max + 1, max + 2, Long.MaxValue, max - 1, max)
    for (profile <- Seq(mixed, endless, parse("1ms@1, 59m@0, repeat"))) {
      for (origin <- Seq(0L, Long.MaxValue - 10L, Long.MinValue)) {
        assert(cursorTimes(profile, origin, offsets) == direct(profile, origin, offsets), s"$profile from $origin")
      }
    }
  }
}
