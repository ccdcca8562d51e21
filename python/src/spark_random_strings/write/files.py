"""The few file operations a write's folder checks need, on two stores: this machine's file system,
read before Spark starts, and any store Spark writes to (HDFS, object stores), through Hadoop's
``FileSystem`` in the running session's JVM. The checks (``write.folder``) are written once,
against :class:`Files`, and run on either.

Paths are strings: on this machine absolute paths, elsewhere qualified URIs
(``hdfs://host:8020/data/out``), both as :meth:`Files.absolute` gives them, so that one path is
inside another exactly when it starts with it and a slash.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol
from urllib.parse import urlparse

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

Kind = Literal["missing", "file", "folder"]

#: The environment variables with which a Hadoop configuration can make a path without a scheme
#: mean a store other than this machine's (``fs.defaultFS``).
HADOOP_CONFIGURATION = ("HADOOP_CONF_DIR", "YARN_CONF_DIR")


@dataclass(frozen=True)
class Entry:
    """One entry of a folder."""

    name: str
    is_folder: bool
    size: int


class Files(Protocol):
    """A store's files, as the folder checks use them."""

    def absolute(self, path: str) -> str:
        """``path`` in the form every other method takes and ``inside`` compares."""

    def kind(self, path: str) -> Kind:
        """What is at ``path``."""

    def entries(self, path: str) -> list[Entry]:
        """The entries of the folder ``path``, by name; none if it is missing."""

    def read_text(self, path: str) -> str:
        """The text of the file ``path`` (UTF-8)."""

    def write_text(self, path: str, text: str) -> None:
        """Write the file ``path`` whole, making its folders: readers see the old file or the new one."""

    def delete(self, path: str) -> None:
        """Delete the file or the folder ``path`` (with what it holds); nothing if it is missing."""


def child(folder: str, name: str) -> str:
    """The path of ``name`` (one or more names, slash-separated) in ``folder``."""
    return f"{folder.rstrip('/')}/{name}"


def inside(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or lies under it (both from ``Files.absolute``)."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def local_path(path: str) -> str | None:
    """``path`` on this machine, if it names a file of this machine for Spark too: a ``file:`` URI,
    or a path without a scheme where no Hadoop configuration could give it another store
    (``HADOOP_CONF_DIR``, ``YARN_CONF_DIR``); else None."""
    parsed = urlparse(path)
    if parsed.scheme == "file":
        return parsed.path or "/"
    if len(parsed.scheme) > 1 or any(os.environ.get(name) for name in HADOOP_CONFIGURATION):
        return None  # a URI of another store, or a default store that the configuration may change
    return path


class LocalFiles:
    """This machine's file system."""

    def absolute(self, path: str) -> str:
        return os.path.abspath(local_path(path) or path)

    def kind(self, path: str) -> Kind:
        target = Path(path)
        if target.is_dir():
            return "folder"
        return "file" if target.exists() or target.is_symlink() else "missing"

    def entries(self, path: str) -> list[Entry]:
        if not Path(path).is_dir():
            return []
        return sorted(
            (Entry(e.name, e.is_dir(), 0 if e.is_dir() else e.stat().st_size) for e in os.scandir(path)),
            key=lambda entry: entry.name,
        )

    def read_text(self, path: str) -> str:
        return Path(path).read_text(encoding="utf-8")

    def write_text(self, path: str, text: str) -> None:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        # Named with a leading dot: hidden from Spark's readers and pyarrow's while it is written.
        descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, target)

    def delete(self, path: str) -> None:
        target = Path(path)
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
            return
        target.unlink(missing_ok=True)
        # Hadoop's local file system keeps a checksum beside each file it writes.
        target.with_name(f".{target.name}.crc").unlink(missing_ok=True)


class HadoopFiles:
    """Any store Spark writes to, through Hadoop's ``FileSystem`` in ``spark``'s JVM."""

    def __init__(self, spark: SparkSession) -> None:
        jvm = spark._jvm
        assert jvm is not None, "the write runs on a local (classic) session"
        self._jvm = jvm
        self._configuration = spark._jsc.hadoopConfiguration()

    def _path(self, path: str):  # type: ignore[no-untyped-def]
        return self._jvm.org.apache.hadoop.fs.Path(path)

    def _fs(self, path: str):  # type: ignore[no-untyped-def]
        return self._path(path).getFileSystem(self._configuration)

    def absolute(self, path: str) -> str:
        target = self._path(path)
        return str(target.getFileSystem(self._configuration).makeQualified(target).toString()).rstrip("/")

    def scheme(self, path: str) -> str:
        """The scheme of the store that holds ``path`` (``file`` for this machine's)."""
        return str(self._fs(path).getUri().getScheme() or "file")

    def kind(self, path: str) -> Kind:
        fs, target = self._fs(path), self._path(path)
        if not fs.exists(target):
            return "missing"
        return "folder" if fs.getFileStatus(target).isDirectory() else "file"

    def entries(self, path: str) -> list[Entry]:
        if self.kind(path) != "folder":
            return []
        statuses = self._fs(path).listStatus(self._path(path))
        return sorted(
            (Entry(str(s.getPath().getName()), bool(s.isDirectory()), int(s.getLen())) for s in statuses),
            key=lambda entry: entry.name,
        )

    def read_text(self, path: str) -> str:
        from py4j.protocol import Py4JJavaError  # type: ignore[import-untyped]

        try:
            stream = self._fs(path).open(self._path(path))
            try:
                return str(self._jvm.org.apache.commons.io.IOUtils.toString(stream, "UTF-8"))
            finally:
                stream.close()
        except Py4JJavaError as error:
            raise OSError(f"cannot read {path}: {error.java_exception}") from None

    def write_text(self, path: str, text: str) -> None:
        fs, target = self._fs(path), self._path(path)
        temporary = self._path(child(path.rsplit("/", 1)[0], f".{target.getName()}.tmp"))
        out = fs.create(temporary, True)
        try:
            out.write(bytearray(text.encode("utf-8")))
        finally:
            out.close()
        fs.delete(target, False)
        if not fs.rename(temporary, target):
            raise OSError(f"could not rename {temporary} to {target}")

    def delete(self, path: str) -> None:
        self._fs(path).delete(self._path(path), True)
