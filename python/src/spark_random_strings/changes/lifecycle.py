"""Which key change ``n`` names, and what it does to it (the jar's ``ChangeLifecycle.scala``): a pure
function of (seed, keyspace, lifecycle, n), for whole arrays of change numbers at once, with no
replay of any key's history.

The snapshot: with ``snapshot``, changes 0 to keys - 1 insert every key, change n key n, and the
live changes follow, from n = keys on.

Hot keys: keys 0 to hotKeys - 1 are hot, and ``hotKeyFraction`` h of the live changes go to them;
the rest go to the cold keys, hotKeys to keys - 1. Live change m (the m-th after the snapshot) is
hot when floor((m + 1) * h) > floor(m * h), so the first m live changes hold floor(m * h) hot ones.

Rounds: each group (hot, cold) of ``size`` keys takes its changes in rounds of ``size``: round r
visits every key of the group once, in the order of a keyed permutation of its own
(``randomness.keyed_permutation``, keyed by (seed, group, r)), so the i-th change of a group is
the r-th change (its occurrence r = i // size) of the key at place i % size of round r. Without a
snapshot the rounds start at 0; with one at 1 (each key's occurrence 0 is its snapshot insert).
A key's earlier changes are each found directly, by the inverse permutation of their rounds.

The lifecycle: a key's occurrence 0 inserts it. At each later occurrence j, a key that is absent
is inserted again; a present one is deleted with probability ``deleteFraction``, by a draw of its
own for (key, j), else updated. The key is absent before occurrence j exactly when the run of
"delete" draws ending at occurrence j - 1 (and not reaching occurrence 0, an insert) has an odd
length: a walk back of d / (1 - d) draws on average, whatever j.

In the long run inserts and deletes are each d / (1 + d) of the changes, and updates
(1 - d) / (1 + d) (per key a two-state chain, present with probability 1 / (1 + d)).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from spark_random_strings.randomness.counter_random import (
    CHANGE_DELETES,
    CHANGE_HOT_KEYS,
    CHANGE_KEYS,
    I64,
    U64,
    derived_seed,
    derived_seeds,
    longs,
    stream_keys,
    unit_doubles,
)
from spark_random_strings.randomness.keyed_permutation import permute, unpermute

if TYPE_CHECKING:
    from spark_random_strings.changes.spec import ChangeSpec

Bools = npt.NDArray[np.bool_]

#: What a change does to its key, as its index (the JVM's ``ChangeLifecycle.Op.index``).
INSERT, UPDATE, DELETE = 0, 1, 2


class ChangeLifecycle:
    """The change model of one stream: each change's key, occurrence and operation, and each key's
    changes found again, all for numpy arrays of int64."""

    def __init__(self, seed: int, spec: ChangeSpec) -> None:
        #: How many keys: 0 to keys - 1.
        self.keys = spec.keys
        #: The hot keys, 0 to hot_keys - 1; none without a ``hotKeyFraction`` above 0.
        self.hot_keys = spec.hot_keys if spec.hot_key_fraction > 0.0 else 0
        self.cold_keys = self.keys - self.hot_keys
        self.hot_fraction = spec.hot_key_fraction
        self.delete_fraction = spec.delete_fraction
        #: The number of the first live change: after the snapshot, if any.
        self.first_live = self.keys if spec.snapshot else 0
        self.first_round = 1 if spec.snapshot else 0
        if self.cold_keys < 1:
            raise ValueError(f"hotKeys {spec.hot_keys} leaves no cold key of {self.keys}")
        self._cold_seed = derived_seed(seed, CHANGE_KEYS)
        self._hot_seed = derived_seed(seed, CHANGE_HOT_KEYS)
        self._deletes_seed = derived_seed(seed, CHANGE_DELETES)

    def locate(self, n: I64) -> tuple[I64, I64]:
        """Each change's key and occurrence (which change of its key it is, from 0)."""
        n = np.asarray(n, np.int64)
        key, occurrence = n.copy(), np.zeros(n.shape, np.int64)
        live = n >= self.first_live
        m = n[live] - self.first_live
        hot_before = self._hot_count(m)
        hot = self._hot_count(m + 1) > hot_before
        i = np.where(hot, hot_before, m - hot_before)
        first, size = self._group(hot)
        rounds = self.first_round + i // size
        key[live] = first + permute(i % size, size, self._round_keys(hot, rounds))
        occurrence[live] = rounds
        return key, occurrence

    def is_snapshot(self, n: I64) -> Bools:
        """Whether each change is a snapshot read: one of the first keys changes, with ``snapshot``."""
        return np.asarray(n) < self.first_live

    def seq_of(self, key: I64, j: I64) -> I64:
        """The change number (its ``_seq``) of each key's occurrence j."""
        key, j = np.broadcast_arrays(np.asarray(key, np.int64), np.asarray(j, np.int64))
        seq = key.copy()
        live = j >= self.first_round
        k = key[live]
        hot = k < self.hot_keys
        first, size = self._group(hot)
        rounds = j[live]
        i = (rounds - self.first_round) * size + unpermute(k - first, size, self._round_keys(hot, rounds))
        m = np.empty(i.shape, np.int64)
        m[hot] = self._hot_position(i[hot])
        m[~hot] = self._cold_position(i[~hot])
        seq[live] = self.first_live + m
        return seq

    def last_occurrence(self, key: I64, n: int) -> I64:
        """The occurrence of each key that is its last change among the first ``n`` changes
        (numbers 0 to n - 1), or -1 where it has none: O(1) per key, whatever n. The key's group
        has taken a known number of the first n changes, so the round they reach is known, and
        the key's place in that round says whether its change of that round came before n."""
        key = np.asarray(key, np.int64)
        if n <= self.first_live:
            return np.where(key < n, 0, -1).astype(np.int64)
        m = n - self.first_live
        hot = key < self.hot_keys
        first, size = self._group(hot)
        hot_taken = int(self._hot_count(np.array([m], np.int64))[0])
        taken = np.where(hot, hot_taken, m - hot_taken)
        rounds = self.first_round + taken // size
        part = taken % size
        started = part > 0
        found = np.zeros(key.shape, np.bool_)
        places = unpermute(
            key[started] - first[started], size[started], self._round_keys(hot[started], rounds[started])
        )
        found[started] = places < part[started]
        before = np.where(rounds > self.first_round, rounds - 1, 0 if self.first_round > 0 else -1)
        return np.where(found, rounds, before).astype(np.int64)

    def op_of(self, key: I64, j: I64) -> I64:
        """What each key's occurrence j does: ``INSERT``, ``UPDATE`` or ``DELETE``."""
        key, j = np.broadcast_arrays(np.asarray(key, np.int64), np.asarray(j, np.int64))
        op = np.full(key.shape, INSERT, np.int64)
        later = j > 0
        present = np.zeros(key.shape, np.bool_)
        present[later] = ~self.absent_after(key[later], j[later] - 1)
        op[present] = np.where(self.deletes(key[present], j[present]), DELETE, UPDATE)
        return op

    def insert_of(self, key: I64, j: I64) -> I64:
        """The occurrence of each key that began its life holding at its occurrence j (the key is
        present after j): its insert, whose image every later update of that life keeps but for the
        columns an update changes (``updateColumns``). From the draws alone (the JVM's
        ``insertOf``): walking back from j to the last "delete" draw i (at most to occurrence 0, an
        insert), the key was absent after i when the run of delete draws ending at i is odd, and
        then i + 1 inserted it; else i did (a run from a present key alternates delete, insert). A
        walk of about 1 / deleteFraction draws; none when no change deletes."""
        key, j = np.broadcast_arrays(np.asarray(key, np.int64), np.asarray(j, np.int64))
        if self.delete_fraction == 0.0:
            return np.zeros(key.shape, np.int64)
        at = j.copy()
        walking = np.flatnonzero(at >= 1)
        while walking.size:
            walking = walking[~self.deletes(key[walking], at[walking])]
            at[walking] -= 1
            walking = walking[at[walking] >= 1]
        found = at >= 1
        insert = np.zeros(key.shape, np.int64)
        insert[found] = at[found] + self.absent_after(key[found], at[found])
        return insert

    def absent_after(self, key: I64, j: I64) -> Bools:
        """Whether each key is absent after its occurrence j: the run of delete draws ending at
        j (not reaching occurrence 0) is odd. Walked back for every element at once, while any
        is still walking."""
        key, j = np.broadcast_arrays(np.asarray(key, np.int64), np.asarray(j, np.int64))
        at = j.copy()
        run = np.zeros(key.shape, np.int64)
        walking = np.flatnonzero(at >= 1)
        while walking.size:
            walking = walking[self.deletes(key[walking], at[walking])]
            run[walking] += 1
            at[walking] -= 1
            walking = walking[at[walking] >= 1]
        absent: Bools = (run & 1) == 1
        return absent

    def deletes(self, key: I64, j: I64) -> Bools:
        """Whether the draw of each key's occurrence j says delete (if the key is present then):
        the first unit double of the deletes' stream reset at j * keys + key, below
        ``deleteFraction``."""
        with np.errstate(over="ignore"):
            counters = j * np.int64(self.keys) + key
        return unit_doubles(longs(stream_keys(self._deletes_seed, counters), 0)) < self.delete_fraction

    def _group(self, hot: Bools) -> tuple[I64, I64]:
        """Each element's group: its first key and its size."""
        first = np.where(hot, 0, self.hot_keys).astype(np.int64)
        size = np.where(hot, self.hot_keys, self.cold_keys).astype(np.int64)
        return first, size

    def _round_keys(self, hot: Bools, rounds: I64) -> U64:
        """The permutation key of each element's round of its group."""
        keys = derived_seeds(self._cold_seed, rounds)
        if hot.any():
            keys[hot] = derived_seeds(self._hot_seed, rounds[hot])
        return keys

    def _hot_count(self, m: I64) -> I64:
        """How many of the first m live changes are hot: floor(m * h), in doubles as the JVM."""
        if self.hot_keys == 0:
            return np.zeros(np.shape(m), np.int64)
        return np.floor(m.astype(np.float64) * self.hot_fraction).astype(np.int64)

    def _hot_position(self, i: I64) -> I64:
        """The live change that is each i-th hot one: the m with hotCount(m) = i and
        hotCount(m + 1) = i + 1, from the JVM's first guess by its steps."""
        m = np.maximum(0, np.ceil((i + 1).astype(np.float64) / self.hot_fraction).astype(np.int64) - 1)
        self._settle(m, i, self._hot_count)
        return m

    def _cold_position(self, i: I64) -> I64:
        """The live change that is each i-th cold one: the m with m - hotCount(m) = i, not hot."""
        if self.hot_keys == 0:
            return i.copy()
        m = np.maximum(0, np.floor(i.astype(np.float64) / (1.0 - self.hot_fraction)).astype(np.int64) - 1)
        self._settle(m, i, lambda x: x - self._hot_count(x))
        return m

    @staticmethod
    def _settle(m: I64, i: I64, counted: Callable[[I64], I64]) -> None:
        """Steps each guess m, in place, up while counted(m + 1) < i + 1, then down while m > 0
        and counted(m) >= i + 1 (``hotPosition``, ``coldPosition``)."""
        up = np.flatnonzero(counted(m + 1) < i + 1)
        while up.size:
            m[up] += 1
            up = up[counted(m[up] + 1) < i[up] + 1]
        down = np.flatnonzero((m > 0) & (counted(m) >= i + 1))
        while down.size:
            m[down] -= 1
            down = down[(m[down] > 0) & (counted(m[down]) >= i[down] + 1)]
