"""What a checkpoint says when the stream it keeps cannot be read: the jar's file in the source's
folder, or a Python data source's offset (the JVM's ``MetadataFile.corrupt``)."""


class CorruptDefinitionError(ValueError):
    """A checkpoint's stored stream cannot be read as a stream definition."""


def corrupt(where: str, why: str) -> CorruptDefinitionError:
    """The error of the stored stream at ``where`` (``The offset in ...``), which is corrupt for
    ``why``: the JVM's reason, word for word, after ``is corrupt: ``."""
    return CorruptDefinitionError(f"{where} is corrupt: {why}")
