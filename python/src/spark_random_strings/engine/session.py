"""The jar on a session: ``configure_spark_with_random_strings``, whether a session's driver has
it, and a session setting held for a block."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from spark_random_strings.engine.jar import jar_path

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

#: The jar's ``SparkSessionExtensions``: they plan the source's batches as its own scan.
EXTENSIONS = "io.github.sparkrandomstrings.RandomStringsExtensions"


def configure_spark_with_random_strings(
    builder: SparkSession.Builder,
) -> SparkSession.Builder:
    """Add the bundled jar to ``spark.jars`` of a session builder, and its session extensions to
    ``spark.sql.extensions``, keeping what those settings hold already.

    The jar is the one built for the Spark that pyspark runs here
    ([`jar_path`][spark_random_strings.jar_path]). The extensions (``EXTENSIONS``) plan the source's
    batches as its own scan; a session started without them gets that scan from ``load()`` instead.
    Call it before ``getOrCreate()``: both must be on the session from its start.

    Examples:
        >>> from pyspark.sql import SparkSession
        >>> builder = SparkSession.builder.master("local[2]").config("spark.jars", "/opt/other.jar")
        >>> spark = configure_spark_with_random_strings(builder).getOrCreate()  # doctest: +SKIP
        >>> spark.conf.get("spark.jars")  # doctest: +SKIP
        '/opt/other.jar,/.../spark_random_strings/jars/spark-random-strings-spark4.3_2.13-....jar'

    Args:
        builder: a ``SparkSession.builder``, configured as you like.

    Returns:
        The same builder, with the jar appended to ``spark.jars`` and the extensions to
        ``spark.sql.extensions``.

    For Spark Connect, the jar belongs on the server instead: start it with
    ``--jars`` and the path that [`jar_path`][spark_random_strings.jar_path] returns.

    Raises:
        TypeError: ``builder`` is not a ``SparkSession.Builder``.
        ValueError: ``builder`` connects to a Spark Connect server (``remote("sc://...")``),
            whose class path a client cannot change.
        UnsupportedSparkError: no bundled jar is built for the Spark that pyspark runs here.
        FileNotFoundError: the package holds no jar (see [`jar_path`][spark_random_strings.jar_path]).
    """
    from pyspark.sql import SparkSession

    if not isinstance(builder, SparkSession.Builder):
        raise TypeError(
            "configure_spark_with_random_strings expects a SparkSession.Builder (for example "
            f"SparkSession.builder.master('local[2]')), got {type(builder).__name__}"
        )
    ours = str(jar_path())
    # pyspark keeps a builder's settings in ``_options``; it has no public getter for them.
    settings = getattr(builder, "_options", {})
    remote = str(settings.get("spark.remote") or "")
    if remote.startswith("sc://"):
        raise ValueError(
            f"This builder connects to the Spark Connect server {remote}, and a client cannot add "
            "jars to a server: start the server with the jar instead, for example "
            "`spark-submit --class org.apache.spark.sql.connect.service.SparkConnectServer "
            f"--jars {ours}`."
        )
    builder.config("spark.jars", _appended(settings.get("spark.jars"), ours))
    return builder.config("spark.sql.extensions", _appended(settings.get("spark.sql.extensions"), EXTENSIONS))


def _appended(setting: object, item: str) -> str:
    """A comma-separated setting with ``item`` at its end, once."""
    items = [each.strip() for each in str(setting or "").split(",") if each.strip()]
    if item not in items:
        items.append(item)
    return ",".join(items)


def driver_loads(spark: SparkSession, name: str) -> bool:
    """Whether the session's driver can load the class ``name`` (one of the jar's), as Spark loads
    the classes a query names: False on Spark Connect, whose client has no JVM, and on a session
    whose jar came after its JVM started (as under spark-submit without ``--jars``)."""
    from py4j.protocol import Py4JJavaError  # type: ignore[import-untyped]

    jvm = getattr(spark, "_jvm", None)  # a Spark Connect session has none
    if jvm is None:
        return False
    loader = jvm.org.apache.spark.util.Utils.getContextOrSparkClassLoader()
    try:
        jvm.java.lang.Class.forName(name, False, loader)
    except Py4JJavaError:  # ClassNotFoundException
        return False
    return True


@contextlib.contextmanager
def session_setting(spark: SparkSession, key: str, value: str) -> Iterator[None]:
    """Inside, the session's setting ``key`` is ``value``; afterwards what it was, and unset again
    if it was unset: a setting left at its default's value is not an unset one (real-time mode
    refuses a stateful query whose state store is *set* to another than RocksDB's, the default's
    value included)."""
    before = spark.conf.get(key, None)
    spark.conf.set(key, value)
    try:
        yield
    finally:
        if before is None:
            spark.conf.unset(key)
        else:
            spark.conf.set(key, before)
