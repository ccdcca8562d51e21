"""The ``nexmarkPython`` data source (Spark 4.0+): the jar-less engine of the Nexmark events, whose
reader (``nexmark.reader``) travels with the client."""

from __future__ import annotations

from spark_random_strings.engine.python_sources import TravellingDataSource
from spark_random_strings.nexmark.table import NEXMARK_PYTHON_FORMAT


class NexmarkDataSource(TravellingDataSource):
    """The ``nexmarkPython`` data source: the ``nexmark`` stream, with the same options, defaults
    and messages, read by Python workers."""

    reader_module = "spark_random_strings.nexmark.reader"

    @classmethod
    def name(cls) -> str:
        return NEXMARK_PYTHON_FORMAT
