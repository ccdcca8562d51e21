"""What a write asks of its folders (``write.folder`` checks it): the command, its ``--output`` and
``--checkpoint``, its file format and the stream it writes, with how to read and check that stream
in a checkpoint; and the refusal of folders that are not its own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

S = TypeVar("S")


class FolderRefused(Exception):
    """The write's --output or --checkpoint is not the write's own: a usage error of the flag it
    names (exit status 2), with nothing touched."""


@dataclass(frozen=True)
class WrittenStream(Generic[S]):
    """What a write makes, for the checks of the stream its checkpoint holds."""

    #: What the rows are, as messages say it: a value of ``DEFINITION_FILES``.
    what: str
    #: Whether the Python data source reads it (it keeps the stream in each offset) or the jar's.
    python_engine: bool
    #: The jar source's file of the stream, a key of ``DEFINITION_FILES``.
    definition_file: str
    #: The stream a checkpoint holds, from its JSON; raises ValueError.
    read: Callable[[object, str], S]
    #: Refuses flags that contradict the stored stream: ValueError with the source's restart message.
    check: Callable[[S, str], None]


@dataclass(frozen=True)
class WriteRequest:
    """A run's folders and what it writes into them."""

    #: The command, as a message names it: ``write``, ``nexmark --output`` or ``changes --output``.
    command: str
    output: str
    #: As given; None: the default, ``_checkpoint`` in the output folder.
    checkpoint: str | None
    file_format: str
    stream: WrittenStream[Any]

    @property
    def checkpoint_flag(self) -> str:
        """The flag that says where the checkpoint is: --output, for the default."""
        return "--checkpoint" if self.checkpoint else "--output"

    @property
    def new_folder(self) -> str:
        """The way on from a folder that is not this write's."""
        return (
            "Give --output a new folder (one that does not exist yet, or is empty); or, to finish an "
            f"earlier write, its folder and the flags of the {self.command} run that made it."
        )
