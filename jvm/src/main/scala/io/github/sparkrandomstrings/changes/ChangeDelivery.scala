package io.github.sparkrandomstrings.changes

import io.github.sparkrandomstrings.randomness.{CounterRandom, KeyedPermutation, RandomStreams}
import io.github.sparkrandomstrings.rows.{RowShape, StreamDefinition}
import io.github.sparkrandomstrings.time.RowClock

/**
 * The order in which a change stream with `maxOutOfOrderMs`, `duplicateFraction` or
 * `lateRowFraction` delivers its changes: which change the read at each position (offset) is.
 * Delivery is untidy, the changes are not: change `n` is the same whatever position reads it, and
 * its `_seq` and `_ts` say where it belongs. Every function here is a pure function of the stream's
 * definition and the position, so a batch reads the same changes in any partitioning and after any
 * restart.
 *
 * Time is cut into windows of `W` = max(1, maxOutOfOrderMs) ms from the stream's first start;
 * window `k` holds the changes that come to exist in [start + kW, start + (k + 1)W), changes
 * `lo(k)` to `lo(k + 1) - 1`, and delivers its own changes, but those it holds back:
 *
 *  - Late: floor(q * lo(k + 1)) - floor(q * lo(k)) of them (q = lateRowFraction), drawn at random
 *    (in window order without `maxOutOfOrderMs`), are held back to window k + L, L = ceil(lateByMs / W).
 *  - Copies: floor(f * lo(k + 1)) - floor(f * lo(k)) more reads (f = duplicateFraction), each a
 *    copy of one of the window's own changes, drawn uniformly.
 *  - Order: with `maxOutOfOrderMs`, the window's reads come in a random order (a keyed permutation
 *    of them); without, its own changes in order, then the late ones it delivers, then the copies.
 *
 * So the positions before window k are G(k) = lo(k) - Lc(lo(k)) + Lc(lo(k - L)) + Dc(lo(k)), with
 * Lc(n) = floor(q * n) and Dc(n) = floor(f * n), closed forms: a position finds its window by
 * bisection, and a partition reading consecutive positions does so once a window. Window k's reads
 * are spread evenly over [start + (k + 1)W, start + (k + 2)W): each is read after the change it
 * delivers exists, at most 2W later (and L windows more for a late one).
 *
 * With `end` (the stream's `totalRows`), only changes 0 to end - 1 are delivered: the windows are
 * cut there, and the stream ends after end + Dc(end) reads, having delivered every change before
 * `end` and none after it.
 */
