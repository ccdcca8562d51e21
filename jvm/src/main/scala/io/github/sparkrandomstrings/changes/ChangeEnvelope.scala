package io.github.sparkrandomstrings.changes

import org.apache.spark.sql.types._

import io.github.sparkrandomstrings.changes.ChangeLifecycle.{Delete, Insert, Op, Ops, Update}

/**
 * The format a change stream's rows take (`envelope`): the same changes, each as the rows a
 * consumer of that format reads. [[ChangeRows]] writes them; `docs/change-streams.md` shows each
 * beside its project's own documentation, and says where ours differs.
 *
 * @param name the option's value
 */
sealed abstract class ChangeEnvelope(val name: String) extends Serializable {

  /** The schema of the rows of a stream whose declared columns are `declared`. */
  def schemaOf(declared: StructType): StructType

  /** How many rows a change that does `op` takes: an update is two in the Delta and Flink envelopes. */
  def rowsOf(op: Op): Int = 1

  /**
   * The names of what a row does, in the envelope's column that says it (`_op`, `op`,
   * `_change_type`, `_row_kind`), by the operation's index ([[ChangeLifecycle.Ops]]: insert, update,
   * delete), and in the Delta and Flink envelopes the row before an update's at
   * [[ChangeEnvelope.PreimageIndex]]. Debezium's snapshot read is [[ChangeEnvelope.Debezium.SnapshotOp]].
   */
  def kindNames: IndexedSeq[String]
}

object ChangeEnvelope {

  /**
   * The declared columns, then what the change does (`_op`: insert, update or delete), its number
   * (`_seq`) and its commit time (`_ts`). A delete carries the deleted row's last image.
   */
  case object Flat extends ChangeEnvelope("flat") {
    val Fields: Seq[StructField] = Seq(
      StructField("_op", StringType, nullable = false),
      StructField("_seq", LongType, nullable = false),
      StructField("_ts", TimestampType, nullable = false))

    def schemaOf(declared: StructType): StructType = StructType(declared.fields.toSeq ++ Fields)

    /** `_op`: the operation's own name. */
    val kindNames: IndexedSeq[String] = Ops.map(_.name)
  }

  /**
   * Debezium's change-event value: `before` (the row before the change; null for an insert),
   * `after` (after it; null for a delete), `source` (where the change comes from: this source's
   * name, whether a snapshot read, and the change's number, `sequence`), `op` (`c` create, `u`
   * update, `d` delete, `r` a snapshot read) and `ts_ms` (the commit time, epoch ms).
   */
  case object Debezium extends ChangeEnvelope("debezium") {
    val SourceType: StructType = StructType(Seq(
      StructField("connector", StringType, nullable = false),
      StructField("name", StringType, nullable = false),
      StructField("ts_ms", LongType, nullable = false),
      StructField("snapshot", StringType, nullable = false),
      StructField("sequence", LongType, nullable = false)))

    def schemaOf(declared: StructType): StructType = StructType(Seq(
      StructField("before", declared, nullable = true),
      StructField("after", declared, nullable = true),
      StructField("source", SourceType, nullable = false),
      StructField("op", StringType, nullable = false),
      StructField("ts_ms", LongType, nullable = false)))

    /** Debezium's `op` of a snapshot read. */
    val SnapshotOp = "r"

    /** Debezium's `op` of each operation of a live change. */
    def opOf(op: Op): String = op match {
      case Insert => "c"
      case Update => "u"
      case Delete => "d"
    }

    /** `op` of a live change. */
    val kindNames: IndexedSeq[String] = Ops.map(opOf)
  }

  /**
   * Delta Lake's change data feed: the declared columns, then `_change_type` (`insert`,
   * `update_preimage`, `update_postimage`, `delete`), `_commit_version` (here the change's number:
   * each change is a commit of its own) and `_commit_timestamp`. An update is two rows, its
   * pre-image then its post-image.
   */
  case object Delta extends ChangeEnvelope("delta") {
    val Fields: Seq[StructField] = Seq(
      StructField("_change_type", StringType, nullable = false),
      StructField("_commit_version", LongType, nullable = false),
      StructField("_commit_timestamp", TimestampType, nullable = false))

    def schemaOf(declared: StructType): StructType = StructType(declared.fields.toSeq ++ Fields)

    override def rowsOf(op: Op): Int = if (op == Update) 2 else 1

    /** `_change_type`: an update's post-image at the update's index, its pre-image last. */
    val kindNames: IndexedSeq[String] = Vector("insert", "update_postimage", "delete", "update_preimage")
  }

  /**
   * Flink's changelog: the declared columns, then `_row_kind` (Flink's `RowKind` as its short
   * string: `+I` insert, `-U` the row before an update, `+U` after it, `-D` delete), `_seq` and `_ts`.
   * An update is two rows, `-U` then `+U`.
   */
  case object Flink extends ChangeEnvelope("flink") {
    val Fields: Seq[StructField] = Seq(
      StructField("_row_kind", StringType, nullable = false),
      StructField("_seq", LongType, nullable = false),
      StructField("_ts", TimestampType, nullable = false))

    def schemaOf(declared: StructType): StructType = StructType(declared.fields.toSeq ++ Fields)

    override def rowsOf(op: Op): Int = if (op == Update) 2 else 1

    /** `_row_kind`: the row after an update (`+U`) at the update's index, the row before it (`-U`) last. */
    val kindNames: IndexedSeq[String] = Vector("+I", "+U", "-D", "-U")
  }

  /** Where [[ChangeEnvelope.kindNames]] of the Delta and Flink envelopes holds the row before an update. */
  val PreimageIndex: Int = 3

  /** Every envelope, in the documentation's order. */
  val All: Seq[ChangeEnvelope] = Seq(Flat, Debezium, Delta, Flink)
}
