package io.github.sparkrandomstrings.rows

import org.scalatest.funsuite.AnyFunSuite

import io.github.sparkrandomstrings.randomness.{CounterRandom, KeyedPermutation, PortableMath, RandomStreams}
import io.github.sparkrandomstrings.text.{Base, CharacterSet, StringValues, ValuePool}
import io.github.sparkrandomstrings.time.RowClock

/** The rows that the shaping options make: pool, distributions, disorder and repeats. */
class ShapedRowsSuite extends AnyFunSuite {

  private val StartMs = 1700000000000L

  private def definition(
      pooled: Option[StringValues => StringValues],
      characters: CharacterSet = CharacterSet.Alphanumeric,
      minLength: Int = 0,
      maxLength: Int = 4,
      seed: Long = 42L,
      rowsPerSecond: Long = 1000L,
      shape: RowShape = RowShape.Plain) = {
    val fresh = StringValues(minLength, maxLength, characters)
    StreamDefinition(seed, StartMs, rowsPerSecond, pooled.fold(fresh)(_(fresh)), shape)
  }

  /** Strings from a pool of `n`, picked by `distribution` (with exponent `s`). */
  private def pool(n: Long, distribution: String = "uniform", s: Double = 1.0) =
    Some((values: StringValues) =>
      values.copy(distinctValues = Some(n), valueDistribution = distribution, zipfExponent = s))

  private val fresh = None

  private case class Row(value: String, ts: Long, offset: Long, length: Int)

  private def rows(d: StreamDefinition, offsets: Seq[Long]): IndexedSeq[Row] = {
    val generator = new RowGenerator(d)
    offsets.map { o =>
      val row = generator.row(o)
      Row(row.getUTF8String(0).toString, row.getLong(1), row.getLong(2), row.getInt(3))
    }.toIndexedSeq
  }

  /**
   * Pool entries 0 to n - 1 of `d`, spelled the plain way, as [[text.ValuePool]] says: the first
   * characters drawn one by one from the entry's own random stream, the last ones its code in
   * base A, most significant digit first. (The row generator writes them in place, and ASCII
   * sets by a faster path.)
   */
  private def entries(d: StreamDefinition, n: Long): IndexedSeq[String] = {
    val a = d.strings.characters.size
    val pool = new ValuePool(d.seed, d.strings.distinctValues.get, d.strings.minLength, d.strings.maxLength, a)
    val draws = new CounterRandom(CounterRandom.derivedSeed(d.seed, RandomStreams.PoolCharacters))
    (0L until n).map { k =>
      pool.locate(k)
      draws.reset(k)
      val drawn = Seq.fill(pool.length - pool.codeDigits)(draws.nextBounded(a))
      val code = Iterator.iterate(pool.code)(_ / a).take(pool.codeDigits).map(c => (c % a).toInt).toSeq.reverse
      val codePoints = (drawn ++ code).map(d.strings.characters.codePoint).toArray
      new String(codePoints, 0, codePoints.length)
    }
  }

  private def inOrderTs(offset: Long, rowsPerSecond: Long = 1000L) =
    RowClock.eventTimeMs(StartMs, offset, rowsPerSecond)

  test("100,000 pool entries are all distinct, with lengths and characters as the options say") {
    val d = definition(pool(100000L), minLength = 3, maxLength = 6)
    val made = entries(d, 100000L)
    assert(made.distinct.size == 100000)
    assert(made.forall(v => v.length >= 3 && v.length <= 6 && v.forall(_.isLetterOrDigit)))
    // 62^3 = 238,328 strings of length 3, so the four lengths share the pool evenly.
    assert(made.groupBy(_.length).map { case (l, vs) => l -> vs.size } ==
      Map(3 -> 25000, 4 -> 25000, 5 -> 25000, 6 -> 25000))
  }

  test("a pool as large as the options allow holds every allowed string exactly once") {
    // digits, lengths 0 to 3: 1 + 10 + 100 + 1,000 strings.
    val digits = entries(definition(pool(1111L), CharacterSet.Digits, 0, 3), 1111L)
    val every =
      (0 to 3).flatMap(l => (0 until math.pow(10, l).toInt).map(i => if (l == 0) "" else s"%0${l}d".format(i)))
    assert(digits.sorted == every.sorted)
    // An alphabet outside ASCII takes the UTF-8 path: 3 + 9 + 27 + 81 strings of lengths 1 to 4.
    val greek = CharacterSet.alphabet("alphabet", "αβγ")
    val made = entries(definition(pool(120L), greek, 1, 4), 120L)
    assert(made.distinct.size == 120)
    assert(made.map(_.length).groupBy(identity).map { case (l, ls) => l -> ls.size } ==
      Map(1 -> 3, 2 -> 9, 3 -> 27, 4 -> 81))
    assert(made.forall(_.forall("αβγ".contains(_))))
  }

