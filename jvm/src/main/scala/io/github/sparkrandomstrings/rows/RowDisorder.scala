package io.github.sparkrandomstrings.rows

import io.github.sparkrandomstrings.randomness.CounterRandom.derivedSeed
import io.github.sparkrandomstrings.randomness.{CounterRandom, RandomStreams}
import io.github.sparkrandomstrings.time.RowClock

/**
 * Which rows of a stream repeat earlier rows, and how far each row's event time moves back
 * from its in-order time: pure functions of (seed, offset) and the [[RowShape]], each drawn
 * from its own random stream, so that changing one option changes no other draw.
 *
 *  - Out of order: the row's event time moves back by a delay uniform over
 *    [0, maxOutOfOrderMs].
 *  - Late: with probability lateRowFraction, it moves back by lateByMs more.
 *  - Repeated: with probability duplicateFraction, a row at offset o >= 1 repeats the row d
 *    offsets before it, d uniform over [1, min(maxDuplicateDistance, o)]: the row emitted
 *    there, so if that one is itself a repeat, the row it repeats, and so on back to an
 *    original. A repeat carries its original's value and event time.
 */
private[sparkrandomstrings] final class RowDisorder(seed: Long, shape: RowShape) {
  private val delays = new CounterRandom(derivedSeed(seed, RandomStreams.Delays))
  private val lateness = new CounterRandom(derivedSeed(seed, RandomStreams.Lateness))
  private val repeats = new CounterRandom(derivedSeed(seed, RandomStreams.Repeats))
  private val lateByMs = shape.lateByMs.getOrElse(0L)

  val hasRepeats: Boolean = shape.duplicateFraction > 0.0
  val movesEventTimes: Boolean = shape.movesEventTimes

  /** The earlier offset that the row at `offset` repeats, or -1 if it is an original. */
  def repeatedOffset(offset: Long): Long = {
    if (!hasRepeats || offset < 1L) return -1L
    repeats.reset(offset)
    if (!repeats.nextChance(shape.duplicateFraction)) -1L
    else offset - 1L - repeats.nextLongUpTo(math.min(shape.maxDuplicateDistance, offset) - 1L)
  }

  /** The original whose value and event time the row at `offset` carries: itself, if none. */
  def originalOf(offset: Long): Long = {
    var current = offset
    var earlier = repeatedOffset(current)
    while (earlier >= 0L) {
      current = earlier
      earlier = repeatedOffset(current)
    }
    current
  }

  /** How far out of order the row at `offset` is, in [0, maxOutOfOrderMs]. */
  def delayMs(offset: Long): Long =
    if (shape.maxOutOfOrderMs == 0L) 0L
    else {
      delays.reset(offset)
      delays.nextLongUpTo(shape.maxOutOfOrderMs)
    }

  /** Whether the row at `offset` is late. */
  def isLate(offset: Long): Boolean =
    shape.lateRowFraction > 0.0 && {
      lateness.reset(offset)
      lateness.nextChance(shape.lateRowFraction)
    }

  /** The event time of original `offset`, given its in-order time. */
  def eventTimeMs(inOrderMs: Long, offset: Long): Long = {
    val early = RowClock.saturatedAdd(inOrderMs, -delayMs(offset))
    if (isLate(offset)) RowClock.saturatedAdd(early, -lateByMs) else early
  }
}
