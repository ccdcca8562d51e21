package io.github.sparkrandomstrings

import org.apache.spark.SparkContext
import org.apache.spark.sql.SparkSessionExtensions

import io.github.sparkrandomstrings.offsets.OffsetRowsScanStrategy

/**
 * Plugs this source's batch scan (`OffsetRowsScanStrategy`) into a session's planner the
 * conventional way: through `spark.sql.extensions`, set before the session starts.
 *
 * {{{
 *   spark-submit --jars spark-random-strings-....jar \
 *     --conf spark.sql.extensions=io.github.sparkrandomstrings.RandomStringsExtensions ...
 * }}}
 *
 * The Python helper `configure_spark_with_random_strings` sets it. A session started without it
 * still gets the scan: `load()` then adds the strategy to the session's
 * `experimental.extraStrategies`. Both plan a batch as `Scan InMemoryRandomStrings[...]`; only
 * the second changes the user's session.
 */
class RandomStringsExtensions extends (SparkSessionExtensions => Unit) {
  override def apply(extensions: SparkSessionExtensions): Unit =
    extensions.injectPlannerStrategy(_ => OffsetRowsScanStrategy)
}

object RandomStringsExtensions {

  /** The setting that installs the extensions: Spark's static `spark.sql.extensions`. */
  val ConfigKey: String = OffsetRowsScanStrategy.ExtensionsKey

  /**
   * Whether the session of `context` was started with these extensions. The strategy answers it,
   * by this class's name kept as text, so that the Nexmark provider, which imports nothing from this
   * package, asks the same.
   */
  def configuredOn(context: SparkContext): Boolean = OffsetRowsScanStrategy.extensionsConfiguredOn(context)
}
