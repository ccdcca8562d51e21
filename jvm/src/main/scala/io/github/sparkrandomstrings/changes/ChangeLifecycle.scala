package io.github.sparkrandomstrings.changes

import io.github.sparkrandomstrings.randomness.{CounterRandom, KeyedPermutation, RandomStreams}

/**
 * Which key change `n` names, and what it does to it: a pure function of (seed, keyspace,
 * lifecycle, n), computed in expected constant time, with no replay of any key's history.
 *
 * The snapshot: with `snapshot`, changes 0 to keys - 1 insert every key, change n key n (Debezium's
 * snapshot reads), and the live changes follow, from n = keys on.
 *
 * Hot keys: keys 0 to hotKeys - 1 are hot, and `hotKeyFraction` of the live changes go to them;
 * the rest go to the cold keys, hotKeys to keys - 1. Which live changes are hot is spread evenly:
 * live change m (the m-th after the snapshot) is hot when floor((m + 1) * h) > floor(m * h), for
 * h = hotKeyFraction, so that the first m live changes hold exactly floor(m * h) hot ones.
 *
 * Rounds: each group (hot, cold) of `size` keys takes its changes in rounds of `size`: round r
 * visits every key of the group once, in the order of a keyed permutation of its own
 * ([[randomness.KeyedPermutation]], keyed by (seed, group, r)), so the i-th change of a group is the
 * r-th change (its occurrence r = i / size) of the key at place i % size of round r. Without a
 * snapshot the rounds start at 0; with one at 1 (each key's occurrence 0 is its snapshot insert).
 * A key's earlier changes are each found directly, by the inverse permutation of their rounds.
 *
 * The lifecycle: a key's occurrence 0 inserts it. At each later occurrence j, a key that is absent
 * is inserted again; a present one is deleted with probability `deleteFraction`, by a draw of its
 * own for (key, j), else updated. Whether the key is absent before occurrence j needs only the
 * draws before it: the key is absent after occurrence i >= 1 when the draw of i says delete and it
 * was present before i. So it is absent before j exactly when the run of "delete" draws ending at
 * occurrence j - 1 (and not reaching occurrence 0, an insert) has an odd length: a walk back of
 * d / (1 - d) draws on average, whatever j.
 *
 * In the long run, inserts and deletes are each d / (1 + d) of the changes and updates
 * (1 - d) / (1 + d) (per key, a two-state chain: present with probability 1 / (1 + d)).
 *
 * One instance serves one thread: [[locate]] leaves its answer in [[key]] and [[occurrence]].
 */
