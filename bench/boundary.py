"""`run_bench.py --boundary-only`: what Spark offers to shorten the pause between two real-time
batches of a stateful query, each tried on its own and measured, and the stateful queries with
the settings found best (the package's `REAL_TIME_SETTINGS`, which the Nexmark section's stateful
runs use too).

Real-time mode runs no task between two batches: rows that come to exist in the pause wait for the
next batch, so a pause longer than 1% of the batch duration sets the p99. Each trial runs q5's
counts (a group-by count over sliding windows, Databricks' "group-by count": p99 14 ms at 10,000
rows/s) at 10,000 events/s, one source and one shuffle partition, as the Nexmark section does:
`TRIAL_BATCHES` batches after two warm-up batches, with Spark 4.3's real-time defaults (RocksDB, its
changelog checkpointing, checkpoint format 2) and the trial's one change. Each pause is split into
its parts (`report.Boundary`); the first, after the query's first batch, is a warm-up's, as it holds
the first batch's own work (planning, loading and writing things for the first time). Trials run
in a rotating order over `TRIAL_REPETITIONS`; the smoke run tries two, in batches of the smoke
settings' duration.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

import nexmark
from nexmark import STATEFUL_RATE, NexmarkResults, boundary_lines, measure_stateful
from pyspark.sql import SparkSession
from report import Boundary, LatencyRun, LatencySettings

from spark_random_strings.nexmark.real_time import REAL_TIME_SETTINGS

#: The query tried.
TRIAL_QUERY = "q5_counts"
CHANGELOG = "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled"
TRACK_ROWS = "spark.sql.streaming.stateStore.rocksdb.trackTotalNumberOfRows"
SNAPSHOT_LAG = "spark.sql.streaming.stateStore.coordinatorReportSnapshotUploadLag"
FORCE_SNAPSHOT = "spark.sql.streaming.stateStore.forceSnapshotUploadOnLag"


@dataclass(frozen=True)
class Trial:
    """One setting tried: its label, what it sets for the run, and its batch duration (s)."""

    label: str
    settings: dict[str, str]
    batch_s: float = 30.0


def _settings(settings: dict[str, str]) -> str:
    """Settings as a label shows them: each name's last part and its value."""
    return ", ".join(f"{key.rsplit('.', 1)[-1]} {value}" for key, value in settings.items())


#: Spark 4.3's defaults, then each change on its own, then the package's REAL_TIME_SETTINGS, alone
#: and with longer batches.
TRIALS = (
    Trial("Spark 4.3's real-time defaults", {}),
    Trial("RocksDB's changelog checkpointing off", {CHANGELOG: "false"}),
    Trial("RocksDB not counting its rows (trackTotalNumberOfRows false)", {TRACK_ROWS: "false"}),
    # Spark refuses forcing a snapshot on lag without the lag report (a task fails on it).
    Trial("no snapshot-lag report to the coordinator", {SNAPSHOT_LAG: "false", FORCE_SNAPSHOT: "false"}),
    Trial("batches of 60 s", {}, batch_s=60.0),
    Trial(f"the package's REAL_TIME_SETTINGS ({_settings(REAL_TIME_SETTINGS)})", dict(REAL_TIME_SETTINGS)),
    # The eviction left for a batch's end grows with the batch: a longer batch pays off once it is spread.
    Trial("the package's REAL_TIME_SETTINGS, batches of 60 s", dict(REAL_TIME_SETTINGS), batch_s=60.0),
)
TRIAL_BATCHES = 2
TRIAL_REPETITIONS = 1
SMOKE_TRIALS = (TRIALS[0], TRIALS[-2])


@dataclass
class BoundaryResults:
    """The trials' runs, by trial label, and the stateful queries with REAL_TIME_SETTINGS."""

    trials: dict[str, list[LatencyRun]] = field(default_factory=dict)
    batch_s: dict[str, float] = field(default_factory=dict)
    stateful: NexmarkResults | None = None


