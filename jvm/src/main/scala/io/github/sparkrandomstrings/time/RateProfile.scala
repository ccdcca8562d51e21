package io.github.sparkrandomstrings.time

import java.util.Locale
import java.util.regex.Pattern

import io.github.sparkrandomstrings.options.RandomStrings

/**
 * A rate that changes (`rateProfile`): phases that the stream's rate follows from its first
 * start, in place of one `rowsPerSecond`. A profile is phases separated by commas, each
 * `DURATION@RATE` (a steady rate) or `DURATION@FROM..TO` (a linear ramp), optionally ending with
 * `repeat`, e.g. `60s@1000, 30s@1000..20000, 10s@20000, 20s@0, repeat`. After the last phase its
 * last rate (a ramp's TO) holds, unless the profile repeats. Only [[RateProfile.parse]] makes one,
 * so every profile has passed its rules.
 *
 * The arithmetic is exact, in 64-bit integers (wider only where a product would not fit, and
 * then saturating). A ramp changes its rate in whole-second steps: over n = ceil(D / 1000) steps,
 * step j (its ms 1000 j to 1000 (j + 1), the last one maybe shorter) runs at
 * FROM + floor((TO - FROM) (2j + 1) / (2n)), the line's value in the middle of the step, rounded
 * down. C(t), the rate summed over the first t ms (rows x 1000), decides everything:
 *  - [[rowsAvailable]]: floor(C(t) / 1000) rows exist t ms after the first start;
 *  - [[eventOffsetMs]]: row o's event time is E(o) = min { k >= 0 : C(k + 1) > 1000 o } ms after
 *    the origin, the ms in which its interval opens. For one steady rate r that is
 *    floor(1000 o / r), the formula of a stream without a profile ([[RowClock]]);
 *  - [[existsAfterMs]]: row o comes to exist at the first t with floor(C(t) / 1000) > o, the
 *    moment a real-time read hands it on.
 * Inside a stretch of one rate r > 0 (a steady phase, or one step of a ramp) that starts at ms T
 * with C(T) = C0, E(o) = T + floor((1000 o - C0) / r): [[ProfileCursor]] steps consecutive
 * offsets through it as [[EventTimeCursor]] does, with no division per row.
 *
 * Worked example, `2s@0..1000, repeat`: steps of 250 and 750 rows/s, so 250 rows exist after
 * 1 s, 1000 after 2 s (a whole cycle), 1250 after 3 s; row 300 opens at
 * 1000 + floor((300,000 - 250,000) / 750) = 1066 ms.
 *
 * @param canonical the profile as it is stored and shown: its items trimmed, joined by ","
 * @param phases    the phases, in order (`repeat` is not one)
 * @param repeats   whether the profile ends with `repeat`
 */
