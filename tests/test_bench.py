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
def test_the_benchmarks_smoke_run_reports_every_pipeline_target_curve_and_latency(tmp_path: Path) -> None:
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
    assert len(re.findall(r"^\| .* \| (yes|\*\*no\*\*) \|$", targets, re.M)) == 9
    assert (
        "| real-time p99 <= 100 ms at 10,000 rows/s, one partition (median of the repetitions) |" in targets
    )
    assert "| real-time p99 >= 5x below the micro-batch p99 of the same run, at 10,000 rows/s |" in targets
    for length in (4, 16, 64, 256):
        assert re.search(rf"\| {length} \| [\d,]+ \| [\d,]+ \|$", report, re.M), length
    assert (tmp_path / "benchmarks.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    _assert_real_time_section(report.split("## Real-time mode")[1])


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _assert_real_time_section(section: str) -> None:
    """The smoke run's real-time section: one repetition of the capacity run and of each of the
    four configurations (two rates, two triggers), each row whole."""
    capacity = re.search(r"^\| one partition, real-time mode \| ([\d,]+) \| ([\d,]+) \|$", section, re.M)
    assert capacity and _number(capacity.group(1)) == _number(capacity.group(2)) > 0
    high = re.search(
        r"^The high rate below is 80% of that median, to 3 significant figures: ([\d,]+) rows/s\.$",
        section,
        re.M,
    )
    assert high
    high_rate = high.group(1)
    assert 0 < _number(high_rate) <= 0.8 * _number(capacity.group(2)) * 1.005
    configs = [(rate, trigger) for rate in ("10,000", high_rate) for trigger in ("real-time", "micro-batch")]
    latency = section.split("### Latency, every repetition")[1].split("###")[0]
    rows = re.findall(r"^\| ([\d,]+) \| ([a-z-]+) \| (.+) \| (.+) \|$", latency, re.M)
    assert [(rate, trigger) for rate, trigger, _, _ in rows] == configs
    for _, _, each, median in rows:
        assert each == median, "one repetition: its numbers are the medians"
        p50, p99, top = (_number(ms) for ms in each.split(" / "))
        assert 0 < p50 <= p99 <= top + 0.1
    throughput = section.split("### Rows/s per partition, every repetition")[1].split("###")[0]
    rows = re.findall(
        r"^\| ([\d,]+) \| ([a-z-]+) \| ([\d,]+) \| ([\d,]+) \| ([\d.]+)% \| ([\d,]+) \|$", throughput, re.M
    )
    assert [(rate, trigger) for rate, trigger, *_ in rows] == configs
    for rate, _, each, median, share, batch_ms in rows:
        assert each == median and _number(each) > 0 and _number(batch_ms) > 0
        assert abs(float(share) - 100 * _number(median) / _number(rate)) < 0.06
    limits = section.split("### What limits it")[1]
    assert [line.split(".")[0] for line in limits.strip().splitlines()] == [
        "- The clock",
        "- Batch boundaries",
        "- One partition, one thread",
        "- Micro-batch",
    ]


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