def run_boundary_section(
    spark: SparkSession, settings: nexmark.NexmarkSettings, *, smoke: bool = False
) -> BoundaryResults:
    """Every trial on TRIAL_QUERY, interleaved over the repetitions, then the Nexmark section's
    stateful runs with REAL_TIME_SETTINGS."""
    trials = SMOKE_TRIALS if smoke else TRIALS
    results = BoundaryResults()
    for repetition in range(1 if smoke else TRIAL_REPETITIONS):
        shift = repetition % len(trials)
        for trial in trials[shift:] + trials[:shift]:
            batch_s = settings.stateful_latency.batch_s if smoke else trial.batch_s
            latency = LatencySettings(
                batch_s,
                1 if smoke else TRIAL_BATCHES,
                1,
                batch_s,
                1,
                0.0,
                0.0,
                repetitions=1,
                warmup_batches=2,
            )
            run = measure_stateful(spark, TRIAL_QUERY, latency, trial.settings)
            results.trials.setdefault(trial.label, []).append(run)
            results.batch_s[trial.label] = batch_s
            print(
                f"boundary trial {trial.label}: p50 {run.p50_ms:.1f} ms, p99 {run.p99_ms:.1f} ms, "
                f"max {run.max_ms:.1f} ms, pauses "
                + ", ".join(f"{b.gap_ms:.0f}" for b in run.boundaries)
                + " ms",
                flush=True,
            )
    results.stateful = NexmarkResults(settings=settings, generator={}, same_events=True)
    nexmark.run_stateful_latency(spark, settings, results.stateful)
    return results


def _later(run: LatencyRun) -> list[Boundary]:
    """A run's pauses after the first (the first holds the query's first batch's own work)."""
    return [b for b in run.boundaries if b.in_window]


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.0f}" if values else "none"


def boundary_lines_of(results: BoundaryResults) -> list[str]:
    """The trials' table, their pauses' parts, and the stateful queries with REAL_TIME_SETTINGS."""
    lines = [
        "## The pause between real-time batches, setting by setting",
        "",
        f"{TRIAL_QUERY} at {STATEFUL_RATE:,} events/s, one source and one shuffle partition, "
        f"{TRIAL_BATCHES} batches after two warm-up batches, each trial with one change to Spark 4.3's "
        "real-time defaults (the last: the package's `REAL_TIME_SETTINGS`). Latency over the "
        "window's rows; the warm-up's pauses (the first holds the first batch's own work), then the "
        "window's, and the medians of the window's parts (ms): closing a batch (of which removing the "
        "state the watermark passed, and the state's commit), and starting the next (of which "
        "planning). Every pause's parts follow:",
        "",
        "| trial | batch s | p50 ms | p99 ms | p99.9 ms | max ms | warm-up pauses | window's pauses "
        "| closing | eviction | commit | starting | planning |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, runs in results.trials.items():
        for run in runs:
            warm_up = ", ".join(f"{b.gap_ms:.0f}" for b in run.boundaries if not b.in_window)
            later = _later(run)
            lines.append(
                f"| {label} | {results.batch_s[label]:g} | {run.p50_ms:.1f} | {run.p99_ms:.1f} "
                f"| {run.p999_ms:.1f} | {run.max_ms:.1f} | {warm_up or 'none'} "
                f"| {', '.join(f'{b.gap_ms:.0f}' for b in later) or 'none'} "
                f"| {_median([b.close_ms for b in later])} | {_median([b.evict_ms for b in later])} "
                f"| {_median([b.commit_ms for b in later])} | {_median([b.start_ms for b in later])} "
                f"| {_median([b.planning_ms for b in later])} |"
            )
    lines += boundary_lines(results.trials, "trial")
    if results.stateful is not None:
        lines += ["", "## The stateful queries with `REAL_TIME_SETTINGS`"]
        lines += nexmark.stateful_lines(results.stateful)
    lines.append("")
    return lines
