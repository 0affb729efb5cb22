"""Killer Sudoku in JSON: a list of cages with sums, or an f-puzzles puzzle.

Two layouts, one puzzle a file:

* A cage list (ConstraintSolver.jl's test data): ``[{"result": 3, "indices":
  [[1, 1], [1, 2]]}, ...]``: each cage's sum (``result``, or ``sum``,
  ``total``, ``value``) and its cells as [row, column] pairs (``indices`` or
  ``cells``), 1-based (0-based when a 0 appears); other keys (``color``) are
  ignored.  The grid is as large as the cells reach; boxes the squarest shape.
* f-puzzles JSON (the f-puzzles.com editor's export, decompressed): an object
  with ``size``, ``grid`` (``size`` rows of cell objects, ``{"value": 5,
  "given": true}`` a given) and ``killercage`` (``{"cells": ["R1C1",
  "R1C2"], "value": "23"}``: 1-based ``R<row>C<col>`` cells, the sum a string or
  a number), optionally ``diagonal+`` and ``diagonal-`` (both: Killer-X) and
  ``solution`` (the size*size digits row-major); also wrapped as ``{"data":
  {...}}``.  Without cages it is a plain Sudoku.  A file with any other rule
  (``thermometer``, ``arrow``, a jigsaw ``region`` ...) is refused: those
  rules are not modelled.  Cells in no cage get the cages the Sudoku rules
  imply (:func:`.regions.complete_cages`), or the file is refused.

JSON that a puzzle kind's own format claims -- cages that carry an operation (``op``,
``operation``), KenKen's -- is refused naming that format (``--puzzle kenken``), never read as a
Killer whose sums are the targets.

Written: f-puzzles JSON (size, grid with the givens, killercage, diagonals).
"""

from __future__ import annotations

import json
import re

import numpy as np

from ..errors import PuzzleError
from ..kinds import kind_of
from ..puzzles import Cage, KillerSudoku, Sudoku
from .entry import Entry
from .layout import Layout
from .regions import complete_cages
from .rules import MAX_SUDOKU, Rules
from .text import require_kind

PUZZLES = ("killer", "sudoku")
_SUM_KEYS = ("result", "sum", "total", "value")
_CELL_KEYS = ("indices", "cells")
_RC = re.compile(r"[Rr]([0-9]{1,2})[Cc]([0-9]{1,2})")
_DETECT = re.compile(r'"(killercage|indices|grid)"\s*:')
_HARMLESS = {"size", "grid", "killercage", "diagonal+", "diagonal-", "title", "author", "ruleset",
             "disabledlogic", "truecandidatesoptions", "solution", "highlightconflicts"}
_CELL_HARMLESS = {"value", "given", "givenpencilmarks", "centerpencilmarks", "cornerpencilmarks", "candidates",
                  "highlight", "c", "cosmetic"}


def looks_like(text: str) -> bool:
    """A JSON list, or a JSON object with f-puzzles' keys."""
    return text.lstrip().startswith("[") or bool(_DETECT.search(text[:20000]))


