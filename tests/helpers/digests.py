"""The rows of every stream definition as digests: what each Spark line proves in one run.

``tests/digests/definitions.json`` is the table: each definition names a source (its format), its
options (a seed among them, and a fixed event-time start, so that its rows are a pure function of
the definition), a declared schema where it has one, and how many rows (events, changes) a read
takes from offset 0. ``tests/digests/expected.json`` holds the digest of each, made on the
default line: the row count, a SHA-256 of the rows, and a short hash of each row.

A read is one query over every definition at once (the rows as Spark's JSON of each, so that streams
of any schemas union; ``helpers.typed_rows.json_row``), in one of several ways (``VARIANTS``): under
``Trigger.AvailableNow`` in one partition and one batch, or as a micro-batch query in three
partitions, each definition cut into at least four batches. A definition's rows are put in one order
before they are hashed (a plain stream's ``offset``, then the JSON text), so that neither the
partitioning nor the batches can change a digest; a line, an engine or a way of reading that makes
other rows makes another digest, and the comparison names the definition and its first differing
row.

Run as a module (``cd tests && python -m helpers.digests --write``) on the default line, it
writes ``expected.json`` anew: ``make digests`` does, after a change that adds definitions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.functions import col, lit
from pyspark.sql.types import LongType

from helpers.stepped import SteppedClock
from helpers.support import available_now
from helpers.typed_rows import json_row
from spark_random_strings.changes.keywords import CHANGES_FORMAT
from spark_random_strings.engine.choice import pyspark_line
from spark_random_strings.nexmark.table import NEXMARK_FORMAT
from spark_random_strings.options import FORMAT, MANUAL_CLOCK

FOLDER = Path(__file__).resolve().parents[1] / "digests"
DEFINITIONS = FOLDER / "definitions.json"
EXPECTED = FOLDER / "expected.json"

#: How many hex digits of a row's SHA-256 the committed file keeps for it: enough to name the
#: first row that differs, small enough to keep every row of every definition.
ROW_HASH_DIGITS = 8


@dataclass(frozen=True)
class Source:
    """What the runner sets on a source's read: its bound and its cap per batch, by option name."""

    bound: str
    cap: str
    #: Whether its rows are drawn from a seed (Nexmark's events, like Beam's, are not).
    seeded: bool = True


SOURCES = {
    FORMAT: Source("totalRows", "maxRowsPerTrigger"),
    NEXMARK_FORMAT: Source("numEvents", "maxEventsPerTrigger", seeded=False),
    CHANGES_FORMAT: Source("totalRows", "maxRowsPerTrigger"),
}
#: The options the runner sets on every read, which a definition leaves to it.
RUNNER_OPTIONS = frozenset(
    {"numPartitions", "totalRows", "maxRowsPerTrigger", "numEvents", "maxEventsPerTrigger"}
)


