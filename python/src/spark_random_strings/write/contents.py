"""What a write's folders hold, read as the checks need it (``write.folder``): a checkpoint's
batches and stream, a file sink's log, and a folder described in a message."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from spark_random_strings.write.files import Entry, Files, child

#: The file sink's log, in the output folder.
SINK_LOG = "_spark_metadata"
#: The files in which the jar's sources keep their stream (in ``sources/0`` of the checkpoint),
#: and what each makes.
STRINGS_FILE = "random-strings-source.json"
NEXMARK_FILE = "nexmark-source.json"
#: A change stream keeps its change options in this file, beside its rows' definition in
#: ``STRINGS_FILE``: the two are one stream, of changes.
CHANGES_FILE = "changes-source.json"
DEFINITION_FILES = {STRINGS_FILE: "random strings", NEXMARK_FILE: "Nexmark events", CHANGES_FILE: "changes"}
#: The names Spark's file writers give their data files: ``part-<task>-<uuid>-c<file>.<extension>``,
#: e.g. ``part-00001-6c1f…-c000.snappy.parquet``.
_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
SINK_FILE = re.compile(rf"part-\d{{5,}}-{_UUID}-c\d{{3,}}\..+")
#: A batch's file in a Spark log (the sink's, the checkpoint's offsets and commits).
_BATCH = re.compile(r"(\d+)(\.compact)?")


@dataclass(frozen=True)
class CheckpointContents:
    """What a checkpoint folder holds, as the checks need it."""

    #: The last batch in its offset log and in its commit log (None: none).
    offsets: int | None
    commits: int | None
    #: The jar sources' stream files it holds (``DEFINITION_FILES``'s keys): a change stream's
    #: ``CHANGES_FILE`` alone, its rows' definition being part of it.
    definition_files: list[str]
    #: The stream the Python data source keeps in its last offset (parsed JSON), if it is one.
    python_stream: object

    @property
    def started(self) -> bool:
        """Whether a query planned a batch here, or stored a stream."""
        return self.offsets is not None or bool(self.definition_files)

    def described(self) -> str:
        """The checkpoint in a message."""
        if self.offsets is None:
            return "a streaming query's checkpoint with no batch planned"
        committed = "none committed" if self.commits is None else f"committed up to {self.commits}"
        return f"a streaming query's checkpoint (batches planned up to {self.offsets}, {committed})"

    @staticmethod
    def read(files: Files, checkpoint: str) -> CheckpointContents:
        """What ``checkpoint`` holds; nothing, if it is missing."""
        offsets = max(batches(files, child(checkpoint, "offsets")), default=None)
        commits = max(batches(files, child(checkpoint, "commits")), default=None)
        sources = {e.name for e in files.entries(child(checkpoint, "sources/0"))}
        python_stream = None
        if offsets is not None:
            try:
                lines = files.read_text(child(checkpoint, f"offsets/{offsets}")).splitlines()
                offset = json.loads(lines[2]) if len(lines) > 2 else None
            except (OSError, ValueError):
                offset = None
            if isinstance(offset, dict) and "stream" in offset and "offset" in offset:
                python_stream = offset["stream"]
        stored = sorted(name for name in DEFINITION_FILES if name in sources)
        if CHANGES_FILE in stored:
            stored = [CHANGES_FILE]
        return CheckpointContents(offsets, commits, stored, python_stream)


def python_stream_kind(stream: object) -> str:
    """What the stream a Python data source keeps in its offsets makes, as ``DEFINITION_FILES``
    names it: a change stream's holds its rows' definition and its change options, the Nexmark
    events' a configuration, the random strings' a definition (and anything else counts as theirs).

    The stream's keys are all there is to tell: a Python data source keeps its stream in each
    offset alone (``{"offset": n, "stream": ...}``, ``offsets.reader``), as its ``stream_to_json``
    writes it, and neither the offset log nor ``sources/0`` names the source."""
    if isinstance(stream, dict):
        if "definition" in stream and "changes" in stream:
            return DEFINITION_FILES[CHANGES_FILE]
        if "config" in stream:
            return DEFINITION_FILES[NEXMARK_FILE]
    return DEFINITION_FILES[STRINGS_FILE]


def stored_stream(files: Files, checkpoint: str, name: str) -> object:
    """The stream the jar's source keeps in the stream file ``name`` of ``checkpoint``, as parsed
    JSON: a change stream's as the Python data source keeps it in its offsets (its rows' definition
    and its change options), which reads both the same way.

    Raises:
        OSError, ValueError: a file cannot be read or is not JSON.
    """
    sources = child(checkpoint, "sources/0")
    stored = json.loads(files.read_text(child(sources, name)))
    if name != CHANGES_FILE:
        return stored
    return {"definition": json.loads(files.read_text(child(sources, STRINGS_FILE))), "changes": stored}


def batches(files: Files, log: str) -> list[int]:
    """The batches a Spark log folder holds files of (``7``, or ``9.compact`` after a compaction)."""
    found = []
    for entry in files.entries(log):
        match = _BATCH.fullmatch(entry.name)
        if match and not entry.is_folder:
            found.append(int(match.group(1)))
    return found


def sink_log_listing(files: Files, log: str) -> tuple[int, int]:
    """How many data files a file sink's log lists, and in how many batches."""
    found = sorted(batches(files, log))
    if not found:
        return 0, 0
    compacted = [b for b in found if files.kind(child(log, f"{b}.compact")) == "file"]
    start = max(compacted, default=None)
    listed: set[str] = set()
    for batch in found:
        if start is not None and batch < start:
            continue
        try:
            lines = files.read_text(child(log, f"{batch}.compact" if batch == start else str(batch)))
        except OSError:
            continue
        for line in lines.splitlines()[1:]:  # after the log's version, "v1"
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict) and isinstance(entry.get("path"), str):
                (listed.discard if entry.get("action") == "delete" else listed.add)(entry["path"])
    return len(listed), found[-1] + 1


