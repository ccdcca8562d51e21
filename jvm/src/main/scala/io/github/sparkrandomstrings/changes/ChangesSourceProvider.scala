package io.github.sparkrandomstrings.changes

import java.util.{Map => JMap}

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.SQLContext
import org.apache.spark.sql.connector.catalog.{Table, TableProvider}
import org.apache.spark.sql.connector.expressions.Transform
import org.apache.spark.sql.execution.streaming.Source
import org.apache.spark.sql.sources.{
  BaseRelation,
  DataSourceRegister,
  RelationProvider,
  SchemaRelationProvider,
  StreamSourceProvider
}
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import io.github.sparkrandomstrings.offsets.OffsetRowsScanStrategy
import io.github.sparkrandomstrings.realtime.{OffsetRowsStream, OffsetRowsTable, RealTimeMode}

/**
 * A change stream: inserts, updates and deletes over a keyspace, each change a pure function of
 * (seed, definition, its number), and the table after any change computable without replay:
 * `spark.readStream.format("changes")`.
 *
 * Each change is a row (in the flat envelope, the default): the declared columns (`.schema(...)`,
 * typed columns; without one, `id BIGINT NOT NULL, value STRING`), then `_op` STRING (`insert`,
 * `update` or `delete`), `_seq` BIGINT (the change's number: the table is the changes applied in
 * `_seq` order) and `_ts` TIMESTAMP (its commit time), all three not null. The key column holds the key,
 * 0 to `keys` - 1; every other column holds the row's image, drawn as typed columns draw cells:
 * an insert's or an update's own, a delete's the deleted row's last image. [[ChangeLifecycle]]
 * says which key each change names and what it does; `docs/change-streams.md` says it for users.
 *
 * Options (names are case-insensitive; every value is checked at `load()`), in the order of the
 * option table (`options/table.json`), as `docs/change-streams.md` lists them:
 *  - `key` (default: id): the declared column that holds each change's key: NOT NULL, TINYINT,
 *    SMALLINT, INT, BIGINT or STRING, wide enough for `keys` keys; no `fields.` option may name it.
 *  - `keys` (default: 1000): how many keys the table has, 1 to 2^62 (TINYINT holds 128, SMALLINT
 *    32,768, INT 2^31).
 *  - `deleteFraction` (default: 0.1): the probability, 0 to below 1, that a change to a present key
 *    deletes it rather than updates it.
 *  - `hotKeys` (default: 10): how many keys are hot (keys 0 to `hotKeys` - 1), fewer than `keys`;
 *    only with `hotKeyFraction`.
 *  - `hotKeyFraction` (default: 0): the share, 0 to below 1, of the live changes that go to the hot
 *    keys.
 *  - `snapshot` (default: false): begin with an insert of every key, in key order, as Debezium's
 *    snapshot reads.
 *  - `envelope` (default: flat): the rows' format: `flat`, `debezium`, `delta` or `flink`
 *    (docs/change-streams.md, "Envelopes").
 *  - `updateColumns` (default: every column): the declared columns an update changes,
 *    comma-separated and case-insensitive; every other column keeps the key's last image
 *    (docs/change-streams.md, "Partial updates").
 *  - `rowsPerSecond` (default: 10): changes made available per second; not with `rateProfile`.
 *  - `seed` (default: drawn once, kept in the checkpoint): the seed of every change.
 *  - `numPartitions` (default: the session's default parallelism): partitions (tasks) per batch.
 *  - `maxRowsPerTrigger` (default: no limit): the most changes one micro-batch reads.
 *  - `totalRows` (default: unbounded): the stream ends after this many changes (with untidy
 *    delivery: once every change before it is read, copies included).
 *  - `startTimestamp` (default: none): the commit time of change 0, in epoch ms; without it, the
 *    time the stream first starts (a batch read's: 0, the epoch).
 *  - `rateProfile` (default: none): phases the rate follows, as the random strings'
 *    (docs/testing-pipelines.md, "Testing pipelines").
 *  - `maxOutOfOrderMs` (default: 0): untidy delivery: each window of this many ms (at most 365
 *    days) is read in a drawn order during the next (docs/change-streams.md, "Untidy delivery").
 *  - `lateRowFraction` (default: 0): untidy delivery: the share, 0 to 1, of changes held back
 *    `lateByMs` more.
 *  - `lateByMs` (default: none): untidy delivery: how long a late change is held back, at most 365
 *    days; required when `lateRowFraction` > 0.
 *  - `duplicateFraction` (default: 0): untidy delivery: the share, 0 to below 1, of extra reads,
 *    each a copy of a change with its `_seq` and `_ts`.
 *  - `realTime` (default: false): read through Spark's DSv2 interfaces, which real-time mode needs
 *    (Spark 4.1+): each partition hands its changes on as they come to exist, an update's two rows
 *    together (docs/change-streams.md, "Recipe: each key's latest image in real time").
 *  - `asOf` (default: required by a batch read; not on a stream): a batch read: the table after the
 *    first `asOf` changes (docs/change-streams.md, "The table on the executors").
 *  - `history` (default: false): a batch read: every version of every key up to `asOf`, with its
 *    validity.
 *
 * The list is made from the options table of `docs/change-streams.md` (`make options`).
 * `fields.<column>.<property>` says how each declared column other than the key is made, as typed
 * columns take them (`docs/typed-columns.md`). The envelopes ([[ChangeEnvelope]]): flat; debezium
 * (Debezium's change-event value: `before`, `after`, `source`, `op`, `ts_ms`; a snapshot's inserts
 * have `op` `r`); delta (Delta Lake's change data feed: the columns, `_change_type`,
 * `_commit_version`, `_commit_timestamp`; an update is two rows); flink (the columns, `_row_kind`
 * +I, -U, +U or -D, `_seq`, `_ts`; an update is two rows). With `updateColumns`, an update keeps
 * every other column's cell from its key's insert ([[ChangeLifecycle.insertOf]]); an insert draws
 * every column.
 *
 * Untidy delivery ([[ChangeDelivery]]) is never the truth. Time is cut into windows of
 * `maxOutOfOrderMs` (1 ms without it); a window's changes are read in a drawn order within the next
 * window (in order without `maxOutOfOrderMs`), `duplicateFraction` more reads copy some of them
 * (each copy with its `_seq` and `_ts`), and `lateRowFraction` of them (drawn at random with
 * `maxOutOfOrderMs`, else each window's first) are held back `lateByMs` more. The table is still
 * defined by `_seq`. With `realTime`, each partition hands its changes on as they come to exist,
 * the rows of an update together ([[realtime.OffsetRowsStream]]); under a micro-batch trigger it
 * reads the V1 source's rows, row for row.
 *
 * A batch read, `spark.read.format("changes")`, makes the table after `asOf` changes, or with
 * `history` its history, on the executors ([[ChangesTable]]); `seed` is required, and the commit
 * times count from `startTimestamp` (0 without it). A stream refuses both options, and a batch
 * read `maxRowsPerTrigger`, `totalRows`, the delivery options and `realTime`.
 *
 * The checkpoint keeps the rows' definition (seed, first start, rate, delivery options, schema and
 * `fields.` options) and the change options, with `totalRows` under untidy delivery ([[ChangeStore]]);
 * a restart that changes one is refused, naming it.
 */
