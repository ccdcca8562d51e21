"""Code points to UTF-8 (the JVM source's ``Utf8.scala``), for whole arrays of characters."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from spark_random_strings._counter_random import I64


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
