"""The table of options says each option's role (``reads``, ``kept``, ``shapes``), and the engines do
what it says: a restart that changes a ``kept`` option is refused, naming it, and one that changes
any other is not; the oracles take the options that shape rows as keywords and refuse the rest; a
change stream keeps exactly its ``kept`` change options, each under its own name.

Pure Python: the Python engine's restart checks, which the jar's share word for word (their
vectors in ``tests/vectors`` prove it), run here without Spark.
"""

from __future__ import annotations

from typing import get_type_hints

import pytest

from spark_random_strings.changes.expected import BATCH_ONLY, NOT_ROW_SHAPING
from spark_random_strings.changes.keywords import OWN_NAMES, ChangeDefinitionKeywords
from spark_random_strings.changes.options import parse_change_options
from spark_random_strings.changes.rows import ChangeStream
from spark_random_strings.changes.spec import DEFAULT_SPEC, ChangeSpec
from spark_random_strings.changes.store import check_restart as check_change_restart
from spark_random_strings.changes.store import spec_from_json, spec_to_json
from spark_random_strings.nexmark.options import EVENT_NAMES, parse_nexmark_options
from spark_random_strings.nexmark.stream import NexmarkStream
from spark_random_strings.nexmark.stream import check_restart as check_nexmark_restart
from spark_random_strings.options.table import SOURCES, Option, SourceTable
from spark_random_strings.rows.definition import check_restart as check_definition_restart
from spark_random_strings.rows.options import parse_options
from spark_random_strings.strings.expected import NOT_ROW_SHAPING as STRINGS_NOT_ROW_SHAPING
from spark_random_strings.strings.expected import StreamDefinitionKeywords

STRINGS, NEXMARK, CHANGES = (SOURCES[name] for name in ("InMemoryRandomStrings", "nexmark", "changes"))
SEED = "7"
#: The declared schema of the change streams here: a second key column for ``key`` to move to.
CHANGE_SCHEMA = "id BIGINT NOT NULL, other BIGINT NOT NULL, value STRING"

#: The options an option needs beside it to be valid at all, given on both sides of the restart.
CONTEXT: dict[str, dict[str, str]] = {
    "valueDistribution": {"distinctValues": "5"},
    "zipfExponent": {"distinctValues": "5", "valueDistribution": "zipf"},
    "lateRowFraction": {"lateRowFraction": "0.2", "lateByMs": "10"},
    "lateByMs": {"lateRowFraction": "0.2", "lateByMs": "10"},
    "maxDuplicateDistance": {"duplicateFraction": "0.1"},
    "hotKeys": {"hotKeyFraction": "0.2"},
}
#: A changed value where the option's kind says none (text), or its default's neighbour is no value.
CHANGED: dict[str, str] = {
    "charset": "digits",
    "alphabet": "abc",
    "rateProfile": "10s@5",
    "key": "other",
    "updateColumns": "value",
    "deleteFraction": "0.25",
    "lateRowFraction": "0.5",
}
#: How a restart's refusal names an option, where not by its own name: both make the characters.
REFUSED_AS = {"charset": "characters", "alphabet": "characters"}


def changed_value(row: Option) -> str:
    """A valid value of ``row`` other than its default."""
    if row.name in CHANGED:
        return CHANGED[row.name]
    if row.kind == "boolean":
        return "true"
    if row.kind == "choice":
        return next(value for value in row.values if value != row.value)
    if row.kind == "decimal":
        return "0.5" if not row.value else str(float(row.value) * 1.5)
    assert row.kind == "whole", row.name
    return str(row.whole.low + 1 if row.value is None else int(row.value) + 1)


def restart(source: SourceTable, name: str) -> tuple[dict[str, str], dict[str, str]]:
    """A first start's options and a restart's that changes ``name`` alone."""
    first = {"seed": SEED, **CONTEXT.get(name, {})} if "seed" in source.names else dict(CONTEXT.get(name, {}))
    return first, {**first, name: changed_value(source[name])}


def refusal_of_strings(first: dict[str, str], then: dict[str, str]) -> str | None:
    stored = parse_options(first).definition(int(SEED), 0)
    try:
        check_definition_restart(stored, parse_options(then).restarting(stored), "here")
    except ValueError as error:
        return str(error)
    return None


def refusal_of_changes(first: dict[str, str], then: dict[str, str]) -> str | None:
    options = parse_change_options(first, CHANGE_SCHEMA)
    stored = ChangeStream(options.definition(int(SEED), 0), options.spec)
    try:
        check_change_restart(stored, parse_change_options(then, CHANGE_SCHEMA), "here")
    except ValueError as error:
        return str(error)
    return None