class ChangesSourceProvider
    extends StreamSourceProvider
    with TableProvider
    with RelationProvider
    with SchemaRelationProvider
    with DataSourceRegister {

  override def shortName(): String = Changes.ShortName

  /** Called by `load()`: checks every option and the declared schema, so errors surface there. */
  override def sourceSchema(
      sqlContext: SQLContext,
      schema: Option[StructType],
      providerName: String,
      parameters: Map[String, String]): (String, StructType) = {
    val options = ChangeOptions.stream(parameters, schema)
    if (options.rows.realTime) RealTimeMode.requireAvailable()
    val spark = sqlContext.sparkSession
    if (!OffsetRowsScanStrategy.extensionsConfiguredOn(spark.sparkContext)) OffsetRowsScanStrategy.addTo(spark)
    (Changes.ShortName, options.schema)
  }

  /** Called when a query starts: fixes or reads back the stream from its checkpoint. */
  override def createSource(
      sqlContext: SQLContext,
      metadataPath: String,
      schema: Option[StructType],
      providerName: String,
      parameters: Map[String, String]): Source = {
    val options = ChangeOptions.stream(parameters, schema)
    val spark = sqlContext.sparkSession
    new ChangesSource(
      spark,
      ChangeStore.atStart(spark, metadataPath, options),
      options,
      options.rows.partitionsIn(spark))
  }

  /**
   * DSv2: the schema of a stream that declares none, the default columns in the envelope. Spark asks
   * for it after `sourceSchema` has checked a stream's options; for a batch read or a write, before
   * [[createRelation]] checks theirs, so an unknown envelope is left for that to refuse.
   */
  override def inferSchema(options: CaseInsensitiveStringMap): StructType = {
    val named = Option(options.get(Changes.ENVELOPE)).map(_.trim)
    ChangeEnvelope.All.find(e => named.exists(_.equalsIgnoreCase(e.name)))
      .getOrElse(ChangeSpec.Default.envelope)
      .schemaOf(Changes.DefaultSchema)
  }

  /** Spark passes a declared schema here only after `sourceSchema` has accepted it. */
  override def supportsExternalMetadata(): Boolean = true

  /**
   * DSv2: the table Spark reads a stream from if it reports `MICRO_BATCH_READ`, which it does with
   * `realTime=true` only ([[realtime.OffsetRowsTable]]); otherwise Spark uses [[createSource]], and a
   * batch read (which this table never reports) [[createRelation]]. So the options are parsed here
   * only when a stream's options name `realTime` (a stream's have passed `sourceSchema` by now); a
   * batch read's are left to [[createRelation]], which checks them and refuses `realTime`.
   */
  override def getTable(schema: StructType, partitioning: Array[Transform], properties: JMap[String, String]): Table = {
    val parameters = properties.asScala.toMap
    def named(names: String*) = names.exists(name => parameters.keys.exists(_.equalsIgnoreCase(name)))
    // Spark passes the schema `inferSchema` made when none was declared: the default columns in
    // the envelope, which no declared schema is (a declared column may not have an envelope's name).
    val declared = Some(schema).filter(_ != inferSchema(new CaseInsensitiveStringMap(properties)))
    val realTime =
      if (!named(Changes.REAL_TIME) || named(Changes.BatchNames: _*)) None
      else Some(ChangeOptions.stream(parameters, declared)).filter(_.rows.realTime)
    realTime match {
      case None => new OffsetRowsTable(Changes.ShortName, schema, realTime = false, (_, _) => sys.error("never read"))
      case Some(options) =>
        new OffsetRowsTable(
          Changes.ShortName,
          options.schema,
          realTime = true,
          (spark, checkpoint) => {
            val stream = ChangeStore.atStart(spark, checkpoint, options)
            val numPartitions = options.rows.partitionsIn(spark)
            new OffsetRowsStream(
              stream,
              options.positions,
              options.rows.maxRowsPerTrigger.map(Changes.MAX_ROWS_PER_TRIGGER -> _),
              options.rows.clock,
              numPartitions,
              s"${Changes.ShortName}[${Changes.REAL_TIME}=true, seed=${stream.definition.seed}, " +
                s"numPartitions=$numPartitions]")
          })
    }
  }

  /** A batch read without a declared schema: the table of the default columns, `id` and `value`. */
  override def createRelation(sqlContext: SQLContext, parameters: Map[String, String]): BaseRelation =
    table(sqlContext, parameters, None)

  /** A batch read, `spark.read.format("changes")` with `asOf`: the table after that many changes ([[ChangesTable]]). */
  override def createRelation(
      sqlContext: SQLContext,
      parameters: Map[String, String],
      schema: StructType): BaseRelation =
    table(sqlContext, parameters, Some(schema))

  private def table(sqlContext: SQLContext, parameters: Map[String, String], schema: Option[StructType]) = {
    val options = ChangeOptions.batch(parameters, schema)
    val rows = options.rows
    // A table has no first start: its commit times count from startTimestamp, or else from the epoch.
    val definition = rows.definition(rows.startTimestamp.getOrElse(0L), () => sys.error("a batch read has a seed"))
    new ChangesTable(
      sqlContext,
      ChangeStream(definition, options.spec),
      options.asOf.get,
      options.history,
      rows.partitionsIn(sqlContext.sparkSession),
      options.tableSchema)
  }
}
