"""Declared schemas and their ``fields.`` options drawn at random (typed columns,
docs/typed-columns.md), valid or broken.

:func:`draw_declared` draws a valid declaration: every supported type (BOOLEAN to TIMESTAMP_NTZ,
DECIMAL up to 38 digits, spelt in the DDL's other spellings too), ARRAY and STRUCT nested, names
that need backticks, every kind (random, sequence with and without an end, offset, eventTime in
each of its types, values picked uniformly, by weights or by Zipf's law), every property (min and
max, the four distributions and their parameters, the string options per column, patterns,
minSize and maxSize, element properties, nullRate) and option names in any case.

:func:`draw_broken` adds one fault that ``load()`` refuses to a valid declaration: an unknown
column or property, a value not of its column's type, min above max, weights that do not match
the values, nullRate on a NOT NULL column, a distinctValues the lengths and characters cannot
make, a DECIMAL bound outside its precision, a pattern that cannot be generated, and others; with
the text its message must hold (the column it names, quoted).

Both draw from a ``random.Random``: a seeded one (test_expected_rows.py's drawn definitions), or
one that Hypothesis controls (``st.randoms``, test_typed_properties.py).
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import random
from dataclasses import dataclass

from spark_random_strings.text.value_pool import pool_capacity

#: The kinds of atomic columns drawn, by their SQL names.
ATOMS = (
    "BOOLEAN",
    "TINYINT",
    "SMALLINT",
    "INT",
    "BIGINT",
    "FLOAT",
    "DOUBLE",
    "DECIMAL",
    "STRING",
    "BINARY",
    "DATE",
    "TIMESTAMP",
    "TIMESTAMP_NTZ",
)
#: How a DDL may spell each type (Spark's parser takes them all, in any case).
_SPELLINGS = {
    "BOOLEAN": ("BOOLEAN", "boolean"),
    "TINYINT": ("TINYINT", "BYTE"),
    "SMALLINT": ("SMALLINT", "SHORT"),
    "INT": ("INT", "INTEGER", "int"),
    "BIGINT": ("BIGINT", "LONG", "bigint"),
    "FLOAT": ("FLOAT", "REAL"),
    "DOUBLE": ("DOUBLE", "double"),
    "STRING": ("STRING", "string"),
    "BINARY": ("BINARY",),
    "DATE": ("DATE", "date"),
    "TIMESTAMP": ("TIMESTAMP", "TIMESTAMP_LTZ"),
    "TIMESTAMP_NTZ": ("TIMESTAMP_NTZ",),
}
_INTEGRALS = {"TINYINT": 7, "SMALLINT": 15, "INT": 31, "BIGINT": 63}
_LONG_MAX = 2**63 - 1
_FLOAT_MAX = 3.4028234663852886e38
_DOUBLE_MAX = 1.7976931348623157e308
_EPOCH_ORDINAL = dt.date(1970, 1, 1).toordinal()
_FIRST_DAY = dt.date(1, 1, 1).toordinal() - _EPOCH_ORDINAL
_LAST_DAY = dt.date(9999, 12, 31).toordinal() - _EPOCH_ORDINAL
_MICROS_PER_DAY = 86_400_000_000
#: Column and field names: plain, in mixed case, and ones a DDL or an option quotes.
_NAMES = (
    "id",
    "user_id",
    "Amount",
    "status",
    "ts",
    "value",
    "offset",
    "element",
    "a.b",
    "x y",
    "naïve",
    "日付",
    "tick`s",
    "MiXeD_Case",
    "_9",
)
_CHARSETS = ("alphanumeric", "letters", "digits", "hex", "ascii", "unicode")
_CHARSET_SIZES = {
    "alphanumeric": 62,
    "letters": 52,
    "digits": 10,
    "hex": 16,
    "ascii": 95,
    "unicode": 1_111_902,
}
_ALPHABETS = ("ab", "x", "日本語の文字", "😀😃😄😁🙂", "a😀b\U0001d538c", "01")
#: The pieces drawn patterns are made of: literals, escapes, classes and groups.
_PATTERN_ATOMS = (
    "a",
    "Z",
    "7",
    "-",
    "é",
    "日",
    "😀",
    "\\.",
    "\\-",
    "\\\\",
    "\\t",
    "\\d",
    "\\w",
    "\\s",
    ".",
    "[a-z]",
    "[A-F0-9_]",
    "[^a-z]",
    "[xyz😀]",
    "(ab|c)",
    "(?:[0-9]{2}|x)",
    "(a|b|)",
)
_REPEATS = ("", "", "", "?", "*", "+", "{3}", "{0,2}", "{2,}", "{1,4}", "{0}")


@dataclass
class Declared:
    """A declared schema, column by column (DDL), and its ``fields.`` options, name to value."""

    columns: list[str]
    fields: dict[str, str]

    @property
    def ddl(self) -> str:
        return ", ".join(self.columns)


def quoted(name: str) -> str:
    """``name`` as a DDL writes it: in backticks, a backtick doubled."""
    return "`" + name.replace("`", "``") + "`"


def option_path(path: tuple[str, ...]) -> str:
    """A column path as an option's name writes it: a part that holds a dot or a backtick in
    backticks (a backtick doubled)."""
    return ".".join(quoted(p) if "." in p or "`" in p else p for p in path)


def micros_text(micros: int, draw: random.Random) -> str:
    """A timestamp's text, ``yyyy-MM-dd HH:mm:ss[.ffffff]`` or with a ``T``, for µs since 1970
    (from year 1 to 9999)."""
    moment = dt.datetime(1970, 1, 1) + dt.timedelta(microseconds=micros)
    text = f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
    if micros % _MICROS_PER_DAY == 0 and draw.random() < 0.5:
        return text
    text += (
        "T" if draw.random() < 0.3 else " "
    ) + f"{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}"
    if moment.microsecond:
        text += "." + f"{moment.microsecond:06d}"[: 6 if moment.microsecond % 1000 else 3]
    return text


def day_text(days: int) -> str:
    """A date's text, ``yyyy-MM-dd``, for days since 1970-01-01."""
    day = dt.date.fromordinal(days + _EPOCH_ORDINAL)
    return f"{day.year:04d}-{day.month:02d}-{day.day:02d}"


