"""LatencySink's summary read in Python (``_latency.summary_from``), on the shared cases of
tests/vectors/latency_summary.json: the JVM's LatencySinkSuite makes each case's summary from its
rows, exactly; here each summary is read into a LatencySummary, exactly. So the keys the JVM
writes and the fields Python reads stay in step. (RealTimeStreamSuite and the CLI's tests run the
sink in real queries.)
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import pytest

from helpers.support import REPO
from spark_random_strings.latency.sink import LatencySummary, summary_from

VECTORS = REPO / "tests" / "vectors" / "latency_summary.json"
CASES: list[dict[str, Any]] = json.loads(VECTORS.read_text())["cases"]
#: Every key of a LatencySink's summary but `recent`.
KEYS = {
    *("count", "p50Ms", "p99Ms", "p999Ms", "maxMs"),
    *("firstMs", "lastMs"),
    *("gapCount", "gapMedianMs", "gapMaxMs"),
    *("batches", "arrived"),
}


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_a_sinks_summary_reads_into_every_field_exactly(case: dict[str, Any]) -> None:
    summary = summary_from({**case["summary"], "recent": "a\t1\nb\t2"})
    batches = tuple(tuple(arrivals) for arrivals in case["python"]["batches"])
    assert asdict(summary) == {**case["python"], "batches": batches, "recent": ("a\t1", "b\t2")}


def test_the_shared_cases_cover_every_field_of_the_summary_and_every_key_of_the_sink() -> None:
    fields = set(LatencySummary.__dataclass_fields__) - {"recent"}
    assert all(set(case["python"]) == fields for case in CASES)
    assert set().union(*(case["summary"] for case in CASES)) == KEYS


def test_a_summary_without_rows_or_recent_rows_reads_as_none() -> None:
    assert summary_from({"count": "0", "gapCount": "0", "recent": ""}).recent == ()