final class RateProfile private (
    val canonical: String,
    val phases: IndexedSeq[RateProfile.Phase],
    val repeats: Boolean)
    extends Serializable {
  import RateProfile._

  /** The number of phases. */
  private[sparkrandomstrings] val count: Int = phases.length

  /** Each phase's start, in ms from the profile's start; the last entry is the cycle's length. */
  private[sparkrandomstrings] val startMs: Array[Long] = phases.scanLeft(0L)(_ + _.durationMs).toArray

  /** C at each phase's start (rows x 1000); the last entry is C over the whole cycle. */
  private[sparkrandomstrings] val startCount: Array[Long] = phases.scanLeft(0L)(_ + _.total).toArray

  /** P: the length of the phases together, in ms. */
  val cycleMs: Long = startMs(count)

  /** C(P): the rate summed over the phases together (rows x 1000); above 0 with `repeat`. */
  val cycleCount: Long = startCount(count)

  /** The rate that holds after the last phase without `repeat` (its TO); above 0 then. */
  val lastRate: Long = phases.last.to

  /** C(t), exactly: the rate summed over the first `elapsedMs` ms (rows x 1000); 0 for t <= 0. */
  def cumulative(elapsedMs: Long): BigInt =
    if (elapsedMs <= 0L) BigInt(0)
    else if (elapsedMs < cycleMs) BigInt(countWithin(elapsedMs))
    else if (repeats) BigInt(elapsedMs / cycleMs) * cycleCount + countWithin(elapsedMs % cycleMs)
    else BigInt(lastRate) * (elapsedMs - cycleMs) + cycleCount

  /** How many rows exist `elapsedMs` after the first start: floor(C(t) / 1000), saturating. */
  def rowsAvailable(elapsedMs: Long): Long =
    if (elapsedMs <= 0L) 0L
    else if (elapsedMs < cycleMs) countWithin(elapsedMs) / 1000L
    else if (repeats) {
      val cycles = elapsedMs / cycleMs
      val within = countWithin(elapsedMs % cycleMs)
      if (cycles <= (Long.MaxValue - within) / cycleCount) (cycles * cycleCount + within) / 1000L
      else saturated(cumulative(elapsedMs) / 1000)
    } else {
      val beyond = elapsedMs - cycleMs
      if (beyond <= (Long.MaxValue - cycleCount) / lastRate) (cycleCount + lastRate * beyond) / 1000L
      else saturated(cumulative(elapsedMs) / 1000)
    }

  /** The rate, in rows per second, during ms `elapsedMs` after the first start (0 before it). */
  def rateAt(elapsedMs: Long): Long =
    if (elapsedMs < 0L) 0L
    else if (elapsedMs >= cycleMs && !repeats) lastRate
    else {
      val within = elapsedMs % cycleMs
      val p = lastAtOrBefore(startMs, count, within)
      val phase = phases(p)
      phase.stretchRate(phase.stretchAtMs(within - startMs(p)))
    }

  /**
   * E(o): the ms after the origin in which the interval of the row at `offset` (>= 0) opens,
   * min { k >= 0 : C(k + 1) > 1000 o }, saturating at Long.MaxValue.
   */
  def eventOffsetMs(offset: Long): Long = {
    require(offset >= 0L, s"an offset is >= 0, not $offset")
    if (offset <= EventTimeCursor.MaxStepped) firstMsAbove(offset * 1000L)
    else {
      val x = BigInt(offset) * 1000
      if (repeats) {
        val cycles = x / cycleCount
        saturated(cycles * cycleMs + withinCycle((x - cycles * cycleCount).toLong))
      } else saturated((x - cycleCount) / lastRate + cycleMs) // x > Long.MaxValue > C(P)
    }
  }

  /**
   * When the row at `offset` (>= 0) comes to exist, in ms after the first start: the first t
   * with floor(C(t) / 1000) > offset, min { t : C(t) >= 1000 (o + 1) } = 1 + min { k : C(k + 1)
   * > 1000 (o + 1) - 1 }. For one steady rate r that is ceil(1000 (o + 1) / r)
   * ([[RowClock.existsAfterMs]]). Saturates at Long.MaxValue (a row that never comes).
   */
  def existsAfterMs(offset: Long): Long = {
    require(offset >= 0L, s"an offset is >= 0, not $offset")
    if (offset >= EventTimeCursor.MaxStepped) Long.MaxValue
    else RowClock.saturatedAdd(1L, firstMsAbove((offset + 1L) * 1000L - 1L))
  }

  /** min { k >= 0 : C(k + 1) > x } for an amount 0 <= x (rows x 1000), saturating. */
  private def firstMsAbove(x: Long): Long =
    if (repeats) {
      val cycles = x / cycleCount
      RowClock.saturatedAdd(saturatedProduct(cycles, cycleMs), withinCycle(x - cycles * cycleCount))
    } else if (x < cycleCount) withinCycle(x)
    else RowClock.saturatedAdd(cycleMs, (x - cycleCount) / lastRate)

  /** C(t) for 0 <= t <= P. */
  private[sparkrandomstrings] def countWithin(elapsedMs: Long): Long =
    if (elapsedMs >= cycleMs) cycleCount
    else {
      val p = lastAtOrBefore(startMs, count, elapsedMs)
      startCount(p) + phases(p).countAt(elapsedMs - startMs(p))
    }

  /** E for an amount 0 <= x < C(P) within one cycle. */
  private def withinCycle(x: Long): Long = {
    val p = phaseOfCount(x)
    val phase = phases(p)
    val within = x - startCount(p)
    val j = phase.stretchAtCount(within)
    startMs(p) + phase.stretchStartMs(j) + (within - phase.stretchStartCount(j)) / phase.stretchRate(j)
  }

  /**
   * The phase whose amounts hold `x` (0 <= x < C(P)): the last that starts at or before it. A
   * phase that makes nothing starts at the same amount as the next one, so it is passed over.
   */
  private[sparkrandomstrings] def phaseOfCount(x: Long): Int = lastAtOrBefore(startCount, count, x)

  override def equals(other: Any): Boolean = other match {
    case that: RateProfile => that.canonical == canonical
    case _ => false
  }

  override def hashCode: Int = canonical.hashCode

  /** The canonical text, as the definition stores and shows it. */
  override def toString: String = canonical
}

