"""What a checkpoint says when the stream it keeps cannot be read: the jar's file in the source's
folder, or a Python data source's offset (the JVM's ``MetadataFile.corrupt``)."""


class CorruptDefinitionError(ValueError):
    """A checkpoint's stored stream cannot be read as a stream definition."""
