package io.github.sparkrandomstrings.rows

import org.apache.spark.sql.types.StructType

import io.github.sparkrandomstrings.options.{RandomStrings, Real, Whole}
import io.github.sparkrandomstrings.text.StringValues
import io.github.sparkrandomstrings.time.{InOrderTimes, RateProfile, RowClock}
import io.github.sparkrandomstrings.typed.DeclaredSchema
import io.github.sparkrandomstrings.typed.cells.CellKind

/**
 * Everything a row depends on besides its offset. Row `offset` of the stream is a pure function
 * of (definition, offset): that is what makes batches replayable after a restart and identical
 * whatever the partitioning. A definition is fixed when a query first starts and is kept in the
 * checkpoint (see [[offsets.DefinitionStore]]); it travels to the executors inside each batch's RDD.
 * Whether its values come from a query's options or from a checkpoint, they pass the one set of
 * rules, [[StreamDefinition.validate]].
 *
 * @param seed            the seed of every random draw
 * @param startTimeMs     when the stream first started (epoch ms): rows become available from
 *                        then, and it is row 0's event time unless `startTimestamp` is set
 * @param rowsPerSecond   the rate at which rows become available, which also spaces their `ts`
 *                        (unused with a `rateProfile`, and then the default)
 * @param strings         what the `value` column's strings are drawn from: lengths, characters, pool
 * @param shape           the rows' event-time disorder and repeats ([[RowShape.Plain]]: none)
 * @param timestampColumn whether rows carry a last column `timestamp`, `ts` as a TIMESTAMP
 * @param startTimestamp  the event time of offset 0 (epoch ms), if fixed
 * @param rateProfile     the phases the rate follows from the first start, in place of
 *                        `rowsPerSecond`
 * @param declared        the schema the user declared and its `fields.` options, if any: then
 *                        its columns replace the random strings' (`strings` is unused)
 */
final case class StreamDefinition(
    seed: Long,
    startTimeMs: Long,
    rowsPerSecond: Long,
    strings: StringValues,
    shape: RowShape = RowShape.Plain,
    timestampColumn: Boolean = false,
    startTimestamp: Option[Long] = None,
    rateProfile: Option[RateProfile] = None,
    declared: Option[DeclaredSchema] = None)
    extends OffsetRows {

  override def sourceName: String = RandomStrings.ShortName

  /** Each row is made by a [[RowGenerator]] of this definition. */
  override def newRowMaker(): RowMaker = new RowGenerator(this)

  /** How many rows exist at wall-clock time `nowMs`: by the rate or the profile, from the first start. */
  override def rowsAvailableAt(nowMs: Long): Long = rateProfile match {
    case None => RowClock.rowsAvailable(nowMs - startTimeMs, rowsPerSecond)
    case Some(profile) => profile.rowsAvailable(nowMs - startTimeMs)
  }

  /**
   * The wall-clock time (epoch ms) at which the row at `offset` comes to exist: the first ms at
   * which [[rowsAvailableAt]] counts it. A real-time read hands the row on then, and reports it
   * as the row's arrival time. Saturates at Long.MaxValue.
   */
  override def existsAtMs(offset: Long): Long = RowClock.saturatedAdd(
    startTimeMs,
    rateProfile match {
      case None => RowClock.existsAfterMs(offset, rowsPerSecond)
      case Some(profile) => profile.existsAfterMs(offset)
    })

  /** The event time of offset 0 (epoch ms): `startTimestamp`, or else the first start's time. */
  def eventTimeOriginMs: Long = startTimestamp.getOrElse(startTimeMs)

  /**
   * The in-order event time of the row at `offset` (epoch ms), computed directly: from the
   * origin at the one rate, or by the profile. [[RowGenerator]] steps cursors for consecutive rows
   * and comes here for the others.
   */
  def inOrderEventTimeMs(offset: Long): Long = rateProfile match {
    case None => RowClock.eventTimeMs(eventTimeOriginMs, offset, rowsPerSecond)
    case Some(profile) => RowClock.saturatedAdd(eventTimeOriginMs, profile.eventOffsetMs(offset))
  }

  /** A cursor of [[inOrderEventTimeMs]] for offsets read mostly one after another: one per thread. */
  def inOrderTimes(): InOrderTimes = new InOrderTimes(eventTimeOriginMs, rowsPerSecond, rateProfile)

  /** This stream's columns, in order: what its schema and its rows' writers are made from. */
  def columns: Seq[Column] = declared.fold(Columns.of(strings, timestampColumn))(d => Columns.declared(d))

  /** The schema of this stream's rows: every path that makes or reads them takes it from here. */
  def schema: StructType = Columns.schemaOf(columns)

  /**
   * The name of the column that holds each row's own offset, if this stream has one: the random
   * strings' `offset`, or the first declared column of kind `offset`.
   */
  def offsetColumn: Option[String] = columns.collectFirst {
    case Column(field, Column.Offset) => field.name
    case Column(field, Column.Cells(spec)) if spec.kind == CellKind.RowOffset => field.name
  }

  /**
   * The options that shape rows, then those of time and schema, in the documentation's order
   * (`distinctValues` to `rateProfile`), as the checkpoint's file holds them; None for "not set".
   */
  def shapeSettings: Seq[(String, Option[Any])] = strings.poolSettings ++ shape.settings ++ timeSettings

  /** The options of time and schema, in the documentation's order; None for "not set". */
  def timeSettings: Seq[(String, Option[Any])] = Seq(
    RandomStrings.TIMESTAMP_COLUMN -> Some(timestampColumn),
    RandomStrings.START_TIMESTAMP -> startTimestamp,
    RandomStrings.RATE_PROFILE -> rateProfile)

  /**
   * This definition, if it passes [[StreamDefinition.validate]]: a definition read from a
   * checkpoint, whose values all count as given and are shown as they are.
   *
   * @throws IllegalArgumentException as the options would, naming the value and what is allowed
   */
  def validated(): StreamDefinition = {
    StreamDefinition.validate(
      rowsPerSecond,
      strings,
      shape,
      startTimestamp,
      rateProfile,
      written = None)
    declared.foreach(_.cells)
    this
  }
}

