package io.github.sparkrandomstrings

import java.util.concurrent.TimeUnit
import java.util.concurrent.locks.LockSupport

/**
 * Where every part of the source reads the time: when a stream first starts, how many rows exist
 * ([[RandomStringsSource]], [[RandomStringsStream]]) and when a real-time read's row comes to exist
 * ([[InterleavedReader]]). It is the system clock, except in tests that name a [[ManualClock]]
 * with the internal option `_manualClock`. It travels to the executors inside the reader factory.
 */
private[sparkrandomstrings] sealed trait StreamClock extends Serializable {

  /** The time, in epoch ms. */
  def nowMs(): Long

  /**
   * Sleeps until this clock may read `momentMs`, having read `seenMs` last: at most the
   * difference in real time, and no longer than until the clock next moves. Callers read the
   * clock again afterwards: a sleep may end early.
   */
  def sleepToward(momentMs: Long, seenMs: Long): Unit
}

private[sparkrandomstrings] object StreamClock {

  /** The system clock: what every stream reads unless a test names a manual clock. */
  case object System extends StreamClock {
    override def nowMs(): Long = java.lang.System.currentTimeMillis()

    override def sleepToward(momentMs: Long, seenMs: Long): Unit =
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(momentMs - seenMs))
  }

  /** The manual clock registered under `name`, looked up where it is read (in this JVM). */
  final case class Manual(name: String) extends StreamClock {
    private def clock: ManualClock = ManualClock.named(name).getOrElse {
      throw new IllegalStateException(
        s"No manual clock named '$name' is registered in this JVM (${RandomStrings.MANUAL_CLOCK} is for " +
          "tests on a local master, whose executors share the driver's JVM).")
    }

    override def nowMs(): Long = clock.nowMs

    // A manual clock moves only when a test steps it: wait for that step, re-checking now and
    // then (the longest wait is a tenth of a second) so that a waiting task still sees its kill.
    override def sleepToward(momentMs: Long, seenMs: Long): Unit =
      clock.awaitStep(seenMs, math.min(momentMs - seenMs, MaxManualWaitMs))
  }

  private val MaxManualWaitMs = 100L

  /**
   * The clock that option `name` (`_manualClock`) names with `value`.
   *
   * @throws IllegalArgumentException if no manual clock is registered under `value`
   */
  def manual(name: String, value: String): StreamClock = {
    if (ManualClock.named(value).isEmpty) {
      throw new IllegalArgumentException(
        s"Invalid value '$value' for option '$name': no manual clock of that name is registered in this " +
          "JVM. The option is for tests: register one first with " +
          s"""io.github.sparkrandomstrings.ManualClock.register("$value", startMs), or remove '$name'.""")
    }
    Manual(value)
  }
}
