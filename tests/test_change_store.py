"""The change options' checkpoint file (``changes-source.json``) as the Python engine reads it: every
corrupt file of ``tests/vectors/changes_corrupt_stores.json`` refused with the reason the jar gives
(``ChangeStoreSuite``), and every spec stored under its options' names and read back equal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spark_random_strings.changes.options import parse_change_options
from spark_random_strings.changes.spec import DEFAULT_SPEC, STORED, ChangeSpec
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
    spec = ChangeSpec.of_keywords(
        keys=9,
        delete_fraction=1e-5,
        hot_keys=2,
        hot_key_fraction=0.25,
        snapshot=True,
        envelope="flink",
        update_columns="value",
        total_rows=7,
    )
    stored = spec_to_json(spec)
    assert list(stored) == ["version", *STORED]
    assert stored["totalRows"] == 7 and stored["deleteFraction"] == 1e-5
    assert ChangeSpec.of(dict(spec.settings())) == spec
    assert spec_from_json(stored, "here") == spec


def test_a_spec_takes_the_default_of_a_setting_left_out_and_the_store_refuses_a_file_without_it() -> None:
    settings = dict(parse_change_options({}).spec.settings())
    del settings["envelope"]
    assert ChangeSpec.of(settings) == DEFAULT_SPEC
    stored = spec_to_json(DEFAULT_SPEC)
    del stored["envelope"]
    with pytest.raises(CorruptDefinitionError, match="the field 'envelope' is missing"):
        spec_from_json(stored, "here")


def test_a_spec_refuses_a_name_it_does_not_keep_and_a_value_or_a_read_of_another_kind() -> None:
    with pytest.raises(
        ValueError, match=r"^'asOf' is no option a change stream keeps\. The kept options: key, "
    ):
        ChangeSpec.of({"asOf": 3})
    with pytest.raises(ValueError, match=r"^Option 'keys' is whole, and 0\.5 is not\.$"):
        ChangeSpec.of({"keys": 0.5})
    with pytest.raises(ValueError, match=r"^Option 'keys' is whole in the table of options, not decimal\.$"):
        DEFAULT_SPEC.decimal("keys")
    with pytest.raises(
        ValueError, match=r"has no default in the table of options: read it with whole_if_set\.$"
    ):
        DEFAULT_SPEC.whole("totalRows")
    assert (
        DEFAULT_SPEC.updated("totalRows", 4).end == 4
        and DEFAULT_SPEC.updated("totalRows", 4).updated("totalRows", None) == DEFAULT_SPEC
    )
