"""The benchmark's targets, each declared once: what it compares, its bound and its direction.

A report's targets table shows each target as a label, a measured value and a verdict. The label
(``Target.label``) and the verdict (``Target.met``) are both made from the one record here, so
they cannot disagree, and tests/test_bench.py reads the same records instead of restating them.

A label is the target's ``text`` with ``{target}`` replaced by its comparison (">= 2x",
"<= 100 ms", "within 1.5x", "no worse than") and its other fields (``{rate:,}``...) by the facts
of the run, which the report passes to ``label``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: Which side of its bound a measurement must be on to meet a target, the bound included.
Direction = Literal["at least", "at most"]

#: How a label may say its target's comparison. The sign is the default.
Wording = Literal[">=", "<=", "within", "no worse than"]

#: The direction each wording means. "no worse than" leaves its bound unsaid, so it is only for a
#: bound of 1x, of a measurement that is better smaller (a time).
_MEANS: dict[Wording, Direction] = {
    ">=": "at least",
    "<=": "at most",
    "within": "at most",
    "no worse than": "at most",
}

#: Where a target's text puts its comparison.
_PLACE = "{target}"

#: A row of a report's targets table: the label, the measured value as the report shows it, and
#: whether the target was met.
TargetRow = tuple[str, str, bool]


@dataclass(frozen=True)
class Target:
    """One target: a measurement at least or at most ``bound`` (times a reference measurement,
    for a ratio), and the words that say so."""

    #: The target's words, with ``{target}`` where its comparison goes, and ``{fields}`` that the
    #: run's facts fill in (``str.format``).
    text: str
    direction: Direction
    #: A ratio's factor (``unit`` "x": the measurement against ``bound`` times a reference
    #: measurement), or a bound in ``unit`` itself.
    bound: float
    #: What follows the bound in the label: "x" for a ratio, else " ms", " MB"...
    unit: str = "x"
    #: How the label says the comparison: None for the sign of ``direction``.
    wording: Wording | None = None

    def __post_init__(self) -> None:
        if self.direction not in ("at least", "at most"):
            raise ValueError(f"{self.text}: a target is 'at least' or 'at most', not {self.direction!r}")
        if self.text.count(_PLACE) != 1:
            raise ValueError(f"{self.text}: a target's text says {_PLACE} once")
        if self.wording is None:
            return
        means = _MEANS.get(self.wording)
        if means != self.direction:
            raise ValueError(f"{self.text}: {self.wording!r} does not say {self.direction}")
        if self.wording == "no worse than" and (self.bound != 1 or self.unit != "x"):
            raise ValueError(f"{self.text}: 'no worse than' says 1x, not {self.bound:g}{self.unit}")

    @property
    def comparison(self) -> str:
        """The comparison as the label says it: ">= 2x", "<= 16 MB", "within 1.5x", "no worse than"."""
        if self.wording == "no worse than":
            return self.wording
        word = self.wording or (">=" if self.direction == "at least" else "<=")
        return f"{word} {self.bound:g}{self.unit}"

    def label(self, **facts: object) -> str:
        """The target's label in a report, its fields filled in with ``facts``."""
        return self.text.format(**facts, target=self.comparison)

    def met(self, value: float, reference: float = 1.0) -> bool:
        """Whether ``value`` meets the target: against ``bound`` times ``reference`` (the other
        measurement, for a ratio; 1 for a bound in units)."""
        if self.direction == "at least":
            return value >= self.bound * reference
        return value <= self.bound * reference

    def row(self, measured: str, value: float, reference: float = 1.0, **facts: object) -> TargetRow:
        """The target's row of a targets table: its label, ``measured`` (the value as the report
        shows it) and whether ``value`` meets it (``met``)."""
        return self.label(**facts), measured, self.met(value, reference)


# The random strings' throughput against their peers (benchmarks.md), in the report's order.
OURS_VS_RANDSTR = Target("this source {target} rate-micro-batch + randstr(10)", "at least", 2)
SHAPED_VS_RANDSTR = Target(
    "this source with every shaping option {target} rate-micro-batch + randstr(10)", "at least", 1.5
)
PROFILED_VS_OURS = Target("this source with a rate profile {target} this source", "at least", 0.9)
OURS_VS_RATE = Target("this source {target} rate-micro-batch alone", "at least", 1)
PYTHON_TWIN_VS_PYTHON = Target(
    "this source's Python data source {target} the pure-Python reader", "at least", 4
)
#: Spark's floor: a Python data source yielding the twin's own batches, made once (python_source.py).
PYTHON_TWIN_VS_FLOOR = Target(
    "this source's Python data source {target} Spark's floor for a Python data source of its columns",
    "at least",
    0.9,
)
#: Facts: ``batches``, how many batches the heap was sampled over. soak.py reads its bound too.
HEAP_FLAT = Target(
    "driver heap after GC flat across {batches} batches (spread {target})", "at most", 16.0, " MB"
)
TINY_TRIGGER = Target(
    "1-row trigger time {target} rate-micro-batch's (medians of every trigger)",
    "at most",
    1,
    wording="no worse than",
)
THROUGHPUT = (
    OURS_VS_RANDSTR,
    SHAPED_VS_RANDSTR,
    PROFILED_VS_OURS,
    OURS_VS_RATE,
    PYTHON_TWIN_VS_PYTHON,
    PYTHON_TWIN_VS_FLOOR,
    HEAP_FLAT,
    TINY_TRIGGER,
)

