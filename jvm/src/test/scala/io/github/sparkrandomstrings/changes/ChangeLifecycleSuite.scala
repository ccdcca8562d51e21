package io.github.sparkrandomstrings.changes

import scala.collection.mutable

import org.scalatest.funsuite.AnyFunSuite

import io.github.sparkrandomstrings.changes.ChangeLifecycle.{Delete, Insert, Update}
import io.github.sparkrandomstrings.randomness.{CounterRandom, KeyedPermutation}

/** The change model without Spark: rounds, the lifecycle's walk against a replay, and its shares. */
class ChangeLifecycleSuite extends AnyFunSuite {

  private def lifecycle(
      seed: Long,
      keys: Long,
      d: Double,
      hotKeys: Long = 10L,
      hotKeyFraction: Double = 0.0,
      snapshot: Boolean = false) =
    new ChangeLifecycle(
      seed,
      ChangeSpec.of(Map(
        Changes.KEYS -> keys,
        Changes.DELETE_FRACTION -> d,
        Changes.HOT_KEYS -> hotKeys,
        Changes.HOT_KEY_FRACTION -> hotKeyFraction,
        Changes.SNAPSHOT -> snapshot)))

  /** Change n's key and occurrence, located. */
  private def located(l: ChangeLifecycle, n: Long): (Long, Long) = {
    l.locate(n)
    (l.key, l.occurrence)
  }

  test("insertOf finds the insert that began each key's life, as a replay of the key's changes does") {
    for (d <- Seq(0.0, 0.05, 0.3, 0.9); snapshot <- Seq(false, true)) {
      val l = lifecycle(13L, 5L, d, snapshot = snapshot)
      for (key <- 0L until 5L) {
        var insert = -1L
        for (j <- 0L until 300L) {
          l.opOf(key, j) match {
            case Insert => insert = j
            case Delete => insert = -1L
            case Update => assert(insert >= 0L)
          }
          if (insert >= 0L) assert(l.insertOf(key, j) == insert, s"d $d, snapshot $snapshot, key $key, j $j")
        }
      }
    }
  }

  test("the keyed permutation's inverse undoes it, over whole small domains and samples of a large one") {
    for (size <- Seq(1L, 2L, 3L, 5L, 16L, 17L, 1000L); seed <- Seq(1L, 42L)) {
      val key = CounterRandom.derivedSeed(seed, 9L)
      val images = (0L until size).map(KeyedPermutation(_, size, key))
      assert(images.sorted == (0L until size), s"size $size")
      assert(images.map(KeyedPermutation.inverse(_, size, key)) == (0L until size), s"size $size")
    }
    val large = 1L << 40
    val key = CounterRandom.derivedSeed(7L, 9L)
    for (i <- 0L until 10000L) {
      val index = i * 109951162L
      assert(KeyedPermutation.inverse(KeyedPermutation(index, large, key), large, key) == index)
    }
  }

  test("each round of keys changes visits every key exactly once, and seqOf finds each change") {
    val l = lifecycle(3L, 37L, 0.2)
    for (round <- 0L until 4L) {
      val changes = (round * 37L until (round + 1L) * 37L)
      val keys = changes.map(located(l, _))
      assert(keys.map(_._1).sorted == (0L until 37L) && keys.forall(_._2 == round))
      changes.zip(keys).foreach { case (n, (key, _)) => assert(l.seqOf(key, round) == n) }
    }
    val other = lifecycle(4L, 37L, 0.2)
    assert((0L until 37L).map(located(other, _)) != (0L until 37L).map(located(l, _)))
  }

