package io.github.sparkrandomstrings

import java.util.concurrent.ConcurrentHashMap

/**
 * A clock that tests step by hand, as Spark's own streaming tests step a `StreamManualClock`: a
 * stream read with the internal option `_manualClock` set to a clock's name counts its rows, fixes
 * its first start and times its real-time reads by that clock instead of the system's. Between two
 * steps no row comes to exist, so each step makes exactly the rows a test expects, and a query's
 * next batch reads exactly those: no test waits for the wall clock.
 *
 * Clocks live in this JVM's registry, by name ([[ManualClock.register]]). The option is for tests
 * only: it is not among the documented options, and `load()` refuses a name no clock is
 * registered under. On a cluster the executors' JVMs have no such clock: use it with a local
 * master.
 *
 * {{{
 *   val clock = ManualClock.register("steps", startMs = 1700000000000L)
 *   val query = spark.readStream.format("InMemoryRandomStrings")
 *     .option("rowsPerSecond", 100).option("_manualClock", "steps").load()
 *     .writeStream.format("memory").queryName("rows").start()
 *   clock.advance(1000)           // 100 rows exist
 *   query.processAllAvailable()   // and one batch has read exactly them
 * }}}
 */
final class ManualClock private (val name: String, startMs: Long) {

  @volatile private var now = startMs

  /** The time this clock reads, in epoch ms. */
  def nowMs: Long = now

  /** Moves the clock forward by `ms` (>= 0) and wakes every reader waiting on it; the new time. */
  def advance(ms: Long): Long = synchronized {
    require(ms >= 0L, s"a clock only moves forward: cannot advance $name by $ms ms")
    now = RowClock.saturatedAdd(now, ms)
    notifyAll()
    now
  }

  /**
   * Waits until this clock has moved past `seenMs`, or until `patienceMs` of real time have
   * passed, whichever comes first (a reader that also watches a deadline on the system clock).
   */
  private[sparkrandomstrings] def awaitStep(seenMs: Long, patienceMs: Long): Unit = synchronized {
    if (now == seenMs && patienceMs > 0L) wait(patienceMs)
  }

  override def toString: String = s"ManualClock($name at $now ms)"
}

object ManualClock {

  private val registry = new ConcurrentHashMap[String, ManualClock]()

  /** A new clock reading `startMs` under `name`, replacing any clock registered under it before. */
  def register(name: String, startMs: Long): ManualClock = {
    require(name != null && name.trim.nonEmpty, "a manual clock needs a name")
    val clock = new ManualClock(name, startMs)
    registry.put(name, clock)
    clock
  }

  /** The clock registered under `name`, if any. */
  def named(name: String): Option[ManualClock] = Option(registry.get(name))

  /** Removes the clock registered under `name`, if any. */
  def unregister(name: String): Unit = registry.remove(name)
}
