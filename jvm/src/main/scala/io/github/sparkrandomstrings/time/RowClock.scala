package io.github.sparkrandomstrings.time

/**
 * The time arithmetic of the stream, in one place: when rows become available and which event
 * time each row carries. Both are exact integer functions of the stream's start time and rate.
 *
 * Worked example, rowsPerSecond = 4, startTimeMs = 1,000,000:
 *  - 600 ms after the start, floor(600 * 4 / 1000) = 2 rows exist: offsets 0 and 1;
 *  - the row at offset 2 has ts = 1,000,000 + floor(2 * 1000 / 4) = 1,000,500, and exists from
 *    750 ms on, when floor(750 * 4 / 1000) = 3.
 * So a row's `ts` is when its interval opens, and the row exists once the interval is over:
 * one interval (1000 / rowsPerSecond ms) later. Event time never runs ahead of the clock.
 */
private[sparkrandomstrings] object RowClock {

  /** How many rows exist `elapsedMs` after the start: floor(elapsedMs * rowsPerSecond / 1000). */
  def rowsAvailable(elapsedMs: Long, rowsPerSecond: Long): Long =
    if (elapsedMs <= 0) 0L else mulDivFloor(elapsedMs, rowsPerSecond, 1000L)

  /**
   * How long after the start the row at `offset` comes to exist: the first elapsed ms with
   * [[rowsAvailable]] > offset, ceil((offset + 1) * 1000 / rowsPerSecond), saturating.
   */
  def existsAfterMs(offset: Long, rowsPerSecond: Long): Long =
    if (offset >= Long.MaxValue / 1000L) Long.MaxValue
    else {
      val amount = (offset + 1L) * 1000L
      amount / rowsPerSecond + (if (amount % rowsPerSecond == 0L) 0L else 1L)
    }

  /** The event time of the row at `offset`: startTimeMs + floor(offset * 1000 / rowsPerSecond). */
  def eventTimeMs(startTimeMs: Long, offset: Long, rowsPerSecond: Long): Long =
    saturatedAdd(startTimeMs, mulDivFloor(offset, 1000L, rowsPerSecond))

  /**
   * floor(a * b / c) for a, b >= 0 and c > 0, exact, saturating at Long.MaxValue. The product
   * only overflows for absurd inputs (an offset above 9 * 10^15, say), so the exact wide path
   * costs nothing in practice.
   */
  def mulDivFloor(a: Long, b: Long, c: Long): Long = {
    if (b == 0L || a <= Long.MaxValue / b) a * b / c
    else {
      val exact = BigInt(a) * BigInt(b) / BigInt(c)
      if (exact.isValidLong) exact.toLong else Long.MaxValue
    }
  }

  /** An event time in ms as Spark's TIMESTAMP, in microseconds: ms * 1000, saturating at the long bounds. */
  def timestampMicros(ms: Long): Long =
    if (ms > MaxMillis) Long.MaxValue else if (ms < MinMillis) Long.MinValue else ms * 1000L

  private val MaxMillis = Long.MaxValue / 1000L
  private val MinMillis = Long.MinValue / 1000L

  def saturatedAdd(a: Long, b: Long): Long = {
    val sum = a + b
    if (((a ^ sum) & (b ^ sum)) < 0) (if (a < 0) Long.MinValue else Long.MaxValue) else sum
  }
}

/**
 * The event times of consecutive offsets, as a partition makes them, without a division per
 * row (a 64-bit division costs tens of cycles, more than making a short string's characters).
 * floor(offset * 1000 / rowsPerSecond) is kept as a quotient and a remainder, and each next
 * offset adds 1000 to the numerator: one add and one compare. Any other offset (the first,
 * or a jump), and offsets whose product would not fit a long, go through
 * [[RowClock.eventTimeMs]]. The results are the same to the millisecond.
 */
private[sparkrandomstrings] final class EventTimeCursor(startTimeMs: Long, rowsPerSecond: Long) {
  private val stepQuotient = 1000L / rowsPerSecond
  private val stepRemainder = 1000L % rowsPerSecond

  /** The offset that `quotient` and `remainder` describe; -1 when they describe none. */
  private var nextOffset = -1L
  private var quotient = 0L
  private var remainder = 0L

  def at(offset: Long): Long = {
    if (offset != nextOffset) {
      if (offset < 0L || offset > EventTimeCursor.MaxStepped) {
        nextOffset = -1L
        return RowClock.eventTimeMs(startTimeMs, offset, rowsPerSecond)
      }
      val numerator = offset * 1000L
      quotient = numerator / rowsPerSecond
      remainder = numerator % rowsPerSecond
    }
    val ts = RowClock.saturatedAdd(startTimeMs, quotient)
    if (offset == EventTimeCursor.MaxStepped) {
      nextOffset = -1L // the next numerator would not fit a long
      return ts
    }
    // Step to offset + 1; written so that `remainder + stepRemainder` never overflows.
    if (remainder >= rowsPerSecond - stepRemainder) {
      remainder -= rowsPerSecond - stepRemainder
      quotient += stepQuotient + 1
    } else {
      remainder += stepRemainder
      quotient += stepQuotient
    }
    nextOffset = offset + 1
    ts
  }
}

private[sparkrandomstrings] object EventTimeCursor {

  /** The largest offset whose numerator, offset * 1000, fits a long. */
  val MaxStepped: Long = Long.MaxValue / 1000L
}

/**
 * The in-order event times of a stream's offsets, read mostly one after another (a partition's
 * rows, a change stream's commits): the rate profile's [[ProfileCursor]] where the stream has one,
 * else the steady rate's [[EventTimeCursor]]. Either computes an offset out of sequence directly,
 * so any offset may be asked; the results are `StreamDefinition.inOrderEventTimeMs`'s to the
 * millisecond. One per thread.
 */
private[sparkrandomstrings] final class InOrderTimes(
    originMs: Long,
    rowsPerSecond: Long,
    profile: Option[RateProfile]) {
  private val steady = new EventTimeCursor(originMs, rowsPerSecond)
  private val profiled = profile.map(new ProfileCursor(_, originMs)).orNull

  /** The in-order event time of the row at `offset`. */
  def at(offset: Long): Long = if (profiled != null) profiled.at(offset) else steady.at(offset)
}
