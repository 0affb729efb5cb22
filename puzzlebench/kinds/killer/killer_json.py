"""The killer kind's part of io's killer-json layout (:mod:`puzzlebench.io.killer_json`): cage lists, and
the cages of f-puzzles objects.

* A cage list (ConstraintSolver.jl's test data): ``[{"result": 3, "indices": [[1, 1], [1, 2]]}, ...]``:
  each cage's sum (``result``, or ``sum``, ``total``, ``value``) and its cells as [row, column] pairs
  (``indices`` or ``cells``), 1-based (0-based when a 0 appears); other keys (``color``) are ignored.  The
  grid is as large as the cells reach; boxes the squarest shape.
* An f-puzzles object with ``killercage`` (``{"cells": ["R1C1", "R1C2"], "value": "23"}``: 1-based
  ``R<row>C<col>`` cells, the sum a string or a number); ``diagonal+`` and ``diagonal-`` make it Killer-X.

Cells in no cage get the cages the Sudoku rules imply (:func:`puzzlebench.toolkit.regions.complete_cages`), or
the file is refused.
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import PuzzleError
from ...toolkit.rules import MAX_SUDOKU, Rules
from ...toolkit.syntax.fpuzzles import fpuzzles_grid, whole
from .cages import complete_cages
from .puzzle import Cage, KillerSudoku

KEYS = ("killercage",)
"""The f-puzzles keys the part reads."""
_SUM_KEYS = ("result", "sum", "total", "value")
_CELL_KEYS = ("indices", "cells")
_RC = re.compile(r"[Rr]([0-9]{1,2})[Cc]([0-9]{1,2})")


def claims(data) -> bool:
    """A cage list, or an f-puzzles object with cages."""
    return isinstance(data, list) or (isinstance(data, dict) and bool(data.get("killercage")))


def read(data, rules: Rules) -> tuple[KillerSudoku, np.ndarray | None]:
    if isinstance(data, list):
        return _cage_list(data, rules), None
    givens, diagonal, solution = fpuzzles_grid(data, KEYS)
    cages = []
    for k, cage in enumerate(data["killercage"], start=1):
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
        cages.append(Cage(tuple(cells), whole(cage["value"], f"killercage {k}: the sum")))
    return _killer(givens, cages, rules, diagonal), solution


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
            pairs.append((whole(cell[0], f"cage {k}: a row"), whole(cell[1], f"cage {k}: a column")))
        raw.append((pairs, whole(total, f"cage {k}: the sum")))
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


def document(puzzle: KillerSudoku) -> dict:
    """The f-puzzles keys that state the puzzle beyond its size and givens: its cages and diagonals."""
    data = {"killercage": [{"cells": [f"R{r + 1}C{c + 1}" for r, c in cage.cells], "value": str(cage.total)}
                           for cage in puzzle.cages]}
    if puzzle.diagonal:
        data["diagonal+"] = data["diagonal-"] = True
    return data
