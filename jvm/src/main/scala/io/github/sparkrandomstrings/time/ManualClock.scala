package io.github.sparkrandomstrings.time

import java.util.concurrent.ConcurrentHashMap

/**
 * A clock that tests step by hand, as Spark's own streaming tests step a `StreamManualClock`: a
 * stream read with the internal option `_manualClock` set to a clock's name fixes its first start
 * and counts its rows by that clock instead of the system's. Between two steps no row comes to
 * exist, so each step makes exactly the rows a test expects, and a query's next batch reads
 * exactly those: no test waits for the wall clock. Micro-batch triggers only: real-time mode,
 * which Spark times by the system clock, refuses a manual clock when the query starts.
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

  /** Moves the clock forward by `ms` (>= 0); the new time. */
  def advance(ms: Long): Long = synchronized {
    require(ms >= 0L, s"a clock only moves forward: cannot advance $name by $ms ms")
    now = RowClock.saturatedAdd(now, ms)
    now
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