private[sparkrandomstrings] final class ChangeLifecycle(seed: Long, spec: ChangeSpec) {

  val keys: Long = spec.keys
  private val hotKeys = if (spec.hotKeyFraction > 0.0) spec.hotKeys else 0L
  private val coldKeys = keys - hotKeys
  private val hotFraction = spec.hotKeyFraction
  // Read once: a spec's values are looked up by name, and a change draws deletes several times.
  private val deleteFraction = spec.deleteFraction

  /** The number of the first live change: after the snapshot, if any. */
  val firstLive: Long = if (spec.snapshot) keys else 0L
  private val firstRound = if (spec.snapshot) 1L else 0L
  require(coldKeys >= 1L, s"hotKeys ${spec.hotKeys} leaves no cold key of $keys")

  private val coldSeed = CounterRandom.derivedSeed(seed, RandomStreams.ChangeKeys)
  private val hotSeed = CounterRandom.derivedSeed(seed, RandomStreams.ChangeHotKeys)
  private val deletes = new CounterRandom(CounterRandom.derivedSeed(seed, RandomStreams.ChangeDeletes))

  /** After [[locate]]: the key of the change. */
  var key: Long = 0L

  /** After [[locate]]: which change of its key it is, from 0. */
  var occurrence: Long = 0L

  /** Works out change `n`'s key and occurrence, into [[key]] and [[occurrence]]. */
  def locate(n: Long): Unit =
    if (n < firstLive) {
      key = n
      occurrence = 0L
    } else {
      val m = n - firstLive
      val hotBefore = hotCount(m)
      if (hotCount(m + 1L) > hotBefore) place(hotBefore, hot = true)
      else place(m - hotBefore, hot = false)
    }

  /** Whether change `n` is a snapshot read: one of the first keys changes, with `snapshot`. */
  def isSnapshot(n: Long): Boolean = n < firstLive

  /** The change number (its `_seq`) of key `key`'s occurrence `j`. */
  def seqOf(key: Long, j: Long): Long =
    if (j < firstRound) key
    else {
      val hot = key < hotKeys
      val size = groupSize(hot)
      val i = (j - firstRound) * size + KeyedPermutation.inverse(key - groupFirst(hot), size, roundKey(hot, j))
      firstLive + (if (hot) hotPosition(i) else coldPosition(i))
    }

  /**
   * The occurrence of key `key` that is its last change among the first `n` changes (numbers 0 to
   * n - 1), or -1 if it has none: the table after n changes holds the image of that change if it
   * left the key present. Found directly: the key's group has taken a known number of the first n
   * changes, so the round they reach is known, and the key's place in that round says whether its
   * change of that round came before n.
   */
  def lastOccurrence(key: Long, n: Long): Long =
    if (n <= firstLive) { if (key < n) 0L else -1L }
    else {
      val m = n - firstLive
      val hot = key < hotKeys
      val size = groupSize(hot)
      val taken = if (hot) hotCount(m) else m - hotCount(m)
      val round = firstRound + taken / size
      val part = taken % size
      if (part > 0L && KeyedPermutation.inverse(key - groupFirst(hot), size, roundKey(hot, round)) < part) round
      else if (round > firstRound) round - 1L
      else if (firstRound > 0L) 0L
      else -1L
    }

  /** What occurrence `j` of key `key` does. */
  def opOf(key: Long, j: Long): ChangeLifecycle.Op =
    if (j == 0L || absentAfter(key, j - 1L)) ChangeLifecycle.Insert
    else if (deletes(key, j)) ChangeLifecycle.Delete
    else ChangeLifecycle.Update

  /**
   * The occurrence of key `key` that began its life holding at occurrence `j` (the key is present
   * after j): its insert, whose image every later update of that life keeps but for the columns an
   * update changes (`updateColumns`). Found from the draws alone: walking back from j to the last
   * "delete" draw i (at most to occurrence 0, an insert), the key was absent after i when the run of
   * delete draws ending at i is odd, and then i + 1 inserted it; else i did (a run from a present
   * key alternates delete, insert). A walk of about 1 / deleteFraction draws; none when no change
   * deletes.
   */
  def insertOf(key: Long, j: Long): Long =
    if (deleteFraction == 0.0) 0L
    else {
      var i = j
      while (i >= 1L && !deletes(key, i)) i -= 1L
      if (i == 0L) 0L else if (absentAfter(key, i)) i + 1L else i
    }

  /** Whether key `key` is absent after its occurrence `j`: the run of delete draws ending at j is odd. */
  def absentAfter(key: Long, j: Long): Boolean = {
    var i = j
    var run = 0L
    while (i >= 1L && deletes(key, i)) {
      run += 1L
      i -= 1L
    }
    (run & 1L) == 1L
  }

  /** The i-th change of the hot or cold group: its key and occurrence. */
  private def place(i: Long, hot: Boolean): Unit = {
    val places = if (hot) hotPlaces else coldPlaces
    places.moveTo(i)
    occurrence = places.round
    key = groupFirst(hot) + KeyedPermutation(places.index, groupSize(hot), roundKey(hot, places.round))
  }

  private val hotPlaces = new ChangeLifecycle.Places(hotKeys, firstRound)
  private val coldPlaces = new ChangeLifecycle.Places(coldKeys, firstRound)

  // A group's first key and size: the hot keys are 0 to hotKeys - 1, the cold ones the rest.
  private def groupFirst(hot: Boolean): Long = if (hot) 0L else hotKeys
  private def groupSize(hot: Boolean): Long = if (hot) hotKeys else coldKeys

  /** How many of the first `m` live changes are hot: floor(m * h). */
  private def hotCount(m: Long): Long = if (hotKeys == 0L) 0L else math.floor(m * hotFraction).toLong

  /** The live change that is the i-th hot one: the m with hotCount(m) = i and hotCount(m + 1) = i + 1. */
  private def hotPosition(i: Long): Long = {
    var m = math.max(0L, math.ceil((i + 1L) / hotFraction).toLong - 1L)
    while (hotCount(m + 1L) < i + 1L) m += 1L
    while (m > 0L && hotCount(m) >= i + 1L) m -= 1L
    m
  }

  /** The live change that is the i-th cold one: the m with m - hotCount(m) = i, not hot. */
  private def coldPosition(i: Long): Long = {
    def coldCount(m: Long) = m - hotCount(m)
    var m = if (hotKeys == 0L) i else math.max(0L, math.floor(i / (1.0 - hotFraction)).toLong - 1L)
    while (coldCount(m + 1L) < i + 1L) m += 1L
    while (m > 0L && coldCount(m) >= i + 1L) m -= 1L
    m
  }

  /** Whether the draw of key `key`'s occurrence `j` says delete (if the key is present then). */
  private def deletes(key: Long, j: Long): Boolean = {
    deletes.reset(j * keys + key)
    deletes.nextChance(deleteFraction)
  }

  // The last round keys, cached: consecutive changes are mostly in the same rounds.
  private var coldRound = -1L
  private var coldRoundKey = 0L
  private var hotRound = -1L
  private var hotRoundKey = 0L

  private def roundKey(hot: Boolean, round: Long): Long =
    if (hot) {
      if (round != hotRound) {
        hotRoundKey = CounterRandom.derivedSeed(hotSeed, round)
        hotRound = round
      }
      hotRoundKey
    } else {
      if (round != coldRound) {
        coldRoundKey = CounterRandom.derivedSeed(coldSeed, round)
        coldRound = round
      }
      coldRoundKey
    }
}

private[sparkrandomstrings] object ChangeLifecycle {

  /**
   * Where a group's i-th change falls: its round, firstRound + i / size, and its index within the
   * round, i % size. A group's changes come mostly one after another, so the next one steps the
   * last without a division; any other i is computed.
   */
  private final class Places(size: Long, firstRound: Long) {
    private var next = -1L
    var round = 0L
    var index = 0L

    def moveTo(i: Long): Unit = {
      if (i == next) {
        index += 1L
        if (index == size) {
          index = 0L
          round += 1L
        }
      } else {
        round = firstRound + i / size
        index = i % size
      }
      next = i + 1L
    }
  }

  /** What a change does to its key: its name in the flat envelope's `_op`, and its place in [[Ops]]. */
  sealed abstract class Op(val name: String, val index: Int) extends Serializable
  case object Insert extends Op("insert", 0)
  case object Update extends Op("update", 1)
  case object Delete extends Op("delete", 2)

  /** Every operation, each at its index. */
  val Ops: IndexedSeq[Op] = Vector(Insert, Update, Delete)
}
