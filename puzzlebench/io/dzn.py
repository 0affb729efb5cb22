"""MiniZinc data files (``.dzn``): Sudoku, Killer Sudoku and Kakuro, one puzzle a file.

The data subset these files use is read: assignments ``NAME = VALUE;`` of
integers, ``_`` (an absent value, read as 0), ``true``/``false``, ranges
``1..9``, integer sets ``{1, 3}``, strings, 1-D arrays ``[1, 2, 3]``, 2-D
arrays ``[| 1, 2 | 3, 4 |]`` and ``array1d(1..n, [...])`` /
``array2d(1..r, 1..c, [...])``; ``%`` starts a comment, ``/* ... */``
encloses one, also inside arrays.  Numbers and range bounds may be integer
expressions (:mod:`puzzlebench.toolkit.syntax.expr`: names, ``+ - * div mod``, parentheses), and a name
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

import numpy as np

from ..errors import PuzzleError
from ..kinds import get_kind, layout_parts, require_applicable
from ..toolkit.entry import Entry
from ..toolkit.layout import Layout
from ..toolkit.rules import Rules
from ..toolkit.syntax.dzn import CONVENTION_KEY, Array, Assignment, check_mapping, parse
from ..toolkit.text import listing
from .parts import puzzle_part


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


def check_map(mapping) -> dict[str, str]:
    """Validate a role -> variable-name mapping (from --dzn-map or set.yaml's ``dzn:``)."""
    check_mapping(mapping)
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
    require_applicable(rules, kind)
    p = parts[kind].read(data, rules, "1")
    first = min((a.line for a in data.found.values()), default=1)
    return [Entry(p, "1", path, first)]


# ---------------------------------------------------------------- writing

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
