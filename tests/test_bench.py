"""`make bench` and `make soak` cannot rot: their smoke modes run every part of them."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from helpers.support import REPO, run_child

# The benchmark measures the default Spark line, in .venv, which has the `bench` extra; its
# peers (randstr, Python data sources) need Spark 4. The environments of the other lines
# (make test-compat) leave it out.
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("matplotlib") is None,
    reason="the bench extra is not installed: the benchmark runs on the default line's .venv",
)


@pytest.mark.slow
def test_the_benchmarks_smoke_run_reports_every_pipeline_target_and_curve(tmp_path: Path) -> None:
    done = run_child([sys.executable, "run_bench.py", "--smoke", "--out", str(tmp_path)], REPO / "bench")
    assert done.returncode == 0, done.stderr[-3000:]
    report = (tmp_path / "benchmarks.md").read_text()
    for pipeline in [
        "InMemoryRandomStrings (this source)",
        "this source, every shaping option on",
        "this source with a rate profile",
        "rate-micro-batch + randstr(10)",
        "rate-micro-batch alone, no string",
        "pure-Python DataSourceStreamReader",
        "this source's Python data source (engine=python)",
    ]:
        row = re.search(rf"^\| {re.escape(pipeline)} \| ([\d,]+) \| ([\d,]+) \| ([\d.]+) \|$", report, re.M)
        assert row, pipeline
        assert int(row.group(1).replace(",", "")) > 0
    targets = report.split("## Targets")[1].split("## ")[0]
    assert len(re.findall(r"^\| .* \| (yes|\*\*no\*\*) \|$", targets, re.M)) == 7
    for length in (4, 16, 64, 256):
        assert re.search(rf"\| {length} \| [\d,]+ \| [\d,]+ \|$", report, re.M), length
    assert (tmp_path / "benchmarks.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_the_soak_smoke_run_samples_heap_and_lag_and_writes_its_section(tmp_path: Path) -> None:
    report = tmp_path / "reliability.md"
    report.write_text("# Reliability\n\nkept\n<!-- soak:begin -->\nold\n<!-- soak:end -->\nkept too\n")
    done = run_child([sys.executable, "soak.py", "--smoke", "--out", str(tmp_path)], REPO / "bench")
    assert done.returncode == 0, done.stderr[-3000:]
    text = report.read_text()
    assert text.startswith("# Reliability\n\nkept\n<!-- soak:begin -->\nMade by `make soak`")
    assert text.endswith("<!-- soak:end -->\nkept too\n") and "\nold\n" not in text
    samples = re.findall(r"^\| [\d.]+ \| ([\d.]+) \| ([\d,]+) \| ([\d,]+) \| \d+ \|$", text, re.M)
    assert len(samples) == 5, "a sample every 3 s for 12 s, and one at the start"
    assert all(float(heap) > 0 for heap, _, _ in samples)
    rows_read = [int(read.replace(",", "")) for _, _, read in samples]
    assert rows_read == sorted(rows_read) and rows_read[-1] > rows_read[0]
    assert len(re.findall(r"^\| .* \| (yes|\*\*no\*\*) \|$", text, re.M)) == 3
    assert (tmp_path / "soak.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