def refusal_of_nexmark(first: dict[str, str], then: dict[str, str]) -> str | None:
    stored = NexmarkStream(parse_nexmark_options(first).config, 0)
    try:
        check_nexmark_restart(stored, parse_nexmark_options(then).config, "here")
    except ValueError as error:
        return str(error)
    return None


CASES = [
    pytest.param(source, refusal, row.name, id=f"{short}-{row.name}")
    for short, source, refusal in (
        ("strings", STRINGS, refusal_of_strings),
        ("nexmark", NEXMARK, refusal_of_nexmark),
        ("changes", CHANGES, refusal_of_changes),
    )
    for row in source.rows
    if row.reads != "batch"
]


@pytest.mark.parametrize(("source", "refusal", "name"), CASES)
def test_a_restart_that_changes_an_option_is_refused_exactly_when_the_table_says_the_checkpoint_keeps_it(
    source: SourceTable, refusal: object, name: str
) -> None:
    first, then = restart(source, name)
    message = refusal(first, then)  # type: ignore[operator]
    if source[name].kept:
        assert message is not None, f"{name} is kept, but a restart that changes it is not refused"
        assert f"{REFUSED_AS.get(name, name)}: the checkpoint has " in message
    else:
        assert message is None, f"{name} is not kept, but a restart that changes it is refused: {message}"


def test_every_option_of_every_source_has_a_role_and_only_the_change_stream_has_a_batch_read() -> None:
    for short, source in SOURCES.items():
        for row in source.rows:
            assert row.reads in ("stream", "batch", "both"), (short, row.name, row.reads)
            if short != "changes":
                assert row.reads == "stream", (short, row.name)
            if row.kept:
                assert row.reads != "batch", (short, row.name)
    assert CHANGES.read("batch") == ("asOf", "history")


def test_the_oracles_refuse_exactly_the_keywords_of_the_options_that_shape_no_row() -> None:
    assert STRINGS_NOT_ROW_SHAPING == ("num_partitions", "max_rows_per_trigger", "total_rows", "real_time")
    assert NOT_ROW_SHAPING == (
        "num_partitions",
        "max_rows_per_trigger",
        "total_rows",
        "max_out_of_order_ms",
        "late_row_fraction",
        "late_by_ms",
        "duplicate_fraction",
        "real_time",
    )
    assert BATCH_ONLY == ("as_of", "history")


def test_the_oracles_keyword_types_are_the_options_that_shape_rows() -> None:
    def shaping(source: SourceTable) -> set[str]:
        return {row.keyword for row in source.rows if row.shapes and row.reads != "batch"}

    strings = set(get_type_hints(StreamDefinitionKeywords)) - {"start_time_ms", "schema", "fields"}
    assert strings == shaping(STRINGS)
    assert set(get_type_hints(ChangeDefinitionKeywords)) == shaping(CHANGES) - {"seed"}


def test_the_nexmark_stream_keeps_the_options_the_table_says_it_keeps_in_its_order() -> None:
    assert EVENT_NAMES == NEXMARK.kept


def test_a_change_spec_keeps_each_option_under_its_own_name_and_every_kept_change_option() -> None:
    spec = DEFAULT_SPEC.updated("updateColumns", "value").updated("totalRows", 5)
    named = [name for name, _ in spec.settings()]
    assert named == [*(name for name in CHANGES.kept if name in OWN_NAMES), "totalRows"]
    assert (spec.update_columns, spec.end) == ("value", 5)
    assert set(OWN_NAMES) == {*named[:-1], *CHANGES.read("batch")}
    # The source's own options are every option but the rows', which the strings source has too.
    assert OWN_NAMES == (
        "key",
        "keys",
        "deleteFraction",
        "hotKeys",
        "hotKeyFraction",
        "snapshot",
        "envelope",
        "updateColumns",
        "asOf",
        "history",
    )


def test_a_change_spec_reads_back_from_its_json_field_for_field() -> None:
    spec = ChangeSpec.of_keywords(
        key="other",
        keys=50,
        delete_fraction=0.25,
        hot_keys=3,
        hot_key_fraction=0.125,
        snapshot=True,
        envelope="debezium",
        update_columns="name,value",
        total_rows=9,
    )
    assert spec_to_json(spec) == {
        "version": 1,
        "key": "other",
        "keys": 50,
        "deleteFraction": 0.25,
        "hotKeys": 3,
        "hotKeyFraction": 0.125,
        "snapshot": True,
        "envelope": "debezium",
        "updateColumns": "name,value",
        "totalRows": 9,
    }
    assert spec_from_json(spec_to_json(spec), "here") == spec
