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

Each puzzle reads a few variables, its *roles*, found under these names
(``--dzn-map ROLE=NAME,...`` or a ``dzn:`` mapping in ``set.yaml`` names others):

* Sudoku: ``puzzle`` (or ``x``, ``start``, ``puzzle_input``, ``givens``,
  ``grid``, ``board``, ``clues``), the N x N grid, 0 or ``_`` a blank; ``n``
  (or ``N``, ``S``, ``size``; optional), the box size (9x9: ``n = 3``, the
  MiniZinc tutorial's ``S = 3``) or the grid size (``n = 9``);
  ``box_rows`` / ``box_cols`` (optional) a box shape that is not square::

      n = 2;
      puzzle = [| 1, _, _, _ | _, _, 3, _ | _, 4, _, _ | _, _, _, 2 |];

* Killer Sudoku: ``n`` as for Sudoku, and either ``cages``, one row per cage
  holding its sum then the (row, column) pairs of its cells, 1-based, padded
  with 0 to the longest cage; or ``cage_grid`` (or ``cage_id``), an N x N
  grid of cage ids 1..K, with ``sums`` (or ``cage_sums``) the K sums in id
  order.  ``puzzle`` may add givens.  The diagonal rule is an instance-set
  option (``diagonal: true``).
* Kakuro: ``h`` and ``w`` the rows and columns, ``grid_data`` the h x w grid
  with 1 for a white cell and 0 for any other; ``h_clue`` and ``v_clue`` one
  row per across / down run: (row, column, length, sum), 1-based, and
  ``h_clues`` / ``v_clues`` or ``n_h`` / ``n_v`` (optional) the row counts.
  The position is, in the *first-cell* convention, the run's first white
  cell (the clue sits left of it, across, or above it, down); in the
  *clue-cell* convention (the MiniZinc benchmarks' ``kakuro.mzn``) the clue
  cell itself.  The convention is the one every row fits (a position is a
  white cell in one, a clue cell in the other), or ``--dzn-convention``.

The puzzle is the one whose variables the file has (``grid_data`` ->
Kakuro, ``cages`` or ``cage_grid`` -> Killer, ``puzzle`` -> Sudoku).  A file
that disagrees with itself (a declared ``n``, ``h`` or count that does not
match the data, a run whose length is not the grid's) is refused with the
line of the variable.  Data files hold no solutions.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from ..errors import PuzzleError
from ..puzzles import Cage, Kakuro, KillerSudoku, Sudoku
from .entry import Entry
from .expr import Expr, evaluate, parse_expression
from .layout import Layout
from .rules import MAX_SUDOKU, Rules
from .text import MAX_SIDE, build_located, require_kind

PUZZLES = ("sudoku", "killer", "kakuro")
_GRID_NAMES = ("puzzle", "x", "start", "puzzle_input", "givens", "grid", "board", "clues")
_SIZE_NAMES = ("n", "N", "S", "size")
ROLES = {  # role -> the variable names tried, in order
    "sudoku": {"puzzle": _GRID_NAMES, "n": _SIZE_NAMES, "box_rows": ("box_rows",), "box_cols": ("box_cols",)},
    "killer": {"cages": ("cages",), "cage_grid": ("cage_grid", "cage_id"), "sums": ("sums", "cage_sums"),
               "puzzle": _GRID_NAMES, "n": _SIZE_NAMES, "box_rows": ("box_rows",), "box_cols": ("box_cols",)},
    "kakuro": {"grid_data": ("grid_data",), "h": ("h",), "w": ("w",), "h_clue": ("h_clue",),
               "v_clue": ("v_clue",), "h_clues": ("h_clues", "n_h"), "v_clues": ("v_clues", "n_v")},
}
CONVENTIONS = ("first-cell", "clue-cell")
"""Where a Kakuro clue row (row, column, length, sum) puts its position: the run's first white
cell, or the clue cell left of (across) or above (down) it."""
_MARKERS = (("kakuro", ("grid_data", "h_clue", "v_clue")), ("killer", ("cages", "cage_grid")),
            ("sudoku", ("puzzle",)))
ALL_ROLES = tuple(dict.fromkeys(role for roles in ROLES.values() for role in roles))
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


# ---------------------------------------------------------------- roles

class _Data:
    """The variables a puzzle reads, found by role through the name mapping."""

    def __init__(self, found: dict[str, Assignment], mapping: dict[str, str]):
        self.found = found
        self.mapping = mapping
        self.convention: str | None = None

    def name(self, puzzle: str, role: str) -> str | None:
        """The variable holding ``role``: the mapped name, else the first default name present."""
        if role in self.mapping:
            name = self.mapping[role]
            if name not in self.found:
                raise PuzzleError(f"the dzn map says {role}={name}, but the file assigns no {name} "
                                  f"(it assigns: {', '.join(self.found) or 'nothing'})")
            return name
        return next((n for n in ROLES[puzzle][role] if n in self.found), None)

    def get(self, puzzle: str, role: str, required: bool = True) -> Assignment | None:
        name = self.name(puzzle, role)
        if name is None:
            if required:
                names = " or ".join(ROLES[puzzle][role])
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


def _row_lines(lines: np.ndarray, shape: tuple[int, int]) -> list[int]:
    """The file line of each grid row's first value."""
    return [int(lines[r * shape[1]]) if shape[1] and r * shape[1] < len(lines) else int(lines[0])
            for r in range(shape[0])]


def check_map(mapping) -> dict[str, str]:
    """Validate a role -> variable-name mapping (from --dzn-map or set.yaml's ``dzn:``)."""
    if not isinstance(mapping, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in mapping.items()):
        raise PuzzleError("the dzn map must be a mapping of role names to variable names, e.g. {puzzle: x}")
    unknown = sorted(set(mapping) - set(ALL_ROLES) - {CONVENTION_KEY})
    if unknown:
        raise PuzzleError(f"the dzn map names an unknown role {unknown[0]!r} (roles: {', '.join(ALL_ROLES)})")
    if mapping.get(CONVENTION_KEY, CONVENTIONS[0]) not in CONVENTIONS:
        raise PuzzleError(f"the dzn convention {mapping[CONVENTION_KEY]!r} is none of {', '.join(CONVENTIONS)}")
    return dict(mapping)


def _kind(data: _Data, puzzle: str | None) -> str:
    if puzzle is not None:
        if puzzle not in PUZZLES:
            raise PuzzleError(f"MiniZinc data files are read for {', '.join(PUZZLES)}, not {puzzle}")
        return puzzle
    kinds = [kind for kind, roles in _MARKERS if any(data.has(kind, r) for r in roles)]
    if "killer" in kinds and "sudoku" in kinds:
        kinds.remove("sudoku")  # a Killer's givens grid
    if len(kinds) > 1:
        raise PuzzleError(f"this data file could hold a {' or a '.join(kinds)}: say which with --puzzle")
    if not kinds:
        raise PuzzleError("cannot tell the puzzle: expected puzzle (Sudoku), cages or cage_grid (Killer) or "
                          "grid_data (Kakuro); name the variables with --dzn-map (e.g. puzzle=x) and the "
                          "puzzle with --puzzle")
    return kinds[0]


# ---------------------------------------------------------------- puzzles

def read(text: str, path: str, puzzle: str | None, rules: Rules, layout: Layout = Layout()) -> list[Entry]:
    mapping = check_map(layout.dzn)
    data = _Data(parse(text), {k: v for k, v in mapping.items() if k != CONVENTION_KEY})
    data.convention = mapping.get(CONVENTION_KEY)
    kind = _kind(data, puzzle)
    rules.require_applicable(kind)
    reader = {"sudoku": _sudoku, "killer": _killer, "kakuro": _kakuro}[kind]
    p = reader(data, rules, "1")
    first = min((a.line for a in data.found.values()), default=1)
    return [Entry(p, "1", path, first)]


def _box(data: _Data, kind: str, side: int, rules: Rules) -> tuple[int, int]:
    n, line = data.scalar(kind, "n")
    br, br_line = data.scalar(kind, "box_rows")
    bc, _ = data.scalar(kind, "box_cols")
    if (br is None) != (bc is None):
        raise PuzzleError("box_rows and box_cols go together: give both or neither", line=br_line)
    if br is not None:
        return br, bc
    if n is not None and n != side:
        if n * n != side:
            raise PuzzleError(f"n = {n} does not match the {side} x {side} grid (n is the box size, "
                              f"{side ** 0.5:g} here, or the grid size, {side})", line=line)
        return n, n
    return rules.box_for(side)


def _square(data: _Data, kind: str, role: str, required: bool = True, side: int | None = None):
    found = data.grid(kind, role, required, side, side)
    if found is None:
        return None
    values, lines, a = found
    rows, cols = values.shape
    if rows != cols or not 1 <= rows <= MAX_SUDOKU:
        raise PuzzleError(f"{a.name} is {rows} x {cols}; a {kind} grid is square, 1..{MAX_SUDOKU} rows",
                          line=a.line)
    if side is not None and rows != side:
        raise PuzzleError(f"{a.name} is {rows} x {cols}, the puzzle {side} x {side}", line=a.line)
    return values, _row_lines(lines, values.shape), a


def _sudoku(data: _Data, rules: Rules, name: str) -> Sudoku:
    givens, row_lines, a = _square(data, "sudoku", "puzzle")
    br, bc = _box(data, "sudoku", len(givens), rules)
    return build_located(lambda: Sudoku(givens, br, bc, name), row_lines, a.line)


def _killer(data: _Data, rules: Rules, name: str) -> KillerSudoku:
    rows_form, grid_form = data.get("killer", "cages", False), data.get("killer", "cage_grid", False)
    if rows_form and grid_form:
        raise PuzzleError(f"the file has both {rows_form.name} (cage rows) and {grid_form.name} (a cage grid): "
                          "say which to read with --dzn-map", line=grid_form.line)
    if grid_form:
        ids, _, a = _square(data, "killer", "cage_grid")
        n = len(ids)
        cages, where = _cages_from_grid(data, ids, a), a.line
    else:
        found = _square(data, "killer", "puzzle", False)
        cages, where, n = _cage_rows(data, len(found[0]) if found else None)
    givens_found = _square(data, "killer", "puzzle", False, n)
    givens = givens_found[0] if givens_found else np.zeros((n, n), dtype=np.int64)
    br, bc = _box(data, "killer", n, rules)
    return build_located(lambda: KillerSudoku(givens, br, bc, name, cages=cages, diagonal=bool(rules.diagonal)),
                         givens_found[1] if givens_found else [], where)


def _cages_from_grid(data: _Data, ids: np.ndarray, grid: Assignment) -> tuple[Cage, ...]:
    a = data.get("killer", "sums")
    if not isinstance(a.value, Array) or len(a.value.shape) != 1 or any(
            isinstance(v, bool) or not isinstance(v, int) for v in a.value.values):
        raise PuzzleError(f"{a.name} must be a 1-D array of cage sums", line=a.line)
    sums = a.value.values
    bad = np.argwhere((ids < 1) | (ids > len(sums)))
    if len(bad):
        r, c = bad[0]
        raise PuzzleError(f"{grid.name} has the cage id {ids[r, c]} at row {r + 1}, column {c + 1}; "
                          f"{a.name} lists {len(sums)} sums, so ids are 1..{len(sums)}", line=grid.line)
    cells = [[] for _ in sums]
    for r, c in np.ndindex(*ids.shape):
        cells[ids[r, c] - 1].append((r, c))
    empty = next((k for k, cs in enumerate(cells) if not cs), None)
    if empty is not None:
        raise PuzzleError(f"{a.name} lists {len(sums)} sums but no cell of {grid.name} has the id {empty + 1}",
                          line=a.line)
    return tuple(Cage(tuple(cs), total) for cs, total in zip(cells, sums))


def _cage_rows(data: _Data, side: int | None) -> tuple[tuple[Cage, ...], int, int]:
    found = data.grid("killer", "cages")
    values, lines, a = found
    if values.ndim != 2 or a.value.shape != values.shape or values.shape[1] < 3 or values.shape[1] % 2 == 0:
        raise PuzzleError(f"{a.name} must be a [| ... |] array, one row per cage: the sum, then (row, column) "
                          "pairs, padded with 0", line=a.line)
    row_lines = _row_lines(lines, values.shape)
    cells_per_row = [[(int(r), int(c)) for r, c in zip(row[1::2], row[2::2]) if (r, c) != (0, 0)]
                     for row in values]
    if side is None:  # n is the box or the grid size, and the cages cover the grid
        n, n_line = data.scalar("killer", "n")
        reach = max((max(r, c) for cells in cells_per_row for r, c in cells), default=0)
        side = reach if n is None else (n if reach <= n else n * n)
        if not 1 <= side <= MAX_SUDOKU:
            raise PuzzleError(f"{a.name}: the cells reach row or column {reach}; a killer grid has "
                              f"1..{MAX_SUDOKU} rows", line=n_line or a.line)
    cages = []
    for k, (row, cells) in enumerate(zip(values, cells_per_row)):
        bad = [(r, c) for r, c in cells if not (1 <= r <= side and 1 <= c <= side)]
        if bad:
            raise PuzzleError(f"{a.name} row {k + 1}: cell ({bad[0][0]}, {bad[0][1]}) is outside the "
                              f"{side} x {side} grid (rows and columns count from 1)", line=row_lines[k])
        if not cells:
            raise PuzzleError(f"{a.name} row {k + 1} lists no cell", line=row_lines[k])
        cages.append(Cage(tuple((r - 1, c - 1) for r, c in cells), int(row[0])))
    try:
        KillerSudoku(np.zeros((side, side), np.int64), *_default_box(side), cages=tuple(cages))
    except PuzzleError as err:
        k = _cage_number(err.problem)
        raise PuzzleError(err.problem, line=row_lines[k] if k is not None and k < len(row_lines) else a.line) from None
    return tuple(cages), a.line, side


def _default_box(side: int) -> tuple[int, int]:
    return Rules().box_for(side)


def _cage_number(problem: str) -> int | None:
    match = re.search(r"cage ([0-9]+)", problem)
    return int(match[1]) - 1 if match else None


def _kakuro(data: _Data, rules: Rules, name: str) -> Kakuro:
    h, h_line = data.scalar("kakuro", "h")
    w, w_line = data.scalar("kakuro", "w")
    grid, lines, a = data.grid("kakuro", "grid_data", True, h, w)
    rows, cols = grid.shape
    for value, line, what, size in ((h, h_line, "h", rows), (w, w_line, "w", cols)):
        if value is not None and value != size:
            raise PuzzleError(f"{what} = {value}, but grid_data has {size} {'rows' if what == 'h' else 'columns'}",
                              line=line)
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise PuzzleError(f"{a.name} is {rows} x {cols}; sides must be 1..{MAX_SIDE}", line=a.line)
    if not np.isin(grid, (0, 1)).all():
        raise PuzzleError(f"{a.name} must hold 1 (white cell) and 0 (any other cell) only", line=a.line)
    white = grid == 1
    tables = {role: _clue_table(data, role) for role in ("h_clue", "v_clue")}
    convention = data.convention or _detect_convention(tables, white)
    layers = {}
    for role, direction, step in (("h_clue", "across", (0, 1)), ("v_clue", "down", (1, 0))):
        layers[direction] = _runs(tables[role], direction, step, white, convention)
    row_lines = _row_lines(lines, grid.shape)
    return build_located(lambda: Kakuro(white, layers["across"], layers["down"], name), row_lines, a.line)


def _clue_table(data: _Data, role: str) -> tuple[np.ndarray, list[int], str]:
    """(rows (row, column, length, sum), the line of each row, the variable name) of ``role``."""
    found = data.grid("kakuro", role, False)
    count, count_line = data.scalar("kakuro", role + "s")
    table = np.zeros((0, 4), dtype=np.int64)
    if found is not None and found[0].size:
        if len(found[2].value.shape) != 2 or found[0].shape[1] != 4:
            raise PuzzleError(f"{found[2].name} must be a [| ... |] array of rows (row, column, length, sum)",
                              line=found[2].line)
        table = found[0]
    if count is not None and count != len(table):
        count_name = data.name("kakuro", role + "s")
        raise PuzzleError(f"{count_name} = {count}, but {role} has {len(table)} rows", line=count_line)
    row_lines = _row_lines(found[1], table.shape) if found is not None and len(table) else []
    return table, row_lines, found[2].name if found is not None else role


def _run_of(row, step: tuple[int, int], white: np.ndarray, convention: str) -> tuple[tuple[int, int], str | None]:
    """(0-based clue cell, the problem or None) of a clue row read in ``convention``."""
    r, c, length, total = row
    rows, cols = white.shape
    direction = "across" if step == (0, 1) else "down"
    before = "left of" if direction == "across" else "above"
    if convention == "first-cell":
        if not (1 <= r <= rows and 1 <= c <= cols) or not white[r - 1, c - 1]:
            return (0, 0), f"({r}, {c}) is not a white cell of the {rows} x {cols} grid"
        clue, start = (r - 1 - step[0], c - 1 - step[1]), (r - 1, c - 1)
        if clue[0] < 0 or clue[1] < 0 or white[clue]:
            return clue, (f"the run does not start at ({r}, {c}): the cell {before} it is white or outside "
                          "the grid")
    else:
        if not (1 <= r <= rows and 1 <= c <= cols) or white[r - 1, c - 1]:
            return (0, 0), f"({r}, {c}) is not a clue cell (a non-white cell) of the {rows} x {cols} grid"
        clue, start = (r - 1, c - 1), (r - 1 + step[0], c - 1 + step[1])
    actual, (rr, cc) = 0, start
    while rr < rows and cc < cols and white[rr, cc]:
        actual, rr, cc = actual + 1, rr + step[0], cc + step[1]
    if actual != length:
        return clue, f"the {direction} run {'from' if convention == 'first-cell' else 'after'} ({r}, {c}) is " \
                     f"{actual} cells long in grid_data, not {length}"
    if total < 1:
        return clue, "the sum must be positive"
    return clue, None


def _detect_convention(tables: dict, white: np.ndarray) -> str:
    """The convention every clue row fits; a file whose rows fit neither is refused at the first row
    that does not fit the convention most rows fit."""
    steps = {"h_clue": (0, 1), "v_clue": (1, 0)}
    fits = {conv: sum(_run_of(row, steps[role], white, conv)[1] is None
                      for role, (table, _, _) in tables.items() for row in table.tolist())
            for conv in CONVENTIONS}
    total = sum(len(table) for table, _, _ in tables.values())
    for conv in CONVENTIONS:
        if fits[conv] == total:
            return conv
    return max(CONVENTIONS, key=fits.get)


def _runs(table, direction: str, step: tuple[int, int], white: np.ndarray, convention: str) -> np.ndarray:
    """The clue layer the (row, column, length, sum) rows of a table state, checked against the grid."""
    rows_table, row_lines, name = table
    layer = np.zeros(white.shape, dtype=np.int64)
    for k, row in enumerate(rows_table.tolist()):
        where = f"{name} row {k + 1} ({', '.join(map(str, row))})"
        clue, problem = _run_of(row, step, white, convention)
        if problem is not None:
            raise PuzzleError(f"{where}: {problem} (read with the {convention} convention; "
                              f"--dzn-convention names the other)", line=row_lines[k])
        if layer[clue]:
            raise PuzzleError(f"{where}: a second {direction} clue at ({clue[0] + 1}, {clue[1] + 1})",
                              line=row_lines[k])
        layer[clue] = row[3]
    return layer


# ---------------------------------------------------------------- writing

def _matrix(rows: list[list[int]], width: int) -> str:
    if not rows:
        return f"array2d(1..0, 1..{width}, [])"
    cell = max(len(str(v)) for row in rows for v in row)
    body = "".join(f"\n  {', '.join(str(v).rjust(cell) for v in row)} |" for row in rows)
    return "[|" + body[:-2] + "\n|]"


def format_puzzle(puzzle, layout: Layout = Layout()) -> str:
    """The data file of ``puzzle``; a Kakuro in the convention of ``layout.dzn["convention"]``
    (first-cell: ``h_clues``/``h_clue`` rows from the run's first white cell, as read by default;
    clue-cell: ``n_h``/``h_clue`` rows from the clue cell, as the MiniZinc benchmarks' kakuro.mzn reads)."""
    kind = require_kind(puzzle, "dzn", PUZZLES)
    rows, cols = puzzle.shape
    head = f"% puzzlebench {puzzle.puzzle} {rows}x{cols}" + (f": {puzzle.name}" if puzzle.name else "") + "\n"
    if kind == "kakuro":
        return head + _format_kakuro(puzzle, check_map(layout.dzn).get(CONVENTION_KEY, CONVENTIONS[0]))
    if kind == "killer" and puzzle.diagonal:
        raise PuzzleError("the dzn format cannot state the diagonal rule; use the native format")
    n = puzzle.n
    if puzzle.box_rows == puzzle.box_cols:
        text = f"n = {puzzle.box_rows};\n"
    else:
        text = f"n = {n};\nbox_rows = {puzzle.box_rows};\nbox_cols = {puzzle.box_cols};\n"
    if kind == "killer":
        longest = max(len(c.cells) for c in puzzle.cages)
        cage_rows = [[c.total] + [v + 1 for cell in c.cells for v in cell] + [0] * (2 * (longest - len(c.cells)))
                     for c in puzzle.cages]
        text += f"cages = {_matrix(cage_rows, 2 * longest + 1)};\n"
        if puzzle.num_givens:
            text += f"puzzle = {_matrix(puzzle.givens.tolist(), n)};\n"
        return head + text
    return head + text + f"puzzle = {_matrix(puzzle.givens.tolist(), n)};\n"


def _format_kakuro(p: Kakuro, convention: str) -> str:
    rows, cols = p.shape
    text = f"h = {rows};\nw = {cols};\ngrid_data = {_matrix(p.white.astype(int).tolist(), cols)};\n"
    for role, count, direction in (("h_clue", "n_h", "across"), ("v_clue", "n_v", "down")):
        runs = [run for run in p.runs if run.direction == direction]
        where = [run.cells[0] if convention == "first-cell" else run.clue for run in runs]
        table = [[r + 1, c + 1, len(run.cells), run.total] for (r, c), run in zip(where, runs)]
        text += f"{role + 's' if convention == 'first-cell' else count} = {len(table)};\n{role} = {_matrix(table, 4)};\n"
    return text


def unsupported_solutions() -> PuzzleError:
    return PuzzleError("MiniZinc data files hold no solutions; write the solution in the native format")


def read_solutions(text: str, puzzle) -> list:
    raise unsupported_solutions()


def format_solution(puzzle, grid) -> str:
    raise unsupported_solutions()
