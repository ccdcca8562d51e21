"""The ``changesPython`` data source (Spark 4.0+): the jar-less engine of the change streams, whose
reader (``changes.reader``) travels with the client."""

from __future__ import annotations

from spark_random_strings.changes.keywords import CHANGES_PYTHON_FORMAT
from spark_random_strings.engine.python_sources import TravellingDataSource


class ChangesDataSource(TravellingDataSource):
    """The ``changesPython`` data source: the ``changes`` stream, with the same options, defaults
    and messages, read by Python workers."""

    reader_module = "spark_random_strings.changes.reader"

    @classmethod
    def name(cls) -> str:
        return CHANGES_PYTHON_FORMAT
