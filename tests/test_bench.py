"""`make bench` cannot rot: its smoke mode (tiny batches) runs every part of it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from support import REPO, run_child


def test_the_benchmarks_smoke_run_reports_every_pipeline_target_and_curve(tmp_path: Path) -> None:
    done = run_child([sys.executable, "run_bench.py", "--smoke", "--out", str(tmp_path)], REPO / "bench")
    assert done.returncode == 0, done.stderr[-3000:]
    report = (tmp_path / "benchmarks.md").read_text()
    for pipeline in ["InMemoryRandomStrings (this source)", "rate-micro-batch + randstr(10)",
                     "rate-micro-batch alone, no string", "pure-Python DataSourceStreamReader"]:
        row = re.search(rf"^\| {re.escape(pipeline)} \| ([\d,]+) \| ([\d,]+) \| ([\d.]+) \|$", report, re.M)
        assert row, pipeline
        assert int(row.group(1).replace(",", "")) > 0
    targets = report.split("## Targets")[1].split("## ")[0]
    assert len(re.findall(r"^\| .* \| (yes|\*\*no\*\*) \|$", targets, re.M)) == 4
    for length in (4, 16, 64, 256):
        assert re.search(rf"\| {length} \| [\d,]+ \| [\d,]+ \|$", report, re.M), length
    assert (tmp_path / "benchmarks.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
