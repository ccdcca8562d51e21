"""Whose folder a write's ``--output`` is: the write's own, or refused before anything is touched.

A write (``write``, ``nexmark --output``, ``changes --output``) owns the output folder it made
and the checkpoint its query keeps, and nothing else. Before its query first starts it records the pair
(``write.records``): one record in each, naming the other. While it runs, the file sink's
commit protocol records each data file before a task creates it, so that the clean-up after a
run deletes only files its own query made and its own log does not list.

:func:`check_folder` takes a run's ``--output`` and ``--checkpoint`` as its own when

- the output folder does not exist or is empty, and the checkpoint holds no batch (nothing, or
  only the record of a write to this folder: a first run stopped before its query started);
- or the folder holds this write's record, which names this checkpoint, this file format and this
  kind of stream, and the checkpoint holds the record naming this folder, a stream these flags
  continue (the source's own restart check and message, run here before Spark starts) and the
  batches the sink's log lists;
- or the folder is what a release before the records (0.1.0 to 0.6.0) left: only the sink's
  log, its data files and the checkpoint of this write's stream, at the batch the log is at. It is
  adopted: the records are written, and files that the log does not list stay (no record says
  whose they are).

Anything else is refused with a :class:`FolderRefused` that names the flag, the path, what is
there and the way on, and nothing is written: a file where a folder must be, a folder with
another writer's files or another query's ``_spark_metadata``, a checkpoint of another query or
of another stream, a record naming another checkpoint, format or folder, and a sink log that its
checkpoint does not account for (one of the two deleted or replaced by hand).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spark_random_strings.write.contents import (
    CHANGES_FILE,
    DEFINITION_FILES,
    SINK_FILE,
    SINK_LOG,
    STRINGS_FILE,
    CheckpointContents,
    batches,
    described,
    python_stream_kind,
    stored_stream,
)
from spark_random_strings.write.files import Entry, Files, child, inside
from spark_random_strings.write.records import (
    CHECKPOINT_RECORD,
    OUTPUT_RECORD,
    OWN_FOLDER,
    UnreadableRecord,
    checkpoint_for_record,
    output_for_record,
    read_record,
    recorded_checkpoint,
    recorded_output,
    render,
)
from spark_random_strings.write.request import FolderRefused, WriteRequest, WrittenStream

#: The checkpoint's default place in the output folder.
DEFAULT_CHECKPOINT = "_checkpoint"
#: What the folders in the output folder that the write keeps are, in messages.
_ROLES = {SINK_LOG: "file sink's log", OWN_FOLDER: "write's own records"}


@dataclass(frozen=True)
class Claim:
    """The folders a run may write: its output and its checkpoint, from ``Files.absolute``."""

    output: str
    checkpoint: str
    #: The records still to write before the query starts (path and text); none once both exist.
    records: tuple[tuple[str, str], ...]
    #: A folder that a release before the records made, adopted now.
    adopted: bool


def check_folder(files: Files, request: WriteRequest) -> Claim:
    """The run's folders, if they are its own (see the module's description).

    Raises:
        FolderRefused: they are not, naming the flag, the path, what is there and the way on.
    """
    output = files.absolute(request.output)
    checkpoint = files.absolute(request.checkpoint or child(request.output, DEFAULT_CHECKPOINT))
    _refuse_nesting(output, checkpoint)
    _refuse_files_in_the_way(files, output, "--output", request)
    _refuse_files_in_the_way(files, checkpoint, request.checkpoint_flag, request)
    for name, role in _ROLES.items():
        if files.kind(child(output, name)) == "file":
            raise FolderRefused(
                f"argument --output: {child(output, name)} is a file where the {role} must be a folder. "
                f"{request.new_folder}"
            )
    entries = files.entries(output)
    contents = CheckpointContents.read(files, checkpoint)
    record = _record(files, child(output, OUTPUT_RECORD), "--output", request)
    mark = _record(files, child(checkpoint, CHECKPOINT_RECORD), request.checkpoint_flag, request)
    records = (
        (
            child(output, OUTPUT_RECORD),
            render(
                checkpoint=checkpoint_for_record(output, checkpoint),
                format=request.file_format,
                what=request.stream.what,
            ),
        ),
        (child(checkpoint, CHECKPOINT_RECORD), render(output=output_for_record(checkpoint, output))),
    )
    if mark is not None and recorded_output(checkpoint, mark.get("output")) != output:
        other = recorded_output(checkpoint, mark.get("output"))
        raise FolderRefused(
            f"argument {request.checkpoint_flag}: {checkpoint} is the checkpoint of the write to {other}, "
            f"not to {output}. Finish that write with --output {other}, or give a new --checkpoint."
        )
    if record is None and not entries:
        _refuse_a_checkpoint_in_use(files, output, checkpoint, contents, mark is not None, request)
        return Claim(output, checkpoint, records, adopted=False)
    if record is None:
        if mark is not None or not _left_by_a_release(entries, output, checkpoint, contents, request):
            raise FolderRefused(
                f"argument --output: {output} holds {described(files, output, entries)}, and no record that "
                "a spark-random-strings write made it. A write never adds to, or deletes from, a folder it "
                f"did not make. {request.new_folder}"
            )
        _check_stream(files, checkpoint, contents, request)
        _check_sink_log(files, output, checkpoint, contents)
        return Claim(output, checkpoint, records, adopted=True)
    _check_record(record, output, checkpoint, request)
    if mark is None and contents.started:
        raise FolderRefused(
            f"argument {request.checkpoint_flag}: {checkpoint} holds {contents.described()}, and no record "
            f"that the write to {output} made it: it is another query's. Finish the write with the "
            "checkpoint that made it, or give --output a new folder."
        )
    _check_stream(files, checkpoint, contents, request)
    _check_sink_log(files, output, checkpoint, contents)
    return Claim(output, checkpoint, records if mark is None else (), adopted=False)


def take(files: Files, claim: Claim) -> None:
    """Write the claim's records, the output folder's first, before the query starts: from then on
    the folders are the write's."""
    for path, text in claim.records:
        if files.kind(path) == "missing":
            files.write_text(path, text)