@dataclass(frozen=True)
class Variant:
    """One way of reading every definition: the trigger, the partitions, and into how many batches
    (at least) each definition's rows are cut: its cap a batch is its rows over ``batches``, so
    that a query runs as many batches as that, not as many as its longest definition needs."""

    name: str
    available_now: bool
    partitions: int
    batches: int = 1

    def cap(self, rows: int) -> int | None:
        """A definition's rows a batch, or None for no cap."""
        return None if self.batches == 1 else max(1, -(-rows // self.batches))


VARIANTS = (
    Variant("availableNow-1-partition", available_now=True, partitions=1),
    Variant("micro-batch-3-partitions-4-batches", available_now=False, partitions=3, batches=4),
)
#: How the Python engine reads its definitions: a micro-batch query (Python readers have
#: Trigger.AvailableNow only from 4.2 on) in two partitions and one batch: Spark plans each Python
#: source in a Python process of its own, every batch.
PYTHON_VARIANT = Variant("python-micro-batch-2-partitions", available_now=False, partitions=2)


@dataclass(frozen=True)
class Definition:
    """A row of the table."""

    name: str
    format: str
    options: dict[str, str]
    rows: int
    schema: str | None = None
    #: The oldest line that reads it (an option that needs Spark's DSv2 reads of 4.1, say).
    since: tuple[int, int] = (3, 5)
    #: Whether the Python engine makes it too (an option of the jar's alone, such as realTime, not).
    python: bool = True
    #: A batch read (``spark.read``: the changes source's table asOf a change), not a stream.
    batch: bool = False

    def reads_on(self, line: tuple[int, int]) -> bool:
        return line >= self.since


def definitions() -> list[Definition]:
    """The table, each definition checked for what makes a digest possible."""
    table = json.loads(DEFINITIONS.read_text())
    found = []
    for entry in table["definitions"]:
        since = tuple(int(part) for part in entry.get("since", "3.5").split("."))
        definition = Definition(
            name=entry["name"],
            format=entry["format"],
            options=dict(entry["options"]),
            rows=int(entry["rows"]),
            schema=entry.get("schema"),
            since=(since[0], since[1]),
            python=bool(entry.get("python", True)),
            batch=entry.get("read", "stream") == "batch",
        )
        if definition.format not in SOURCES:
            raise ValueError(f"{definition.name}: format {definition.format!r}; allowed: {sorted(SOURCES)}")
        if definition.batch and definition.python:
            raise ValueError(f"{definition.name}: the Python engine has no batch reads; set python to false")
        left = sorted(set(definition.options) & RUNNER_OPTIONS)
        if left:
            raise ValueError(f"{definition.name}: sets {left}, which the runner sets on each read")
        if SOURCES[definition.format].seeded and "seed" not in definition.options:
            raise ValueError(f"{definition.name}: has no seed, so its rows are drawn anew each run")
        found.append(definition)
    names = [d.name for d in found]
    if len(set(names)) != len(names):
        raise ValueError("definitions.json names a definition twice")
    return found


def _reader(
    spark: SparkSession, definition: Definition, python: bool, variant: Variant, clock: SteppedClock | None
) -> DataFrame:
    source = SOURCES[definition.format]
    options = dict(definition.options)
    if clock is not None:
        options[MANUAL_CLOCK] = clock.name
    options["numPartitions"] = str(variant.partitions)
    if definition.batch:  # a table: its rows are what its options name
        batch = spark.read.format(definition.format).options(**options)
        return (batch if definition.schema is None else batch.schema(definition.schema)).load()
    options[source.bound] = str(definition.rows)
    cap = variant.cap(definition.rows)
    if cap is not None:
        options[source.cap] = str(cap)
    if python:
        return _python_stream(spark, definition.format, options, definition.schema)
    reader = spark.readStream.format(definition.format).options(**options)
    return (reader if definition.schema is None else reader.schema(definition.schema)).load()


def _python_stream(
    spark: SparkSession, format_name: str, options: dict[str, str], schema: str | None
) -> DataFrame:
    """The Python engine's stream of a definition, as each source's reader makes it."""
    from spark_random_strings.changes import read as changes_read
    from spark_random_strings.nexmark import read as nexmark_read
    from spark_random_strings.strings import read as strings_read

    if format_name == FORMAT:
        return strings_read._python_stream(spark, options, schema)
    if format_name == CHANGES_FORMAT:
        return changes_read._python_stream(spark, options, schema)
    return nexmark_read._python_stream(spark, options)


def read_rows(
    spark: SparkSession, chosen: list[Definition], variant: Variant, python: bool = False
) -> dict[str, list[str]]:
    """Each definition's rows as JSON texts, in its digest's order, read by one query of every
    streamed definition in ``chosen`` through the jar's sources (or, ``python``, the Python
    engine's), and one batch read of those read as tables, in the variant's partitions.

    A micro-batch query reads its streams on a stepped clock (``helpers.stepped``), so that no
    row waits for the wall clock to come to exist: the streams start at the clock's time with no
    row, then a step of ``CLOCK_STEP_MS`` makes every row exist, read in batches of the variant's
    size. AvailableNow reads a bounded stream whole at once."""
    with SteppedClock(spark) as clock:
        return _read_rows(spark, chosen, variant, python, None if variant.available_now else clock)


#: How far a micro-batch read steps its clock: a day, in which the slowest definition (10 events a
#: minute, a rate profile's slowest phases) has made all its rows.
CLOCK_STEP_MS = 86_400_000


def _read_rows(
    spark: SparkSession, chosen: list[Definition], variant: Variant, python: bool, clock: SteppedClock | None
) -> dict[str, list[str]]:
    made: dict[str, list[str]] = {d.name: [] for d in chosen}
    streams = []
    for i, definition in enumerate(chosen):
        df = _reader(spark, definition, python, variant, None if definition.batch else clock)
        # A plain stream's rows by offset (a declared schema's "offset" may be any column).
        plain = definition.format == FORMAT and definition.schema is None
        order = col("offset") if plain else lit(None).cast(LongType())
        rows = df.select(lit(i).alias("definition"), order.alias("order"), json_row(df).alias("row"))
        if definition.batch:
            made[definition.name] = [r.row for r in rows.orderBy("order", "row").collect()]
        else:
            streams.append(rows)
    if not streams:
        return made
    union = streams[0]
    for stream in streams[1:]:
        union = union.union(stream)
    name = f"digests_{'python' if python else 'jvm'}_{variant.name.replace('-', '_')}"
    with tempfile.TemporaryDirectory(prefix="digests-") as checkpoint:
        if clock is None:
            available_now(union.coalesce(2), name, Path(checkpoint))
        else:
            _stepped_to_the_end(union.coalesce(2), name, checkpoint, clock)
        for row in spark.table(name).orderBy("definition", "order", "row").collect():
            made[chosen[row.definition].name].append(row.row)
        spark.catalog.dropTempView(name)
    return made


def _stepped_to_the_end(df: DataFrame, name: str, checkpoint: str, clock: SteppedClock) -> None:
    """Run ``df`` into the memory sink ``name`` with the default trigger: its streams start, with
    no row, then one step of the clock makes every row exist, read in the batches the caps allow."""
    writer = df.writeStream.format("memory").queryName(name).option("checkpointLocation", checkpoint)
    query = writer.start()
    try:
        query.processAllAvailable()
        clock.advance(CLOCK_STEP_MS)
        query.processAllAvailable()
        failure = query.exception()
    finally:
        query.stop()
    assert failure is None, f"the digest query {name} failed: {failure}"


def digest(rows: Iterable[str]) -> dict[str, Any]:
    """A definition's rows (in their order) as the committed file holds them."""
    whole = hashlib.sha256()
    each = []
    count = 0
    for row in rows:
        data = row.encode()
        whole.update(len(data).to_bytes(8, "big") + data)
        each.append(hashlib.sha256(data).hexdigest()[:ROW_HASH_DIGITS])
        count += 1
    return {"rows": count, "sha256": whole.hexdigest(), "row_hashes": "".join(each)}


def differences(made: dict[str, list[str]], expected: dict[str, Any], how: str) -> list[str]:
    """Where ``made`` (a definition's rows, as read_rows gives them) differs from the committed
    digests: for each definition, its name and its first differing row."""
    found = []
    for name, rows in made.items():
        want = expected.get(name)
        if want is None:
            found.append(f"{name} ({how}): no committed digest; run `make digests` on the default line")
            continue
        got = digest(rows)
        if got["sha256"] == want["sha256"] and got["rows"] == want["rows"]:
            continue
        hashes = [
            want["row_hashes"][i : i + ROW_HASH_DIGITS]
            for i in range(0, len(want["row_hashes"]), ROW_HASH_DIGITS)
        ]
        first = next(
            (i for i, row in enumerate(rows) if i >= len(hashes) or digest([row])["row_hashes"] != hashes[i]),
            len(rows),
        )
        shown = rows[first] if first < len(rows) else "(none: the read ended there)"
        found.append(
            f"{name} ({how}): {got['rows']} rows, {want['rows']} committed; "
            f"row {first} differs first: {shown}"
        )
    return found


def line_definitions(line: tuple[int, int] | None = None) -> list[Definition]:
    """The definitions this pyspark's line reads."""
    here = line or pyspark_line()
    return [d for d in definitions() if d.reads_on(here)]


def write_expected(spark: SparkSession) -> None:
    """Read every definition on this line (the default one) in each variant, check that the
    variants agree, and write their digests to ``expected.json``."""
    chosen = definitions()
    first: dict[str, list[str]] | None = None
    for variant in VARIANTS:
        made = read_rows(spark, chosen, variant)
        for definition in chosen:
            # A change may be more than one row (an update's two images, a repeated delivery).
            if not definition.batch and len(made[definition.name]) < definition.rows:
                raise SystemExit(
                    f"{definition.name}: {variant.name} read {len(made[definition.name])} rows of "
                    f"{definition.rows}: is its event-time start in the past?"
                )
        if first is not None and first != made:
            raise SystemExit(f"{variant.name} read other rows than {VARIANTS[0].name}")
        first = made
    assert first is not None
    digests = {name: digest(rows) for name, rows in sorted(first.items())}
    EXPECTED.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(digests)} digests ({sum(d['rows'] for d in digests.values())} rows) to {EXPECTED}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write expected.json from this line's rows")
    args = parser.parse_args(argv)
    if not args.write:
        parser.error("nothing to do: pass --write (the tests compare; see tests/test_line_digests.py)")
    from spark_random_strings.engine.local import local_session

    spark = local_session("spark-random-strings digests")
    try:
        write_expected(spark)
    finally:
        spark.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
