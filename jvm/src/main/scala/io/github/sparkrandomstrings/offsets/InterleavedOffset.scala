package io.github.sparkrandomstrings.offsets

import scala.util.Try

import com.fasterxml.jackson.databind.ObjectMapper
import org.apache.spark.sql.connector.read.streaming.{Offset => StreamOffset, PartitionOffset}

import io.github.sparkrandomstrings.options.RandomStrings
import io.github.sparkrandomstrings.time.RowClock

/**
 * Where a `realTime` stream stands: for each of its n partitions, the next offset it reads.
 * This is the offset arithmetic of the DSv2 stream, in one place, as [[OffsetRange]] is the V1
 * source's.
 *
 * Partition p of n reads the offsets p, p + n, p + 2n, ... in order: interleaved, so that every
 * partition has rows as soon as the stream has any, and each hands its rows on in offset order
 * as they come to exist (in real-time mode partitions move on independently; a micro-batch
 * takes each one forward to the same frontier). Rows are the same whatever the partitioning;
 * only which partition makes a row depends on n, so n is fixed for a checkpoint (a restart with
 * another `numPartitions` is refused, see [[InterleavedOffset.parse]]).
 *
 * Worked example, n = 3: the first batch starts at (0, 1, 2). A micro-batch to frontier 7 (rows
 * 0 to 6) ends at (9, 7, 8): partition 0 read 0, 3, 6; partition 1 read 1, 4; partition 2 read
 * 2, 5. A real-time batch that ends with partition 1 ahead, at (9, 13, 8), read rows 7, 10 in
 * partition 1 only; the next batch starts there. In JSON (the offset log): `{"next":[9,13,8]}`.
 *
 * An offset of a change stream can make two rows (an update in the Delta and Flink envelopes), and
 * a real-time batch can end between them: Spark checks its deadline before it asks a reader for
 * each row. So a partition's position is the next offset it reads and how many of that offset's
 * rows it has handed on already (`handed`, 0 but there). The JSON names them only when one is not
 * 0: `{"next":[9,13,8],"handed":[0,1,0]}` says partition 1 has handed on the first row of offset 13,
 * and reads its second next. Every other stream's offsets read as before.
 *
 * @param next   the next offset each partition reads, partition p's at index p, congruent to p
 *               modulo n
 * @param handed how many rows of offset `next(p)` partition p has handed on already
 */
private[sparkrandomstrings] final case class InterleavedOffset(next: IndexedSeq[Long], handed: IndexedSeq[Int])
    extends StreamOffset {
  require(next.nonEmpty, "an interleaved offset has at least one partition")
  require(handed.length == next.length && handed.forall(_ >= 0), s"handed rows for each partition: $handed")

  def numPartitions: Int = next.length

  override def json(): String = {
    val positions = next.mkString(s"""{"${InterleavedOffset.Field}":[""", ",", "]")
    if (handed.forall(_ == 0)) s"$positions}"
    else handed.mkString(s"""$positions,"${InterleavedOffset.HandedField}":[""", ",", "]}")
  }

  /** The lowest offset not yet read: every row before it has been read, in every partition. */
  def frontier: Long = next.min

  /** How many rows were read between `start` and this offset, summed over the partitions. */
  def rowsSince(start: InterleavedOffset): Long =
    next.indices.map(p => InterleavedOffset.countBetween(start.next(p), next(p), numPartitions)).sum

  /**
   * Every partition taken forward to `frontier`: to the first of its offsets at or after it,
   * or left where it is if it is already past it. Reads no row twice and skips none.
   */
  def advancedTo(frontier: Long): InterleavedOffset = {
    val positions = next.indices.map { p =>
      val first = InterleavedOffset.firstAtOrAfter(frontier, p, numPartitions)
      if (first > next(p)) (first, 0) else (next(p), handed(p))
    }
    InterleavedOffset(positions.map(_._1), positions.map(_._2))
  }

  /** Partition p's position: the next offset it reads, and how many of that offset's rows it has handed on. */
  def position(p: Int): (Long, Int) = (next(p), handed(p))
}