  test("every change's operation and image are a replay's: insert when absent, else delete or update") {
    for ((keys, hot, fraction, snapshot) <- Seq(
        (1L, 10L, 0.0, false),
        (7L, 10L, 0.0, true),
        (50L, 10L, 0.0, false),
        (50L, 3L, 0.3, false),
        (50L, 1L, 0.05, true));
      d <- Seq(0.0, 0.1, 0.5, 0.9)) {
      val l = lifecycle(11L, keys, d, hot, fraction, snapshot)
      val drawn = lifecycle(11L, keys, d, hot, fraction, snapshot)
      val present = mutable.Map.empty[Long, Long] // key -> the seq of its last image
      val occurrences = mutable.Map[Long, Long]().withDefaultValue(0L)
      val counts = mutable.Map[ChangeLifecycle.Op, Int]().withDefaultValue(0)
      for (n <- 0L until keys * 60L) {
        val (key, j) = located(l, n)
        assert(j == occurrences(key), s"change $n is its key's next change")
        occurrences(key) += 1L
        assert(l.seqOf(key, j) == n, s"change $n found again from its key and occurrence")
        val op = l.opOf(key, j)
        counts(op) += 1
        present.get(key) match {
          case None =>
            assert(op == Insert, s"keys $keys, d $d, change $n: an absent key is inserted")
            present(key) = n
          case Some(last) =>
            assert(op != Insert, s"keys $keys, d $d, change $n: a present key is not inserted")
            // The draw that picks delete or update is the lifecycle's own: absent after j iff it said delete.
            assert(drawn.absentAfter(key, j) == (op == Delete))
            if (op == Delete) {
              assert(l.seqOf(key, j - 1L) == last, "a delete carries the key's last image")
              present.remove(key)
            } else present(key) = n
        }
      }
      if (d == 0.0) assert(counts(Delete) == 0 && counts(Insert) == keys)
      if (snapshot) assert((0L until keys).map(located(l, _)) == (0L until keys).map(k => (k, 0L)))
      if (d > 0.0 && keys >= 7L) assert(counts(Delete) > 0 && counts(Update) > 0)
    }
  }

  test("in the long run inserts and deletes are d / (1 + d) of the changes, updates (1 - d) / (1 + d)") {
    val keys = 1000L
    val d = 0.25
    val l = lifecycle(5L, keys, d)
    val counts = mutable.Map[ChangeLifecycle.Op, Long]().withDefaultValue(0L)
    // Rounds 10 to 209: 200,000 changes, the first rounds' all-insert start long gone ((-d)^10 < 1e-6).
    for (n <- 10L * keys until 210L * keys) {
      val (key, j) = located(l, n)
      counts(l.opOf(key, j)) += 1L
    }
    val total = 200000.0
    // Each share's standard error is below 0.001 here: 0.005 is five of them.
    assert(math.abs(counts(Insert) / total - d / (1 + d)) < 0.005, counts)
    assert(math.abs(counts(Delete) / total - d / (1 + d)) < 0.005, counts)
    assert(math.abs(counts(Update) / total - (1 - d) / (1 + d)) < 0.005, counts)
    assert(math.abs(counts(Insert) - counts(Delete)) <= keys, "inserts and deletes alternate per key")
  }

  test("hotKeyFraction of the live changes go to keys 0 to hotKeys - 1, spread evenly, each hot key once a hot round") {
    val l = lifecycle(9L, keys = 1000L, d = 0.1, hotKeys = 4L, hotKeyFraction = 0.25, snapshot = true)
    val live = (1000L until 1000L + 4000L).map(located(l, _))
    val hot = live.zipWithIndex.filter(_._1._1 < 4L)
    assert(hot.size == 1000, "exactly a quarter of 4,000 live changes")
    // floor((m + 1) / 4) > floor(m / 4): live changes 3, 7, 11, ... are the hot ones.
    assert(hot.map(_._2) == (3 until 4000 by 4))
    hot.map(_._1).grouped(4).zipWithIndex.foreach { case (round, r) =>
      assert(round.map(_._1).sorted == Seq(0L, 1L, 2L, 3L) && round.forall(_._2 == r + 1L))
    }
    assert(live.filter(_._1 >= 4L).map(_._1).take(996).sorted == (4L until 1000L))
  }

  test(
    "without hot keys or a snapshot, change n is the r-th change of the key round r's permutation puts at n % keys") {
    val l = lifecycle(21L, 77L, 0.3)
    for (n <- Seq(0L, 5L, 76L, 77L, 1000L, 123456L)) {
      val key = KeyedPermutation(n % 77L, 77L, CounterRandom.derivedSeed(CounterRandom.derivedSeed(21L, 9L), n / 77L))
      assert(located(l, n) == ((key, n / 77L)))
    }
  }
}
