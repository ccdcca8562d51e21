"""The recipes of docs/typed-columns.md: each pipeline, run in this session on typed streams,
gives exactly what its streams, computed here row by row from their keywords alone
(``expected_rows``: no Spark run, no checkpoint), say it must. The guide shows each recipe's
code, and the last tests check that it shows exactly the code these tests run, and that what it
says of the draws (independent columns, repeats, patterns, sequences) and of bad input holds.

The recipes' code is at the top level of this module, as the guide shows it: its streams (the
keywords of ``read_random_strings``, less those that say how it is read), its pipeline, and the
oracle that computes what the pipeline must give."""

from __future__ import annotations

import ast
import bisect
import inspect
import re
import subprocess
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from helpers.support import CLI, REPO, run_child
from spark_random_strings import expected_rows, read_random_strings
from spark_random_strings.rows.definition import StreamDefinition, check_restart
from spark_random_strings.rows.generator import expected_table
from spark_random_strings.rows.options import parse_options
from spark_random_strings.typed.cells.pattern_plan import OPEN_REPEAT_EXTRA
from spark_random_strings.typed.fields import properties as typed

GUIDE = REPO / "docs" / "typed-columns.md"

# Recipe 1: a skewed join key.

#: 2025-01-01 00:00:00 UTC: the event time of offset 0 in every recipe's stream.
START = 1_735_689_600_000
#: User ids 1 to 1,000 by Zipf's law: user 1 is the hottest, then 2, 3, ...
HOT_USERS = {"min": 1, "max": 1000, "distribution": "zipf", "zipfExponent": 1.2}
ORDERS: dict[str, Any] = dict(
    seed=1,
    rows_per_second=100,
    start_timestamp=START,
    schema="order_id BIGINT NOT NULL, user_id INT NOT NULL, ordered_at TIMESTAMP NOT NULL",
    fields={"order_id": {"kind": "offset"}, "user_id": HOT_USERS, "ordered_at": {"kind": "eventTime"}},
)
PAYMENTS: dict[str, Any] = dict(
    seed=2,
    rows_per_second=100,
    start_timestamp=START,
    schema="payment_id BIGINT NOT NULL, user_id INT NOT NULL, paid_at TIMESTAMP NOT NULL",
    fields={"payment_id": {"kind": "offset"}, "user_id": HOT_USERS, "paid_at": {"kind": "eventTime"}},
)
ROWS = 2000  # of each stream: 20 seconds at 100 rows/s


