"""`spark-random-strings demo`, which `make demo` runs: it must keep working."""

from __future__ import annotations

import re
import subprocess
import sys


def test_demo_streams_counts_by_length_and_ends_with_a_summary() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spark_random_strings", "demo", "--duration", "8"],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "|length|count|" in done.stdout
    summary = done.stdout.strip().splitlines()[-1]
    match = re.fullmatch(
        r"spark-random-strings demo: (\d+) rows in (\d+) batches over ([\d.]+) s = ([\d.]+) rows/s "
        r"\(source: InMemoryRandomStrings\[rowsPerSecond=50, minLength=1, maxLength=8, .*\]\)",
        summary,
    )
    assert match, summary
    rows, batches = int(match.group(1)), int(match.group(2))
    assert rows > 0 and batches > 0
    # At 50 rows/s, a run of about 8 s cannot have read more rows than existed.
    assert rows <= 50 * float(match.group(3)) + 50
