"""Code points to UTF-8 (the JVM source's ``Utf8.scala``), for whole arrays of characters."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from spark_random_strings.randomness.counter_random import I64


def utf8_length(code_point: int) -> int:
    """How many bytes UTF-8 takes for ``code_point`` (``Utf8.length``)."""
    return 1 if code_point < 0x80 else 2 if code_point < 0x800 else 3 if code_point < 0x10000 else 4


def utf8(points: I64) -> tuple[npt.NDArray[np.uint8], I64]:
    """The UTF-8 bytes of code points, one after another, and each one's size in bytes."""
    sizes = 1 + (points >= 0x80) + (points >= 0x800) + (points >= 0x10000)
    sizes = sizes.astype(np.int64)
    at = np.cumsum(sizes) - sizes
    data = np.empty(int(sizes.sum()), np.uint8)
    for size, lead in ((1, 0x00), (2, 0xC0), (3, 0xE0), (4, 0xF0)):
        chosen = sizes == size
        p, where = points[chosen], at[chosen]
        data[where] = lead | (p >> (6 * (size - 1)))
        for k in range(1, size):
            data[where + k] = 0x80 | ((p >> (6 * (size - 1 - k))) & 0x3F)
    return data, sizes


def string_array(lengths: I64, points: I64, ascii: bool | None = None) -> pa.Array:
    """Arrow strings of ``lengths[i]`` code points each, the code points one after another;
    ``ascii`` says whether every point is below 0x80 (looked at where not said).

    Raises:
        ValueError: the strings hold more than 2 GiB, more than an Arrow string array can.
    """
    if ascii is None:
        ascii = len(points) == 0 or int(points.max()) < 0x80
    if ascii:
        data = points.astype(np.uint8)
        byte_lengths = lengths
    else:
        data, sizes = utf8(points)
        row = np.repeat(np.arange(len(lengths)), lengths)
        byte_lengths = np.bincount(row, weights=sizes, minlength=len(lengths)).astype(np.int64)
    ends = np.cumsum(byte_lengths)
    if len(ends) and ends[-1] > 2**31 - 1:
        raise ValueError("a batch of rows holds more than 2 GiB of strings; ask for fewer rows at a time")
    offsets = np.concatenate([[0], ends]).astype(np.int32)
    return pa.StringArray.from_buffers(len(lengths), pa.py_buffer(offsets), pa.py_buffer(data))
