"""Two Python streaming sources (pyspark's Python Data Source API) beside this source's own.

``python_random_strings`` is a pure-Python source of random strings: the benchmark's "what you
would write in Python" peer. It makes the same columns' essentials (a 10-character alphanumeric
string and its offset) for ``rowsPerBatch`` rows per trigger.

``python_premade_batches`` is Spark's floor under any Python data source of this source's schema:
its reader yields Arrow batches as the Python engine hands them on (its four columns, strings of the
benchmark's length, its batch size), made once in each worker and yielded again for every
partition. What a batch costs it is what Spark spends
taking in Arrow batches of these columns from a Python worker, with nothing of the making left, so
no Python data source of the same columns can be faster than it on the same machine."""

from __future__ import annotations

import random
import string
import sys
import types
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
from pyspark.sql.datasource import DataSource, DataSourceStreamReader, InputPartition
from pyspark.sql.pandas.types import from_arrow_schema
from pyspark.sql.streaming.datasource import ReadLimit
from pyspark.sql.types import StructType

from spark_random_strings.options import schema_of
from spark_random_strings.rows.generator import RowGenerator

ALPHANUMERIC = string.ascii_letters + string.digits


class OffsetRange(InputPartition):
    """Rows [start, end) of the stream."""

    def __init__(self, start: int, end: int) -> None:
        self.start = start
        self.end = end


class PythonRandomStrings(DataSource):
    """``spark.readStream.format("python_random_strings")``, options rowsPerBatch,
    length and numPartitions."""

    @classmethod
    def name(cls) -> str:
        return "python_random_strings"

    def schema(self) -> str:
        return "value STRING, offset BIGINT"

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        return PythonRandomStringsReader(self.options)


class PythonRandomStringsReader(DataSourceStreamReader):
    def __init__(self, options: Mapping[str, str]) -> None:
        self.rows_per_batch = int(options.get("rowsPerBatch", "1000"))
        self.length = int(options.get("length", "10"))
        self.partitions_per_batch = int(options.get("numPartitions", "2"))

    def initialOffset(self) -> dict[str, int]:
        return {"offset": 0}

    def latestOffset(self, start: dict[str, int], limit: ReadLimit) -> dict[str, int]:
        # Every trigger has one more batch of rowsPerBatch rows to read.
        return {"offset": start["offset"] + self.rows_per_batch}

    def partitions(self, start: dict[str, int], end: dict[str, int]) -> Sequence[InputPartition]:
        first, last = start["offset"], end["offset"]
        step = -(-(last - first) // self.partitions_per_batch)
        return [OffsetRange(at, min(at + step, last)) for at in range(first, last, step)]

    def read(self, partition: Any) -> Iterator[tuple[str, int]]:
        generator = random.Random(partition.start)
        choices, length = generator.choices, self.length
        for offset in range(partition.start, partition.end):
            yield "".join(choices(ALPHANUMERIC, k=length)), offset

    def commit(self, end: dict[str, int]) -> None:
        pass


class PremadeBatches(DataSource):
    """``spark.readStream.format("python_premade_batches")``, options rowsPerBatch, length and
    numPartitions: Arrow batches of the Python engine's schema and sizes, made once and yielded
    again."""

    @classmethod
    def name(cls) -> str:
        return "python_premade_batches"

    def schema(self) -> StructType:
        return from_arrow_schema(TWIN_SCHEMA)

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        return PremadeBatchesReader(self.options)


#: The Python engine's schema of the random strings (value, ts, offset, length), read here on the
#: driver: the workers get the value with this module, and import nothing of the package, whose
#: own data source travels to them by value (``engine.python_sources``).
TWIN_SCHEMA: pa.Schema = schema_of(False)
#: The Python engine's Arrow batch size, in rows and in characters (``rows.generator``).
TWIN_BATCH_ROWS, TWIN_BATCH_CHARACTERS = RowGenerator.ROWS_PER_BATCH, RowGenerator.CHARACTERS_PER_BATCH


def _made() -> dict[int, list[pa.RecordBatch]]:
    """The batches this worker has made, by their rows: made once, yielded for every partition of
    that size. They are kept in a module of their own in ``sys.modules``, as this module reaches
    the workers by value (run_bench.py), with new globals for every task."""
    store = sys.modules.setdefault("_premade_batches", types.ModuleType("_premade_batches"))
    made: dict[int, list[pa.RecordBatch]] = store.__dict__.setdefault("made", {})
    return made


class PremadeBatchesReader(PythonRandomStringsReader):
    """The pure-Python reader's offsets and partitions, with batches as the Python engine hands
    them on: its columns, ``length``-character ASCII strings, its batch size. What Spark does
    with a batch depends on those alone, not on which characters the strings hold."""

    def read(self, partition: Any) -> Iterator[pa.RecordBatch]:
        rows, made = partition.end - partition.start, _made()
        if rows not in made:
            made[rows] = list(self._batches(rows))
        yield from made[rows]

    def _batches(self, rows: int) -> Iterator[pa.RecordBatch]:
        length = self.length
        step = max(1, min(TWIN_BATCH_ROWS, TWIN_BATCH_CHARACTERS // max(1, length)))
        alphabet = np.frombuffer(ALPHANUMERIC.encode(), np.uint8)
        for first in range(0, rows, step):
            n = min(step, rows - first)
            characters = alphabet[np.random.default_rng(first).integers(0, len(alphabet), n * length)]
            ends = np.arange(0, (n + 1) * length, length, dtype=np.int32)
            values = pa.StringArray.from_buffers(n, pa.py_buffer(ends), pa.py_buffer(characters.tobytes()))
            offsets = np.arange(first, first + n, dtype=np.int64)
            columns = [values, pa.array(offsets), pa.array(offsets), pa.array(np.full(n, length, np.int32))]
            yield pa.RecordBatch.from_arrays(columns, schema=TWIN_SCHEMA)
