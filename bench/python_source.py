"""A pure-Python streaming source of random strings (pyspark's Python Data Source API): the
benchmark's "what you would write in Python" peer. It makes the same columns' essentials
(a 10-character alphanumeric string and its offset) for ``rowsPerBatch`` rows per trigger."""

from __future__ import annotations

import random
import string
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pyspark.sql.datasource import DataSource, DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import ReadLimit
from pyspark.sql.types import StructType

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
