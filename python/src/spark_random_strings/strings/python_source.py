"""The ``InMemoryRandomStringsPython`` data source (Spark 4.0+): the jar-less engine of the random
strings, whose reader (``strings.reader``) travels with the client."""

from __future__ import annotations

from spark_random_strings.engine.python_sources import TravellingDataSource
from spark_random_strings.options import PYTHON_FORMAT


class RandomStringsDataSource(TravellingDataSource):
    """The ``InMemoryRandomStringsPython`` data source: the ``InMemoryRandomStrings`` stream,
    with the same options, defaults and messages, read by Python workers."""

    reader_module = "spark_random_strings.strings.reader"

    @classmethod
    def name(cls) -> str:
        return PYTHON_FORMAT
