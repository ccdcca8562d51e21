"""The records by which a write knows its own folders (``write.folder``): one in its output folder
naming its checkpoint, one in its checkpoint naming its output folder, and the data files its
query recorded before creating them (``RecordedFilesCommitProtocol.scala`` writes those)."""

from __future__ import annotations

import json
from typing import Any

from spark_random_strings.write.files import Files, child, inside

#: What the write keeps in its output folder (hidden from Spark's readers and pyarrow's by its "_").
OWN_FOLDER = "_spark_random_strings"
OUTPUT_RECORD = f"{OWN_FOLDER}/write.json"
#: An empty file per data file the write's query is about to create: the JVM's
#: ``RecordedFilesCommitProtocol.PendingFolder``.
PENDING = f"{OWN_FOLDER}/pending"
#: The write's record in its checkpoint.
CHECKPOINT_RECORD = "spark-random-strings-write.json"
RECORD_VERSION = 1


class UnreadableRecord(ValueError):
    """A record that is not version 1 JSON."""


def render(**fields: str) -> str:
    """A record's text."""
    return json.dumps({"version": RECORD_VERSION, **fields}, indent=1) + "\n"


def read_record(files: Files, path: str) -> dict[str, Any] | None:
    """The record at ``path``; None if there is none.

    Raises:
        UnreadableRecord: the file is not a record this version reads.
    """
    if files.kind(path) == "missing":
        return None
    try:
        record = json.loads(files.read_text(path))
    except (OSError, ValueError):
        record = None
    if not isinstance(record, dict) or record.get("version") != RECORD_VERSION:
        raise UnreadableRecord(f"{path} is not version {RECORD_VERSION} JSON")
    return record


def checkpoint_for_record(output: str, checkpoint: str) -> str:
    """The checkpoint as the output folder's record names it: relative when it lies inside the
    folder (``_checkpoint``), so that the pair can move together."""
    return checkpoint[len(output) + 1 :] if inside(checkpoint, output) else checkpoint


def recorded_checkpoint(output: str, recorded: object) -> str:
    """The checkpoint an output folder's record names."""
    if not isinstance(recorded, str):
        return repr(recorded)
    return recorded if recorded.startswith("/") or "://" in recorded else child(output, recorded)


def output_for_record(checkpoint: str, output: str) -> str:
    """The output folder as the checkpoint's record names it: relative (``..``) when the checkpoint
    lies inside it, so that the pair can move together."""
    if inside(checkpoint, output):
        return "/".join([".."] * checkpoint[len(output) + 1 :].count("/") + [".."])
    return output


def recorded_output(checkpoint: str, recorded: object) -> str:
    """The output folder a checkpoint's record names."""
    if not isinstance(recorded, str):
        return repr(recorded)
    if recorded.split("/")[0] != "..":
        return recorded
    path = checkpoint
    for _ in recorded.split("/"):
        path = path.rsplit("/", 1)[0]
    return path


def pending_files(files: Files, output: str) -> set[str]:
    """The data files of ``output`` that the write's query recorded before creating them."""
    return {entry.name for entry in files.entries(child(output, PENDING)) if not entry.name.startswith(".")}


def clear_pending(files: Files, output: str) -> None:
    """Forget the recorded files, once the clean-up has kept or removed each (no query running)."""
    files.delete(child(output, PENDING))