def _record(files: Files, path: str, flag: str, request: WriteRequest) -> dict[str, Any] | None:
    try:
        return read_record(files, path)
    except UnreadableRecord as unreadable:
        raise FolderRefused(
            f"argument {flag}: {unreadable}: it is not a record of a write that this version reads. "
            f"{request.new_folder}"
        ) from None


def _check_record(record: dict[str, Any], output: str, checkpoint: str, request: WriteRequest) -> None:
    """The output folder's record names this run's checkpoint, format and kind of stream."""
    recorded = recorded_checkpoint(output, record.get("checkpoint"))
    if recorded != checkpoint:
        given = (
            "--checkpoint left out"
            if recorded == child(output, DEFAULT_CHECKPOINT)
            else f"--checkpoint {recorded}"
        )
        raise FolderRefused(
            f"argument {request.checkpoint_flag}: {output} is the folder of a write whose checkpoint is "
            f"{recorded}, not {checkpoint}. Finish it with {given}, as the run that made it; or give "
            "--output a new folder."
        )
    made = record.get("format")
    if made != request.file_format:
        raise FolderRefused(
            f"argument --format: {output} holds a write in {made}, and this run writes "
            f"{request.file_format}: a folder holds one format. Finish it with --format {made}, or give "
            "--output a new folder."
        )
    if record.get("what") != request.stream.what:
        raise FolderRefused(
            f"argument --output: {output} holds a write of {record.get('what')}, and this run writes "
            f"{request.stream.what}. {request.new_folder}"
        )


