package io.github.sparkrandomstrings.offsets

import org.scalatest.funsuite.AnyFunSuite

import io.github.sparkrandomstrings.time.{EventTimeCursor, RowClock}

class OffsetArithmeticSuite extends AnyFunSuite {

  test("a batch (start, end] is the offsets start + 1 to end; with no start, 0 to end") {
    assert(OffsetRange.ofBatch(None, 9L) == OffsetRange(0L, 10L))
    assert(OffsetRange.ofBatch(Some(9L), 14L) == OffsetRange(10L, 15L))
    assert(OffsetRange.ofBatch(Some(14L), 14L).count == 0L)
    assert(OffsetRange.ofBatch(None, 0L).count == 1L)
  }

  test("consecutive batches neither overlap nor leave a gap") {
    val ends = Seq(4L, 4L, 9L, 10L, 29L)
    val batches = (None +: ends.init.map(Some(_))).zip(ends).map { case (s, e) => OffsetRange.ofBatch(s, e) }
    val offsets = batches.flatMap(r => r.from until r.until)
    assert(offsets == (0L to 29L))
  }

  test("slices are contiguous, cover the range exactly, and differ in size by at most one") {
    val range = OffsetRange(100L, 110L)
    val slices = (0 until 4).map(range.slice(_, 4))
    assert(slices.map(_.count) == Seq(3L, 3L, 2L, 2L))
    assert(slices.map(_.from) == Seq(100L, 103L, 106L, 108L))
    assert(slices.last.until == 110L)
    for (n <- 1 to 7; count <- 0L to 20L) {
      val r = OffsetRange(5L, 5L + count)
      val s = (0 until n).map(r.slice(_, n))
      assert(s.flatMap(x => x.from until x.until) == (r.from until r.until))
      assert(s.map(_.count).max - s.map(_.count).min <= 1)
    }
  }

  test("slicing a huge range does not overflow") {
    val r = OffsetRange(0L, Long.MaxValue - 1)
    assert(r.slice(2, 3).until == Long.MaxValue - 1)
    assert((0 until 3).map(r.slice(_, 3).count).sum == Long.MaxValue - 1)
  }

  test("rows become available with time: floor(elapsed ms * rowsPerSecond / 1000)") {
    assert(RowClock.rowsAvailable(-5L, 10L) == 0L)
    assert(RowClock.rowsAvailable(0L, 10L) == 0L)
    assert(RowClock.rowsAvailable(99L, 10L) == 0L)
    assert(RowClock.rowsAvailable(100L, 10L) == 1L)
    assert(RowClock.rowsAvailable(600L, 4L) == 2L)
    assert(RowClock.rowsAvailable(1000L, 1000000L) == 1000000L)
  }

  test("a row becomes available one row interval after its ts, never before it") {
    for (rate <- Seq(1L, 3L, 4L, 7L, 10L, 999L, 1000L, 123457L); offset <- Seq(0L, 1L, 2L, 999L, 12345L)) {
      val ts = RowClock.eventTimeMs(0L, offset, rate)
      // The first millisecond at which offset + 1 rows exist: ceil((offset + 1) * 1000 / rate).
      val available = ((offset + 1) * 1000 + rate - 1) / rate
      assert(RowClock.rowsAvailable(available, rate) >= offset + 1)
      assert(RowClock.rowsAvailable(available - 1, rate) <= offset, s"rate $rate, offset $offset")
      assert(ts <= available)
      assert(RowClock.eventTimeMs(0L, offset + 1, rate) <= available, "its ts is at most one interval earlier")
    }
    // The worked example of RowClock: 4 rows/s; row 2 has ts 500 ms and appears at 750 ms.
    assert(RowClock.eventTimeMs(0L, 2L, 4L) == 500L)
    assert(RowClock.rowsAvailable(749L, 4L) == 2L && RowClock.rowsAvailable(750L, 4L) == 3L)
  }

  test("the time arithmetic is exact beyond 64-bit products and saturates instead of wrapping") {
    assert(RowClock.mulDivFloor(Long.MaxValue, 1000L, 1000L) == Long.MaxValue)
    assert(RowClock.mulDivFloor(Long.MaxValue / 2, 4L, 8L) == Long.MaxValue / 4)
    assert(RowClock.rowsAvailable(Long.MaxValue, Long.MaxValue) == Long.MaxValue)
    assert(RowClock.eventTimeMs(Long.MaxValue - 10, Long.MaxValue, 1L) == Long.MaxValue)
    assert(RowClock.saturatedAdd(5L, 6L) == 11L)
    assert(RowClock.saturatedAdd(Long.MaxValue, 1L) == Long.MaxValue)
  }

  test("stepped event times equal the exact formula, in runs, after jumps and at the limits") {
    val max = EventTimeCursor.MaxStepped
    val rates = Seq(
      1L,
      3L,
      7L,
      999L,
      1000L,
      1001L,
      4096L,
      1000000007L,
      1000000000000L,
      Long.MaxValue - 1,
      Long.MaxValue)
    val runs = Seq(
      0L until 3000L,
      123456789L until 123459789L,
      (max - 50) to (max + 50),
      (Long.MaxValue - 20) until Long.MaxValue)
    for (rate <- rates; start <- Seq(0L, 1795329016877L, Long.MaxValue - 5)) {
      val cursor = new EventTimeCursor(start, rate)
      for (run <- runs; offset <- run) {
        assert(cursor.at(offset) == RowClock.eventTimeMs(start, offset, rate), s"rate $rate, offset $offset")
      }
      // Going back, repeating and skipping fall back to the exact formula.
      for (offset <- Seq(5L, 5L, 4L, 1000000L, 2L, max, 0L)) {
        assert(cursor.at(offset) == RowClock.eventTimeMs(start, offset, rate), s"rate $rate, offset $offset")
      }
    }
  }
}