object RateProfile {
  import RandomStrings._

  /**
   * One phase: `durationMs` at a rate from `from` to `to` rows per second (equal: a steady rate).
   * It runs as stretches of one rate each: a steady phase is one stretch, a ramp one per step.
   */
  final case class Phase(durationMs: Long, from: Long, to: Long) {

    def isRamp: Boolean = from != to

    /** A ramp's whole-second steps, n = ceil(D / 1000) (the last may be shorter); 1 if steady. */
    val stretches: Long = if (isRamp) (durationMs + 999L) / 1000L else 1L

    /** The rate of stretch `j`: a ramp's line in the middle of step j, rounded down. */
    def stretchRate(j: Long): Long =
      if (isRamp) from + Math.floorDiv((to - from) * (2L * j + 1L), 2L * stretches) else from

    /** Where stretch `j` starts, in ms from the phase's start. */
    def stretchStartMs(j: Long): Long = 1000L * j

    /** How long stretch `j` lasts, in ms. */
    def stretchLength(j: Long): Long = if (isRamp) math.min(1000L, durationMs - 1000L * j) else durationMs

    /**
     * C at the start of stretch `j`, from the phase's start: 1000 S(j), where S(j), the sum of
     * the first j steps' rates, is FROM j + floor_sum(j, 2n, 2 (TO - FROM), TO - FROM).
     */
    def stretchStartCount(j: Long): Long =
      if (j == 0L) 0L else 1000L * (from * j + floorSum(j, 2L * stretches, 2L * (to - from), to - from))

    /** The stretch that ms `k` (0 <= k < D) of the phase falls in. */
    def stretchAtMs(k: Long): Long = if (isRamp) k / 1000L else 0L

    /** The last stretch that starts at or before the amount `x` (0 <= x < total), by binary search. */
    def stretchAtCount(x: Long): Long =
      if (!isRamp) 0L
      else {
        var low = 0L
        var high = stretches - 1L
        while (low < high) {
          val middle = (low + high + 1L) >>> 1
          if (stretchStartCount(middle) <= x) low = middle else high = middle - 1L
        }
        low
      }

    /** C over the phase's first `k` ms, 0 <= k <= D. */
    def countAt(k: Long): Long =
      if (!isRamp) from * k
      else {
        val j = math.min(k / 1000L, stretches - 1L)
        stretchStartCount(j) + stretchRate(j) * (k - 1000L * j)
      }

    /** C over the whole phase. */
    val total: Long = countAt(durationMs)
  }

  /** What a profile is, as the messages say it. */
  val Phases: String = "phases separated by commas, each DURATION@RATE or DURATION@FROM..TO, optionally " +
    "ending with repeat (e.g. 60s@1000, 30s@1000..20000, 10s@0, repeat)"

  private val Repeat = "repeat"
  private val PhasePattern = Pattern.compile("([0-9]+)([a-zA-Z]*)@(-?[0-9]+)(?:\\.\\.(-?[0-9]+))?")
  private val Units = Map("ms" -> 1L, "s" -> 1000L, "m" -> 60000L)

