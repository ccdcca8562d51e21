"""``updateColumns``: an update changes the columns it names, and every other column keeps the key's
last image, as Debezium's and Delta's updates carry a row whose untouched columns are unchanged.

Pure Python: the oracle's rows replayed in change order against each key's last image, and against
the same stream without ``updateColumns``, whose rows are unchanged (the digests prove the jar makes
these rows too, ``tests/digests/definitions.json``).
"""

from __future__ import annotations

from typing import Any

import pytest

from spark_random_strings import expected_changes, expected_history, expected_table

SCHEMA = "id INT NOT NULL, score INT, name STRING, seen TIMESTAMP"
FIELDS: dict[str, dict[str, object]] = {
    "score": {"min": 1, "max": 99},
    "name": {"maxLength": 6},
    "seen": {"kind": "eventTime"},
}
CHANGES = 400
COLUMNS = ("score", "name", "seen")

STREAMS = [
    pytest.param({"keys": 7, "delete_fraction": 0.3}, id="7-keys"),
    pytest.param({"keys": 7, "delete_fraction": 0.0}, id="no-deletes"),
    pytest.param({"keys": 5, "delete_fraction": 0.9}, id="mostly-deletes"),
    pytest.param(
        {"keys": 20, "delete_fraction": 0.2, "hot_keys": 2, "hot_key_fraction": 0.5, "snapshot": True},
        id="hot-keys-snapshot",
    ),
]


def images(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{column: row[column] for column in ("id", *COLUMNS)} for row in rows]


def flat(options: dict[str, Any], **more: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = expected_changes(
        start=0, end=CHANGES, seed=11, schema=SCHEMA, fields=FIELDS, **options, **more
    ).to_pylist()
    return rows


@pytest.mark.parametrize("options", STREAMS)
def test_an_update_changes_only_the_columns_it_names_and_keeps_the_rest_of_the_keys_last_image(
    options: dict[str, Any],
) -> None:
    every = flat(options)
    some = flat(options, update_columns="SEEN, score")
    last: dict[int, dict[str, Any]] = {}
    updates = 0
    for all_changed, row in zip(every, some, strict=True):
        assert (row["id"], row["_op"], row["_seq"]) == (
            all_changed["id"],
            all_changed["_op"],
            all_changed["_seq"],
        )
        image = images([row])[0]
        if row["_op"] == "insert":
            assert image == images([all_changed])[0], "an insert draws every column, as without the option"
        elif row["_op"] == "update":
            updates += 1
            assert (image["score"], image["seen"]) == (all_changed["score"], all_changed["seen"])
            assert image["name"] == last[row["id"]]["name"], "a column the update leaves keeps its last cell"
        else:
            assert image == last[row["id"]], "a delete's row is the key's last image"
        last[row["id"]] = image
    assert updates > 0 or options["delete_fraction"] > 0.5


@pytest.mark.parametrize("envelope", ["debezium", "delta", "flink"])
def test_each_envelopes_image_before_an_update_or_delete_is_the_flat_streams_last_image(
    envelope: str,
) -> None:
    options = {"keys": 7, "delete_fraction": 0.3, "update_columns": "score"}
    flat_rows = flat(options)
    last: dict[int, dict[str, Any]] = {}
    before: list[dict[str, Any]] = []
    after: list[dict[str, Any]] = []
    for row in flat_rows:
        image = images([row])[0]
        if row["_op"] != "insert":
            before.append(last[row["id"]])
        if row["_op"] != "delete":
            after.append(image)
        last[row["id"]] = image
    rows = flat(options, envelope=envelope)
    if envelope == "debezium":
        assert [images([r["before"]])[0] for r in rows if r["before"] is not None] == before
        assert [images([r["after"]])[0] for r in rows if r["after"] is not None] == after
    else:
        kind = "_change_type" if envelope == "delta" else "_row_kind"
        earlier = {"update_preimage", "delete", "-U", "-D"}
        assert images([r for r in rows if r[kind] in earlier]) == before
        assert images([r for r in rows if r[kind] not in earlier]) == after


@pytest.mark.parametrize("options", STREAMS)
def test_the_table_and_its_history_hold_the_images_the_changes_leave(options: dict[str, Any]) -> None:
    kw: dict[str, Any] = {
        "seed": 11,
        "schema": SCHEMA,
        "fields": FIELDS,
        "update_columns": "score",
        **options,
    }
    rows = flat(options, update_columns="score")
    present: dict[int, dict[str, Any]] = {}
    versions: list[dict[str, Any]] = []
    for row in rows:
        if row["_op"] == "delete":
            del present[row["id"]]
        else:
            present[row["id"]] = images([row])[0]
            versions.append({**images([row])[0], "valid_from_seq": row["_seq"]})
    table = expected_table(end=CHANGES, **kw).to_pylist()
    assert images(table) == [present[key] for key in sorted(present)]
    history = expected_history(end=CHANGES, **kw).to_pylist()
    assert sorted(
        ({**images([v])[0], "valid_from_seq": v["valid_from_seq"]} for v in history),
        key=lambda v: (v["id"], v["valid_from_seq"]),
    ) == sorted(versions, key=lambda v: (v["id"], v["valid_from_seq"]))


def test_update_columns_is_kept_as_declared_in_the_declared_order() -> None:
    from spark_random_strings.changes.options import parse_change_options

    spec = parse_change_options({"updateColumns": " SEEN ,score,score"}, SCHEMA).spec
    assert spec.update_columns == "score,seen"
    assert spec.updated_columns == ("score", "seen")
    assert parse_change_options({}, SCHEMA).spec.update_columns is None