# Typed columns. Facts: ``peer``, dbldatagen and its version.
TYPED_VS_DBLDATAGEN = Target(
    "this source with typed columns {target} {peer} on the same columns", "at least", 10
)
TYPED_VS_SQL = Target(
    "this source with typed columns {target} hand-written SQL on rate-micro-batch, the same columns",
    "at least",
    3,
)
TYPED = (TYPED_VS_DBLDATAGEN, TYPED_VS_SQL)

# Real-time mode. Facts: ``rate``, the low rate (rows/s).
REAL_TIME_P99 = Target(
    "real-time p99 {target} at {rate:,} rows/s, one partition (median of the repetitions)",
    "at most",
    100,
    " ms",
)
#: The micro-batch p99 at least ``bound`` times the real-time p99.
REAL_TIME_VS_MICRO_BATCH = Target(
    "real-time p99 {target} below the micro-batch p99 of the same run, at {rate:,} rows/s", "at least", 5
)
REAL_TIME = (REAL_TIME_P99, REAL_TIME_VS_MICRO_BATCH)

# Change streams (benchmarks-changes.md).
CHANGES_VS_TYPED = Target("changes (flat envelope) {target} typed rows of the same schema", "at least", 0.9)
CHANGES_VS_SQL = Target("changes {target} a hand-written change feed on rate-micro-batch", "at least", 2)
#: The batch read's seconds at the most changes against those at the fewest. Facts: ``many`` and
#: ``few``, the two numbers of changes; ``keys``.
AS_OF_FLAT = Target(
    "the batch read asOf {many:,} {target} the time of asOf {few:,}, over {keys:,} keys",
    "at most",
    1.5,
    wording="within",
)
#: Facts: ``rate`` (changes/s) and ``batch_s``, the real-time batches' duration.
CHANGES_REAL_TIME_P99 = Target(
    "changes real-time p99 {target} at {rate:,} changes/s, one partition, batches of {batch_s:g} s "
    "(median of the repetitions)",
    "at most",
    100,
    " ms",
)
CHANGES = (CHANGES_VS_TYPED, CHANGES_VS_SQL, AS_OF_FLAT, CHANGES_REAL_TIME_P99)

# Nexmark (benchmarks-nexmark.md). Facts: ``beam``, Beam's name and version (its generator is the
# peer); for the latency, ``rate`` (events/s) and ``batch_s``, the real-time batches' duration.
NEXMARK_Q0_P99 = Target(
    "Nexmark q0 real-time p99 {target} at {rate:,} events/s, one partition, batches of {batch_s:g} s "
    "(median of the repetitions)",
    "at most",
    5,
    " ms",
)
#: The generator alone, on the same events as Beam's (the report checks their checksums).
NEXMARK_GENERATOR = Target(
    "Nexmark generator events/s per core {target} {beam}'s, on the same events", "at least", 3
)
NEXMARK_GENERATOR_ROWS = Target(
    "Nexmark generator with Spark's rows written, events/s per core {target} {beam}'s generator",
    "at least",
    3,
)
#: The most any query's driver heap after a full GC grew from its first repetition to its last. One
#: query's state at the section's batches is 20 to 300 MB (q7's join about 190 MB): a stopped query
#: whose state stayed loaded grows it past the bound; Spark's history of jobs and executions, which
#: the section keeps short (nexmark.SESSION_CONFIG), a few MB at most. Facts: ``queries``.
NEXMARK_HEAP_FLAT = Target(
    "Nexmark queries: the driver heap after GC after a query's last repetition {target} of its first "
    "(the most any of {queries} queries grew)",
    "at most",
    32.0,
    " MB",
    wording="within",
)
NEXMARK = (NEXMARK_Q0_P99, NEXMARK_GENERATOR, NEXMARK_GENERATOR_ROWS, NEXMARK_HEAP_FLAT)

# The soak run (reliability.md): one long query, sampled.
SOAK_HEAP_FLAT = Target("driver heap after GC flat (spread {target})", "at most", HEAP_FLAT.bound, " MB")
#: The fitted growth of the rows behind, in rows, against ``bound`` seconds of rows (the rate).
SOAK_LAG_FLAT = Target(
    "rows behind do not grow (fitted growth over the run {target})", "at most", 1, " s of rows"
)
#: Rows read per second against ``bound`` times rowsPerSecond.
SOAK_KEEPS_UP = Target("the query keeps up: rows read per second {target} rowsPerSecond", "at least", 0.99)
SOAK = (SOAK_HEAP_FLAT, SOAK_LAG_FLAT, SOAK_KEEPS_UP)

#: Every target of benchmarks.md, in its targets table's order.
BENCHMARKS = (*THROUGHPUT, *TYPED, *REAL_TIME)
#: Every target this module declares.
ALL = (*BENCHMARKS, *CHANGES, *NEXMARK, *SOAK)