object StreamDefinition {
  import RandomStrings._

  /**
   * The rules every stream passes, whether its options were just parsed ([[rows.SourceOptions]]) or
   * its definition was read from a checkpoint ([[offsets.DefinitionStore]]): each written once, here,
   * with the options' messages. In order: the rate in range, the string options' rules
   * ([[text.StringValues.validate]]), each of the row's shaping values in range, a late row's
   * lateness, a pool that the lengths and characters can fill, `startTimestamp` in range and
   * the profile's rules ([[time.RateProfile.parse]]'s: a profile is only made by its parser, so it
   * passes them by construction).
   *
   * @param written for a user's options, Some(f): f(name) is the value of option `name` as the
   *                user wrote it, or None where it was not given (its default applies, and a
   *                message says so). For a stored definition, None: every value counts as given
   *                and is shown as its value's text.
   * @throws IllegalArgumentException naming the option, the value and what is allowed
   */
  def validate(
      rowsPerSecond: Long,
      strings: StringValues,
      shape: RowShape,
      startTimestamp: Option[Long],
      rateProfile: Option[RateProfile],
      written: Option[String => Option[String]]): Unit = {
    def text(name: String, value: Any): String = written.flatMap(_(name)).getOrElse(value.toString)
    def isGiven(name: String): Boolean = written.forall(_(name).isDefined)
    def whole(name: String, range: Whole, value: Long): Unit = range.check(name, value, text(name, value))
    def real(name: String, range: Real, value: Double): Unit = range.check(name, value, text(name, value))

    whole(ROWS_PER_SECOND, RowsPerSecondRange, rowsPerSecond)
    StringValues.validate(strings, text, isGiven)
    whole(MAX_OUT_OF_ORDER_MS, MaxOutOfOrderMsRange, shape.maxOutOfOrderMs)
    real(LATE_ROW_FRACTION, LateRowFractionRange, shape.lateRowFraction)
    shape.lateByMs.foreach(whole(LATE_BY_MS, LateByMsRange, _))
    real(DUPLICATE_FRACTION, DuplicateFractionRange, shape.duplicateFraction)
    whole(MAX_DUPLICATE_DISTANCE, MaxDuplicateDistanceRange, shape.maxDuplicateDistance)

    if (shape.lateRowFraction > 0.0 && shape.lateByMs.isEmpty) {
      throw new IllegalArgumentException(
        s"Options that do not fit together: '$LATE_ROW_FRACTION' is " +
          s"${text(LATE_ROW_FRACTION, shape.lateRowFraction)}, but '$LATE_BY_MS' is not set. Say " +
          s"how late a late row is, in milliseconds: '$LATE_BY_MS' >= 1.")
    }
    StringValues.validatePool(strings, text)
    startTimestamp.foreach(whole(START_TIMESTAMP, StartTimestampRange, _))
    rateProfile.foreach(profile => RateProfile.parse(profile.canonical))
  }

  /**
   * Checks that a restarted query's options describe the stream its checkpoint holds. The seed
   * may be left out (the stored one is used); every other option that shapes rows must be the
   * same, since rows already delivered cannot change.
   *
   * @param requested the definition the restarted query's options describe, with the stored
   *                  start time, and the stored seed if the options give none
   * @param where     the checkpoint file, for the message
   * @throws IllegalArgumentException naming each option that differs, with both values
   */
  def checkRestart(stored: StreamDefinition, requested: StreamDefinition, where: String): Unit = {
    val differences = Seq(
      (SEED, stored.seed, requested.seed),
      (ROWS_PER_SECOND, stored.rowsPerSecond, requested.rowsPerSecond),
      (MIN_LENGTH, stored.strings.minLength, requested.strings.minLength),
      (MAX_LENGTH, stored.strings.maxLength, requested.strings.maxLength),
      ("characters", stored.strings.characters, requested.strings.characters)) ++
      stored.shapeSettings.zip(requested.shapeSettings).map {
        case ((name, was), (_, now)) => (name, shown(was), shown(now))
      }
    val declaredChanges = (stored.declared, requested.declared) match {
      case (Some(was), Some(now)) => was.differencesFrom(now)
      case (None, None) => Nil
      case (was, _) =>
        def shown(d: Option[DeclaredSchema]) = d.fold("the random strings' schema")(_.schema.toDDL)
        Seq(s"schema: the checkpoint has ${shown(was)}, the query declares ${shown(requested.declared)}")
    }
    val contradictions = differences.collect {
      case (name, was, now) if was != now => s"$name: the checkpoint has $was, the query sets $now"
    } ++ declaredChanges
    if (contradictions.nonEmpty) {
      throw new IllegalArgumentException(
        s"The options of this query contradict the stream stored in its checkpoint ($where): " +
          contradictions.mkString("; ") + ". A checkpoint's seed, rowsPerSecond, " +
          (if (stored.declared.isEmpty && requested.declared.isEmpty) "lengths, characters"
           else "declared schema, its fields. options") +
          " and the options that shape rows (distinctValues to " +
          "rateProfile) are fixed when its query first starts, so that every batch can " +
          "be replayed identically. Restart with the stored values (the seed may simply be left " +
          "out), or use a new checkpoint location to start a different stream.")
    }
  }

  private def shown(setting: Option[Any]): String = setting.fold("none")(_.toString)
}
