"""The ``changes`` source's names and facts, as Python meets them (the jar's ``Changes.scala``): its
short name, its option names as the code spells them, their defaults and ranges from the table of
options, the default schema, the key column's types, and each option under its keyword
(:class:`ChangeKeywords`, which ``read_changes`` takes)."""

from __future__ import annotations

from typing import Annotated, TypedDict

from spark_random_strings.options import NAMES as ROW_NAMES
from spark_random_strings.options import OptionTable
from spark_random_strings.options.ranges import Whole
from spark_random_strings.options.table import SOURCES, SourceTable

#: The source's short name, as given to ``spark.readStream.format`` (Spark matches it
#: case-insensitively).
CHANGES_FORMAT = "changes"
#: The Python data source's name (Spark 4.0+): the same stream, made by Python workers.
CHANGES_PYTHON_FORMAT = f"{CHANGES_FORMAT}Python"
#: The Python data source's option that holds the declared columns, as DDL text or Spark's JSON of
#: a ``StructType``: ``read_changes(engine="python")`` passes it (``changes.reader`` says why).
DECLARED_SCHEMA = "_declaredSchema"

KEY = "key"
KEYS = "keys"
DELETE_FRACTION = "deleteFraction"
HOT_KEYS = "hotKeys"
HOT_KEY_FRACTION = "hotKeyFraction"
SNAPSHOT = "snapshot"
ENVELOPE = "envelope"
UPDATE_COLUMNS = "updateColumns"
AS_OF = "asOf"
HISTORY = "history"

#: This source's rows of the table of options.
CHANGES_TABLE: SourceTable = SOURCES[CHANGES_FORMAT]
#: Every option this source takes, in the order the documentation lists them.
OPTION_NAMES: tuple[str, ...] = CHANGES_TABLE.names
#: The options tests use and users never see: accepted, but not listed in ``OPTION_NAMES``.
INTERNAL_NAMES: tuple[str, ...] = CHANGES_TABLE.internal
#: The options this source reads itself: every option but the rows' (rate, time, seed, partitions,
#: limits, delivery), which are the random strings' own, parsed as theirs are (``rows.options``).
OWN_NAMES: tuple[str, ...] = tuple(name for name in OPTION_NAMES if name not in ROW_NAMES)
#: The options a batch read takes and a stream refuses (the table's ``reads``).
BATCH_NAMES: tuple[str, ...] = CHANGES_TABLE.read("batch")
#: The options a stream takes and a batch read refuses: how it reads its changes.
STREAM_NAMES: tuple[str, ...] = CHANGES_TABLE.read("stream")

DEFAULT_KEY = str(CHANGES_TABLE[KEY].value)
KEYS_RANGE: Whole = CHANGES_TABLE[KEYS].whole
AS_OF_RANGE: Whole = CHANGES_TABLE[AS_OF].whole
#: The values of ``envelope``, in the documentation's order.
ENVELOPES: tuple[str, ...] = CHANGES_TABLE[ENVELOPE].values

#: The schema of a stream that declares none: a key and a random string.
DEFAULT_SCHEMA = "id BIGINT NOT NULL, value STRING"

#: The types a key column may have (as Spark's ``sql`` names them), each with how many
#: non-negative values it holds: the keys are 0 to keys - 1 (a STRING holds their decimal text).
KEY_TYPES: tuple[tuple[str, int], ...] = (
    ("TINYINT", 1 << 7),
    ("SMALLINT", 1 << 15),
    ("INT", 1 << 31),
    ("BIGINT", KEYS_RANGE.high),
    ("STRING", KEYS_RANGE.high),
)


class ChangeDefinitionKeywords(TypedDict, total=False):
    """The options that make a change stream's rows, as keywords of
    [`expected_changes`][spark_random_strings.expected_changes] and
    [`expected_table`][spark_random_strings.expected_table]: ``read_changes``'s, each the
    ``changes`` source's option in snake_case. ``None``, like a keyword left out, leaves the
    source's default."""

    # Made from options/table.json by `make options`: edit the table, not these lines.
    key: Annotated[str | None, "key"]
    keys: Annotated[int | None, "keys"]
    delete_fraction: Annotated[float | None, "deleteFraction"]
    hot_keys: Annotated[int | None, "hotKeys"]
    hot_key_fraction: Annotated[float | None, "hotKeyFraction"]
    snapshot: Annotated[bool | None, "snapshot"]
    envelope: Annotated[str | None, "envelope"]
    update_columns: Annotated[str | None, "updateColumns"]
    rows_per_second: Annotated[int | None, "rowsPerSecond"]
    start_timestamp: Annotated[int | None, "startTimestamp"]
    rate_profile: Annotated[str | None, "rateProfile"]


class ChangeKeywords(ChangeDefinitionKeywords, total=False):
    """The keywords of ``read_changes``: each option of the ``changes`` source, in snake_case:
    those that make its rows (:class:`ChangeDefinitionKeywords`, the oracles' keywords), then the
    seed, how its changes are delivered, and a batch read's own.

    ``None``, like a keyword left out, leaves the source's default. Each hint names the option's
    row of the table of options, which says its default, allowed values and what it does.
    """

    # Made from options/table.json by `make options`: edit the table, not these lines.
    seed: Annotated[int | None, "seed"]
    num_partitions: Annotated[int | None, "numPartitions"]
    max_rows_per_trigger: Annotated[int | None, "maxRowsPerTrigger"]
    total_rows: Annotated[int | None, "totalRows"]
    max_out_of_order_ms: Annotated[int | None, "maxOutOfOrderMs"]
    late_row_fraction: Annotated[float | None, "lateRowFraction"]
    late_by_ms: Annotated[int | None, "lateByMs"]
    duplicate_fraction: Annotated[float | None, "duplicateFraction"]
    real_time: Annotated[bool | None, "realTime"]
    as_of: Annotated[int | None, "asOf"]
    history: Annotated[bool | None, "history"]


#: The ``changes`` source's options under their keywords.
CHANGE_OPTIONS = OptionTable(ChangeKeywords, CHANGES_TABLE)
