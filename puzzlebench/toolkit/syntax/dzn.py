"""The MiniZinc data subset that ``.dzn`` files use (:mod:`puzzlebench.io.dzn`, whose docstring states it):
its tokens, its assignments and arrays, and the writing of a 2-D array.  Integer expressions are
:mod:`.expr`'s.  What a kind's puzzle reads from the assignments is the kind's part of the layout."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ...errors import PuzzleError
from .expr import Expr, evaluate, parse_expression

CONVENTION_KEY = "convention"
FIRST_LINE = re.compile(r"%|[A-Za-z][A-Za-z0-9_]*\s*=")
_TOKEN = re.compile(r"""(?P<space>[ \t\r\f\v]+)|(?P<newline>\n)|(?P<comment>%[^\n]*)|(?P<comment2>/\*.*?\*/)
    |(?P<int>[0-9]+)|(?P<name>[A-Za-z][A-Za-z0-9_]*)|(?P<string>"[^"\n]*")
    |(?P<punct>\[\||\|\]|\.\.|[\[\]|(){},;=_+*/-])""", re.VERBOSE | re.DOTALL)
MAX_CELLS = 1_000_000


# ---------------------------------------------------------------- the data subset

@dataclass(frozen=True)
class Array:
    """An array value: its shape, its elements row-major (int, None for ``_``) and the file
    line of each element."""

    shape: tuple[int, ...]
    values: list
    lines: list[int]


@dataclass(frozen=True)
class Assignment:
    name: str
    value: object
    line: int


def _tokens(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, line) of every token; a character outside the subset is a PuzzleError."""
    out, line, pos = [], 1, 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if not match:
            ch = text[pos]
            hint = " (floats are not part of the data these files hold)" if ch == "." else ""
            raise PuzzleError(f"unexpected character {ch!r}{hint}", line=line)
        kind, value = match.lastgroup, match.group()
        if kind in ("int", "name", "string", "punct"):
            out.append((value if kind == "punct" else kind, value, line))
        line += value.count("\n")
        pos = match.end()
    return out


@dataclass(frozen=True)
class _Call:
    """``arrayNd(lo..hi, ..., [values])`` whose index ranges are evaluated once the file is read."""

    name: str
    ranges: tuple
    values: Array
    line: int


class _Parser:
    """A recursive-descent reader of ``NAME = VALUE;`` assignments (VALUE one level deep; scalars
    may be integer expressions, :mod:`.expr`)."""

    def __init__(self, text: str):
        self.tokens = _tokens(text)
        self.pos = 0

    def peek(self) -> tuple[str, str, int]:
        if self.pos < len(self.tokens):
            return self.tokens[self.pos]
        return "end", "the end of the file", self.tokens[-1][2] if self.tokens else 1

    def advance(self) -> None:
        self.pos += 1

    def _take(self, *kinds: str, what: str) -> tuple[str, str, int]:
        token = self.peek()
        if token[0] not in kinds:
            raise PuzzleError(f"expected {what}, got {token[1][:20]!r}", line=token[2])
        self.pos += 1
        return token

    def assignments(self) -> dict[str, Assignment]:
        found: dict[str, Assignment] = {}
        while self.peek()[0] != "end":
            _, name, line = self._take("name", what="a variable name")
            self._take("=", what=f"'=' after {name}")
            value = self._value()
            if self.peek()[0] != "end":
                self._take(";", what=f"';' after the value of {name}")
            if name in found:
                raise PuzzleError(f"{name} is assigned twice (first at line {found[name].line})", line=line)
            found[name] = Assignment(name, value, line)
        return found

    def _scalar(self):
        kind, text, line = self.peek()
        if kind == "int" and self.pos + 1 < len(self.tokens) and self.tokens[self.pos + 1][0] in (",", "|", "]", "|]"):
            self.pos += 1  # the common case, an integer among others: no expression to parse
            if len(text) > 12:
                raise PuzzleError(f"the number {text[:14]}... is too large", line=line)
            return int(text)
        if kind == "_":
            self.pos += 1
            return None
        if kind == "string":
            self.pos += 1
            return text[1:-1]
        if kind == "name" and text in ("true", "false"):
            self.pos += 1
            return text == "true"
        if kind in ("int", "name", "-", "("):
            return parse_expression(self)
        raise PuzzleError(f"expected a number, '_' or an integer expression, got {text[:20]!r}", line=line)

    def _value(self):
        kind, _, line = self.peek()
        if kind == "[|":
            return self._array2d_literal()
        if kind == "[":
            return self._array_literal()
        if kind == "{":
            self.pos += 1
            items = []
            while self.peek()[0] != "}":
                if items:
                    self._take(",", what="',' or '}' in a set")
                items.append(self._scalar())
            self.pos += 1
            return frozenset(items)
        if kind == "name" and re.fullmatch(r"array[1-6]d", self.peek()[1]):
            return self._array_call()
        value = self._scalar()
        if self.peek()[0] == "..":
            self.pos += 1
            return (value, self._scalar())
        return value

    def _elements(self, close: str, separators: tuple[str, ...]) -> list[tuple[object, int, str]]:
        """Scalars up to ``close``, each with its line and the separator before it."""
        items, sep = [], ","
        while self.peek()[0] != close:
            if items:
                sep = self._take(*separators, what=f"',' or {close!r}")[0]
                if self.peek()[0] == close:  # a trailing separator
                    break
            line = self.peek()[2]
            items.append((self._scalar(), line, sep))
            if len(items) > MAX_CELLS:
                raise PuzzleError(f"an array of more than {MAX_CELLS} values", line=line)
        self.pos += 1
        return items

    def _array_literal(self) -> Array:
        self._take("[", what="'['")
        items = self._elements("]", (",",))
        return Array((len(items),), [v for v, _, _ in items], [n for _, n, _ in items])

    def _array2d_literal(self) -> Array:
        _, _, line = self._take("[|", what="'[|'")
        items = self._elements("|]", (",", "|"))
        rows, width = [], None
        for value, number, sep in items:
            if sep == "|" or not rows:
                rows.append([])
            rows[-1].append((value, number))
        widths = {len(row) for row in rows}
        if len(widths) > 1:
            short = next(k for k, row in enumerate(rows) if len(row) != len(rows[0]))
            raise PuzzleError(f"the rows of a [| ... |] array differ in length: row 1 has {len(rows[0])} "
                              f"values, row {short + 1} has {len(rows[short])}", line=rows[short][0][1])
        width = widths.pop() if widths else 0
        flat = [cell for row in rows for cell in row]
        return Array((len(rows), width), [v for v, _ in flat], [n for _, n in flat] or [line])

    def _array_call(self) -> _Call:
        _, name, line = self._take("name", what="arrayNd")
        dims = int(name[5])
        self._take("(", what=f"'(' after {name}")
        ranges = []
        for _ in range(dims):
            lo = self._scalar()
            self._take("..", what="a range such as 1..9")
            ranges.append((lo, self._scalar()))
            self._take(",", what=f"',' between the arguments of {name}")
        if self.peek()[0] == "[|":
            raise PuzzleError(f"{name} takes a flat [ ... ] list, not a [| ... |] array", line=line)
        values = self._array_literal()
        self._take(")", what=f"')' closing {name}")
        return _Call(name, tuple(ranges), values, line)


