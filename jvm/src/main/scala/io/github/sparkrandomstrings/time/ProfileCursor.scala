package io.github.sparkrandomstrings.time

/**
 * The event times of consecutive offsets of a profiled stream, as a partition makes them:
 * origin + E(o) ([[RateProfile.eventOffsetMs]]), the same to the millisecond, without a division
 * or a search per row. Inside a stretch of one rate r (a steady phase, or one step of a ramp),
 * floor((1000 o - C0) / r) is kept as a quotient and a remainder, and each next offset adds 1000
 * to the numerator, as [[EventTimeCursor]] does. Past the stretch's end it moves on to the next
 * stretches (the next step, the next phase, the next cycle, or the rate that holds after the
 * last phase); a jump (the first offset, a repeat's original) or a run of empty stretches finds
 * the stretch by binary search: the phase among the phases, the step among a ramp's steps.
 */
private[sparkrandomstrings] final class ProfileCursor(profile: RateProfile, originMs: Long) {
  import profile.{count, cycleCount, cycleMs, phases, repeats, startCount, startMs}

  /** The offset that the fields describe; -1 when they describe none. */
  private var nextOffset = -1L

  /** 1000 * nextOffset = cycleBaseCount + x: x is the amount within the current cycle. */
  private var cycleBaseCount = 0L
  private var x = 0L

  /** Where the current cycle starts, in ms after the origin (saturating). */
  private var cycleBaseMs = 0L

  /** The current stretch: phase `phase` (`count`: the rate after the last phase), stretch `stretch`. */
  private var phase = 0
  private var stretch = 0L
  private var stretchStart = 0L // C at its start, within the cycle
  private var stretchEnd = 0L // C at its end, within the cycle (exclusive)
  private var stretchStartMs = 0L // its start, in ms after the origin (saturating)
  private var rate = 1L
  private var stepQuotient = 0L
  private var stepRemainder = 0L
  private var quotient = 0L
  private var remainder = 0L

  /** The event time of the row at `offset` (>= 0), origin included. */
  def at(offset: Long): Long = {
    if (offset != nextOffset) {
      if (offset < 0L || offset > EventTimeCursor.MaxStepped) {
        nextOffset = -1L
        return RowClock.saturatedAdd(originMs, profile.eventOffsetMs(offset))
      }
      jumpTo(offset)
    }
    val ts = RowClock.saturatedAdd(originMs, RowClock.saturatedAdd(stretchStartMs, quotient))
    if (offset == EventTimeCursor.MaxStepped) {
      nextOffset = -1L // the next amount would not fit a long
      return ts
    }
    x += 1000L
    if (x < stretchEnd) {
      // Step to offset + 1; written so that `remainder + stepRemainder` never overflows.
      if (remainder >= rate - stepRemainder) {
        remainder -= rate - stepRemainder
        quotient += stepQuotient + 1
      } else {
        remainder += stepRemainder
        quotient += stepQuotient
      }
    } else moveOn()
    nextOffset = offset + 1
    ts
  }

  /** Places the cursor at `offset` (0 <= offset <= MaxStepped). */
  private def jumpTo(offset: Long): Unit = {
    val amount = offset * 1000L
    val within = amount - cycleBaseCount
    if (nextOffset >= 0L && within >= stretchStart && within < stretchEnd) {
      x = within // in the current stretch: one division
      enter(phase, stretch, stretchStart, stretchEnd)
    } else locate(amount)
  }

  /** Finds the stretch of the amount 1000 o by binary search. */
  private def locate(amount: Long): Unit =
    if (repeats || amount < cycleCount) {
      val cycles = amount / cycleCount
      cycleBaseCount = cycles * cycleCount
      cycleBaseMs = if (cycles > Long.MaxValue / cycleMs) Long.MaxValue else cycles * cycleMs
      x = amount - cycleBaseCount
      val p = profile.phaseOfCount(x)
      val j = phases(p).stretchAtCount(x - startCount(p))
      val start = startCount(p) + phases(p).stretchStartCount(j)
      enter(p, j, start, start + phases(p).stretchRate(j) * phases(p).stretchLength(j))
    } else {
      cycleBaseCount = 0L
      cycleBaseMs = 0L
      x = amount
      enter(count, 0L, cycleCount, Long.MaxValue)
    }

  /** Past the current stretch: the next stretches that follow it, or else a binary search. */
  private def moveOn(): Unit = {
    var tries = 0
    while (tries < 4) {
      tries += 1
      var p = phase
      var j = stretch + 1L
      if (j >= phases(p).stretches) {
        p += 1
        j = 0L
        if (p == count) {
          if (!repeats) {
            enter(count, 0L, cycleCount, Long.MaxValue)
            return
          }
          p = 0
          cycleBaseCount += cycleCount
          cycleBaseMs = RowClock.saturatedAdd(cycleBaseMs, cycleMs)
          x -= cycleCount
        }
      }
      val start = if (p == 0 && j == 0L) 0L else stretchEnd
      val end = start + phases(p).stretchRate(j) * phases(p).stretchLength(j)
      phase = p
      stretch = j
      stretchStart = start
      stretchEnd = end
      if (x < end) {
        enter(p, j, start, end)
        return
      }
    }
    locate(cycleBaseCount + x)
  }

  /** Makes stretch `j` of phase `p` (or the rate after the last phase) current, at the amount x. */
  private def enter(p: Int, j: Long, start: Long, end: Long): Unit = {
    phase = p
    stretch = j
    stretchStart = start
    stretchEnd = end
    if (p == count) {
      rate = profile.lastRate
      stretchStartMs = RowClock.saturatedAdd(cycleBaseMs, cycleMs)
    } else {
      rate = phases(p).stretchRate(j)
      stretchStartMs = RowClock.saturatedAdd(cycleBaseMs, startMs(p) + phases(p).stretchStartMs(j))
    }
    stepQuotient = 1000L / rate
    stepRemainder = 1000L % rate
    quotient = (x - start) / rate
    remainder = (x - start) % rate
  }
}