private[sparkrandomstrings] object InterleavedOffset {

  /** The fields of the offset's JSON form. */
  val Field = "next"
  val HandedField = "handed"

  /** The offset at which partition p reads `next(p)` next, none of its rows handed on yet. */
  def apply(next: IndexedSeq[Long]): InterleavedOffset = InterleavedOffset(next, next.map(_ => 0))

  /** Where a stream of `numPartitions` partitions starts: partition p at offset p. */
  def start(numPartitions: Int): InterleavedOffset = atFrontier(0L, numPartitions)

  /** The offset at which every row before `frontier`, and none from it on, has been read. */
  def atFrontier(frontier: Long, numPartitions: Int): InterleavedOffset =
    InterleavedOffset((0 until numPartitions).map(p => firstAtOrAfter(frontier, p, numPartitions)))

  /** The first offset at or after `from` that partition `p` of `n` reads (saturating). */
  def firstAtOrAfter(from: Long, p: Int, n: Int): Long = {
    val ahead = Math.floorMod(p.toLong - from, n.toLong)
    RowClock.saturatedAdd(from, ahead)
  }

  /** How many of a partition's offsets lie in [from, until), both congruent modulo n. */
  def countBetween(from: Long, until: Long, n: Int): Long = if (until <= from) 0L else (until - from) / n

  /**
   * An offset of a `realTime` stream as Spark passes it back: ours, or read from the offset log
   * as JSON. A whole number is the V1 source's offset (the last row it read), so a checkpoint
   * the V1 source wrote continues with `realTime`: every partition starts after that row.
   *
   * @throws IllegalArgumentException the JSON is no offset of this source, or it has another
   *                                  number of partitions than `numPartitions` (the message
   *                                  says how to restart)
   */
  def parse(offset: StreamOffset, numPartitions: Int): InterleavedOffset =
    offset match {
      case ours: InterleavedOffset => checked(ours, numPartitions)
      case other => parseJson(other.json(), numPartitions)
    }

  /** [[parse]] for an offset read from the offset log as JSON. */
  def parseJson(json: String, numPartitions: Int): InterleavedOffset =
    checked(fromJson(json, numPartitions), numPartitions)

  private def checked(parsed: InterleavedOffset, numPartitions: Int): InterleavedOffset = {
    if (parsed.numPartitions != numPartitions) {
      throw new IllegalArgumentException(
        s"'${RandomStrings.NUM_PARTITIONS}' is $numPartitions, but this checkpoint's ${RandomStrings.REAL_TIME} " +
          s"stream was read in ${parsed.numPartitions} partitions (its offset is ${parsed.json()}), and its " +
          s"offsets are per partition. Restart with '${RandomStrings.NUM_PARTITIONS}' set to " +
          s"${parsed.numPartitions}, or start a new checkpoint.")
    }
    parsed
  }

  private def fromJson(json: String, numPartitions: Int): InterleavedOffset = {
    def notOurs(): Nothing = throw new IllegalArgumentException(
      s"'$json' is not an offset of the ${RandomStrings.ShortName} source with ${RandomStrings.REAL_TIME}, " +
        s"""whose offsets read {"$Field":[...]}, the next offset of each partition. Was this checkpoint """ +
        "written by another source?")
    Try(json.trim.toLong).toOption match {
      case Some(last) if last >= -1L => atFrontier(last + 1L, numPartitions)
      case Some(_) => notOurs()
      case None =>
        val tree = Try(new ObjectMapper().readTree(json)).toOption.getOrElse(notOurs())
        val node = Option(tree).flatMap(t => Option(t.get(Field))).getOrElse(notOurs())
        if (!node.isArray || node.size() == 0) notOurs()
        val next = (0 until node.size()).map { p =>
          val value = node.get(p)
          if (!value.canConvertToExactIntegral || !value.canConvertToLong) notOurs()
          value.asLong()
        }
        val n = next.length
        if (next.indices.exists(p => next(p) < 0L || Math.floorMod(next(p), n.toLong) != p.toLong)) notOurs()
        val handed = Option(tree.get(HandedField)).fold(next.map(_ => 0)) { node =>
          if (!node.isArray || node.size() != n) notOurs()
          (0 until n).map { p =>
            val value = node.get(p)
            if (!value.canConvertToExactIntegral || !value.canConvertToInt || value.asInt() < 0) notOurs()
            value.asInt()
          }
        }
        InterleavedOffset(next, handed)
    }
  }
}

/**
 * Where one partition of a `realTime` stream stands when its share of a real-time batch ends:
 * the next offset it reads, and how many of that offset's rows it has handed on already (see
 * [[InterleavedOffset]]). Spark gathers these from the tasks and hands them, without their
 * partition, to `mergeOffsets`, so each carries its partition.
 */
private[sparkrandomstrings] final case class PartitionPosition(partition: Int, next: Long, handed: Int = 0)
    extends PartitionOffset
