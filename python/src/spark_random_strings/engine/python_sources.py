"""The streams as pyspark Python data sources (Spark 4.0+), whose code travels with the client: the
base of ``InMemoryRandomStringsPython`` (``strings.python_source``, the JVM source's
``RandomStringsSourceProvider.scala``) and ``nexmarkPython`` (``nexmark.python_source``,
``NexmarkSourceProvider.scala``), the same rows as the jar's sources, made in the Python workers
of the Spark that runs the query: the random strings by the numpy row function, the Nexmark events
by the Python twin of the generator.

It needs no jar and nothing of this package on the server: :func:`register` registers the data
source with the modules it runs pickled by value, so the code travels with the client (the only
imports left for the server's Python are pyspark, numpy and pyarrow, which pyspark's Arrow path
needs anyway). That is what a Spark Connect server one does not control allows.

The data source class itself needs only pyspark: the reader's code (``strings.reader``,
``nexmark.reader``) travels inside it as bytes, unpickled only once the worker's Python is known
to have numpy and pyarrow. So a worker Python without them (a virtual environment's packages, but
the system's Python running the workers, say) fails at ``load()`` with a message that names that
Python and what it lacks, not with a ``ModuleNotFoundError`` from deep inside Spark.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyspark.sql.datasource import DataSource, DataSourceStreamReader

if TYPE_CHECKING:
    from pyspark.sql import SparkSession
    from pyspark.sql.types import StructType

#: What the reader's code imports besides pyspark.
ROW_LIBRARIES = ("numpy", "pyarrow")


class TravellingDataSource(DataSource):
    """A data source whose reader's code travels with it, pickled by value (:func:`register`): each
    source names the module of its reader, which has ``checked_schema`` and ``stream_reader``."""

    #: The module of the reader, by its full name (a string: this module imports no source).
    reader_module: str = ""

    #: The reader module's entry points, ``checked_schema`` and ``stream_reader``, pickled by value.
    implementation: bytes = b""

    def schema(self) -> StructType:
        # Spark asks for the schema at load(): the options are checked there, as the jar's are.
        checked_schema, _ = self._implementation()
        return checked_schema(dict(self.options))  # type: ignore[no-any-return]

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        _, stream_reader = self._implementation()
        return stream_reader(dict(self.options), schema)  # type: ignore[no-any-return]

    def _implementation(self) -> tuple[Any, Any]:
        """The reader's code, in the Python Spark runs this data source in, once that Python is
        known to have what the code imports."""
        import importlib.util
        import platform
        import sys

        from pyspark import cloudpickle

        missing = [name for name in ROW_LIBRARIES if importlib.util.find_spec(name) is None]
        if missing:
            raise RuntimeError(
                f"The {self.name()} source makes its rows with {' and '.join(ROW_LIBRARIES)} in the "
                f"Python that Spark runs for Python data sources, {sys.executable} (Python "
                f"{platform.python_version()}), which lacks {' and '.join(missing)}. Install "
                f"{' and '.join(missing)} there, or start the session with spark.pyspark.python (or "
                "the PYSPARK_PYTHON variable) set to a Python that has them, such as the one this "
                "program runs in."
            )
        entry_points: tuple[Any, Any] = cloudpickle.loads(self.implementation)
        return entry_points


def travelling_modules(source: type[TravellingDataSource]) -> list[str]:
    """The modules the data source runs, which travel pickled by value so that the server needs
    none of them: this one, the source's own and its reader's, and every module of the package they
    use, followed through the names each module imports (a function or class of another module
    makes that module travel too; a constant is pickled as its value)."""
    import importlib
    from types import ModuleType

    package = __name__.partition(".")[0] + "."
    found: list[str] = []
    todo = [__name__, source.__module__, source.reader_module]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found.append(name)
        for value in vars(importlib.import_module(name)).values():
            used = value.__name__ if isinstance(value, ModuleType) else getattr(value, "__module__", None)
            if isinstance(used, str) and used.startswith(package) and used not in found:
                todo.append(used)
    return sorted(found)


def register(spark: SparkSession, source: type[TravellingDataSource]) -> None:
    """Register a Python data source with a session (classic or Spark Connect), its code pickled
    by value so that the server's Python needs nothing of this package."""
    import importlib

    from pyspark import cloudpickle

    for name in travelling_modules(source):
        cloudpickle.register_pickle_by_value(importlib.import_module(name))  # type: ignore[no-untyped-call]
    module = importlib.import_module(source.reader_module)
    entry_points = (module.checked_schema, module.stream_reader)
    implementation = cloudpickle.dumps(entry_points)  # type: ignore[no-untyped-call]
    travelling = type(source.__name__, (source,), {"implementation": implementation, "__module__": __name__})
    spark.dataSource.register(travelling)