  test("short lengths that hold fewer strings than an even share are used whole, the rest share") {
    // hex, lengths 1 to 4, 1,000 entries: 16 of length 1, 256 of length 2, then 728 over 3 and 4.
    val made = entries(definition(pool(1000L), CharacterSet.Hex, 1, 4), 1000L)
    assert(made.distinct.size == 1000)
    assert(made.groupBy(_.length).map { case (l, vs) => l -> vs.size } ==
      Map(1 -> 16, 2 -> 256, 3 -> 364, 4 -> 364))
  }

  test("fewer entries than lengths spread over the lengths rather than taking the shortest") {
    val made = entries(definition(pool(4L), CharacterSet.Letters, 10, 49), 4L)
    assert(made.map(_.length).sorted == Seq(10, 20, 30, 40))
  }

  test("a pool entry depends on (seed, k) only, and rows carry the entry they pick") {
    val d = definition(pool(5000L), minLength = 2, maxLength = 8)
    val pool1 = entries(d, 5000L)
    assert(entries(d, 5000L) == pool1)
    assert(entries(d.copy(seed = 43L), 5000L).zip(pool1).count { case (a, b) => a == b } < 5)
    val generator = new RowGenerator(d)
    val made = rows(d, 0L until 3000L)
    made.foreach(r => assert(r.value == pool1(generator.entryOf(r.offset).toInt)))
    assert(made.forall(r => r.length == r.value.length && r.ts == inOrderTs(r.offset)))
  }

  test("uniform picks reach exactly N distinct values, and use the pool evenly (chi-square)") {
    val d = definition(pool(1000L), minLength = 4, maxLength = 4)
    val values = rows(d, 0L until 20000L).map(_.value)
    assert(values.distinct.size == 1000)
    val small = definition(pool(100L))
    val counts = rows(small, 0L until 100000L).groupBy(_.value).values.map(_.size.toDouble)
    assert(counts.size == 100)
    val chiSquare = counts.map(c => (c - 1000.0) * (c - 1000.0) / 1000.0).sum
    // 99 degrees of freedom: the 0.1% critical value is 148.2.
    assert(chiSquare < 148.2, s"chi-square $chiSquare")
  }

  for (s <- Seq(1.0, 1.5)) {
    test(s"zipf (s = $s) over 1,000,000 entries: ranks 1 to 10 come as often as 1 / k^s says") {
      val n = 1000000L
      val d = definition(pool(n, "zipf", s), minLength = 6, maxLength = 10)
      val generator = new RowGenerator(d)
      val draws = 200000
      val counts = new Array[Int](10)
      var o = 0L
      while (o < draws) {
        val k = generator.entryOf(o)
        assert(k >= 0L && k < n)
        if (k < 10) counts(k.toInt) += 1
        o += 1
      }
      val norm = (1L to n).map(k => math.pow(k.toDouble, -s)).sum
      counts.zipWithIndex.foreach { case (count, k) =>
        val p = math.pow(k + 1.0, -s) / norm
        val sigma = math.sqrt(draws * p * (1 - p))
        assert(math.abs(count - draws * p) < 4 * sigma, s"rank ${k + 1}: $count, expected ${draws * p}")
      }
      val top = rows(d, 0L until 20000L).groupBy(_.value).maxBy(_._2.size)._1
      assert(top == entries(d, 1L).head)
    }
  }

  test("out-of-order and late rows: ts is the in-order time minus the row's delay and lateness") {
    val shape = RowShape.Plain.copy(maxOutOfOrderMs = 5000L, lateRowFraction = 0.1, lateByMs = Some(60000L))
    val d = definition(fresh, shape = shape)
    val disorder = new RowDisorder(42L, shape)
    val made = rows(d, 0L until 50000L)
    val shifts = made.map(r => inOrderTs(r.offset) - r.ts)
    val late = made.filter(r => disorder.isLate(r.offset))
    made.zip(shifts).foreach { case (r, shift) =>
      val expected = disorder.delayMs(r.offset) + (if (disorder.isLate(r.offset)) 60000L else 0L)
      assert(shift == expected, s"row ${r.offset}")
      if (disorder.isLate(r.offset)) assert(shift >= 60000L && shift <= 65000L)
      else assert(shift >= 0L && shift <= 5000L)
    }
    assert(math.abs(late.size - 5000) < 4 * math.sqrt(50000 * 0.1 * 0.9), s"${late.size} late rows")
    val delays = made.map(r => disorder.delayMs(r.offset))
    assert(delays.min < 10L)
    assert(delays.max > 4990L && delays.max <= 5000L)
    assert(math.abs(delays.sum.toDouble / delays.size - 2500.0) < 50.0)
    // Values are the plain stream's: the disorder options draw from streams of their own.
    assert(made.map(_.value) == rows(definition(fresh), 0L until 50000L).map(_.value))
  }

