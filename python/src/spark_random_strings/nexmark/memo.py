"""``memoized``: ``functools.cache`` for the code that travels to Python workers."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def memoized(function: Callable[[K], V]) -> Callable[[K], V]:
    """``function`` of one argument with each result kept, as ``functools.cache`` keeps them, but
    as a plain function: cloudpickle carries it by value to the Python workers with the rest of
    its module (``engine.python_sources.register``), where a ``functools.cache`` wrapper travels by reference,
    as an import of this package that a worker without it cannot do."""
    results: dict[K, V] = {}

    @functools.wraps(function)
    def memo(key: K) -> V:
        try:
            return results[key]
        except KeyError:
            value = results[key] = function(key)
            return value

    return memo