def described(files: Files, output: str, entries: list[Entry]) -> str:
    """What a folder holds, in a message: how many files and folders, and whose they look like."""
    folders = [e for e in entries if e.is_folder]
    hidden = [e.name for e in entries if not e.is_folder and e.name.startswith(".")]
    visible = [e.name for e in entries if not e.is_folder and not e.name.startswith(".")]
    data = [name for name in visible if SINK_FILE.fullmatch(name)]
    others = [name for name in visible if not SINK_FILE.fullmatch(name)]
    parts: list[str] = []
    if data:
        parts.append(
            f"{_count(len(data), 'data file')} named as Spark's file writers name theirs ({_some(data)})"
        )
    if others:
        parts.append(_some(others))
    for folder in folders:
        path = child(output, folder.name)
        if folder.name == SINK_LOG:
            listed, logged = sink_log_listing(files, path)
            parts.append(
                f"{SINK_LOG}, the log of a streaming query's file sink, listing {_count(listed, 'file')} in "
                f"{_count(logged, 'batch', 'batches')}"
            )
        elif files.kind(child(path, "offsets")) == "folder" or files.kind(child(path, "metadata")) == "file":
            parts.append(f"{folder.name}, {CheckpointContents.read(files, path).described()}")
        else:
            parts.append(f"the folder {folder.name}")
    if not parts:
        parts.append(_some(hidden))
    if not visible and not folders:
        return f"{_count(len(hidden), 'hidden file')}: {'; '.join(parts)}"
    besides = f", besides {_count(len(hidden), 'hidden file')}" if hidden else ""
    return f"{_count(len(visible), 'file')} and {_count(len(folders), 'folder')}{besides}: {'; '.join(parts)}"


def unlisted_files(entries: list[Entry], committed: set[str]) -> list[str]:
    """The files in ``entries`` named as Spark's file writers name data files that ``committed`` lacks."""
    return sorted(
        e.name for e in entries if not e.is_folder and SINK_FILE.fullmatch(e.name) and e.name not in committed
    )


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else many or one + 's'}"


def _some(names: list[str]) -> str:
    return ", ".join(names[:3]) + (f" and {len(names) - 3:,} more" if len(names) > 3 else "")
