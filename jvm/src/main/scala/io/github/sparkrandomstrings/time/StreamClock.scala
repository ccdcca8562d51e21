package io.github.sparkrandomstrings.time

import io.github.sparkrandomstrings.options.RandomStrings

/**
 * Where every part of the source reads the time: when a stream first starts, how many rows exist
 * ([[offsets.OffsetSource]], [[realtime.OffsetRowsStream]]) and when a real-time read's row comes to exist
 * ([[realtime.InterleavedReader]]). It is the system clock, except in tests that name a [[ManualClock]]
 * with the internal option `_manualClock`. It travels to the executors inside the reader factory.
 */
private[sparkrandomstrings] sealed trait StreamClock extends Serializable {

  /** The time, in epoch ms. */
  def nowMs(): Long
}

private[sparkrandomstrings] object StreamClock {

  /** The system clock: what every stream reads unless a test names a manual clock. */
  case object System extends StreamClock {
    override def nowMs(): Long = java.lang.System.currentTimeMillis()
  }

  /**
   * The manual clock registered under `name`, looked up where it is read (in this JVM). Real-time
   * mode, which Spark times by the system clock, refuses it ([[realtime.OffsetRowsStream.checkRealTime]]),
   * so no reader waits on it.
   */
  final case class Manual(name: String) extends StreamClock {
    override def nowMs(): Long = ManualClock.named(name).map(_.nowMs).getOrElse {
      throw new IllegalStateException(
        s"No manual clock named '$name' is registered in this JVM (${RandomStrings.MANUAL_CLOCK} is for " +
          "tests on a local master, whose executors share the driver's JVM).")
    }
  }

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
          s"""io.github.sparkrandomstrings.time.ManualClock.register("$value", startMs), or remove '$name'.""")
    }
    Manual(value)
  }
}
