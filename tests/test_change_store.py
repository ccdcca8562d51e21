"""The change options' checkpoint file (``changes-source.json``) as the Python engine reads it: every
corrupt file of ``tests/vectors/changes_corrupt_stores.json`` refused with the reason the jar gives
(``ChangeStoreSuite``), and every spec stored under its options' names and read back equal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spark_random_strings.changes.options import STORED, ChangeSpec, parse_change_options
from spark_random_strings.changes.store import spec_from_json, spec_to_json
from spark_random_strings.offsets.corrupt import CorruptDefinitionError

VECTOR: dict[str, Any] = json.loads(
    (Path(__file__).parent / "vectors" / "changes_corrupt_stores.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("case", VECTOR["cases"], ids=[case["name"] for case in VECTOR["cases"]])
def test_each_corrupt_change_store_is_refused_naming_its_first_bad_value(case: dict[str, Any]) -> None:
    stored = {**VECTOR["stored"], **case.get("set", {})}
    for name in case.get("remove", []):
        del stored[name]
    with pytest.raises(CorruptDefinitionError) as refused:
        spec_from_json(stored, "here")
    assert str(refused.value) == f"here is corrupt: {case['why']}"


def test_the_default_spec_is_stored_as_every_released_change_stream_wrote_it() -> None:
    spec = parse_change_options({}).spec
    assert json.dumps(spec_to_json(spec), separators=(",", ":")) == (
        '{"version":1,"key":"id","keys":1000,"deleteFraction":0.1,"hotKeys":10,"hotKeyFraction":0.0,'
        '"snapshot":false,"envelope":"flat"}'
    )
    assert spec_from_json(spec_to_json(spec), "here") == spec


def test_a_spec_with_every_field_set_is_stored_under_each_fields_option_and_reads_back_equal() -> None:
    spec = ChangeSpec(
        key="id",
        keys=9,
        delete_fraction=1e-5,
        hot_keys=2,
        hot_key_fraction=0.25,
        snapshot=True,
        envelope="flink",
        update_columns="value",
        end=7,
    )
    stored = spec_to_json(spec)
    assert list(stored) == ["version", *STORED]
    assert stored["totalRows"] == 7 and stored["deleteFraction"] == 1e-5
    assert ChangeSpec.of(dict(spec.settings())) == spec
    assert spec_from_json(stored, "here") == spec


def test_a_spec_is_not_rebuilt_without_a_required_setting_as_the_jar_refuses_it() -> None:
    settings = dict(parse_change_options({}).spec.settings())
    del settings["envelope"]
    with pytest.raises(KeyError, match="envelope"):
        ChangeSpec.of(settings)