def _refuse_nesting(output: str, checkpoint: str) -> None:
    if inside(output, checkpoint):
        raise FolderRefused(
            f"argument --checkpoint: {checkpoint} would hold the output folder {output}: the query's "
            "checkpoint and its files need folders of their own. Leave --checkpoint out (the default is "
            f"{DEFAULT_CHECKPOINT} in the output folder), or give a folder outside --output."
        )
    for name, role in _ROLES.items():
        if inside(checkpoint, child(output, name)):
            raise FolderRefused(
                f"argument --checkpoint: {checkpoint} lies in {child(output, name)}, the {role}. Leave "
                "--checkpoint out, or give a folder outside --output."
            )


def _refuse_files_in_the_way(files: Files, path: str, flag: str, request: WriteRequest) -> None:
    """A file at ``path``, or at a folder above it, where the write must make folders."""
    way_on = (
        request.new_folder
        if flag == "--output"
        else "Give --checkpoint a folder that does not exist yet, or is empty; or leave it out (the "
        f"default is {DEFAULT_CHECKPOINT} in the output folder)."
    )
    above = path
    while True:
        kind = files.kind(above)
        if kind == "file":
            where = "is a file" if above == path else f"lies under {above}, which is a file"
            raise FolderRefused(
                f"argument {flag}: {path} {where}, and the write makes a folder there. {way_on}"
            )
        parent = above.rsplit("/", 1)[0]
        if kind == "folder" or parent in ("", above) or parent.endswith(":") or parent.endswith(":/"):
            return
        above = parent


def _refuse_a_checkpoint_in_use(
    files: Files,
    output: str,
    checkpoint: str,
    contents: CheckpointContents,
    marked: bool,
    request: WriteRequest,
) -> None:
    """An empty or missing output folder starts a write only with a checkpoint that holds no batch:
    nothing, or only a record naming this folder."""
    if not contents.started and all(e.name == CHECKPOINT_RECORD for e in files.entries(checkpoint)):
        return
    if not marked:
        raise FolderRefused(
            f"argument {request.checkpoint_flag}: {checkpoint} holds {contents.described()}, and no record "
            "that a spark-random-strings write made it: it is another query's. Give --checkpoint a new "
            "folder (one that does not exist yet, or is empty), or leave it out."
        )
    state = "empty" if files.kind(output) == "folder" else "gone"
    raise FolderRefused(
        f"argument --output: {output} is {state}, and the checkpoint {checkpoint} holds "
        f"{contents.described()} of the write to it: a run now would write only what comes after them, "
        f"and the folder would not hold all the rows. To write it again from the start, delete the "
        "checkpoint or give a new --checkpoint."
    )


def _left_by_a_release(
    entries: list[Entry], output: str, checkpoint: str, contents: CheckpointContents, request: WriteRequest
) -> bool:
    """Whether the folder is a write of a release before the records: only the sink's log, its data
    files (and their checksums) and, where it lies in the folder, the checkpoint, which holds this
    write's stream."""
    if request.stream.definition_file == CHANGES_FILE:
        return False  # no release before the records wrote change streams
    in_output = checkpoint[len(output) + 1 :].split("/")[0] if inside(checkpoint, output) else None
    stored = contents.definition_files + (["python"] if contents.python_stream is not None else [])
    if stored != ["python" if request.stream.python_engine else request.stream.definition_file]:
        return False
    python = contents.python_stream
    if python is not None and python_stream_kind(python) != request.stream.what:
        return False

    def belongs(entry: Entry) -> bool:
        if entry.is_folder:
            return entry.name in (SINK_LOG, in_output)
        name = entry.name
        if name.startswith(".") and name.endswith(".crc"):
            name = name[1:-4]
        return SINK_FILE.fullmatch(name) is not None

    return all(belongs(entry) for entry in entries)


