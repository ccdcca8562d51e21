package io.github.sparkrandomstrings.nexmark

/**
 * When each event happens, as Beam's `GeneratorConfig` works it out: the inter-event delays of
 * the rate's steps (one delay when the first and next rates are equal), each step held for
 * `stepLengthSec`, cycling. Event numbers are those of one generator started at event 0.
 *
 * Three times per event: [[timestampMs]] of its number (when it is emitted, counted from the base
 * time), its event time (the timestamp of its [[adjustedNumber]], which an out-of-order group
 * shuffles) and its watermark (the timestamp of its group's first number).
 */
final class NexmarkTimeline(config: NexmarkConfig) extends Serializable {

  /** Microseconds between events in each step of the rate (Beam's `interEventDelayUs`). */
  val delaysUs: Array[Long] = {
    val unit = config.rateUnit
    val generators = config.numEventGenerators.toLong
    if (config.firstEventRate == config.nextEventRate) Array(unit.periodUs(config.firstEventRate) * generators)
    else config.rateShape match {
      case RateShape.Square =>
        Array(unit.periodUs(config.firstEventRate), unit.periodUs(config.nextEventRate)).map(_ * generators)
      case RateShape.Sine =>
        val mid = (config.firstEventRate + config.nextEventRate) / 2.0
        val amplitude = (config.firstEventRate - config.nextEventRate) / 2.0
        Array.tabulate(RateShape.Sine.Steps) { i =>
          val rate = mid + amplitude * math.cos(2.0 * math.Pi * i / RateShape.Sine.Steps)
          unit.periodUs(java.lang.Math.round(rate)) * generators
        }
    }
  }

  private val stepLengthUs: Long = config.rateShape.stepLengthSec(config.ratePeriodSec) * 1000000L

  /** Events in each step, and the step's length in ms as Beam rounds it. */
  private val stepEvents: Array[Long] = delaysUs.map(stepLengthUs / _)
  private val stepMs: Array[Long] = delaysUs.indices.map(i => stepEvents(i) * delaysUs(i) / 1000L).toArray

  /** Events in one cycle of the steps, and its length in ms (0 with one delay: no cycle). */
  private val eventsPerEpoch: Long = if (delaysUs.length > 1) stepEvents.sum else 0L
  private val epochPeriodMs: Long = if (delaysUs.length > 1) stepMs.sum else 0L

  private val groupSize: Long = config.outOfOrderGroupSize

  /** Milliseconds from the base time to the timestamp of event number `number`. */
  def timestampMs(number: Long): Long =
    if (delaysUs.length == 1) number * delaysUs(0) / 1000L
    else {
      val epoch = number / eventsPerEpoch
      var n = number % eventsPerEpoch
      var offsetMs = 0L
      var step = 0
      while (n >= stepEvents(step)) {
        n -= stepEvents(step)
        offsetMs += stepMs(step)
        step += 1
      }
      epoch * epochPeriodMs + offsetMs + n * delaysUs(step) / 1000L
    }

  /** The number whose data and event time event `number` takes: its place in its out-of-order group. */
  def adjustedNumber(number: Long): Long =
    if (groupSize == 1L) number else (number / groupSize) * groupSize + (number * 953L) % groupSize

  /** The number whose timestamp is event `number`'s watermark: its group's first. */
  def watermarkNumber(number: Long): Long = (number / groupSize) * groupSize

  /**
   * How many events exist `elapsedMs` after the first event's (those whose [[timestampMs]] is at
   * most `elapsedMs`), capped at `cap`. Timestamps never decrease with the number, so this is a
   * binary search; negative elapsed time has none.
   */
  def eventsWithin(elapsedMs: Long, cap: Long): Long =
    if (elapsedMs < 0L || cap <= 0L) 0L
    else {
      // Grow the bound until it passes the time (or the cap), then halve.
      var high = 1L
      while (high < cap && timestampMs(high) <= elapsedMs) high = math.min(cap, high * 2L)
      if (high >= cap && timestampMs(cap - 1L) <= elapsedMs) cap
      else {
        var low = 0L // timestampMs(0) = 0 <= elapsedMs: event 0 exists
        while (high - low > 1L) {
          val mid = low + (high - low) / 2L
          if (timestampMs(mid) <= elapsedMs) low = mid else high = mid
        }
        low + 1L
      }
    }
}
