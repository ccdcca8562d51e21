"""The Python engine's fresh string values (``text/string_column.py``): the short values' table of
draws, each 64-bit number mixed once for two characters, makes exactly the values of the general
path, draw by draw, the rows with a rejected draw included. The jar's rows are the same values
(``tests/digests``, read through the Python engine on every line that has it)."""

from __future__ import annotations

import numpy as np
import pytest

from spark_random_strings.randomness.counter_random import bounded, draws32, stream_keys
from spark_random_strings.text.character_set import named_set
from spark_random_strings.text.string_column import SHORT_VALUES, StringColumn
from spark_random_strings.text.string_values import StringValues


def column(min_length: int, max_length: int, charset: str) -> StringColumn:
    return StringColumn(42, StringValues(min_length, max_length, named_set("charset", charset)))


@pytest.mark.parametrize(
    ("min_length", "max_length", "charset"),
    [
        (0, 0, "hex"),
        (0, 4, "alphanumeric"),
        (8, 8, "digits"),
        (3, 17, "ascii"),
        (0, SHORT_VALUES - 1, "letters"),
    ],
)
def test_short_values_are_the_general_paths_values_draw_for_draw(
    min_length: int, max_length: int, charset: str
) -> None:
    made = column(min_length, max_length, charset)
    keys = stream_keys(made.seed, np.arange(5_000, 25_000, dtype=np.int64))
    lengths, indexes = made.short_indexes(keys)
    general_lengths, general_indexes = made.drawn_indexes(keys)
    assert lengths.tolist() == general_lengths.tolist()
    assert indexes.tolist() == general_indexes.tolist()
    assert int(lengths.min()) == min_length and int(lengths.max()) == max_length


def test_the_rows_whose_draw_is_rejected_are_made_by_the_general_path_in_their_places() -> None:
    # Over a million characters in the set: about one draw in 4,000 is rejected, and shifts the
    # row's later draws.
    made = column(0, 6, "unicode")
    keys = stream_keys(made.seed, np.arange(40_000, dtype=np.int64))
    lengths, indexes = made.short_indexes(keys)
    general_lengths, general_indexes = made.drawn_indexes(keys)
    assert lengths.tolist() == general_lengths.tolist()
    assert indexes.tolist() == general_indexes.tolist()
    # Some row draws a rejected first character, so the test covers the remade rows.
    first_characters = draws32(keys, np.ones(len(keys), np.int64))
    assert bounded(first_characters, made.values.characters.size)[1][lengths > 0].any()