def _check_stream(files: Files, checkpoint: str, contents: CheckpointContents, request: WriteRequest) -> None:
    """The stream the checkpoint holds is the one these flags make: the same source, the same engine
    and options that the source's restart check takes. A file it cannot read is left to the source,
    which refuses it with its own message when the query starts."""
    stream = request.stream
    for name in contents.definition_files:
        if name == STRINGS_FILE and stream.definition_file == CHANGES_FILE and contents.offsets is None:
            # A change stream's first start stores its rows' definition, then its change options: a
            # run stopped between the two left the first alone, which the source checks and goes on.
            continue
        if name != stream.definition_file:
            raise FolderRefused(
                f"argument {request.checkpoint_flag}: the checkpoint {checkpoint} holds a stream of "
                f"{DEFINITION_FILES[name]}, and this run writes {stream.what}. {request.new_folder}"
            )
        if stream.python_engine:
            raise FolderRefused(
                f"argument --engine: the checkpoint {checkpoint} is read by the jar's source, and --engine "
                "python reads the Python data source, which keeps its stream elsewhere. Finish the write "
                "with --engine jvm (or auto), as the run that made it."
            )
        # A change stream is two files: its messages name the folder that holds them.
        path = child(checkpoint, "sources/0" if name == CHANGES_FILE else f"sources/0/{name}")
        try:
            stored = stored_stream(files, checkpoint, name)
        except (OSError, ValueError):
            continue  # the source refuses it when the query starts, with its own message
        _check_stored(stream, stored, path, request)
    if contents.python_stream is not None:
        kind = python_stream_kind(contents.python_stream)
        if kind != stream.what:
            raise FolderRefused(
                f"argument {request.checkpoint_flag}: the checkpoint {checkpoint} holds a stream of {kind}, "
                f"and this run writes {stream.what}. {request.new_folder}"
            )
        if not stream.python_engine:
            raise FolderRefused(
                f"argument --engine: the checkpoint {checkpoint} is read by the Python data source "
                "(--engine python), which keeps its stream in the offset log. Finish the write with "
                "--engine python, as the run that made it."
            )
        _check_stored(stream, contents.python_stream, "the offset log of its checkpoint", request)
    if contents.offsets is not None and not contents.definition_files and contents.python_stream is None:
        raise FolderRefused(
            f"argument {request.checkpoint_flag}: {checkpoint} holds {contents.described()} of a source "
            f"other than this write's: it is another query's checkpoint. {request.new_folder}"
        )


def _check_stored(stream: WrittenStream[Any], stored: object, where: str, request: WriteRequest) -> None:
    """Refuse flags that contradict the stream ``stored`` (its JSON), with the source's message."""
    try:
        definition = stream.read(stored, where)
    except ValueError:
        return  # the source refuses it when the query starts, with its own message
    try:
        stream.check(definition, where)
    except ValueError as contradiction:
        raise FolderRefused(
            f"argument --output: {request.output} holds a write of another stream than these flags make. "
            f"{contradiction} To finish that write, give the flags of the {request.command} run that made "
            "it; to write this stream, give --output a new folder."
        ) from None


def _check_sink_log(files: Files, output: str, checkpoint: str, contents: CheckpointContents) -> None:
    """The sink's log and the checkpoint tell of the same batches: the sink lists batch n's files while
    the query runs batch n, after planning it (offsets) and before committing it (commits)."""
    last = max(batches(files, child(output, SINK_LOG)), default=None)
    if contents.commits is not None and (last is None or last < contents.commits):
        listed = "no batch" if last is None else f"batches up to {last}"
        raise FolderRefused(
            f"argument --output: the checkpoint {checkpoint} has committed batches up to "
            f"{contents.commits}, and the file sink's log in {output} ({SINK_LOG}) lists {listed}: the rows "
            "of the batches it lacks are not in the folder, and a run would not write them again. Give "
            "--output a new folder and a new checkpoint to write it again from the start."
        )
    if last is not None and (contents.offsets is None or last > contents.offsets):
        planned = "no batch" if contents.offsets is None else f"batches up to {contents.offsets}"
        raise FolderRefused(
            f"argument --output: the file sink's log in {output} ({SINK_LOG}) lists batches up to {last}, "
            f"and the checkpoint {checkpoint} planned {planned}: the log is another query's, or the "
            "checkpoint was replaced. Give --output a new folder."
        )
