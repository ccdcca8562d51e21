package io.github.sparkrandomstrings.offsets

/**
 * The offsets of a batch, `from` (inclusive) to `until` (exclusive), and how they split into
 * partitions. This is the offset arithmetic of the source, in one place.
 *
 * Spark asks a source for the rows with `start < offset <= end`, where `start` is the end of the
 * previous batch (none for the first batch) and a row's offset is its 0-based position in the
 * stream. So a batch is the range [start + 1, end + 1): start = None, end = 9 is rows 0..9,
 * then start = 9, end = 14 is rows 10..14. Nothing is read twice, nothing is skipped (the
 * classic version of this source read `start` itself again, a duplicate per batch).
 *
 * Partition p of n takes a contiguous slice: with q = count / n and r = count % n, the first r
 * slices take q + 1 rows and the rest q. E.g. 10 rows in 4 partitions: 3, 3, 2, 2 rows.
 */
final case class OffsetRange(from: Long, until: Long) {
  require(from <= until, s"an offset range runs forward, but from = $from > until = $until")

  def count: Long = until - from

  /** The slice that partition `p` of `n` makes. Slices are disjoint and cover the range. */
  def slice(p: Int, n: Int): OffsetRange = {
    val (q, r) = (count / n, count % n)
    def startOf(i: Int): Long = from + i * q + math.min(i.toLong, r)
    OffsetRange(startOf(p), startOf(p + 1))
  }
}

object OffsetRange {

  /** The rows of the batch (start, end]: offsets start + 1 to end, or 0 to end with no start. */
  def ofBatch(start: Option[Long], end: Long): OffsetRange = OffsetRange(start.fold(0L)(_ + 1), end + 1)
}