private[changes] final class ChangeDelivery(definition: StreamDefinition, end: Option[Long]) {
  import ChangeDelivery._

  private val shape = definition.shape
  private val windowMs: Long = math.max(1L, shape.maxOutOfOrderMs)
  private val shuffled = shape.maxOutOfOrderMs > 0L
  private val lateShare = shape.lateRowFraction
  private val copyShare = shape.duplicateFraction
  private val lateWindows: Long =
    if (lateShare == 0.0) 0L else ceilDiv(shape.lateByMs.getOrElse(windowMs), windowMs)
  private val startMs = definition.startTimeMs
  private val orderSeed = CounterRandom.derivedSeed(definition.seed, RandomStreams.ChangeOrder)
  private val lateSeed = CounterRandom.derivedSeed(definition.seed, RandomStreams.ChangeLate)
  private val copies = new CounterRandom(CounterRandom.derivedSeed(definition.seed, RandomStreams.ChangeCopies))

  /** The first change of window `k`: how many exist before it starts (0 before window 0), up to `end`. */
  def firstChange(k: Long): Long =
    if (k <= 0L) 0L
    else {
      val existing = definition.rowsAvailableAt(RowClock.saturatedAdd(windowStartMs(k), -1L))
      end.fold(existing)(math.min(existing, _))
    }

  /** How many reads come before window `k`: G(k). */
  def firstPosition(k: Long): Long = {
    val first = firstChange(k)
    first - lateBefore(first) + lateBefore(firstChange(k - lateWindows)) + copiesBefore(copyShare, first)
  }

  /** How many reads exist at wall-clock time `nowMs`: those of the windows whose reads have begun. */
  def positionsAvailableAt(nowMs: Long): Long = {
    val elapsed = nowMs - startMs
    if (elapsed < windowMs) return 0L
    // Window k's reads are spread over [start + (k + 1)W, start + (k + 2)W).
    val k = elapsed / windowMs - 1L
    val first = firstPosition(k)
    val size = firstPosition(k + 1L) - first
    val since = elapsed - (k + 1L) * windowMs
    // The reads s < size whose time, floor(s * W / size), is at most `since`: ceil((since + 1) * size / W).
    first + size - RowClock.mulDivFloor(windowMs - since - 1L, size, windowMs)
  }

  /** When the read at `position` comes to exist (epoch ms): [[positionsAvailableAt]] counts it from then. */
  def existsAtMs(position: Long): Long = {
    locate(position)
    RowClock.saturatedAdd(
      windowStartMs(window + 1L),
      RowClock.mulDivFloor(position - windowFirst, windowMs, windowSize))
  }

  /** The window whose reads include `position`: the last k with G(k) <= position, by bisection. */
  def windowOf(position: Long): Long = {
    var low = 0L
    var high = 1L
    while (firstPosition(high) <= position) {
      require(high < Long.MaxValue, s"the read at position $position never comes to exist")
      low = high
      high = if (high >= Long.MaxValue / 2L) Long.MaxValue else high * 2L
    }
    while (high - low > 1L) {
      val middle = low + (high - low) / 2L
      if (firstPosition(middle) <= position) low = middle else high = middle
    }
    low
  }

  private def windowStartMs(k: Long): Long =
    if (k > 0L && windowMs > Long.MaxValue / k) Long.MaxValue else RowClock.saturatedAdd(startMs, k * windowMs)

  private def lateBefore(n: Long): Long = copiesBefore(lateShare, n)

  // The window the reader is in, and what its reads are made of.
  private var window = -1L
  private var windowFirst = 0L
  private var windowSize = 0L
  private var first = 0L // its first change
  private var own = 0L // how many changes it holds
  private var kept = 0L // how many of them it delivers itself
  private var lateFirst = 0L // the first change of the window whose late changes it delivers
  private var lateOwn = 0L // how many changes that window holds
  private var late = 0L // how many of them are late
  private var orderKey = 0L
  private var lateKey = 0L
  private var earlierLateKey = 0L

  /** The change that the read at `position` delivers. One reader serves one partition. */
  def changeAt(position: Long): Long = {
    locate(position)
    val s = position - windowFirst
    val v = if (shuffled) KeyedPermutation(s, windowSize, orderKey) else s
    if (v < kept) first + ownChange(own - kept + v, own, lateKey)
    else if (v < kept + late) lateFirst + ownChange(v - kept, lateOwn, earlierLateKey)
    else {
      copies.reset(position)
      first + copies.nextLongUpTo(own - 1L)
    }
  }

  /** A window's change at place `i` of its drawn order: the late ones come first. */
  private def ownChange(i: Long, size: Long, key: Long): Long =
    if (shuffled) KeyedPermutation(i, size, key) else i

  /** Enters the window of `position`, unless the reader is in it already. */
  private def locate(position: Long): Unit =
    if (window < 0L || position < windowFirst || position >= windowFirst + windowSize) enter(windowOf(position))

  private def enter(k: Long): Unit = {
    window = k
    windowFirst = firstPosition(k)
    windowSize = firstPosition(k + 1L) - windowFirst
    first = firstChange(k)
    own = firstChange(k + 1L) - first
    kept = own - (lateBefore(first + own) - lateBefore(first))
    lateFirst = firstChange(k - lateWindows)
    lateOwn = firstChange(k - lateWindows + 1L) - lateFirst
    late = lateBefore(lateFirst + lateOwn) - lateBefore(lateFirst)
    orderKey = CounterRandom.derivedSeed(orderSeed, k)
    lateKey = CounterRandom.derivedSeed(lateSeed, k)
    earlierLateKey = CounterRandom.derivedSeed(lateSeed, k - lateWindows)
  }
}

private[changes] object ChangeDelivery {

  /** Whether a stream's shape makes its delivery untidy: with none of the options, change n is read at n. */
  def isUntidy(shape: RowShape): Boolean =
    shape.maxOutOfOrderMs > 0L || shape.lateRowFraction > 0.0 || shape.duplicateFraction > 0.0

  /** floor(share * n): how many of the first n changes a share picks, cumulatively, so each window's count is a difference. */
  def copiesBefore(share: Double, n: Long): Long = if (share == 0.0) 0L else math.floor(share * n.toDouble).toLong

  private def ceilDiv(a: Long, b: Long): Long = a / b + (if (a % b == 0L) 0L else 1L)
}