def decimal_text(units: int, scale: int, draw: random.Random) -> str:
    """A DECIMAL's text for ``units`` of 10^-scale: with its scale's digits, or fewer where they
    are zeros, or in exponent form."""
    sign = "-" if units < 0 else ""
    whole, fraction = divmod(abs(units), 10**scale)
    digits = f"{fraction:0{scale}d}" if scale else ""
    choice = draw.random()
    if choice < 0.15 and units:
        return f"{sign}{abs(units)}E-{scale}"
    if choice < 0.3:
        digits = digits.rstrip("0")
    return f"{sign}{whole}" + (f".{digits}" if digits else "")


class _Drawer:
    """Draws one declaration's columns, adding the options of each to ``fields``."""

    def __init__(self, draw: random.Random, max_depth: int) -> None:
        self.draw = draw
        self.max_depth = max_depth
        self.fields: dict[str, str] = {}
        #: How many ARRAYs the cells drawn now are elements of: a sequence counts rows, not them.
        self.in_arrays = 0

    def chance(self, p: float) -> bool:
        return self.draw.random() < p

    def set(self, path: tuple[str, ...], name: str, value: object) -> None:
        """Sets property ``name`` of the column at ``path``; the option's name in a drawn case
        (names and properties are case-insensitive)."""
        written = option_path(path)
        if self.chance(0.08):
            written = written.upper()
        if self.chance(0.08):
            name = name.upper() if self.chance(0.5) else name.lower()
        self.fields[f"fields.{written}.{name}"] = value if isinstance(value, str) else json.dumps(value)

    def names(self, count: int) -> list[str]:
        """``count`` names distinct case-insensitively."""
        chosen: list[str] = []
        while len(chosen) < count:
            name = self.draw.choice(_NAMES) if self.chance(0.6) else f"c{self.draw.randrange(1000)}"
            if name.lower() not in {c.lower() for c in chosen}:
                chosen.append(name)
        return chosen

    def columns(self, count: int) -> list[str]:
        return [self.column((name,), 0, colon=False) for name in self.names(count)]

    def column(self, path: tuple[str, ...], depth: int, colon: bool) -> str:
        """A column (or a STRUCT's field) at ``path``: its DDL, its options added."""
        nullable = self.chance(0.7)
        type_ddl = self.data_type(path, depth, nullable)
        tail = "" if nullable else " NOT NULL"
        if self.chance(0.05):
            tail += " COMMENT 'it\\'s drawn'"  # a backslash escape: Spark 3.5 reads no doubled quote
        return f"{quoted(path[-1])}{':' if colon else ''} {type_ddl}{tail}"

    def data_type(self, path: tuple[str, ...], depth: int, nullable: bool) -> str:
        """A type for the cells at ``path`` (a column, a field or an array's elements), with its
        kind and properties drawn; ``nullable`` cells may get a nullRate."""
        containers = depth < self.max_depth and self.chance(0.25)
        if nullable and self.chance(0.35):
            self.set(path, "nullRate", str(self.draw.choice([0.0, 0.05, 0.3, 0.5, 1.0])))
        if containers and self.chance(0.5):
            least = self.draw.randrange(0, 3) if self.chance(0.5) else 0
            if least:
                self.set(path, "minSize", str(least))
            if self.chance(0.6):
                self.set(path, "maxSize", str(self.draw.randrange(least, 5)))
            if self.chance(0.1):
                self.set(path, "kind", "random")
            self.in_arrays += 1
            element = self.data_type((*path, "element"), depth + 1, True)
            self.in_arrays -= 1
            return f"ARRAY<{element}>"
        if containers:
            fields = [
                self.column((*path, name), depth + 1, colon=True)
                for name in self.names(self.draw.randrange(1, 4))
            ]
            return f"STRUCT<{', '.join(fields)}>"
        atom = self.draw.choice((*ATOMS, "STRING", "STRING"))  # strings have the most properties
        return self.atom(path, atom)

    def atom(self, path: tuple[str, ...], atom: str) -> str:
        """An atomic type's DDL, with a kind and properties for it."""
        if atom == "DECIMAL":
            precision = self.draw.choice([1, 5, 10, 18, 19, 25, 38])
            scale = self.draw.randrange(0, precision + 1)
            spelt = self.draw.choice(["DECIMAL", "DEC", "NUMERIC", "decimal"])
            type_ddl = f"{spelt}({precision},{scale})" if (precision, scale) != (10, 0) else spelt
        else:
            precision = scale = 0
            type_ddl = self.draw.choice(_SPELLINGS[atom])
        kinds = ["random", "random", "values"]
        if atom in _INTEGRALS and not self.in_arrays:
            kinds.append("sequence")
        if atom == "BIGINT":
            kinds += ["offset", "eventTime"]
        if atom in ("TIMESTAMP", "TIMESTAMP_NTZ"):
            kinds.append("eventTime")
        kind = self.draw.choice(kinds)
        # A column given values and no kind takes kind values.
        implied = kind == "values" and self.chance(0.2)
        if (kind != "random" or self.chance(0.1)) and not implied:
            self.set(path, "kind", kind if self.chance(0.9) else kind.upper())
        if kind == "values":
            self.values(path, atom, precision, scale)
        elif kind == "sequence":
            self.sequence(path, atom)
        elif kind == "random":
            self.random(path, atom, precision, scale)
        return type_ddl

    # Kinds.

    def values(self, path: tuple[str, ...], atom: str, precision: int, scale: int) -> None:
        count = self.draw.randrange(1, 7)
        listed = [self.json_value(atom, precision, scale) for _ in range(count)]
        self.set(path, "values", "[" + ", ".join(listed) + "]")
        pick = self.draw.randrange(4)
        if pick == 1:
            weights: list[object] = [self.draw.choice([0, 1, 2, 0.5, 7, 1e-3, 100]) for _ in range(count)]
            if not any(weights):
                weights[0] = 3
            self.set(path, "weights", json.dumps(weights))
        elif pick == 2:
            self.set(path, "distribution", self.draw.choice(["zipf", "Zipf"]))
            if self.chance(0.6):
                self.set(path, "zipfExponent", str(self.draw.choice([0.5, 1, 1.3, 3, 10])))
        elif pick == 3 and self.chance(0.5):
            self.set(path, "distribution", "uniform")

    def json_value(self, atom: str, precision: int, scale: int) -> str:
        """One value of the type, as a JSON text."""
        d = self.draw
        if atom == "BOOLEAN":
            return d.choice(["true", "false"])
        if atom in _INTEGRALS:
            bits = _INTEGRALS[atom]
            value = d.choice([0, 1, -1, 2**bits - 1, -(2**bits), d.randrange(-(2**bits), 2**bits)])
            return json.dumps(str(value)) if d.random() < 0.2 else str(value)
        if atom == "DECIMAL":
            high = 10 ** min(precision, 18) - 1
            units = d.choice([0, high, -high, d.randrange(-high, high + 1)])
            text = decimal_text(units, scale, d)
            if precision <= 15 and d.random() < 0.5 and "E" not in text:
                return text if not text.endswith(".") else text + "0"  # a JSON number
            return json.dumps(text)
        if atom in ("FLOAT", "DOUBLE"):
            value = d.choice(
                [0.0, -0.0, 1.5, -2.25, 1e-5, 3.4e38 if atom == "FLOAT" else 1e300, 0.1, 12345.678]
            )
            text = repr(value)
            return text if d.random() < 0.7 else text.replace("e", "E")
        if atom == "STRING":
            return json.dumps(
                d.choice(["new", "", "naïve", "日本", "😀x", 'q"uote', "back\\slash", "tab\t"]),
                ensure_ascii=d.random() < 0.5,
            )
        if atom == "BINARY":
            data = bytes(d.randrange(256) for _ in range(d.randrange(0, 6)))
            text = base64.b64encode(data).decode()
            return json.dumps(text.rstrip("=") if d.random() < 0.3 else text)
        if atom == "DATE":
            return json.dumps(day_text(self.day()))
        return json.dumps(micros_text(self.micros(), d))

    def sequence(self, path: tuple[str, ...], atom: str) -> None:
        d = self.draw
        bits = _INTEGRALS[atom]
        low, high = -(2**bits), 2**bits - 1
        start = d.choice([0, 1, -5, low, high, d.randrange(low, high + 1)])
        step = d.choice([1, 1, -1, 3, -7, 2**bits // 3, -(2 ** (bits - 1))]) or 1
        if d.random() < 0.7:
            self.set(path, "start", str(start))
        else:
            start = 0
        if step != 1 or d.random() < 0.3:
            self.set(path, "step", str(step))
        if d.random() < 0.5:
            span = d.choice([0, 1, 5, 100, 2**62])
            end = start + span if step > 0 else start - span
            self.set(path, "end", str(max(low, min(high, end))))

    def random(self, path: tuple[str, ...], atom: str, precision: int, scale: int) -> None:
        d = self.draw
        if atom == "STRING":
            self.strings(path)
            return
        if atom == "BINARY":
            least = d.choice([0, 0, 1, 5, 30])
            if d.random() < 0.5:
                self.set(path, "minLength", str(least))
            else:
                least = 0
            if d.random() < 0.6 or least > 16:
                self.set(path, "maxLength", str(d.choice([least, least + 1, least + 10])))
            return
        if atom == "BOOLEAN":
            return
        if atom in ("FLOAT", "DOUBLE"):
            self.reals(path, atom)
            return
        self.wholes(path, atom, precision, scale)

    def unit_range(self, atom: str, precision: int) -> tuple[int, int, int, int]:
        """The type's whole units (low, high) and its default bounds."""
        if atom in _INTEGRALS:
            bits = _INTEGRALS[atom]
            return -(2**bits), 2**bits - 1, -(2**bits), 2**bits - 1
        if atom == "DECIMAL":
            high = 10 ** min(precision, 18) - 1
            return -high, high, 0, high
        if atom == "DATE":
            return _FIRST_DAY, _LAST_DAY, 10957, 22279  # 2000-01-01 to 2030-12-31
        first, last = _FIRST_DAY * _MICROS_PER_DAY, (_LAST_DAY + 1) * _MICROS_PER_DAY - 1
        return first, last, 946_684_800_000_000, 1_924_991_999_999_999

    def unit_text(self, atom: str, units: int, scale: int) -> str:
        if atom in _INTEGRALS:
            return str(units)
        if atom == "DECIMAL":
            return decimal_text(units, scale, self.draw)
        if atom == "DATE":
            return day_text(units)
        return micros_text(units, self.draw)

    def day(self) -> int:
        return self.draw.choice(
            [0, -1, _FIRST_DAY, _LAST_DAY, 19_723, self.draw.randrange(_FIRST_DAY, _LAST_DAY + 1)]
        )

    def micros(self) -> int:
        d = self.draw
        first, last = _FIRST_DAY * _MICROS_PER_DAY, (_LAST_DAY + 1) * _MICROS_PER_DAY - 1
        return d.choice([0, -1, first, last, 1_704_067_200_123_456, d.randrange(first, last + 1)])

    def wholes(self, path: tuple[str, ...], atom: str, precision: int, scale: int) -> None:
        d = self.draw
        low, high, least, most = self.unit_range(atom, precision)
        shape = d.randrange(5)
        if shape == 1:  # the type's extremes
            least, most = low, high
        elif shape == 2:  # one value
            least = most = d.randrange(low, high + 1)
        elif shape == 3:  # a narrow range
            least = d.randrange(low, high + 1)
            most = min(high, least + d.choice([1, 9, 1000]))
        elif shape == 4:
            least, most = sorted([d.randrange(low, high + 1), d.randrange(low, high + 1)])
        if shape or d.random() < 0.5:
            self.set(path, "min", self.unit_text(atom, least, scale))
            self.set(path, "max", self.unit_text(atom, most, scale))
        distribution = d.choice(["uniform", "zipf", "normal", "exponential", None])
        if distribution == "zipf" and most - least >= _LONG_MAX:
            distribution = "exponential"
        self.distribution(path, distribution, least, most, True, atom, scale)

    def reals(self, path: tuple[str, ...], atom: str) -> None:
        d = self.draw
        limit = _FLOAT_MAX if atom == "FLOAT" else _DOUBLE_MAX
        least, most = d.choice(
            [
                (0.0, 1.0),
                (-1000.0, 1000.0),
                (-limit, limit),
                (2.5, 2.5),
                (-0.0, 0.0),
                (1e-300, 1e-299),
                (-7.25, 1e6),
            ]
        )
        if (least, most) != (0.0, 1.0) or d.random() < 0.3:
            self.set(path, "min", repr(least))
            self.set(path, "max", repr(most))
        self.distribution(
            path, d.choice(["uniform", "normal", "exponential", None]), least, most, whole=False
        )

    def distribution(
        self,
        path: tuple[str, ...],
        name: str | None,
        least: float,
        most: float,
        whole: bool,
        atom: str = "",
        scale: int = 0,
    ) -> None:
        """The distribution of a number column and its parameters, ``least`` and ``most`` in
        the type's units. A spread (``stddev``, an exponential's ``mean``) is written in the
        type's terms: a DECIMAL's values, days, seconds; a normal's ``mean`` as a value (a date, a
        time) or a number in those terms."""
        d = self.draw
        if name is None:
            return
        self.set(path, "distribution", name)
        spread = {"DECIMAL": 10.0**scale, "TIMESTAMP": 1e6, "TIMESTAMP_NTZ": 1e6}.get(atom, 1.0)
        width = min(float(most) - float(least), _DOUBLE_MAX)
        if name == "zipf":
            if d.random() < 0.6:
                self.set(path, "zipfExponent", str(d.choice([0.1, 1, 1.2, 2.5, 10])))
        elif name == "normal":
            if d.random() < 0.6:
                mean = float(least) + width * d.choice([0.0, 0.25, 0.5, 1.0])
                if atom in ("DATE", "TIMESTAMP", "TIMESTAMP_NTZ"):
                    units = min(int(most), max(int(least), int(mean)))
                    self.set(path, "mean", self.unit_text(atom, units, scale))
                else:
                    value = min(float(most) / spread, max(float(least) / spread, mean / spread))
                    self.set(path, "mean", repr(value))
            # Wide enough for a whole number to land in range, narrow enough that one lands soon
            # (a real in a range of one value: only the default, the least double, lands there).
            if d.random() < 0.6 and (whole or width > 0):
                stddev = max(
                    min(width * d.choice([0.01, 0.2, 1.0, 3.0]), _DOUBLE_MAX), 0.6 if whole else 1e-300
                )
                self.set(path, "stddev", repr(stddev / spread))
        elif name == "exponential" and d.random() < 0.7:
            means = [min(max(width, 1.0) * f, _DOUBLE_MAX) for f in (0.001, 0.1, 2.0)] + [1e-3, 1e30]
            self.set(path, "mean", repr(d.choice(means) / spread))

    def strings(self, path: tuple[str, ...]) -> None:
        d = self.draw
        if d.random() < 0.35:
            self.set(path, "pattern", self.pattern(1))
            return
        least = d.choice([0, 0, 1, 3, 10])
        most = d.choice([least, least + 2, least + 12, 300]) if d.random() < 0.8 else 4
        most = max(most, least)
        if least or d.random() < 0.5:
            self.set(path, "minLength", str(least))
        if most != 4 or d.random() < 0.5:
            self.set(path, "maxLength", str(most))
        size = 62
        if d.random() < 0.3:
            alphabet = d.choice(_ALPHABETS)
            self.set(path, "alphabet", alphabet)
            size = len(set(alphabet))
        elif d.random() < 0.6:
            charset = d.choice(_CHARSETS)
            self.set(path, "charset", charset if d.random() < 0.8 else charset.upper())
            size = _CHARSET_SIZES[charset]
        if d.random() < 0.5:
            fits = pool_capacity(least, most, size)
            self.set(path, "distinctValues", str(min(d.choice([1, 5, 300]), fits)))
            if d.random() < 0.6:
                distribution = d.choice(["uniform", "zipf"])
                self.set(path, "valueDistribution", distribution)
                if distribution == "zipf" and d.random() < 0.5:
                    self.set(path, "zipfExponent", str(d.choice([0.5, 1.2, 4])))

    def pattern(self, depth: int) -> str:
        d = self.draw
        parts = []
        for _ in range(d.randrange(1, 5)):
            atom = d.choice(_PATTERN_ATOMS)
            if depth and d.random() < 0.15:
                atom = "(" + self.pattern(depth - 1) + ")"
            parts.append(atom + d.choice(_REPEATS))
        text = "".join(parts)
        return text + "|" + self.pattern(0) if depth and d.random() < 0.15 else text


def draw_declared(draw: random.Random, *, max_columns: int = 5, max_depth: int = 2) -> Declared:
    """A valid declared schema and its ``fields.`` options: 1 to ``max_columns`` columns, ARRAY
    and STRUCT nested at most ``max_depth`` deep."""
    drawer = _Drawer(draw, max_depth)
    columns = drawer.columns(draw.randrange(1, max_columns + 1))
    return Declared(columns, drawer.fields)


def draw_every_type(draw: random.Random) -> Declared:
    """A valid declaration with a column of each atomic type, an ARRAY of each and a STRUCT of
    each, each with a kind and properties drawn."""
    drawer = _Drawer(draw, max_depth=0)
    columns = []
    for atom in ATOMS:
        name = f"{atom.lower()}_column"
        columns.append(f"{quoted(name)} {drawer.atom((name,), atom)}")
    drawer.in_arrays += 1
    elements = [drawer.atom(("arrays", f"a{i}", "element"), atom) for i, atom in enumerate(ATOMS)]
    drawer.in_arrays -= 1
    columns.append("arrays STRUCT<" + ", ".join(f"a{i}: ARRAY<{e}>" for i, e in enumerate(elements)) + ">")
    fields = [f"f{i}: {drawer.atom(('struct', f'f{i}'), atom)}" for i, atom in enumerate(ATOMS)]
    columns.append("struct STRUCT<" + ", ".join(fields) + ">")
    return Declared(columns, drawer.fields)


# Broken declarations.


@dataclass
class Broken:
    """A declaration with one fault that ``load()`` refuses: ``declared``, with the stream-level
    ``options`` besides; ``named``, the column (or the option) its message names, as an option's
    name writes it; ``fault``, what is wrong."""

    declared: Declared
    options: dict[str, str]
    named: str
    fault: str


#: The cells a fault is put in: the column ``brk``, a field of it, or its elements.
_WHERE = (("brk",), ("brk", "inner"), ("brk", "element"))


def _wrapped(path: tuple[str, ...], type_ddl: str, not_null: bool = False) -> str:
    """The column ``brk`` whose cells at ``path`` (one of ``_WHERE``) are of ``type_ddl``."""
    tail = " NOT NULL" if not_null else ""
    if len(path) == 1:
        return f"brk {type_ddl}{tail}"
    if path[1] == "inner":
        return f"brk STRUCT<inner: {type_ddl}{tail}>"
    return f"brk ARRAY<{type_ddl}>"


@dataclass(frozen=True)
class Fault:
    """One fault, put into a valid declaration: columns added to it (``{}`` in one stands for the
    type of the cells at fault), ``fields.`` options (``{}`` in a name stands for their column's
    path), stream-level options, and what the message names (``{}``: the cells' path)."""

    what: str
    columns: tuple[str, ...]
    fields: tuple[tuple[str, str], ...] = ()
    options: tuple[tuple[str, str], ...] = ()
    named: str = "{}"
    #: The type of the cells at fault, and whether they are NOT NULL (then not elements).
    cell_type: str = ""
    not_null: bool = False

    def wheres(self) -> tuple[tuple[str, ...], ...]:
        """The paths the cells at fault may be at: ``brk``, a field of it, or its elements."""
        if not self.cell_type:
            return (("brk",),)
        if self.not_null or self.cell_type.startswith(("ARRAY", "STRUCT")):
            return _WHERE[:2]
        return _WHERE

    def put(self, declared: Declared, where: int, at: int) -> Broken:
        """This fault in ``declared`` (a copy), its cells at ``wheres()[where]``, its column at
        position ``at`` among the others."""
        paths = self.wheres()
        path = paths[where % len(paths)]
        shown = option_path(path)
        columns = list(declared.columns)
        for column in self.columns:
            added = _wrapped(path, self.cell_type, self.not_null) if column == "{}" else column
            columns.insert(min(at, len(columns)), added)
        fields = dict(declared.fields)
        for name, value in self.fields:
            fields[name.replace("{}", shown)] = value
        return Broken(
            Declared(columns, fields), dict(self.options), self.named.replace("{}", shown), self.what
        )


#: The faults of properties: for each, the types of the cells it is put in, and the properties
#: that make it, whose message names the cells' column.
_PROPERTY_FAULTS: dict[str, list[tuple[str, dict[str, str]]]] = {
    "unknown property": [
        ("INT", {"minimum": "1"}),
        ("STRING", {"lenght": "3"}),
        ("DOUBLE", {"nullrates": "0.1"}),
        ("DATE", {"kinds": "random"}),
    ],
    "misplaced property": [
        ("INT", {"pattern": "[a-z]"}),
        ("STRING", {"minSize": "1"}),
        ("INT", {"start": "5"}),
        ("BOOLEAN", {"min": "1"}),
        ("DOUBLE", {"zipfExponent": "2"}),
        ("INT", {"weights": "[1]"}),
        ("BINARY", {"charset": "hex"}),
        ("INT", {"kind": "values", "values": "[1]", "stddev": "3"}),
        ("BIGINT", {"kind": "offset", "min": "3"}),
        ("STRING", {"pattern": "a", "maxLength": "3"}),
        ("INT", {"distribution": "uniform", "mean": "3"}),
    ],
    "a value not of the column's type": [
        ("INT", {"min": "abc"}),
        ("INT", {"max": "1.5"}),
        ("INT", {"max": "2147483648"}),
        ("TINYINT", {"max": "300"}),
        ("SMALLINT", {"kind": "sequence", "start": "40000"}),
        ("DATE", {"min": "2024-13-01"}),
        ("DATE", {"max": "2023-02-29"}),
        ("TIMESTAMP", {"min": "2024-01-01 25:00:00"}),
        ("TIMESTAMP_NTZ", {"max": "2024-01-01 00:00:00.1234567"}),
        ("TIMESTAMP", {"max": "10000-01-01"}),
        ("FLOAT", {"max": "1e39"}),
        ("DOUBLE", {"min": "NaN"}),
        ("DOUBLE", {"min": "0x1p3"}),
        ("BOOLEAN", {"kind": "values", "values": "[1, 0]"}),
        ("STRING", {"kind": "values", "values": '["a", 1]'}),
        ("BINARY", {"kind": "values", "values": '["***"]'}),
        ("DATE", {"kind": "values", "values": '["2024-01-01", 5]'}),
        ("INT", {"kind": "values", "values": "[1, 2147483648]"}),
        ("DOUBLE", {"kind": "values", "values": '["x"]'}),
        ("TIMESTAMP", {"kind": "values", "values": '["2024-01-01 00:00:00.0000001"]'}),
        ("INT", {"nullRate": "1.5"}),
        ("INT", {"nullRate": "-0.1"}),
        ("STRING", {"maxLength": "2000000"}),
        ("ARRAY<INT>", {"maxSize": "70000"}),
        ("BINARY", {"maxLength": "-1"}),
    ],
    "min above max": [
        ("INT", {"min": "9", "max": "3"}),
        ("BIGINT", {"min": "1", "max": "-9223372036854775808"}),
        ("DATE", {"min": "2024-01-02", "max": "2024-01-01"}),
        ("TIMESTAMP", {"min": "2024-01-01 00:00:00.000002", "max": "2024-01-01 00:00:00.000001"}),
        ("DOUBLE", {"min": "2", "max": "1.5"}),
        ("DOUBLE", {"min": "2"}),
        ("DECIMAL(5,2)", {"min": "1.01", "max": "1.00"}),
        ("STRING", {"minLength": "5", "maxLength": "2"}),
        ("STRING", {"minLength": "5"}),
        ("BINARY", {"minLength": "20"}),
        ("ARRAY<INT>", {"minSize": "3", "maxSize": "1"}),
    ],
    "weights that do not match the values": [
        ("STRING", {"kind": "values", "values": '["a", "b"]', "weights": "[1]"}),
        ("INT", {"kind": "values", "values": "[1, 2]", "weights": "[1, 2, 3]"}),
        ("INT", {"kind": "values", "values": "[1, 2]", "weights": "[1, -1]"}),
        ("INT", {"kind": "values", "values": "[1, 2]", "weights": "[0, 0]"}),
        ("INT", {"kind": "values", "values": "[1, 2]", "weights": '["a", 1]'}),
        ("INT", {"kind": "values", "values": "[1, 2]", "weights": "1, 2"}),
        ("INT", {"kind": "values", "values": "[1, 2]", "weights": "[1, 2]", "distribution": "zipf"}),
    ],
    "values missing or empty": [
        ("STRING", {"kind": "values"}),
        ("STRING", {"kind": "values", "values": "[]"}),
        ("STRING", {"kind": "values", "values": "a, b"}),
        ("INT", {"kind": "values", "values": "[1]", "distribution": "normal"}),
        ("INT", {"kind": "values", "values": "[1]", "zipfExponent": "2"}),
    ],
    "an impossible distinctValues": [
        ("STRING", {"distinctValues": "100", "maxLength": "1", "charset": "digits"}),
        ("STRING", {"distinctValues": "8", "maxLength": "2", "alphabet": "ab"}),
        ("STRING", {"distinctValues": "2", "minLength": "0", "maxLength": "0"}),
        ("STRING", {"valueDistribution": "zipf"}),
        ("STRING", {"distinctValues": "5", "zipfExponent": "2"}),
        ("STRING", {"distinctValues": "0"}),
    ],
    "a DECIMAL bound outside its precision": [
        ("DECIMAL(5,2)", {"max": "1000.00"}),
        ("DECIMAL(5,2)", {"min": "-1000"}),
        ("DECIMAL(5,2)", {"min": "0.001"}),
        ("DECIMAL(38,0)", {"max": "1000000000000000000"}),
        ("DECIMAL(20,10)", {"max": "123456789.0"}),
        ("DECIMAL(3,3)", {"max": "1"}),
        ("DECIMAL(5,2)", {"kind": "values", "values": '["1.234"]'}),
        ("DECIMAL(5,2)", {"kind": "values", "values": "[1000]"}),
    ],
    "a pattern it cannot generate": [
        ("STRING", {"pattern": "^ab"}),
        ("STRING", {"pattern": "ab$"}),
        ("STRING", {"pattern": "a\\bb"}),
        ("STRING", {"pattern": "(?=a)b"}),
        ("STRING", {"pattern": "(?<n>a)"}),
        ("STRING", {"pattern": "(a)\\1"}),
        ("STRING", {"pattern": "(ab"}),
        ("STRING", {"pattern": "ab)"}),
        ("STRING", {"pattern": "[a-"}),
        ("STRING", {"pattern": "[z-a]"}),
        ("STRING", {"pattern": "[^ -~]"}),
        ("STRING", {"pattern": "a{2"}),
        ("STRING", {"pattern": "a{3,1}"}),
        ("STRING", {"pattern": "a*?"}),
        ("STRING", {"pattern": "a++"}),
        ("STRING", {"pattern": "a**"}),
        ("STRING", {"pattern": "*a"}),
        ("STRING", {"pattern": "\\p{L}"}),
        ("STRING", {"pattern": "[[:alpha:]]"}),
        ("STRING", {"pattern": "a\\"}),
        ("STRING", {"pattern": "a{10000000}"}),
        ("STRING", {"pattern": "a{1048577}"}),
        ("STRING", {"pattern": "(a{1000000}){1000000}"}),
        ("STRING", {"pattern": "((((a{65536}){65536}){65536}){65536})"}),
        ("STRING", {"pattern": "(((b{1048576}){1048576}){1048576}){1048576}"}),
        ("STRING", {"pattern": "((((a{65536}){65536}){65536}){65536}){65536}"}),
    ],
    "a kind its type cannot take": [
        ("INT", {"kind": "offset"}),
        ("DATE", {"kind": "eventTime"}),
        ("DOUBLE", {"kind": "sequence"}),
        ("STRING", {"kind": "sequence"}),
        ("ARRAY<INT>", {"kind": "values", "values": "[[1]]"}),
        ("STRUCT<a: INT>", {"kind": "values", "values": "[1]"}),
        ("INT", {"kind": "randomly"}),
        ("INT", {"kind": ""}),
    ],
    "a sequence that cannot run": [
        ("INT", {"kind": "sequence", "step": "0"}),
        ("INT", {"kind": "sequence", "start": "10", "end": "5"}),
        ("INT", {"kind": "sequence", "start": "10", "end": "50", "step": "-1"}),
        ("TINYINT", {"kind": "sequence", "end": "200"}),
        ("BIGINT", {"kind": "sequence", "step": "9223372036854775808"}),
    ],
    "a distribution that does not fit": [
        ("BIGINT", {"distribution": "zipf"}),
        ("DOUBLE", {"distribution": "zipf"}),
        ("INT", {"distribution": "poisson"}),
        ("INT", {"distribution": "zipf", "zipfExponent": "0"}),
        ("INT", {"distribution": "zipf", "zipfExponent": "11"}),
        ("INT", {"min": "0", "max": "10", "distribution": "normal", "mean": "11"}),
        ("DOUBLE", {"distribution": "normal", "stddev": "0"}),
        ("DOUBLE", {"distribution": "normal", "stddev": "-1"}),
        ("DATE", {"distribution": "exponential", "mean": "0"}),
        ("DOUBLE", {"distribution": "exponential", "mean": "inf"}),
        ("DOUBLE", {"min": "0", "max": "1", "distribution": "normal", "stddev": "1000"}),
        ("DOUBLE", {"min": "2.5", "max": "2.5", "distribution": "normal", "stddev": "1"}),
        ("INT", {"min": "5", "max": "5", "distribution": "normal", "stddev": "1000"}),
        ("DATE", {"distribution": "normal", "stddev": "1e9"}),
        ("STRING", {"alphabet": "ab", "charset": "hex"}),
        ("STRING", {"charset": "klingon"}),
        ("STRING", {"alphabet": ""}),
        ("STRING", {"valueDistribution": "normal", "distinctValues": "3"}),
    ],
    "a row too large for Spark's": [
        (
            "ARRAY<ARRAY<STRING>>",
            {"maxSize": "65536", "element.maxSize": "65536", "element.element.maxLength": "1048576"},
        ),
        ("ARRAY<BINARY>", {"maxSize": "43570", "element.maxLength": "49281"}),
        ("ARRAY<STRING>", {"maxSize": "65536", "element.pattern": "[a-zé]{40000}"}),
    ],
    "nulls on a NOT NULL column": [
        ("INT NOT NULL", {"nullRate": "0.1"}),
        ("STRING NOT NULL", {"nullRate": "0"}),
        ("DATE NOT NULL", {"kind": "values", "values": '["2024-01-01"]', "nullRate": "1"}),
    ],
}


def _property_faults() -> list[Fault]:
    return [
        Fault(
            what,
            ("{}",),
            tuple((f"fields.{{}}.{name}", value) for name, value in properties.items()),
            cell_type=cell_type.removesuffix(" NOT NULL"),
            not_null=cell_type.endswith(" NOT NULL"),
        )
        for what, variants in _PROPERTY_FAULTS.items()
        for cell_type, properties in variants
    ]


def _other_faults() -> list[Fault]:
    unknown = "an unknown column"
    faults = [
        Fault(unknown, ("brk STRUCT<inner: INT>",), ((f"fields.{path}.min", "1"),), named=path)
        for path in ("brkk", "bkr", "nosuch", "brk.iner", "brk.element", "brk.inner.x", "`brk.inner`")
    ]
    faults += [
        Fault("a type it cannot generate", ("{}",), cell_type=t)
        for t in (
            "MAP<STRING, INT>",
            "INTERVAL DAY TO SECOND",
            "INTERVAL YEAR",
            "VOID",
            "ARRAY<MAP<INT, INT>>",
        )
    ]
    faults += [
        Fault("a string option of the stream", (), options=((name, value),), named=name)
        for name, value in (
            ("minLength", "1"),
            ("maxLength", "5"),
            ("charset", "hex"),
            ("alphabet", "ab"),
            ("distinctValues", "3"),
            ("valueDistribution", "zipf"),
            ("zipfExponent", "2"),
            ("timestampColumn", "true"),
        )
    ]
    twice = "two columns of one name"
    faults += [
        Fault(twice, ("brk INT", "BRK STRING"), named="brk"),
        Fault(twice, ("brk STRUCT<inner: INT, Inner: DATE>",), named="brk.inner"),
        Fault("a STRUCT with no field", ("brk STRUCT<>",), named="brk"),
        Fault(
            "one property set twice",
            ("brk INT",),
            (("fields.brk.min", "1"), ("fields.`brk`.min", "2")),
            named="brk",
        ),
    ]
    faults += [
        Fault("a malformed option name", ("brk INT",), ((name, "1"),), named=name)
        for name in ("fields.brk", "fields.`brk.min", "fields.brk..min", "fields.b`r`k.min", "fields.")
    ]
    return faults


#: Every fault ``draw_broken`` puts in a declaration.
FAULTS: tuple[Fault, ...] = (*_property_faults(), *_other_faults())


def draw_broken(draw: random.Random, fault: Fault) -> Broken:
    """A valid declaration (one or two columns) with ``fault`` in it."""
    base = draw_declared(draw, max_columns=2, max_depth=1)
    return fault.put(base, draw.randrange(3), draw.randrange(len(base.columns) + 1))
