package io.github.sparkrandomstrings

/**
 * Everything a row depends on besides its offset. Row `offset` of the stream is a pure function
 * of (definition, offset): that is what makes batches replayable after a restart and identical
 * whatever the partitioning. A definition is fixed when a query first starts and is kept in the
 * checkpoint (see [[DefinitionStore]]); it travels to the executors inside each batch's RDD.
 *
 * @param seed          the seed of every random draw
 * @param startTimeMs   when the stream first started (epoch ms): row 0's event time
 * @param rowsPerSecond the rate at which rows become available, which also spaces their `ts`
 * @param minLength     the shortest string, in code points
 * @param maxLength     the longest string, in code points
 * @param characters    the characters strings are drawn from
 * @param shape         the value pool, event-time disorder and repeats ([[RowShape.Plain]]: none)
 */
final case class StreamDefinition(
    seed: Long,
    startTimeMs: Long,
    rowsPerSecond: Long,
    minLength: Int,
    maxLength: Int,
    characters: CharacterSet,
    shape: RowShape = RowShape.Plain) {

  /** How many rows exist at wall-clock time `nowMs`. */
  def rowsAvailableAt(nowMs: Long): Long = RowClock.rowsAvailable(nowMs - startTimeMs, rowsPerSecond)
}

object StreamDefinition {

  /** A new stream's definition, from the options of the query that starts it. */
  def start(options: SourceOptions, nowMs: Long, drawSeed: () => Long): StreamDefinition =
    StreamDefinition(
      seed = options.seed.getOrElse(drawSeed()),
      startTimeMs = nowMs,
      rowsPerSecond = options.rowsPerSecond,
      minLength = options.minLength,
      maxLength = options.maxLength,
      characters = options.characters,
      shape = options.shape)

  /**
   * Checks that a restarted query's options describe the stream its checkpoint holds. The seed
   * may be left out (the stored one is used); every other option that shapes rows must be the
   * same, since rows already delivered cannot change.
   *
   * @param where the checkpoint file, for the message
   * @throws IllegalArgumentException naming each option that differs, with both values
   */
  def checkRestart(stored: StreamDefinition, options: SourceOptions, where: String): Unit = {
    val requested = start(options, stored.startTimeMs, () => stored.seed)
    val differences = Seq(
      (SourceOptions.SEED, stored.seed, requested.seed),
      (SourceOptions.ROWS_PER_SECOND, stored.rowsPerSecond, requested.rowsPerSecond),
      (SourceOptions.MIN_LENGTH, stored.minLength, requested.minLength),
      (SourceOptions.MAX_LENGTH, stored.maxLength, requested.maxLength),
      ("characters", stored.characters, requested.characters)) ++
      stored.shape.settings.zip(requested.shape.settings).map { case ((name, was), (_, now)) =>
        (name, shown(was), shown(now))
      }
    val contradictions = differences.collect {
      case (name, was, now) if was != now => s"$name: the checkpoint has $was, the query sets $now"
    }
    if (contradictions.nonEmpty) {
      throw new IllegalArgumentException(
        s"The options of this query contradict the stream stored in its checkpoint ($where): " +
          contradictions.mkString("; ") + ". A checkpoint's seed, rowsPerSecond, lengths, " +
          "characters and the options that shape rows (distinctValues to " +
          "maxDuplicateDistance) are fixed when its query first starts, so that every batch can " +
          "be replayed identically. Restart with the stored values (the seed may simply be left " +
          "out), or use a new checkpoint location to start a different stream.")
    }
  }

  private def shown(setting: Option[Any]): String = setting.fold("none")(_.toString)
}
