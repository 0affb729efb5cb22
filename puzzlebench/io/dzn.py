"""MiniZinc data files (``.dzn``): Sudoku, Killer Sudoku and Kakuro, one puzzle a file.

The data subset these files use is read: assignments ``NAME = VALUE;`` of
integers, ``_`` (an absent value, read as 0), ``true``/``false``, ranges
``1..9``, integer sets ``{1, 3}``, strings, 1-D arrays ``[1, 2, 3]``, 2-D
arrays ``[| 1, 2 | 3, 4 |]`` and ``array1d(1..n, [...])`` /
``array2d(1..r, 1..c, [...])``; ``%`` starts a comment, ``/* ... */``
encloses one, also inside arrays.  Numbers and range bounds may be integer
expressions (:mod:`.expr`: names, ``+ - * div mod``, parentheses), and a name
may be assigned after its use (``x = array2d(1..n, 1..n, [...]); n = 16;``);
what cannot be evaluated is refused naming it and its line.  A file is recognised by its ``.dzn`` suffix or by a first line that is a ``%``
comment or starts ``NAME =``.

Each puzzle reads a few variables, its *roles*, found under the names a kind's part gives
(``--dzn-map ROLE=NAME,...`` or a ``dzn:`` mapping in ``set.yaml`` names others).  What the roles
of a kind are, and which of them mark a file as the kind's, is the kind's (the ``dzn`` parts of
:attr:`puzzlebench.kinds.PuzzleKind.layouts`): Sudoku (``kinds/sudoku/dzn.py``: ``puzzle``, ``n``),
Killer Sudoku (``kinds/killer/dzn.py``: ``cages`` or ``cage_grid`` and ``sums``) and Kakuro
(``kinds/kakuro/dzn.py``: ``grid_data``, ``h_clue``, ``v_clue``, and the ``convention`` of its clue
rows, ``--dzn-convention``).

The puzzle is the one whose marking variables the file has (``grid_data`` -> Kakuro, ``cages`` or
``cage_grid`` -> Killer, ``puzzle`` -> Sudoku); a kind whose puzzles extend another's (a Killer's
``puzzle`` is its givens) is taken over the kind it extends.  A file that disagrees with itself (a
declared ``n``, ``h`` or count that does not match the data, a run whose length is not the grid's) is
refused with the line of the variable.  Data files hold no solutions.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from ..errors import PuzzleError
from ..kinds import get_kind, layout_parts
from .entry import Entry
from .expr import Expr, evaluate, parse_expression
from .layout import Layout
from .rules import Rules
from .text import listing, puzzle_part

CONVENTION_KEY = "convention"
FIRST_LINE = re.compile(r"%|[A-Za-z][A-Za-z0-9_]*\s*=")
_TOKEN = re.compile(r"""(?P<space>[ \t\r\f\v]+)|(?P<newline>\n)|(?P<comment>%[^\n]*)|(?P<comment2>/\*.*?\*/)
    |(?P<int>[0-9]+)|(?P<name>[A-Za-z][A-Za-z0-9_]*)|(?P<string>"[^"\n]*")
    |(?P<punct>\[\||\|\]|\.\.|[\[\]|(){},;=_+*/-])""", re.VERBOSE | re.DOTALL)
MAX_CELLS = 1_000_000


def __getattr__(name: str):  # computed on use, as the kinds load on first use
    if name == "PUZZLES":
        return tuple(layout_parts("dzn"))
    if name == "ROLES":
        return _roles()
    if name == "ALL_ROLES":
        return _all_roles()
    if name == "CONVENTIONS":
        return _conventions()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _roles() -> dict[str, dict]:
    """Kind -> its part's roles (role -> the variable names tried, in order)."""
    return {kind: part.ROLES for kind, part in layout_parts("dzn").items()}


def _all_roles() -> tuple[str, ...]:
    return tuple(dict.fromkeys(role for roles in _roles().values() for role in roles))


def _conventions() -> tuple[str, ...]:
    """The values of the ``convention`` setting: the parts' (Kakuro's clue rows)."""
    return tuple(c for part in layout_parts("dzn").values() for c in getattr(part, "CONVENTIONS", ()))


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


# ---------------------------------------------------------------- roles

class _Data:
    """The variables a puzzle reads, found by role through the name mapping."""

    def __init__(self, found: dict[str, Assignment], mapping: dict[str, str], roles: dict[str, dict]):
        self.found = found
        self.mapping = mapping
        self.roles = roles
        self.convention: str | None = None

    def name(self, puzzle: str, role: str) -> str | None:
        """The variable holding ``role``: the mapped name, else the first default name present."""
        if role in self.mapping:
            name = self.mapping[role]
            if name not in self.found:
                raise PuzzleError(f"the dzn map says {role}={name}, but the file assigns no {name} "
                                  f"(it assigns: {', '.join(self.found) or 'nothing'})")
            return name
        return next((n for n in self.roles[puzzle][role] if n in self.found), None)

    def get(self, puzzle: str, role: str, required: bool = True) -> Assignment | None:
        name = self.name(puzzle, role)
        if name is None:
            if required:
                names = " or ".join(self.roles[puzzle][role])
                raise PuzzleError(f"a {puzzle} data file needs {names} (the {role}); if the file names it "
                                  f"otherwise, say so with --dzn-map {role}=NAME")
            return None
        return self.found[name]

    def scalar(self, puzzle: str, role: str, required: bool = False) -> tuple[int | None, int | None]:
        """(value, line) of a scalar role; (None, None) when absent and not required."""
        a = self.get(puzzle, role, required)
        if a is None:
            return None, None
        if isinstance(a.value, bool) or not isinstance(a.value, int):
            raise PuzzleError(f"{a.name} must be a whole number", line=a.line)
        return a.value, a.line

    def grid(self, puzzle: str, role: str, required: bool = True, rows=None, cols=None) -> tuple | None:
        """(values as a 2-D int array, None -> 0; element lines; the assignment) of an array role.
        A 1-D array is reshaped to ``rows`` x ``cols`` when they are given, else to a square."""
        a = self.get(puzzle, role, required)
        if a is None:
            return None
        if not isinstance(a.value, Array) or len(a.value.shape) > 2:
            raise PuzzleError(f"{a.name} must be a 1-D or 2-D array of numbers", line=a.line)
        if any(not (v is None or (isinstance(v, int) and not isinstance(v, bool))) for v in a.value.values):
            raise PuzzleError(f"{a.name} must hold numbers or '_' only", line=a.line)
        shape = a.value.shape
        if len(shape) == 1:
            size = shape[0]
            if rows is None or cols is None:
                rows = cols = math.isqrt(size)
            if rows * cols != size:
                raise PuzzleError(f"{a.name} is a list of {size} values, not a {rows} x {cols} grid", line=a.line)
            shape = (rows, cols)
        values = np.array([0 if v is None else v for v in a.value.values], dtype=np.int64).reshape(shape)
        lines = a.value.lines if len(a.value.lines) == values.size else [a.line] * values.size
        return values, np.array(lines or [a.line]), a

    def has(self, puzzle: str, role: str) -> bool:
        return self.name(puzzle, role) is not None


