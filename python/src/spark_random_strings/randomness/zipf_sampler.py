"""Zipf ranks (the JVM source's ``ZipfSampler.scala``): rejection-inversion sampling, each round
over the rows still drawing, with StrictMath's functions so that every rank is the JVM's."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from spark_random_strings.randomness import strictmath as strict
from spark_random_strings.randomness.counter_random import I64, U64, longs, unit_doubles


class ZipfSampler:
    """Ranks in [1, n] with probability proportional to 1 / k^s (the JVM's ``ZipfSampler``)."""

    def __init__(self, n: int, exponent: float) -> None:
        self.n, self.exponent = n, exponent
        self.one_minus_s = 1.0 - exponent
        self.h_integral_x1 = float(self.h_integral(np.array([1.5]))[0]) - 1.0
        self.h_integral_n = float(self.h_integral(np.array([n + 0.5]))[0])
        two = float(self.h_integral(np.array([2.5]))[0]) - float(self.h(np.array([2.0]))[0])
        self.squeeze = 2.0 - float(self.h_integral_inverse(np.array([two]))[0])

    def h(self, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        return strict.portable_exp(-self.exponent * strict.log(x))

    def h_integral(self, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        log_x = strict.log(x)
        return _expm1_over_x(self.one_minus_s * log_x) * log_x

    def h_integral_inverse(self, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        t = np.maximum(x * self.one_minus_s, -1.0)
        return strict.portable_exp(_log1p_over_x(t) * x)

    def sample(self, keys: U64) -> I64:
        """The rank each stream draws (its numbers 0, 1, ... until one is accepted)."""
        ranks = np.zeros(keys.shape, np.int64)
        todo = np.arange(len(keys))
        number = 0
        while len(todo):
            u = self.h_integral_n + unit_doubles(longs(keys[todo], number)) * (
                self.h_integral_x1 - self.h_integral_n
            )
            x = self.h_integral_inverse(u)
            k = np.clip(np.trunc(np.nan_to_num(x + 0.5)), 1.0, float(self.n))
            with np.errstate(invalid="ignore", divide="ignore"):
                accepted = (k - x <= self.squeeze) | (u >= self.h_integral(k + 0.5) - self.h(k))
            ranks[todo[accepted]] = k[accepted].astype(np.int64)
            todo = todo[~accepted]
            number += 1
        return ranks


def _expm1_over_x(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(np.abs(x) > 1e-8, strict.expm1(x) / x, 1.0 + x * 0.5 * (1.0 + x / 3.0))


def _log1p_over_x(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(np.abs(x) > 1e-8, strict.log1p(x) / x, 1.0 - x * (0.5 - x / 3.0))
