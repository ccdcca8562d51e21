"""What the commands that write files (``write``, ``nexmark --output``, ``changes --output``) write, for
the checks of their folders (``write.folder``): the request a run makes, and its check before Spark
starts."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from spark_random_strings.cli.changes import parsed_changes
from spark_random_strings.cli.nexmark import parsed_nexmark
from spark_random_strings.cli.options import parsed
from spark_random_strings.write.contents import CHANGES_FILE, DEFINITION_FILES, NEXMARK_FILE, STRINGS_FILE
from spark_random_strings.write.files import LocalFiles, local_path
from spark_random_strings.write.folder import check_folder
from spark_random_strings.write.request import WriteRequest, WrittenStream

if TYPE_CHECKING:
    from spark_random_strings.changes.rows import ChangeStream
    from spark_random_strings.nexmark.stream import NexmarkStream
    from spark_random_strings.rows.definition import StreamDefinition


def write_request(args: argparse.Namespace) -> WriteRequest:
    """The folders of a run of ``write``, ``nexmark --output`` or ``changes --output``, and the stream
    it writes.

    Raises:
        UsageError: a flag the source refuses.
    """
    python_engine = args.engine == "python"
    stream: WrittenStream[Any]
    if args.command == "nexmark":
        stream = _nexmark_stream(args, python_engine)
        command = "nexmark --output"
    elif args.command == "changes":
        stream = _changes_stream(args, python_engine)
        command = "changes --output"
    else:
        stream = _strings_stream(args, python_engine)
        command = "write"
    return WriteRequest(command, args.output.rstrip("/") or "/", args.checkpoint, args.file_format, stream)


def check_before_spark(request: WriteRequest) -> None:
    """Refuse folders that are not the write's own before Spark starts, where both are on this
    machine for Spark too (the write checks again, through Spark's file system, before it starts
    its query).

    Raises:
        FolderRefused: naming the flag, the path, what is there and the way on.
    """
    if (
        local_path(request.output) is not None
        and local_path(request.checkpoint or request.output) is not None
    ):
        check_folder(LocalFiles(), request)


def _strings_stream(args: argparse.Namespace, python_engine: bool) -> WrittenStream[StreamDefinition]:
    from spark_random_strings.offsets.definition_store import definition_from_json
    from spark_random_strings.rows.definition import check_restart

    options = parsed(args)
    return WrittenStream(
        DEFINITION_FILES[STRINGS_FILE],
        python_engine,
        STRINGS_FILE,
        definition_from_json,
        lambda stored, where: check_restart(stored, options.restarting(stored), where),
    )


def _nexmark_stream(args: argparse.Namespace, python_engine: bool) -> WrittenStream[NexmarkStream]:
    from spark_random_strings.nexmark.stream import check_restart, stream_from_json

    config = parsed_nexmark(args).config
    return WrittenStream(
        DEFINITION_FILES[NEXMARK_FILE],
        python_engine,
        NEXMARK_FILE,
        stream_from_json,
        lambda stored, where: check_restart(stored, config, where),
    )


def _changes_stream(args: argparse.Namespace, python_engine: bool) -> WrittenStream[ChangeStream]:
    from spark_random_strings.changes.store import check_restart, stream_from_json

    options = parsed_changes(args)
    return WrittenStream(
        DEFINITION_FILES[CHANGES_FILE],
        python_engine,
        CHANGES_FILE,
        stream_from_json,
        lambda stored, where: check_restart(stored, options, where),
    )