def first_lines(lines: np.ndarray, shape: tuple[int, int]) -> list[int]:
    """The file line of each grid row's first value."""
    return [int(lines[r * shape[1]]) if shape[1] and r * shape[1] < len(lines) else int(lines[0])
            for r in range(shape[0])]


def check_map(mapping) -> dict[str, str]:
    """Validate a role -> variable-name mapping (from --dzn-map or set.yaml's ``dzn:``)."""
    if not isinstance(mapping, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in mapping.items()):
        raise PuzzleError("the dzn map must be a mapping of role names to variable names, e.g. {puzzle: x}")
    unknown = sorted(set(mapping) - set(_all_roles()) - {CONVENTION_KEY}) if mapping else []
    if unknown:
        raise PuzzleError(f"the dzn map names an unknown role {unknown[0]!r} (roles: {', '.join(_all_roles())})")
    if CONVENTION_KEY in mapping and mapping[CONVENTION_KEY] not in _conventions():
        raise PuzzleError(f"the dzn convention {mapping[CONVENTION_KEY]!r} is none of {', '.join(_conventions())}")
    return dict(mapping)


def _kind(data: _Data, puzzle: str | None, parts: dict) -> str:
    if puzzle is not None:
        if puzzle not in parts:
            raise PuzzleError(f"MiniZinc data files are read for {', '.join(parts)}, not {puzzle}")
        return puzzle
    marked = [kind for kind in sorted(parts) if any(data.has(kind, r) for r in parts[kind].MARKERS)]
    types = {kind: get_kind(kind).type for kind in marked}
    kinds = [kind for kind in marked if not any(other != kind and issubclass(types[other], types[kind]) for other in marked)]
    if len(kinds) > 1:  # a kind another marked kind extends is that kind's (a Killer's givens grid)
        raise PuzzleError(f"this data file could hold a {' or a '.join(kinds)}: say which with --puzzle")
    if not kinds:
        raise PuzzleError(f"cannot tell the puzzle: expected {listing([p.MARKED for p in parts.values()], 'or')}; "
                          "name the variables with --dzn-map (e.g. puzzle=x) and the puzzle with --puzzle")
    return kinds[0]


# ---------------------------------------------------------------- puzzles

def read(text: str, path: str, puzzle: str | None, rules: Rules, layout: Layout = Layout()) -> list[Entry]:
    mapping = check_map(layout.dzn)
    parts = layout_parts("dzn")
    data = _Data(parse(text), {k: v for k, v in mapping.items() if k != CONVENTION_KEY}, _roles())
    data.convention = mapping.get(CONVENTION_KEY)
    kind = _kind(data, puzzle, parts)
    rules.require_applicable(kind)
    p = parts[kind].read(data, rules, "1")
    first = min((a.line for a in data.found.values()), default=1)
    return [Entry(p, "1", path, first)]


# ---------------------------------------------------------------- writing

def matrix(rows: list[list[int]], width: int) -> str:
    """A 2-D array value: ``[| ... |]`` rows aligned, or ``array2d(1..0, ...)`` of no rows."""
    if not rows:
        return f"array2d(1..0, 1..{width}, [])"
    cell = max(len(str(v)) for row in rows for v in row)
    body = "".join(f"\n  {', '.join(str(v).rjust(cell) for v in row)} |" for row in rows)
    return "[|" + body[:-2] + "\n|]"


def format_puzzle(puzzle, layout: Layout = Layout()) -> str:
    """The data file of ``puzzle``, a comment line first; ``layout`` chooses among a part's conventions
    (a Kakuro's clue rows: ``layout.dzn["convention"]``)."""
    part = puzzle_part(puzzle, "dzn")
    rows, cols = puzzle.shape
    head = f"% puzzlebench {puzzle.puzzle} {rows}x{cols}" + (f": {puzzle.name}" if puzzle.name else "") + "\n"
    return head + part.format_puzzle(puzzle, layout)


def unsupported_solutions() -> PuzzleError:
    return PuzzleError("MiniZinc data files hold no solutions; write the solution in the native format")


def read_solutions(text: str, puzzle) -> list:
    raise unsupported_solutions()


def format_solution(puzzle, grid) -> str:
    raise unsupported_solutions()