  /**
   * Parses and checks a `rateProfile`. Item by item, in order (the first error wins): `repeat`
   * only last; the form; the unit; the duration, 1 ms to 60 m; the rates, 0 to 10^9. Then the
   * number of phases, at most 1000; then a cycle that makes rows (C(P) > 0), and without
   * `repeat` a last rate above 0.
   *
   * @throws IllegalArgumentException "Invalid value '<text>' for option 'rateProfile': <why>.
   *                                  Allowed: <what>."
   */
  def parse(text: String): RateProfile = {
    def invalid(why: String, allowed: String = Phases): Nothing =
      throw new IllegalArgumentException(
        s"Invalid value '$text' for option '$RATE_PROFILE': $why. Allowed: $allowed.")

    val items = text.split(",", -1).toIndexedSeq.map(_.trim)
    val repeats = isRepeat(items.last)
    val phaseItems = if (repeats) items.init else items
    if (phaseItems.size <= 1 && phaseItems.forall(_.isEmpty)) invalid("no phase")
    val phases = phaseItems.zipWithIndex.map { case (item, index) =>
      val number = index + 1
      if (isRepeat(item)) invalid(s"phase $number is '$Repeat', which only ends a profile")
      val m = PhasePattern.matcher(item)
      if (!m.matches()) invalid(s"phase $number, '$item', is not DURATION@RATE or DURATION@FROM..TO")
      val unit = m.group(2)
      val factor = Units.getOrElse(
        unit,
        invalid(s"phase $number, '$item', has the unit '$unit'", "a duration in ms, s or m (e.g. 500ms, 30s, 2m)"))
      val duration = BigInt(m.group(1)) * factor
      if (duration < 1 || duration > MaxPhaseDurationMs) {
        invalid(s"phase $number, '$item', lasts $duration ms", "a duration from 1ms to 60m")
      }
      val rates = Seq(m.group(3), Option(m.group(4)).getOrElse(m.group(3))).map(BigInt(_))
      rates.find(r => r < 0 || r > MaxPhaseRate).foreach { rate =>
        invalid(s"phase $number, '$item', has the rate $rate", s"rates from 0 to $MaxPhaseRate rows per second")
      }
      Phase(duration.toLong, rates(0).toLong, rates(1).toLong)
    }
    if (phases.size > MaxProfilePhases) invalid(s"${phases.size} phases", s"at most $MaxProfilePhases phases")
    val profile = new RateProfile(items.mkString(","), phases, repeats)
    if (profile.cycleCount == 0L) {
      invalid("every phase has the rate 0, so no row would ever exist", "a phase with a rate above 0")
    }
    if (!repeats && profile.lastRate == 0L) {
      invalid(
        "it ends at the rate 0 without repeat, and the last rate holds, so the stream would stop for ever",
        "a last rate above 0, or repeat at the end")
    }
    profile
  }

  private def isRepeat(item: String): Boolean = item.toLowerCase(Locale.ROOT) == Repeat

  /**
   * floor_sum(n, m, a, b) = sum over 0 <= i < n of floor((a i + b) / m), for n >= 0, m >= 1 and
   * any a, b, in O(log m) steps (the Euclidean-like reduction of AtCoder's library). Exact while
   * the sum and n^2 a / m fit a long; a ramp's sums stay below 10^13.
   */
  def floorSum(n: Long, m: Long, a: Long, b: Long): Long = {
    var sum = 0L
    var aa = a
    var bb = b
    if (aa < 0L) {
      val reduced = Math.floorMod(aa, m)
      sum -= n * (n - 1L) / 2L * ((reduced - aa) / m)
      aa = reduced
    }
    if (bb < 0L) {
      val reduced = Math.floorMod(bb, m)
      sum -= n * ((reduced - bb) / m)
      bb = reduced
    }
    var nn = n
    var mm = m
    var done = false
    while (!done) {
      if (aa >= mm) {
        sum += nn * (nn - 1L) / 2L * (aa / mm)
        aa %= mm
      }
      if (bb >= mm) {
        sum += nn * (bb / mm)
        bb %= mm
      }
      val yMax = aa * nn + bb
      if (yMax < mm) done = true
      else {
        nn = yMax / mm
        bb = yMax % mm
        val swap = mm
        mm = aa
        aa = swap
      }
    }
    sum
  }

  /** The last index i < size with starts(i) <= value (starts ascending, starts(0) <= value). */
  private def lastAtOrBefore(starts: Array[Long], size: Int, value: Long): Int = {
    var low = 0
    var high = size - 1
    while (low < high) {
      val middle = (low + high + 1) >>> 1
      if (starts(middle) <= value) low = middle else high = middle - 1
    }
    low
  }

  private def saturatedProduct(a: Long, b: Long): Long = // a, b >= 0
    if (b != 0L && a > Long.MaxValue / b) Long.MaxValue else a * b

  private def saturated(value: BigInt): Long = if (value.isValidLong) value.toLong else Long.MaxValue
}