def _load(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise PuzzleError(f"not valid JSON: {err.msg}", line=err.lineno) from None
    except RecursionError:
        raise PuzzleError("not valid JSON: nested too deeply") from None


def read(text: str, path: str, puzzle: str | None, rules: Rules, layout: Layout = Layout()) -> list:
    if puzzle not in (None, *PUZZLES):
        raise PuzzleError(f"the killer-json format holds only killer and sudoku puzzles, not {puzzle}")
    from . import claiming_formats
    claimed = claiming_formats(text)
    if claimed:  # cages with an operation each: KenKen's, never a Killer's
        fmt, kind = claimed[0]
        raise PuzzleError(f"the file holds {kind} cages (an operation on each), not killer cages: read it with "
                          f"--puzzle {kind} or --format {fmt}")
    data = _load(text)
    if isinstance(data, list):
        p, solution = _cage_list(data, rules), None
    elif isinstance(data, dict):
        p, solution = _fpuzzles(data.get("data") if isinstance(data.get("data"), dict) else data, rules)
    else:
        raise PuzzleError("expected a JSON list of cages or an f-puzzles object")
    if puzzle is not None and p.puzzle != puzzle:
        raise PuzzleError(f"this file holds a {p.puzzle}, not {puzzle}")
    return [Entry(p, "1", path, 1, solution)]


def _int(value, what: str) -> int:
    if isinstance(value, str) and value.strip().isdecimal():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PuzzleError(f"{what} is {value!r}, not a whole number")
    return value


def _cage_list(data: list, rules: Rules) -> KillerSudoku:
    raw = []
    for k, cage in enumerate(data, start=1):
        if not isinstance(cage, dict):
            raise PuzzleError(f"cage {k} is not an object with a sum and cells")
        total = next((cage[key] for key in _SUM_KEYS if key in cage), None)
        cells = next((cage[key] for key in _CELL_KEYS if key in cage), None)
        if total is None or not isinstance(cells, list) or not cells:
            raise PuzzleError(f"cage {k} needs a sum ({'/'.join(_SUM_KEYS)}) and a list of cells "
                              f"({'/'.join(_CELL_KEYS)})")
        pairs = []
        for cell in cells:
            if not (isinstance(cell, list) and len(cell) == 2):
                raise PuzzleError(f"cage {k}: the cell {cell!r} is not a [row, column] pair")
            pairs.append((_int(cell[0], f"cage {k}: a row"), _int(cell[1], f"cage {k}: a column")))
        raw.append((pairs, _int(total, f"cage {k}: the sum")))
    if not raw:
        raise PuzzleError("the cage list is empty")
    values = [v for pairs, _ in raw for cell in pairs for v in cell]
    base = 0 if min(values) == 0 else 1
    n = max(values) + 1 - base
    if not 4 <= n <= MAX_SUDOKU or min(values) < 0:
        raise PuzzleError(f"the cells reach row or column {max(values)}: no killer grid of 4..{MAX_SUDOKU} rows")
    cages = [Cage(tuple((r - base, c - base) for r, c in pairs), total) for pairs, total in raw]
    return _killer(np.zeros((n, n), np.int64), cages, rules, False)


def _killer(givens: np.ndarray, cages: list[Cage], rules: Rules, diagonal: bool) -> KillerSudoku:
    n = len(givens)
    box = rules.box_for(n)
    return KillerSudoku(givens, *box, "1", cages=complete_cages(n, box, cages), diagonal=diagonal or bool(rules.diagonal))


def _fpuzzles(data: dict, rules: Rules):
    n = _int(data.get("size"), "size")
    if not 4 <= n <= MAX_SUDOKU:
        raise PuzzleError(f"size is {n}; a sudoku grid has 4..{MAX_SUDOKU} rows")
    unsupported = sorted(k for k, v in data.items() if k.lower() not in _HARMLESS and v not in (None, False, [], {}))
    if unsupported:
        raise PuzzleError(f"the f-puzzles file has {unsupported[0]!r}, a rule puzzlebench does not model "
                          "(it reads killer cages, givens and the diagonals)")
    grid = data.get("grid")
    if not (isinstance(grid, list) and len(grid) == n and all(isinstance(row, list) and len(row) == n for row in grid)):
        raise PuzzleError(f"grid must be {n} rows of {n} cell objects")
    givens = np.zeros((n, n), np.int64)
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if not isinstance(cell, dict):
                raise PuzzleError(f"grid row {r + 1}, column {c + 1} is not a cell object")
            other = sorted(k for k, v in cell.items() if k.lower() not in _CELL_HARMLESS and v not in (None, False, []))
            if other:
                raise PuzzleError(f"grid row {r + 1}, column {c + 1} has {other[0]!r}, which puzzlebench does not "
                                  "model (a jigsaw region?)")
            if cell.get("given") and cell.get("value") is not None:
                givens[r, c] = _int(cell["value"], f"the given at row {r + 1}, column {c + 1}")
    diagonals = [bool(data.get("diagonal+")), bool(data.get("diagonal-"))]
    if any(diagonals) and not all(diagonals):
        raise PuzzleError("the file has one diagonal rule; puzzlebench models Killer-X, both diagonals")
    solution = _solution(data.get("solution"), n)
    cages = []
    for k, cage in enumerate(data.get("killercage") or [], start=1):
        if not isinstance(cage, dict) or not isinstance(cage.get("cells"), list) or not cage["cells"]:
            raise PuzzleError(f"killercage {k} has no cells")
        if cage.get("value") in (None, ""):
            raise PuzzleError(f"killercage {k} has no sum; puzzlebench's cages all have one")
        cells = []
        for name in cage["cells"]:
            match = _RC.fullmatch(str(name))
            if not match:
                raise PuzzleError(f"killercage {k}: the cell {name!r} is not R<row>C<column>")
            cells.append((int(match[1]) - 1, int(match[2]) - 1))
        cages.append(Cage(tuple(cells), _int(cage["value"], f"killercage {k}: the sum")))
    if not cages:
        if all(diagonals):
            raise PuzzleError("a Sudoku-X (diagonals without cages) is not a puzzle puzzlebench models")
        br, bc = rules.box_for(n)
        return Sudoku(givens, br, bc, "1"), solution
    return _killer(givens, cages, rules, all(diagonals)), solution


def _solution(found, n: int) -> np.ndarray | None:
    if not found:
        return None
    if not (isinstance(found, list) and len(found) == n * n):
        raise PuzzleError(f"solution must be a list of {n * n} digits")
    values = [_int(v, "a solution digit") for v in found]
    return np.array(values, dtype=np.int64).reshape(n, n)


def read_solutions(text: str, puzzle) -> list[tuple[int, np.ndarray]]:
    """The ``solution`` of an f-puzzles file (a cage list holds none)."""
    require_kind(puzzle, "killer-json", PUZZLES, "solutions")
    entries = read(text, "", None, Rules(box=(puzzle.box_rows, puzzle.box_cols)))
    found = [(1, e.solution) for e in entries if e.solution is not None]
    for _, grid in found:
        if grid.shape != puzzle.shape:
            raise PuzzleError(f"the solution is {grid.shape[0]} x {grid.shape[1]}, the puzzle "
                              f"{puzzle.shape[0]} x {puzzle.shape[1]}")
    return found


def _check(puzzle) -> None:
    require_kind(puzzle, "killer-json", PUZZLES)
    if (puzzle.box_rows, puzzle.box_cols) != Rules().box_for(puzzle.n):
        raise PuzzleError(f"the killer-json format cannot state the box shape {puzzle.box_rows}x{puzzle.box_cols}; "
                          "use the native format")


def _document(puzzle, solution=None) -> str:
    _check(puzzle)
    data = {"size": puzzle.n,
            "grid": [[{"value": int(v), "given": True} if v else {} for v in row] for row in puzzle.givens.tolist()]}
    if kind_of(puzzle).name == "killer":
        data["killercage"] = [{"cells": [f"R{r + 1}C{c + 1}" for r, c in cage.cells], "value": str(cage.total)}
                              for cage in puzzle.cages]
        if puzzle.diagonal:
            data["diagonal+"] = data["diagonal-"] = True
    if solution is not None:
        data["solution"] = [int(v) for v in np.asarray(solution).ravel()]
    return json.dumps(data, indent=1) + "\n"


def format_puzzle(puzzle) -> str:
    return _document(puzzle)


def format_solution(puzzle, grid: np.ndarray) -> str:
    return _document(puzzle, grid)
