"""The killer kind's part of io's sudoku-yaml layout (:mod:`puzzlebench.io.sudoku_yaml`): ``Killer``
constraints, one cage each: ``SUM=CELLS``, each cell two digits, row then column, 1-based
(``Killer: 23=23, 32, 33``).  Cells in no cage get the cages the Sudoku rules imply
(:func:`puzzlebench.toolkit.regions.complete_cages`), or the file is refused; the diagonal rule is an
instance-set option.
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import PuzzleError
from ...toolkit.rules import Rules
from .cages import complete_cages
from .puzzle import Cage, KillerSudoku

CONSTRAINTS = ("Killer",)
"""The constraints the part reads."""
_KILLER = re.compile(r"\s*([0-9]{1,3})\s*=\s*([0-9]{2}(?:\s*,\s*[0-9]{2})*)\s*")


def constraint(node, line: int, n: int) -> Cage:
    """The cage of one ``Killer`` constraint (its YAML value node, at ``line``) of an n x n grid."""
    match = _KILLER.fullmatch(str(getattr(node, "value", "")))
    if not match:
        raise PuzzleError("Killer: expected SUM=CELLS with two-digit cells (row, column), e.g. 23=23, 32, 33",
                          line=line)
    cells = [(int(rc[0]) - 1, int(rc[1]) - 1) for rc in re.findall(r"[0-9]{2}", match[2])]
    if any(not (0 <= r < n and 0 <= c < n) for r, c in cells):
        raise PuzzleError(f"Killer: a cell is outside the {n} x {n} grid (row and column count from 1)", line=line)
    return Cage(tuple(cells), int(match[1]))


def build(givens: np.ndarray, box: tuple[int, int], cages: list[Cage], rules: Rules) -> KillerSudoku:
    return KillerSudoku(givens, *box, "1", cages=complete_cages(len(givens), box, cages), diagonal=bool(rules.diagonal))
