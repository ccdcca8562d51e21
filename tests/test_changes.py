"""The ``changes`` source's Python twin: the keyed permutation's inverse, the change model against a
replay of the changes one by one, ``expected_table`` against ``expected_changes`` applied in
``_seq`` order, the long-run shares, the envelopes, and the options' refusals; then, through
Spark, the jar's rows and tables against the oracles (docs/change-streams.md)."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from pyspark.errors import IllegalArgumentException
from pyspark.sql import SparkSession

from helpers.support import REPO, available_now
from helpers.typed_rows import canonical, differences, from_json_cell, json_row
from spark_random_strings import (
    expected_changes,
    expected_history,
    expected_rows,
    expected_table,
    read_changes,
)
from spark_random_strings.changes.envelope import ENVELOPE_OF, FLAT
from spark_random_strings.changes.keywords import CHANGE_OPTIONS, CHANGES_FORMAT
from spark_random_strings.changes.lifecycle import DELETE, INSERT, UPDATE, ChangeLifecycle
from spark_random_strings.changes.options import parse_change_options, parse_stream_options
from spark_random_strings.changes.spec import DEFAULT_SPEC, ChangeSpec
from spark_random_strings.randomness.counter_random import (
    CHANGE_DELETES,
    CHANGE_HOT_KEYS,
    CHANGE_KEYS,
    GAMMA_INT,
    MASK,
    derived_seed,
    mix_int,
)
from spark_random_strings.randomness.keyed_permutation import permute, unpermute
from spark_random_strings.typed.fields.options import flattened

# The model without Spark.


@pytest.mark.parametrize("size", [1, 2, 3, 5, 16, 17, 1000])
@pytest.mark.parametrize("seed", [1, 42, -7])
def test_unpermute_inverts_permute_over_a_whole_small_domain(size: int, seed: int) -> None:
    key = np.uint64(derived_seed(seed, CHANGE_KEYS))
    sizes = np.full(size, size, np.int64)
    images = permute(np.arange(size, dtype=np.int64), sizes, key)
    assert sorted(images.tolist()) == list(range(size))
    assert unpermute(images, sizes, key).tolist() == list(range(size))
    # And the other way round: permute undoes unpermute.
    assert permute(unpermute(np.arange(size, dtype=np.int64), sizes, key), sizes, key).tolist() == list(
        range(size)
    )


@pytest.mark.parametrize("seed", [7, 123456789])
def test_unpermute_inverts_permute_on_samples_of_a_domain_of_2_to_the_40(seed: int) -> None:
    size = 1 << 40
    key = np.uint64(derived_seed(seed, CHANGE_KEYS))
    # Spread over the whole domain, and its last hundred.
    index = np.concatenate([np.arange(10_000) * 109_951_162, size - 1 - np.arange(100)]).astype(np.int64)
    sizes = np.full(len(index), size, np.int64)
    images = permute(index, sizes, key)
    assert bool((images < size).all()) and len(set(images.tolist())) == len(index)
    assert unpermute(images, sizes, key).tolist() == index.tolist()


def test_unpermute_takes_a_key_and_a_size_per_element() -> None:
    sizes = np.array([1, 2, 3, 1000, 1 << 40, 1 << 62], np.int64)
    keys = np.array([derived_seed(s, CHANGE_HOT_KEYS) for s in range(6)], np.uint64)
    index = np.array([0, 1, 2, 999, (1 << 40) - 1, (1 << 62) - 1], np.int64)
    assert unpermute(permute(index, sizes, keys), sizes, keys).tolist() == index.tolist()


def test_the_change_streams_random_streams_are_numbered_after_the_rows() -> None:
    assert (CHANGE_KEYS, CHANGE_DELETES, CHANGE_HOT_KEYS) == (9, 10, 11)


class Replay:
    """The change model as the spec states it, one change at a time with Python ints: change n's
    key from its group's round's permutation (the round's whole order, made forward), its
    operation from the key's present state kept by replaying every change before it, and each
    delete draw from its counter directly. Nothing here walks back or inverts a permutation."""

    def __init__(self, seed: int, spec: ChangeSpec) -> None:
        self.keys, self.d = spec.keys, spec.delete_fraction
        self.hot = spec.hot_keys if spec.hot_key_fraction > 0 else 0
        self.h = spec.hot_key_fraction
        self.first_live = spec.keys if spec.snapshot else 0
        self.first_round = 1 if spec.snapshot else 0
        self.seeds = {False: derived_seed(seed, CHANGE_KEYS), True: derived_seed(seed, CHANGE_HOT_KEYS)}
        self.deletes_key = mix_int(derived_seed(seed, CHANGE_DELETES))
        self.orders: dict[tuple[bool, int], list[int]] = {}

    def hot_count(self, m: int) -> int:
        return 0 if self.hot == 0 else math.floor(m * self.h)

    def order(self, hot: bool, round_: int) -> list[int]:
        """The keys of a group's round, place by place."""
        if (hot, round_) not in self.orders:
            first, size = (0, self.hot) if hot else (self.hot, self.keys - self.hot)
            key = np.uint64(derived_seed(self.seeds[hot], round_))
            places = permute(np.arange(size, dtype=np.int64), np.full(size, size, np.int64), key)
            self.orders[hot, round_] = [first + int(p) for p in places]
        return self.orders[hot, round_]

    def key_of(self, n: int) -> tuple[int, int]:
        """Change n's key and occurrence."""
        if n < self.first_live:
            return n, 0
        m = n - self.first_live
        hot = self.hot_count(m + 1) > self.hot_count(m)
        i = self.hot_count(m) if hot else m - self.hot_count(m)
        size = self.hot if hot else self.keys - self.hot
        round_ = self.first_round + i // size
        return self.order(hot, round_)[i % size], round_

    def draws_delete(self, key: int, j: int) -> bool:
        counter = (j * self.keys + key) & MASK
        stream = mix_int((self.deletes_key + counter * GAMMA_INT) & MASK)
        return (mix_int((stream + GAMMA_INT) & MASK) >> 11) * 2.0**-53 < self.d

    def changes(self, count: int) -> list[tuple[int, int, int, int]]:
        """Changes 0 to count - 1 replayed: (key, occurrence, op, image seq) each."""
        present: dict[int, int] = {}  # key -> the seq of its last image
        seen: Counter[int] = Counter()
        made = []
        for n in range(count):
            key, j = self.key_of(n)
            assert j == seen[key], f"change {n} is its key's next change"
            seen[key] += 1
            if key not in present:
                made.append((key, j, INSERT, n))
                present[key] = n
            elif self.draws_delete(key, j):
                made.append((key, j, DELETE, present.pop(key)))
            else:
                made.append((key, j, UPDATE, n))
                present[key] = n
        return made


SPECS = [
    pytest.param(ChangeSpec.of_keywords(keys=1), id="one-key"),
    pytest.param(ChangeSpec.of_keywords(keys=7), id="7-keys"),
    pytest.param(ChangeSpec.of_keywords(keys=50), id="50-keys"),
    pytest.param(ChangeSpec.of_keywords(keys=7, snapshot=True), id="7-keys-snapshot"),
    pytest.param(ChangeSpec.of_keywords(keys=50, hot_keys=3, hot_key_fraction=0.3), id="50-keys-3-hot"),
    pytest.param(
        ChangeSpec.of_keywords(keys=50, hot_keys=1, hot_key_fraction=0.05, snapshot=True),
        id="50-keys-1-hot-snapshot",
    ),
]


@pytest.mark.parametrize("d", [0.0, 0.1, 0.5, 0.9])
@pytest.mark.parametrize("spec", SPECS)
def test_the_vectorized_model_is_a_replay_of_the_changes_in_order(spec: ChangeSpec, d: float) -> None:
    spec = spec.updated("deleteFraction", d)
    count = spec.keys * 60
    replayed = Replay(11, spec).changes(count)
    lifecycle = ChangeLifecycle(11, spec)
    n = np.arange(count, dtype=np.int64)
    key, j = lifecycle.locate(n)
    op = lifecycle.op_of(key, j)
    image = n.copy()
    deletes = op == DELETE
    image[deletes] = lifecycle.seq_of(key[deletes], j[deletes] - 1)
    assert list(zip(key.tolist(), j.tolist(), op.tolist(), image.tolist(), strict=True)) == replayed
    # Each change is found again from its key and occurrence.
    assert lifecycle.seq_of(key, j).tolist() == n.tolist()
    ops = Counter(op.tolist())
    if d == 0.0:
        assert (ops[DELETE], ops[INSERT]) == (0, spec.keys)
    if d > 0.0 and spec.keys >= 7:
        assert ops[DELETE] > 0 and ops[UPDATE] > 0


@pytest.mark.parametrize("keys", [7, 50])
def test_every_key_changes_exactly_once_a_round_in_an_order_of_the_rounds_own(keys: int) -> None:
    lifecycle = ChangeLifecycle(3, ChangeSpec.of_keywords(keys=keys, delete_fraction=0.2))
    key, j = lifecycle.locate(np.arange(keys * 6, dtype=np.int64))
    rounds = key.reshape(6, keys)
    assert [sorted(r) for r in rounds.tolist()] == [list(range(keys))] * 6
    assert j.reshape(6, keys).tolist() == [[r] * keys for r in range(6)]
    # Each round has an order of its own (over 7 keys, two of six rounds may draw the same one).
    assert len({tuple(r) for r in rounds.tolist()}) >= 5


def test_without_hot_keys_or_a_snapshot_change_n_is_round_ns_permutation_at_its_place() -> None:
    lifecycle = ChangeLifecycle(21, ChangeSpec.of_keywords(keys=77, delete_fraction=0.3))
    n = np.array([0, 5, 76, 77, 1000, 123456], np.int64)
    rounds = n // 77
    round_keys = np.array([derived_seed(derived_seed(21, CHANGE_KEYS), int(r)) for r in rounds], np.uint64)
    assert lifecycle.locate(n)[0].tolist() == permute(n % 77, np.full(6, 77, np.int64), round_keys).tolist()
    assert lifecycle.locate(n)[1].tolist() == rounds.tolist()


def test_hot_key_fraction_of_the_live_changes_go_to_the_hot_keys_spread_evenly() -> None:
    spec = ChangeSpec.of_keywords(
        keys=1000, delete_fraction=0.1, hot_keys=4, hot_key_fraction=0.25, snapshot=True
    )
    key, j = ChangeLifecycle(9, spec).locate(np.arange(1000, 5000, dtype=np.int64))
    hot = np.flatnonzero(key < 4)
    # floor((m + 1) / 4) > floor(m / 4): live changes 3, 7, 11, ... are the hot ones.
    assert hot.tolist() == list(range(3, 4000, 4))
    for r, group in enumerate(key[hot].reshape(-1, 4).tolist()):
        assert sorted(group) == [0, 1, 2, 3] and set(j[hot][4 * r : 4 * r + 4].tolist()) == {r + 1}
    assert sorted(key[key >= 4][:996].tolist()) == list(range(4, 1000))


@pytest.mark.parametrize("d", [0.1, 0.25, 0.6])
def test_in_the_long_run_inserts_and_deletes_are_d_over_1_plus_d_and_updates_the_rest(d: float) -> None:
    keys = 1000
    lifecycle = ChangeLifecycle(5, ChangeSpec.of_keywords(keys=keys, delete_fraction=d))
    # Rounds 10 to 209: the first rounds' departure from the long run shrinks by d a round.
    n = np.arange(10 * keys, 210 * keys, dtype=np.int64)
    key, j = lifecycle.locate(n)
    counts = Counter(lifecycle.op_of(key, j).tolist())
    total = len(n)
    for op, share in ((INSERT, d / (1 + d)), (DELETE, d / (1 + d)), (UPDATE, (1 - d) / (1 + d))):
        # Five binomial standard errors of a share of 200,000 changes (at most 0.0056).
        tolerance = 5 * math.sqrt(share * (1 - share) / total)
        assert abs(counts[op] / total - share) < tolerance, (ENVELOPE_OF[FLAT].kind_names[op], counts)
    assert abs(counts[INSERT] - counts[DELETE]) <= keys, "a key's inserts and deletes alternate"


def test_round_0_inserts_every_key_and_a_snapshot_inserts_them_in_key_order() -> None:
    plain = expected_changes(seed=3, start=0, end=20, keys=20, delete_fraction=0.9)
    assert set(plain.column("_op").to_pylist()) == {"insert"}
    assert sorted(plain.column("id").to_pylist()) == list(range(20))
    snapshot = expected_changes(seed=3, start=0, end=20, keys=20, delete_fraction=0.9, snapshot=True)
    assert snapshot.column("id").to_pylist() == list(range(20))
    assert set(snapshot.column("_op").to_pylist()) == {"insert"}


@pytest.mark.parametrize("snapshot", [False, True])
@pytest.mark.parametrize("d", [0.0, 0.05, 0.3, 0.9])
def test_insert_of_finds_the_insert_that_began_each_keys_life_as_a_replay_of_its_changes_does(
    d: float, snapshot: bool
) -> None:
    lifecycle = ChangeLifecycle(13, ChangeSpec.of_keywords(keys=5, delete_fraction=d, snapshot=snapshot))
    for key in range(5):
        j = np.arange(300, dtype=np.int64)
        keys = np.full(j.shape, key, np.int64)
        ops = lifecycle.op_of(keys, j)
        present, insert, expected = False, -1, []
        for occurrence, op in enumerate(ops):
            if op == INSERT:
                assert not present
                present, insert = True, occurrence
            elif op == DELETE:
                present = False
            expected.append(insert if present else -1)
        live = np.array(expected) >= 0
        assert lifecycle.insert_of(keys[live], j[live]).tolist() == np.array(expected)[live].tolist()


# The oracles.

TYPED_SCHEMA = (
    "id INT NOT NULL, name STRING, balance DECIMAL(12,2), rank INT, at TIMESTAMP NOT NULL, o BIGINT"
)
TYPED_FIELDS: dict[str, dict[str, object]] = {
    "name": {"maxLength": 6, "nullRate": 0.2},
    "balance": {"min": "0", "max": "100000"},
    "rank": {"min": 1, "max": 5, "nullRate": 0.3},
    "at": {"kind": "eventTime"},
    "o": {"kind": "offset"},
}
STREAMS: list[Any] = [
    pytest.param({"keys": 50, "delete_fraction": 0.3}, id="typed"),
    pytest.param(
        {"keys": 40, "delete_fraction": 0.3, "hot_keys": 3, "hot_key_fraction": 0.2, "snapshot": True},
        id="typed-hot-snapshot",
    ),
    pytest.param({"keys": 1, "delete_fraction": 0.5}, id="typed-one-key"),
]


def replayed_table(
    changes: pa.Table, key: str, declared: list[str], offset: str | None = None
) -> list[dict[str, Any]]:
    """The table the flat ``changes`` leave, applied in ``_seq`` order: an insert or an update
    puts its key's row, a delete removes it; the rows sorted by key, numerically. A delete carries
    the row it removes, but for the column of kind ``offset`` (``offset``), which holds its own."""
    table: dict[Any, dict[str, Any]] = {}
    for row in sorted(changes.to_pylist(), key=lambda r: r["_seq"]):
        if row["_op"] == "delete":
            removed = table.pop(row[key])
            assert {c: v for c, v in removed.items() if c != offset} == {
                c: row[c] for c in declared if c != offset
            }, "a delete carries the last image"
            assert offset is None or row[offset] == row["_seq"]
        else:
            assert (row[key] in table) == (row["_op"] == "update")
            table[row[key]] = {c: row[c] for c in declared}
    return [table[k] for k in sorted(table, key=int)]


@pytest.mark.parametrize("options", STREAMS)
def test_expected_table_is_the_changes_applied_in_seq_order(options: dict[str, Any]) -> None:
    keys = int(options["keys"])
    snapshot = keys if options.get("snapshot") else 0
    stream: dict[str, Any] = {
        "seed": 13,
        "start_time_ms": 1_700_000_000_000,
        "schema": TYPED_SCHEMA,
        "fields": TYPED_FIELDS,
    }
    changes = expected_changes(start=0, end=snapshot + 12 * keys + 7, **stream, **options)
    declared = ["id", "name", "balance", "rank", "at", "o"]
    ends = sorted({0, 1, keys // 2, keys - 1, keys, keys + 1, snapshot + 3 * keys, snapshot + 12 * keys + 7})
    for end in ends:
        expected = replayed_table(changes.slice(0, end), "id", declared, offset="o")
        assert expected_table(end=end, **stream, **options).to_pylist() == expected, f"after {end} changes"
    # A present key's offset column holds its last image's change number, and its time that change's.
    table = expected_table(end=200, **stream, **options).to_pylist()
    assert all(row["at"] == changes.column("_ts")[row["o"]].as_py() for row in table)


def replayed_history(changes: pa.Table, key: str, declared: list[str]) -> list[dict[str, Any]]:
    """The versions the flat ``changes`` make, applied in ``_seq`` order: an insert or an update
    begins one, the key's next change ends it; sorted by key, numerically, then by their start."""
    versions: list[dict[str, Any]] = []
    open_version: dict[Any, dict[str, Any]] = {}
    for row in sorted(changes.to_pylist(), key=lambda r: r["_seq"]):
        ended = open_version.pop(row[key], None)
        if ended is not None:
            ended |= {"valid_to_seq": row["_seq"], "valid_to": row["_ts"]}
        if row["_op"] != "delete":
            version = {c: row[c] for c in declared}
            version |= {"valid_from_seq": row["_seq"], "valid_to_seq": None}
            version |= {"valid_from": row["_ts"], "valid_to": None}
            open_version[row[key]] = version
            versions.append(version)
    return sorted(versions, key=lambda v: (int(v[key]), v["valid_from_seq"]))


@pytest.mark.parametrize("options", STREAMS)
def test_expected_history_is_every_version_the_changes_make_in_seq_order_and_its_open_ones_the_table(
    options: dict[str, Any],
) -> None:
    keys = int(options["keys"])
    snapshot = keys if options.get("snapshot") else 0
    stream: dict[str, Any] = {
        "seed": 17,
        "start_time_ms": 1_700_000_000_000,
        "schema": TYPED_SCHEMA,
        "fields": TYPED_FIELDS,
    }
    end = snapshot + 9 * keys + 5
    changes = expected_changes(start=0, end=end, **stream, **options)
    declared = ["id", "name", "balance", "rank", "at", "o"]
    for n in sorted({0, 1, keys - 1, keys, snapshot + 2 * keys + 1, end}):
        history = expected_history(end=n, **stream, **options)
        assert history.schema.names == [*declared, "valid_from_seq", "valid_to_seq", "valid_from", "valid_to"]
        rows = history.to_pylist()
        assert rows == replayed_history(changes.slice(0, n), "id", declared), f"after {n} changes"
        current = [{c: row[c] for c in declared} for row in rows if row["valid_to_seq"] is None]
        assert current == expected_table(end=n, **stream, **options).to_pylist(), f"after {n} changes"


def test_expected_history_of_many_changes_per_key_is_batched_by_versions_and_whole() -> None:
    # 3 keys, 200,000 changes: about 67,000 versions a key, more than a batch's share.
    history = expected_history(end=200_000, seed=4, keys=3, delete_fraction=0.2)
    counts = Counter(history.column("id").to_pylist())
    lifecycle = ChangeLifecycle(4, parse_change_options({"keys": "3", "deleteFraction": "0.2"}, None).spec)
    for k in range(3):
        occurrences = np.arange(int(lifecycle.last_occurrence(np.array([k]), 200_000)[0]) + 1)
        ops = lifecycle.op_of(np.full(occurrences.shape, k), occurrences)
        assert counts[k] == int((ops != DELETE).sum())
    starts = history.column("valid_from_seq").to_pylist()
    ends = history.column("valid_to_seq").to_pylist()
    assert len(set(starts)) == len(starts), "each version begins at a change of its own"
    assert all(e is None or e > s for s, e in zip(starts, ends, strict=True))
    assert ends.count(None) == expected_table(end=200_000, seed=4, keys=3, delete_fraction=0.2).num_rows


def test_expected_table_of_a_string_key_is_sorted_by_the_keys_number() -> None:
    table = expected_table(end=500, seed=2, keys=30, key="k", schema="k STRING NOT NULL, v INT")
    assert table.schema == pa.schema([pa.field("k", pa.string(), nullable=False), pa.field("v", pa.int32())])
    keys = table.column("k").to_pylist()
    assert keys == [str(k) for k in sorted(int(k) for k in keys)] and len(keys) < 30
    changes = expected_changes(start=0, end=500, seed=2, keys=30, key="k", schema="k STRING NOT NULL, v INT")
    assert table.to_pylist() == replayed_table(changes, "k", ["k", "v"])


def test_expected_changes_have_the_flat_envelopes_columns_and_any_range_is_a_slice_of_the_whole() -> None:
    whole = expected_changes(start=0, end=300, seed=5, keys=20)
    assert whole.schema == pa.schema(
        [
            pa.field("id", pa.int64(), nullable=False),
            pa.field("value", pa.string()),
            pa.field("_op", pa.string(), nullable=False),
            pa.field("_seq", pa.int64(), nullable=False),
            pa.field("_ts", pa.timestamp("us", tz="UTC"), nullable=False),
        ]
    )
    assert whole.column("_seq").to_pylist() == list(range(300))
    assert expected_changes(start=137, end=251, seed=5, keys=20).equals(whole.slice(137, 114))
    assert expected_changes(start=7, end=7, seed=5, keys=20).num_rows == 0
    # Commit times: change n at start_timestamp + n * 1000 / rowsPerSecond.
    timed = expected_changes(start=0, end=4, seed=5, keys=20, rows_per_second=4, start_timestamp=10_000)
    assert [t.value for t in timed.column("_ts")] == [10_000_000, 10_250_000, 10_500_000, 10_750_000]


def test_the_images_are_the_typed_columns_rows_at_the_image_seq_but_for_the_key() -> None:
    schema = "id BIGINT NOT NULL, name STRING, at TIMESTAMP NOT NULL"
    fields: dict[str, dict[str, object]] = {"name": {"maxLength": 5}, "at": {"kind": "eventTime"}}
    changes = expected_changes(
        start=0, end=400, seed=8, keys=25, delete_fraction=0.4, schema=schema, fields=fields
    )
    rows = expected_rows(start=0, end=400, seed=8, schema=schema, fields=fields).to_pylist()
    last_image: dict[int, int] = {}
    for change in changes.to_pylist():
        image = last_image.pop(change["id"]) if change["_op"] == "delete" else change["_seq"]
        if change["_op"] != "delete":
            last_image[change["id"]] = image
        assert (change["name"], change["at"]) == (rows[image]["name"], rows[image]["at"])


ENVELOPE_OPTIONS: dict[str, Any] = {
    "seed": 17,
    "keys": 20,
    "delete_fraction": 0.3,
    "snapshot": True,
    "schema": "id INT NOT NULL, name STRING, o BIGINT",
    "fields": {"name": {"maxLength": 4, "nullRate": 0.3}, "o": {"kind": "offset"}},
}


def test_each_envelope_carries_the_flat_rows_changes() -> None:
    flat = expected_changes(start=0, end=300, **ENVELOPE_OPTIONS).to_pylist()
    ops = [row["_op"] for row in flat]
    image = [{c: row[c] for c in ("id", "name", "o")} for row in flat]
    # Each change's image before: its key's last insert or update, in a row at this change.
    before: dict[int, dict[str, Any]] = {}
    last: dict[int, dict[str, Any]] = {}
    for n, row in enumerate(flat):
        if row["id"] in last:
            before[n] = {**last[row["id"]], "o": n}
        if row["_op"] == "delete":
            assert image[n] == before[n]
            del last[row["id"]]
        else:
            last[row["id"]] = image[n]

    debezium = expected_changes(start=0, end=300, envelope="debezium", **ENVELOPE_OPTIONS).to_pylist()
    assert len(debezium) == 300
    for n, row in enumerate(debezium):
        op = {"insert": "c", "update": "u", "delete": "d"}[ops[n]]
        assert row["op"] == ("r" if n < 20 else op)
        assert row["before"] == (None if ops[n] == "insert" else before[n])
        assert row["after"] == (None if ops[n] == "delete" else image[n])
        assert row["source"] == {
            "connector": "spark-random-strings",
            "name": "changes",
            "ts_ms": n * 100,
            "snapshot": "last" if n == 19 else "true" if n < 20 else "false",
            "sequence": n,
        }
        assert row["ts_ms"] == n * 100

    for envelope, kind_column, kinds, (seq_column, ts_column) in (
        (
            "delta",
            "_change_type",
            {
                "insert": "insert",
                "before": "update_preimage",
                "after": "update_postimage",
                "delete": "delete",
            },
            ("_commit_version", "_commit_timestamp"),
        ),
        (
            "flink",
            "_row_kind",
            {"insert": "+I", "before": "-U", "after": "+U", "delete": "-D"},
            ("_seq", "_ts"),
        ),
    ):
        rows = expected_changes(start=0, end=300, envelope=envelope, **ENVELOPE_OPTIONS).to_pylist()
        want: list[dict[str, Any]] = []
        for n, op in enumerate(ops):
            at = {seq_column: n, ts_column: flat[n]["_ts"]}
            if op == "update":
                want.append({**before[n], kind_column: kinds["before"], **at})
                want.append({**image[n], kind_column: kinds["after"], **at})
            else:
                want.append({**image[n], kind_column: kinds[op], **at})
        assert len(rows) == 300 + ops.count("update")
        assert rows == want, envelope


# The options.

#: The options the source refuses at load(), shared with ChangesSourceSuite.
REFUSALS: dict[str, Any] = json.loads(
    (REPO / "tests" / "vectors" / "changes_invalid_inputs.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("case", REFUSALS["cases"], ids=[case["name"] for case in REFUSALS["cases"]])
def test_the_change_options_refuse_bad_values_naming_the_option_the_value_and_what_is_allowed(
    case: dict[str, Any],
) -> None:
    # A batch read's own checks (asOf, seed) are the jar's: Python reads no batch.
    parse = parse_change_options if case.get("read") == "batch" else parse_stream_options
    with pytest.raises(ValueError) as raised:
        parse(case["options"], case.get("schema", REFUSALS["declared"]))
    assert str(raised.value) == case["message"]


def test_the_key_column_is_found_case_insensitively_and_kept_as_declared() -> None:
    parsed = parse_change_options({"KEY": " Id ", "keys": "128"}, "ID TINYINT NOT NULL, v INT")
    assert (parsed.spec.key, parsed.spec.keys) == ("ID", 128)
    assert parse_change_options({}).rows.declared is not None
    assert parse_change_options({}).spec == DEFAULT_SPEC


def test_the_oracles_refuse_the_same_values_with_the_sources_messages() -> None:
    with pytest.raises(ValueError) as raised:
        expected_table(end=10, seed=1, keys=200, schema="id TINYINT NOT NULL")
    assert str(raised.value) == (
        "Option 'keys' is 200, and the key column 'id' is TINYINT, whose values hold at most 128 keys "
        "(0 to 127). Lower 'keys', or declare a wider key type (BIGINT holds 2^62)."
    )
    with pytest.raises(ValueError) as raised:
        expected_changes(start=0, end=10, seed=1, fields={"id": {"min": 1}})
    assert str(raised.value) == (
        "Option 'fields.id.min' says how the key column 'id' is made, and a change stream makes its keys "
        "itself: 0 to keys - 1, as 'keys' says. Remove it."
    )
    with pytest.raises(ValueError) as raised:
        expected_changes(start=5, end=4, seed=1)
    assert str(raised.value) == "expected_changes: offsets [start, end) = [5, 4) must have 0 <= start <= end."


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        (
            {"num_partitions": 2},
            "expected_changes() got the keyword 'num_partitions', which changes no row: the changes are the "
            "same whatever it is. Leave it out.",
        ),
        (
            {"max_rows_per_trigger": 2},
            "expected_changes() got the keyword 'max_rows_per_trigger', which changes no row: the changes "
            "are the same whatever it is. Leave it out.",
        ),
        (
            {"total_rows": 2},
            "expected_changes() got the keyword 'total_rows', which changes no row: the changes are the same "
            "whatever it is. Leave it out.",
        ),
        (
            {"as_of": 2},
            "expected_changes() got the keyword 'as_of', which only a batch read takes: "
            "expected_table(end=n) is the table after n changes, expected_history(end=n) its history. "
            "Leave it out.",
        ),
        (
            {"history": True},
            "expected_changes() got the keyword 'history', which only a batch read takes: "
            "expected_table(end=n) is the table after n changes, expected_history(end=n) its history. "
            "Leave it out.",
        ),
        (
            {"delete_fractio": 0.2},
            "expected_changes() got an unexpected keyword argument 'delete_fractio'. Did you mean "
            "'delete_fraction'? Known: key, keys, delete_fraction, hot_keys, hot_key_fraction, snapshot, "
            "envelope, update_columns, rows_per_second, seed, num_partitions, max_rows_per_trigger, "
            "total_rows, start_timestamp, rate_profile, max_out_of_order_ms, late_row_fraction, late_by_ms, "
            "duplicate_fraction, real_time, as_of, history.",
        ),
        ({"keys": "10"}, "expected_changes: keys must be int or None, got str '10'"),
        ({"snapshot": 1}, "expected_changes: snapshot must be bool or None, got int 1"),
    ],
)
def test_expected_changes_refuses_keywords_that_change_no_row_or_are_unknown_or_mistyped(
    keywords: dict[str, Any], message: str
) -> None:
    with pytest.raises(TypeError) as raised:
        expected_changes(start=0, end=1, seed=1, **keywords)
    assert str(raised.value) == message


def test_expected_table_refuses_a_seed_that_is_not_an_int() -> None:
    with pytest.raises(TypeError) as raised:
        expected_table(end=1, seed="7")  # type: ignore[arg-type]
    assert str(raised.value) == "expected_table: seed must be int, got str '7'"


# Through Spark: the jar's rows and tables against the oracles.

ROW0_MS = 1_700_000_000_000
SPARK_SCHEMA = "id BIGINT NOT NULL, name STRING, balance DECIMAL(12,2), rank INT, at TIMESTAMP NOT NULL"
SPARK_FIELDS: dict[str, dict[str, object]] = {
    "name": {"maxLength": 6, "nullRate": 0.2},
    "balance": {"min": "0", "max": "100000"},
    "rank": {"min": 1, "max": 5, "nullRate": 0.3},
    "at": {"kind": "eventTime"},
}
HOT_SNAPSHOT = {"hot_keys": 3, "hot_key_fraction": 0.2, "snapshot": True}
#: Updates that change two columns, the rest kept from the key's last image.
PARTIAL = {"update_columns": "balance,at"}


def _jar_rows(spark: SparkSession, df: Any, name: str, checkpoint: Path | None = None) -> list[str]:
    """Each row of ``df`` (a stream, run to its end under AvailableNow, or a batch DataFrame) as
    ``repr`` of its cells read back from its JSON, sorted."""
    rows = df.select(json_row(df).alias("row"))
    if checkpoint is not None:
        available_now(rows, name, checkpoint)
        collected = spark.table(name).collect()
    else:
        collected = rows.collect()
    return sorted(repr(from_json_cell(json.loads(r.row, parse_float=str), df.schema)) for r in collected)


def _expected(table: pa.Table, df: Any) -> list[str]:
    return sorted(repr(canonical(row, df.schema)) for row in table.to_pylist())


@pytest.mark.parametrize(
    ("envelope", "lifecycle"),
    [
        pytest.param("flat", {}, id="flat"),
        pytest.param("flat", HOT_SNAPSHOT, id="flat-hot-snapshot"),
        pytest.param("debezium", HOT_SNAPSHOT, id="debezium-hot-snapshot"),
        pytest.param("delta", HOT_SNAPSHOT, id="delta-hot-snapshot"),
        pytest.param("flink", HOT_SNAPSHOT, id="flink-hot-snapshot"),
        pytest.param("debezium", PARTIAL, id="debezium-update-columns"),
        pytest.param("delta", {**HOT_SNAPSHOT, **PARTIAL}, id="delta-hot-snapshot-update-columns"),
    ],
)
def test_the_jar_streams_exactly_the_changes_expected_changes_computes(
    spark: SparkSession, tmp_path: Path, query_name: str, envelope: str, lifecycle: dict[str, Any]
) -> None:
    options: dict[str, Any] = {
        "seed": 7,
        "keys": 50,
        "delete_fraction": 0.3,
        "rows_per_second": 100,
        "start_timestamp": ROW0_MS,
        "envelope": envelope,
        **lifecycle,
    }
    df = read_changes(
        spark,
        schema=SPARK_SCHEMA,
        fields=SPARK_FIELDS,
        total_rows=1000,
        max_rows_per_trigger=400,
        num_partitions=3,
        **options,
    )
    expected = expected_changes(start=0, end=1000, schema=SPARK_SCHEMA, fields=SPARK_FIELDS, **options)
    assert [(f.name, f.nullable) for f in df.schema.fields] == [(f.name, f.nullable) for f in expected.schema]
    got, want = _jar_rows(spark, df, query_name, tmp_path / "checkpoint"), _expected(expected, df)
    assert len(want) >= 1000
    assert got == want, differences(got, want)


@pytest.mark.parametrize(
    "lifecycle",
    [
        pytest.param({}, id="plain"),
        pytest.param(HOT_SNAPSHOT, id="hot-snapshot"),
        pytest.param(PARTIAL, id="update-columns"),
    ],
)
def test_the_jars_batch_read_as_of_n_is_the_table_expected_table_computes(
    spark: SparkSession, lifecycle: dict[str, Any]
) -> None:
    keywords: dict[str, Any] = {
        "seed": 7,
        "keys": 40,
        "delete_fraction": 0.3,
        "rows_per_second": 100,
        "start_timestamp": ROW0_MS,
        **lifecycle,
    }
    options = {**CHANGE_OPTIONS.options({**keywords, "num_partitions": 3}, "test"), **flattened(SPARK_FIELDS)}
    for n in (0, 1, 39, 40, 41, 333, 700):
        df = spark.read.format(CHANGES_FORMAT).schema(SPARK_SCHEMA).options(**options, asOf=str(n)).load()
        expected = expected_table(end=n, schema=SPARK_SCHEMA, fields=SPARK_FIELDS, **keywords)
        assert _jar_rows(spark, df, "") == _expected(expected, df), f"asOf {n}"


@pytest.mark.parametrize(
    "lifecycle",
    [
        pytest.param(HOT_SNAPSHOT, id="hot-snapshot"),
        pytest.param({**HOT_SNAPSHOT, **PARTIAL}, id="update-columns"),
    ],
)
def test_the_jars_batch_read_with_history_is_the_history_expected_history_computes(
    spark: SparkSession, lifecycle: dict[str, Any]
) -> None:
    keywords: dict[str, Any] = {
        "seed": 8,
        "keys": 30,
        "delete_fraction": 0.3,
        "rows_per_second": 100,
        "start_timestamp": ROW0_MS,
        **lifecycle,
    }
    options = {**CHANGE_OPTIONS.options({**keywords, "num_partitions": 3}, "test"), **flattened(SPARK_FIELDS)}
    for n in (0, 29, 31, 500):
        df = (
            spark.read.format(CHANGES_FORMAT)
            .schema(SPARK_SCHEMA)
            .options(**options, asOf=str(n), history="true")
            .load()
        )
        expected = expected_history(end=n, schema=SPARK_SCHEMA, fields=SPARK_FIELDS, **keywords)
        assert [(f.name, f.nullable) for f in df.schema.fields] == [
            (f.name, f.nullable) for f in expected.schema
        ]
        assert _jar_rows(spark, df, "") == _expected(expected, df), f"asOf {n}"


def test_read_changes_names_its_keywords_in_the_sources_refusals(spark: SparkSession) -> None:
    with pytest.raises(IllegalArgumentException) as raised:
        read_changes(spark, delete_fraction=1.0)
    assert (
        "Invalid value '1.0' for delete_fraction: out of range. Allowed: a decimal number >= 0 and < 1."
        in str(raised.value)
    )
    assert "option '" not in str(raised.value).lower()