  test("repeated rows carry the value and ts of the row emitted 1 to maxDuplicateDistance offsets before") {
    val shape = RowShape.Plain.copy(
      maxOutOfOrderMs = 2000L,
      lateRowFraction = 0.05,
      lateByMs = Some(30000L),
      duplicateFraction = 0.2,
      maxDuplicateDistance = 50L)
    val disorder = new RowDisorder(42L, shape)
    val made = rows(definition(pool(300L, "zipf", 1.2), shape = shape), 0L until 40000L)
    var repeats = 0
    made.foreach { r =>
      val earlier = disorder.repeatedOffset(r.offset)
      if (earlier >= 0L) {
        repeats += 1
        assert(r.offset - earlier >= 1L && r.offset - earlier <= 50L)
        val source = made(earlier.toInt)
        assert((r.value, r.ts, r.length) == ((source.value, source.ts, source.length)))
      }
    }
    assert(disorder.repeatedOffset(0L) == -1L)
    assert(math.abs(repeats - 8000) < 4 * math.sqrt(40000 * 0.2 * 0.8), s"$repeats repeats")
    // A repeat's distance never reaches before offset 0.
    (1L until 60L).foreach(o => assert(disorder.repeatedOffset(o) < o))
    // Originals are the rows the same options without repeats make.
    val withoutRepeats =
      rows(
        definition(pool(300L, "zipf", 1.2), shape = shape.copy(duplicateFraction = 0.0, maxDuplicateDistance = 1000L)),
        0L until 40000L)
    made.zip(withoutRepeats).filter(p => disorder.repeatedOffset(p._1.offset) < 0L).foreach {
      case (a, b) => assert(a == b)
    }
  }

  test("shaped rows depend only on (seed, offset), not on which rows were made before") {
    val shape = RowShape.Plain.copy(
      maxOutOfOrderMs = 300L,
      lateRowFraction = 0.2,
      lateByMs = Some(700L),
      duplicateFraction = 0.3,
      maxDuplicateDistance = 7L)
    val d =
      definition(pool(1000L, "zipf", 1.0), CharacterSet.Unicode, 1, 6, seed = -3L, rowsPerSecond = 7L, shape = shape)
    val forward = rows(d, 0L until 2000L)
    assert(rows(d, (0L until 2000L).reverse).reverse == forward)
    assert((0L until 2000L by 37L).map(o => rows(d, Seq(o)).head) == (0 until 2000 by 37).map(forward))
  }

  test("the portable e^x is within 2 ulps of StrictMath's, and exact where e^x is") {
    val random = new java.util.Random(1)
    for (_ <- 0 until 200000) {
      val x = (random.nextDouble() - 0.5) * 1400
      val (portable, strict) = (PortableMath.exp(x), StrictMath.exp(x))
      assert(math.abs(portable - strict) <= 2 * math.ulp(strict), s"e^$x")
    }
    assert(PortableMath.exp(0.0) == 1.0 && PortableMath.exp(StrictMath.log(2.0) * 10) == 1024.0)
    assert(PortableMath.exp(710.0).isPosInfinity && PortableMath.exp(-746.0) == 0.0)
    assert(PortableMath.exp(Double.NaN).isNaN)
  }

  test("division by a fixed base as a multiplication is exact for every number below 2^31") {
    val random = new java.util.Random(3)
    for (a <- Seq(1, 2, 3, 7, 10, 16, 26, 52, 62, 95, 1000, 1111998, Int.MaxValue)) {
      val base = new Base(a)
      val edges = Seq(0L, 1L, a - 1L, a.toLong, a + 1L, Int.MaxValue.toLong, Int.MaxValue - 1L)
      (edges ++ Seq.fill(100000)((random.nextInt() & Int.MaxValue).toLong)).foreach { n =>
        assert(base.quotient(n) == n / a, s"$n / $a")
      }
    }
  }

  test("a keyed permutation is a bijection of [0, size) for sizes around powers of 4") {
    for (size <- Seq(1L, 2L, 3L, 4L, 5L, 15L, 16L, 17L, 1000L, 4096L, 4097L)) {
      val images = (0L until size).map(KeyedPermutation(_, size, 99L))
      assert(images.sorted == (0L until size), s"size $size")
    }
  }
}