def parse(text: str) -> dict[str, Assignment]:
    """The assignments of a data file, by variable name, every expression evaluated (names assigned
    anywhere in the file resolved)."""
    found = _Parser(text).assignments()
    resolved: dict[str, object] = {}
    busy: set[str] = set()

    def value_of(name: str, line: int):
        if name not in resolved:
            if name not in found:
                raise PuzzleError(f"{name} is not assigned in the file", line=line)
            if name in busy:
                raise PuzzleError(f"{name} depends on itself", line=found[name].line)
            busy.add(name)
            resolved[name] = _resolve(found[name].value, value_of)
            busy.discard(name)
        return resolved[name]

    return {name: Assignment(name, value_of(name, a.line), a.line) for name, a in found.items()}


def _resolve(value, value_of):
    """``value`` with its expressions evaluated (``value_of(name, line)`` gives a name's value)."""
    if isinstance(value, Expr):
        return evaluate(value, value_of)
    if isinstance(value, tuple):
        return tuple(evaluate(v, value_of) if isinstance(v, Expr) else v for v in value)
    if isinstance(value, frozenset):
        return frozenset(evaluate(v, value_of) if isinstance(v, Expr) else v for v in value)
    if isinstance(value, Array):
        if any(isinstance(v, Expr) for v in value.values):
            return Array(value.shape, [evaluate(v, value_of) if isinstance(v, Expr) else v for v in value.values],
                         value.lines)
        return value
    if isinstance(value, _Call):
        shape = []
        for lo, hi in value.ranges:
            lo, hi = evaluate(lo, value_of), evaluate(hi, value_of)
            if not (isinstance(lo, int) and isinstance(hi, int)) or isinstance(lo, bool) or isinstance(hi, bool):
                raise PuzzleError(f"the index ranges of {value.name} must be integer ranges such as 1..9",
                                  line=value.line)
            shape.append(max(0, hi - lo + 1))
        values = _resolve(value.values, value_of)
        if int(np.prod(shape)) != len(values.values):
            raise PuzzleError(f"{value.name}({', '.join(f'1..{s}' for s in shape)}, ...) needs {int(np.prod(shape))} "
                              f"values, the list has {len(values.values)}", line=value.line)
        return Array(tuple(shape), values.values, values.lines or [value.line])
    return value


def first_lines(lines: np.ndarray, shape: tuple[int, int]) -> list[int]:
    """The file line of each grid row's first value."""
    return [int(lines[r * shape[1]]) if shape[1] and r * shape[1] < len(lines) else int(lines[0])
            for r in range(shape[0])]


def check_mapping(mapping) -> None:
    """Refuse a dzn map that is not a mapping of role names to variable names (strings); which roles
    there are is the kinds' (:func:`puzzlebench.io.dzn.check_map`)."""
    if not isinstance(mapping, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in mapping.items()):
        raise PuzzleError("the dzn map must be a mapping of role names to variable names, e.g. {puzzle: x}")


def matrix(rows: list[list[int]], width: int) -> str:
    """A 2-D array value: ``[| ... |]`` rows aligned, or ``array2d(1..0, ...)`` of no rows."""
    if not rows:
        return f"array2d(1..0, 1..{width}, [])"
    cell = max(len(str(v)) for row in rows for v in row)
    body = "".join(f"\n  {', '.join(str(v).rjust(cell) for v in row)} |" for row in rows)
    return "[|" + body[:-2] + "\n|]"
