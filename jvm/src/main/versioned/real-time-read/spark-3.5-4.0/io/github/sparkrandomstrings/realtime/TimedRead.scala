package io.github.sparkrandomstrings.realtime

/**
 * Spark 3.5 and 4.0 have no real-time reads (`SupportsRealTimeRead`): there an
 * [[InterleavedReader]] is a plain partition reader, read by micro-batches only.
 */
private[sparkrandomstrings] trait TimedRead