def pairs_per_user(spark: SparkSession, checkpoint: str) -> dict[int, int]:
    """Joins each order with the payments of its user in the 2 seconds after it; returns how
    many pairs each user has."""
    orders = read_random_strings(spark, **ORDERS, total_rows=ROWS, max_rows_per_trigger=500)
    payments = read_random_strings(spark, **PAYMENTS, total_rows=ROWS, max_rows_per_trigger=500)
    pairs = (
        orders.withWatermark("ordered_at", "10 seconds")
        .alias("o")
        .join(
            payments.withWatermark("paid_at", "10 seconds").alias("p"),
            F.expr(
                "o.user_id = p.user_id AND "
                "p.paid_at BETWEEN o.ordered_at AND o.ordered_at + INTERVAL 2 SECONDS"
            ),
        )
        .select("o.user_id", "order_id", "payment_id")
    )
    query = (
        pairs.writeStream.format("memory")
        .queryName("order_payments")
        .option("checkpointLocation", checkpoint)
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination()
    counts = spark.table("order_payments").groupBy("user_id").count().collect()
    return {row.user_id: row["count"] for row in counts}


def expected_pairs_per_user() -> dict[int, int]:
    """The same pairs, from the rows of both streams."""
    orders = expected_rows(**ORDERS, start=0, end=ROWS).to_pylist()
    payments = expected_rows(**PAYMENTS, start=0, end=ROWS).to_pylist()
    paid: dict[int, list[Any]] = defaultdict(list)
    for payment in payments:  # in offset order, so in event-time order
        paid[payment["user_id"]].append(payment["paid_at"])
    pairs: Counter[int] = Counter()
    for order in orders:
        times = paid[order["user_id"]]
        first = bisect.bisect_left(times, order["ordered_at"])
        last = bisect.bisect_right(times, order["ordered_at"] + timedelta(seconds=2))
        if last > first:
            pairs[order["user_id"]] += last - first
    return dict(pairs)


def test_a_stream_stream_join_on_a_zipf_key_gives_each_user_exactly_its_pairs_and_the_hot_user_most(
    spark: SparkSession, tmp_path: Path
) -> None:
    users = {
        name: Counter(expected_rows(**stream, start=0, end=ROWS).column("user_id").to_pylist())
        for name, stream in (("orders", ORDERS), ("payments", PAYMENTS))
    }
    # The skew: user 1 has about a fifth of each stream's rows, and two thirds of the pairs.
    assert [users["orders"][1], users["payments"][1]] == [415, 426]
    expected = expected_pairs_per_user()
    assert (sum(expected.values()), expected[1], len(expected)) == (25293, 16882, 85)
    assert max(expected, key=lambda user: expected[user]) == 1

    assert pairs_per_user(spark, str(tmp_path / "join")) == expected


# Recipe 2: nulls through an aggregation.

SALES: dict[str, Any] = dict(
    seed=5,
    rows_per_second=1000,
    start_timestamp=START,
    schema="sale_id BIGINT NOT NULL, region STRING, amount DECIMAL(8,2)",
    fields={
        "sale_id": {"kind": "offset"},
        "region": {"kind": "values", "values": ["north", "south", "east"], "nullRate": 0.1},
        "amount": {"min": "1.00", "max": "500.00", "nullRate": 0.25},
    },
)
SALES_ROWS = 5000


def sales_by_region(spark: SparkSession, checkpoint: str) -> dict[str | None, tuple[Any, ...]]:
    """Per region: the rows, the amounts (count ignores nulls), their sum and their average."""
    totals = (
        read_random_strings(spark, **SALES, total_rows=SALES_ROWS)
        .groupBy("region")
        .agg(
            F.count("*").alias("rows"),
            F.count("amount").alias("amounts"),
            F.sum("amount").alias("total"),
            F.avg("amount").alias("average"),
        )
    )
    query = (
        totals.writeStream.outputMode("complete")
        .format("memory")
        .queryName("sales_by_region")
        .option("checkpointLocation", checkpoint)
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination()
    return {row.region: tuple(row)[1:] for row in spark.table("sales_by_region").collect()}


def expected_sales_by_region() -> dict[str | None, tuple[Any, ...]]:
    """The same, from the rows: a null region is a group of its own, a null amount counts as a
    row and nothing else; Spark's average of a DECIMAL(8,2) is a DECIMAL(12,6), rounded half up."""
    rows: dict[str | None, list[Decimal | None]] = defaultdict(list)
    for sale in expected_rows(**SALES, start=0, end=SALES_ROWS).to_pylist():
        rows[sale["region"]].append(sale["amount"])
    totals: dict[str | None, tuple[Any, ...]] = {}
    for region, amounts in rows.items():
        present = [amount for amount in amounts if amount is not None]
        total = sum(present, Decimal(0))
        average = (total / len(present)).quantize(Decimal("0.000001"), ROUND_HALF_UP)
        totals[region] = (len(amounts), len(present), total, average)
    return totals


def test_count_sum_and_avg_skip_exactly_the_null_amounts_and_null_regions_make_their_own_group(
    spark: SparkSession, tmp_path: Path
) -> None:
    rows = expected_rows(**SALES, start=0, end=SALES_ROWS)
    assert rows.column("region").null_count == 487
    assert rows.column("amount").null_count == 1270
    expected = expected_sales_by_region()
    assert expected == {
        "east": (1484, 1094, Decimal("275743.11"), Decimal("252.050375")),
        "north": (1518, 1139, Decimal("287708.56"), Decimal("252.597507")),
        "south": (1511, 1135, Decimal("283996.96"), Decimal("250.217586")),
        None: (487, 362, Decimal("95773.44"), Decimal("264.567514")),
    }

    assert sales_by_region(spark, str(tmp_path / "sales")) == expected


# Recipe 3: an exact Parquet dataset.

DATASET: dict[str, Any] = dict(
    seed=7,
    rows_per_second=1000,
    start_timestamp=START,
    schema=(
        "order_id BIGINT NOT NULL, user_id INT NOT NULL, amount DECIMAL(10,2), "
        "status STRING NOT NULL, code STRING NOT NULL, ordered_at TIMESTAMP NOT NULL"
    ),
    fields={
        "order_id": {"kind": "offset"},
        "user_id": {"min": 1, "max": 100000},
        "amount": {"min": "0.50", "max": "999.99", "nullRate": 0.05},
        "status": {"kind": "values", "values": ["new", "paid", "shipped"], "weights": [2, 6, 1]},
        "code": {"pattern": "ORD-[0-9]{4}-[A-Z]{3}"},
        "ordered_at": {"kind": "eventTime"},
    },
)
DATASET_ROWS = 10_000


def write_dataset(spark: SparkSession, output: str) -> None:
    """Writes the dataset's rows to ``output`` as Parquet, as ``spark-random-strings write`` does."""
    orders = read_random_strings(spark, **DATASET, total_rows=DATASET_ROWS)
    query = (
        orders.writeStream.format("parquet")
        .option("path", output)
        .option("checkpointLocation", f"{output}/_checkpoint")
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination()


def read_dataset(output: str) -> pa.Table:
    """The dataset as any Parquet reader sees it (pyarrow here), in offset order, with the
    types ``expected_rows`` gives (Spark writes TIMESTAMP as INT96, which pyarrow reads in ns)."""
    written = pq.read_table(output).sort_by("order_id")
    return written.cast(expected_rows(**DATASET, start=0, end=0).schema)


def _same_table(written: pa.Table, expected: pa.Table) -> None:
    assert written.schema == expected.schema
    assert written.to_pylist() == expected.to_pylist()


def test_a_parquet_dataset_written_from_python_holds_exactly_the_rows_expected_rows_computes(
    spark: SparkSession, tmp_path: Path
) -> None:
    expected = expected_rows(**DATASET, start=0, end=DATASET_ROWS)
    assert Counter(expected.column("status").to_pylist()) == {"paid": 6772, "new": 2172, "shipped": 1056}
    assert expected.column("amount").null_count == 526
    output = str(tmp_path / "orders")

    write_dataset(spark, output)

    _same_table(read_dataset(output), expected)


def dataset_write_command() -> list[str]:
    """The words of the guide's ``spark-random-strings write`` command, after the command's
    name, as bash makes them from its shell block."""
    (block,) = [b for b in _blocks("sh") if "spark-random-strings write" in b]
    capture = 'spark-random-strings() { printf "%s\\0" "$@"; }\n'
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-c", capture + block],
        capture_output=True,
        text=True,
        check=True,
        stdin=subprocess.DEVNULL,
    )
    return done.stdout.split("\0")[:-1]


@pytest.mark.processes
def test_the_clis_write_with_schema_and_fields_makes_the_same_dataset(tmp_path: Path) -> None:
    done = run_child([*CLI, *dataset_write_command()], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout.strip()
        .splitlines()[-1]
        .startswith(f"wrote {DATASET_ROWS:,} rows to orders as parquet ({DATASET_ROWS:,} in this run, ")
    )
    _same_table(read_dataset(str(tmp_path / "orders")), expected_rows(**DATASET, start=0, end=DATASET_ROWS))


@pytest.mark.processes
def test_the_guides_write_command_makes_the_python_recipes_stream() -> None:
    words = dataset_write_command()
    flags: dict[str, str] = {}
    fields: dict[str, dict[str, Any]] = defaultdict(dict)
    assert words[0] == "write"
    for flag, value in zip(words[1::2], words[2::2], strict=True):
        if flag == "--field":
            name, _, text = value.partition("=")
            path, _, property_name = name.rpartition(".")
            fields[path][property_name] = text
        else:
            flags[flag] = value
    assert flags == {
        "--total-rows": str(DATASET_ROWS),
        "--format": "parquet",
        "--output": "orders",
        "--seed": str(DATASET["seed"]),
        "--rows-per-second": str(DATASET["rows_per_second"]),
        "--start-timestamp": str(START),
        "--schema": DATASET["schema"],
    }
    # Each --field is the Python recipe's property, as the option's text (lists as JSON).
    assert fields == {
        path: {name: str(value).replace("'", '"') for name, value in properties.items()}
        for path, properties in DATASET["fields"].items()
    }


# Recipe 4: a watermark on an eventTime column.

READINGS: dict[str, Any] = dict(
    seed=292,
    rows_per_second=1000,
    start_timestamp=START,
    max_out_of_order_ms=2000,
    late_row_fraction=0.01,
    late_by_ms=60000,
    schema="reading_id BIGINT NOT NULL, sensor STRING NOT NULL, celsius DOUBLE, read_at TIMESTAMP NOT NULL",
    fields={
        "reading_id": {"kind": "offset"},
        "sensor": {"kind": "values", "values": ["boiler", "intake", "roof"]},
        "celsius": {"distribution": "normal", "min": -20, "max": 60, "mean": 21, "stddev": 4},
        "read_at": {"kind": "eventTime"},
    },
)
READINGS_ROWS = 6000


def windowed_counts(spark: SparkSession, checkpoint: str) -> dict[str, Any]:
    """Counts each sensor's readings in 1-second windows of ``read_at``, with a 5-second
    watermark; returns the rows read and each window's final count by (start in epoch ms, sensor)."""
    readings = read_random_strings(spark, **READINGS, total_rows=READINGS_ROWS, max_rows_per_trigger=300)
    counts = (
        readings.withWatermark("read_at", "5 seconds")
        .groupBy(F.window("read_at", "1 second"), "sensor")
        .count()
    )
    final: dict[tuple[int, str], int] = {}

    def keep(batch: DataFrame, _: int) -> None:
        # Update mode: each batch brings the windows it changed, with their counts so far.
        rows = batch.select(F.expr("unix_millis(window.start)").alias("start"), "sensor", "count")
        final.update({(row.start, row.sensor): row["count"] for row in rows.collect()})

    query = (
        counts.writeStream.outputMode("update")
        .foreachBatch(keep)
        .option("checkpointLocation", checkpoint)
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination()
    return {"read": sum(p["numInputRows"] for p in query.recentProgress), "windows": final}


def late_readings() -> set[int]:
    """The late rows: more than maxOutOfOrderMs behind their in-order time, which at 1,000
    rows/s is START + the offset in ms."""
    rows = expected_rows(**READINGS, start=0, end=READINGS_ROWS).to_pylist()
    in_order = [START + row["reading_id"] for row in rows]
    read_at = [int(row["read_at"].timestamp() * 1000) for row in rows]
    return {o for o, (due, at) in enumerate(zip(in_order, read_at, strict=True)) if due - at > 2000}


def expected_windows() -> dict[tuple[int, str], int]:
    """Every reading that is not late, counted in its window."""
    late = late_readings()
    windows: Counter[tuple[int, str]] = Counter()
    for row in expected_rows(**READINGS, start=0, end=READINGS_ROWS).to_pylist():
        if row["reading_id"] not in late:
            at = int(row["read_at"].timestamp() * 1000)
            windows[(at // 1000 * 1000, row["sensor"])] += 1
    return dict(windows)


def test_a_watermark_on_an_event_time_column_counts_every_reading_but_exactly_the_late_ones(
    spark: SparkSession, tmp_path: Path
) -> None:
    late = late_readings()
    assert len(late) == 47
    # Spark judges a batch's rows by the watermark the batch before set: a late row in the first
    # two batches (300 rows each) would still count. None is there.
    assert min(late) >= 600
    # The late rows are the row options' and the seed's, whatever the columns: those of the plain
    # stream of docs/testing-pipelines.md's first recipe, which has the same seed and options.
    plain = {k: v for k, v in READINGS.items() if k not in ("schema", "fields")}
    ts = expected_rows(**plain, start=0, end=READINGS_ROWS).column("ts").to_pylist()
    assert late == {o for o, t in enumerate(ts) if START + o - t > 2000}
    expected = expected_windows()
    # 8 seconds of windows (2 s of disorder before the first), 3 sensors.
    assert {start for start, _ in expected} == set(range(START - 2000, START + 6000, 1000))
    assert (len(expected), sum(expected.values())) == (24, READINGS_ROWS - 47)

    assert windowed_counts(spark, str(tmp_path / "windows")) == {"read": READINGS_ROWS, "windows": expected}


# The guide shows what these tests run.

#: Each recipe's pipeline and the functions of its oracle.
RECIPES: list[tuple[Callable[..., Any], ...]] = [
    (pairs_per_user, expected_pairs_per_user),
    (sales_by_region, expected_sales_by_region),
    (write_dataset, read_dataset),
    (windowed_counts, late_readings, expected_windows),
]


def _guide_words() -> str:
    """The guide's text with each run of white space as one space, as Markdown reads it."""
    return " ".join(GUIDE.read_text().split())


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", GUIDE.read_text(), re.S | re.M)


def _recipe_blocks() -> list[str]:
    """The Python blocks of the guide's recipes (the sections from "Recipe 1" on)."""
    recipes = "\n## Recipe 1" + GUIDE.read_text().split("\n## Recipe 1", 1)[1]
    return re.findall(r"^```python\n(.*?)^```$", recipes, re.S | re.M)


def test_each_python_block_of_the_guides_recipes_is_an_excerpt_of_these_tests() -> None:
    source = Path(__file__).read_text()
    blocks = _recipe_blocks()
    assert len(blocks) >= len(RECIPES)
    for block in blocks:
        assert block in source, block


def test_the_guide_shows_each_recipes_streams_pipeline_and_oracle_whole() -> None:
    shown = "\n".join(_recipe_blocks())
    for recipe in RECIPES:
        for function in recipe:
            assert inspect.getsource(function) in shown, function.__name__
    for stream in ("ORDERS", "PAYMENTS", "SALES", "DATASET", "READINGS"):
        assert re.search(rf"^{stream}: dict\[str, Any\] = dict\($", shown, re.M), stream


# What the guide says of the draws.


def _rows(schema: str, fields: dict[str, dict[str, Any]], **options: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = expected_rows(
        seed=3, start=0, end=2000, schema=schema, fields=fields, **options
    ).to_pylist()
    return rows


def test_adding_removing_or_reordering_columns_leaves_every_other_columns_cells_unchanged() -> None:
    fields: dict[str, dict[str, Any]] = {
        "user_id": {"min": 1, "max": 50, "distribution": "zipf"},
        "code": {"pattern": "[A-Z]{3}-[0-9]{2}"},
        "tags": {"maxSize": 3},
        "amount": {"nullRate": 0.3},
    }
    wide = _rows("user_id INT, code STRING, tags ARRAY<STRING>, amount DOUBLE", fields)
    narrow = _rows("amount DOUBLE, user_id INT", {k: fields[k] for k in ("amount", "user_id")})
    assert [{k: row[k] for k in ("amount", "user_id")} for row in wide] == narrow


def test_a_repeated_row_carries_every_cell_of_its_original_except_its_offset_columns() -> None:
    rows = _rows(
        "id BIGINT NOT NULL, n BIGINT NOT NULL, at TIMESTAMP NOT NULL, code STRING",
        {"id": {"kind": "offset"}, "n": {"kind": "sequence"}, "at": {"kind": "eventTime"}},
        start_timestamp=START,
        duplicate_fraction=0.2,
        max_duplicate_distance=10,
    )
    # A sequence counts by the original's offset, so a repeat is the row whose offset its n says.
    repeats = [row for row in rows if row["n"] != row["id"]]
    assert len(repeats) == 415
    for row in repeats:
        original = rows[row["n"]]
        assert original["n"] == original["id"] < row["id"]
        assert {**original, "id": row["id"]} == row


def test_raising_a_null_rate_nulls_more_cells_and_keeps_every_other_value_setting_one_changes_them() -> None:
    def cells(properties: dict[str, Any]) -> list[Any]:
        return [row["n"] for row in _rows("n INT", {"n": {"min": 1, "max": 100, **properties}})]

    none, tenth, third = cells({}), cells({"nullRate": 0.1}), cells({"nullRate": 0.3})
    assert (tenth.count(None), third.count(None)) == (195, 575)
    assert all(b is None or a == b for a, b in zip(tenth, third, strict=True))
    assert all(b is None for a, b in zip(tenth, third, strict=True) if a is None)
    assert sum(a == b for a, b in zip(none, tenth, strict=True)) == 16  # chance: about 1 in 100


def test_an_open_repeat_goes_at_most_eight_times_more_than_its_least() -> None:
    assert OPEN_REPEAT_EXTRA == 8
    codes = [row["code"] for row in _rows("code STRING NOT NULL", {"code": {"pattern": "a*-b+-c{2,}"}})]
    shapes = Counter(tuple(len(part) for part in code.split("-")) for code in codes)
    assert {a for a, _, _ in shapes} == set(range(0, 9))
    assert {b for _, b, _ in shapes} == set(range(1, 10))
    assert {c for _, _, c in shapes} == set(range(2, 11))


def test_a_sequence_steps_from_its_start_by_the_offset_and_starts_again_after_its_end() -> None:
    rows = _rows("n TINYINT NOT NULL", {"n": {"kind": "sequence", "start": 10, "step": 3, "end": 20}})
    assert [row["n"] for row in rows[:10]] == [10, 13, 16, 19, 10, 13, 16, 19, 10, 13]


def test_a_restart_that_changes_a_fields_option_is_refused_naming_it_with_both_values() -> None:
    def definition(most: int) -> StreamDefinition:
        options = {"fields.user_id.min": "1", "fields.user_id.max": str(most)}
        return parse_options(options, "user_id INT NOT NULL").definition(7, START)

    with pytest.raises(ValueError) as refused:
        check_restart(definition(1000), definition(2000), "checkpoint")
    quoted = "fields.user_id.max: the checkpoint has 1000, the query sets 2000"
    assert quoted in str(refused.value)
    assert f"`{quoted}`" in _guide_words()


def test_the_guides_first_example_is_a_stream_the_source_takes() -> None:
    first = ast.parse(_blocks("python")[0])
    calls = [
        (node.func.attr, node.args)
        for node in ast.walk(first)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    ]
    options = {
        str(ast.literal_eval(args[0])): str(ast.literal_eval(args[1]))
        for name, args in calls
        if name == "option"
    }
    (schema,) = [ast.literal_eval(args[0]) for name, args in calls if name == "schema"]
    definition = parse_options(options, schema).definition(7, START)
    rows = expected_table(definition, 0, 3).to_pylist()
    assert [list(row) for row in rows] == [
        ["order_id", "user_id", "amount", "status", "code", "tags", "shipping", "event_time"]
    ] * 3
    assert [row["order_id"] for row in rows] == [0, 1, 2]


#: What the guide quotes of bad input, with the options that make it.
REFUSALS = [
    (
        "user_id INT NOT NULL",
        {"user_id": {"nullRate": 0.1}},
        "Option 'fields.user_id.nullRate' sets nulls on column 'user_id', which is NOT NULL. Declare "
        "the column nullable (remove NOT NULL), or remove 'fields.user_id.nullRate'.",
    ),
    (
        "user_id INT NOT NULL",
        {"usr_id": {"min": 1}},
        "Unknown column 'usr_id' in option 'fields.usr_id.min': the declared schema has no such "
        "column. Did you mean 'user_id'? Columns: user_id.",
    ),
    (
        "code STRING",
        {"code": {"pattern": "ORD-\\d{4}$"}},
        "Invalid value 'ORD-\\d{4}$' for option 'fields.code.pattern': the anchor '$' at position 9. "
        "A pattern may hold literals, escapes, classes ([a-z], \\d, \\w, \\s, .), groups, alternation "
        "(|) and repeats (?, *, +, {n}, {m,n}); anchors, lookaround and back-references cannot be "
        "generated.",
    ),
]


@pytest.mark.parametrize(("schema", "fields", "message"), REFUSALS)
def test_the_guides_refusals_are_the_sources_messages_word_for_word(
    schema: str, fields: dict[str, dict[str, Any]], message: str
) -> None:
    with pytest.raises(ValueError) as refused:
        _rows(schema, fields)
    assert str(refused.value) == message
    assert message in _guide_words()


def test_the_guides_property_table_names_every_property_the_parser_knows() -> None:
    table = GUIDE.read_text().split("\n## Per-column options\n", 1)[1].split("\n## ", 1)[0]
    named = {
        name for cell in re.findall(r"^\| ([^|]+) \|", table, re.M) for name in re.findall(r"`(\w+)`", cell)
    }
    known = {
        typed.KIND,
        typed.NULL_RATE,
        typed.MIN,
        typed.MAX,
        typed.DISTRIBUTION,
        typed.MEAN,
        typed.STDDEV,
        typed.START,
        typed.STEP,
        typed.END,
        typed.VALUES,
        typed.WEIGHTS,
        typed.PATTERN,
        typed.MIN_SIZE,
        typed.MAX_SIZE,
        *typed.STRING_PROPERTIES,
    }
    assert named == known
