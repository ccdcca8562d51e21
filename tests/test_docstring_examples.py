"""The examples in the package's docstrings run, and print what they say: each module's examples as
``doctest`` runs them. Those that need a Spark session (``spark``) are marked ``+SKIP``; the
end-to-end tests run the same calls."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import spark_random_strings

MODULES = sorted(
    m.name for m in pkgutil.walk_packages(spark_random_strings.__path__, "spark_random_strings.")
)
#: The modules whose docstrings hold examples that run without Spark: each must run at least one.
RUNNING = {
    "spark_random_strings.changes.expected",
    "spark_random_strings.engine.jar",
    "spark_random_strings.engine.session",
    "spark_random_strings.nexmark.oracle",
    "spark_random_strings.options",
    "spark_random_strings.randomness.keyed_permutation",
    "spark_random_strings.strings.expected",
    "spark_random_strings.time.manual_clock",
    "spark_random_strings.typed.fields.options",
}


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_each_module_print_what_they_say(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    assert result.failed == 0, f"{result.failed} of {name}'s examples printed something else"
    assert (result.attempted > 0) == (name in RUNNING), f"{name} runs {result.attempted} examples"
