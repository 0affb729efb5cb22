"""The Killer Sudoku rules checker: it reads only the puzzle and the grid, never a model (see :mod:`puzzlebench.checker`)."""

from __future__ import annotations

import numpy as np

from ...toolkit.repeats import repeats
from ..sudoku.check import _check_sudoku
from .puzzle import KillerSudoku


def check_killer(p: KillerSudoku, grid: np.ndarray) -> list[str]:
    """The Sudoku rules (with the diagonals of Killer-X), then each cage's sum and distinct digits."""
    return _check_sudoku(p, grid) + _check_cages(p, grid)


def _check_cages(p: KillerSudoku, grid: np.ndarray) -> list[str]:
    out = []
    for k, cage in enumerate(p.cages, start=1):
        values = [int(grid[r, c]) for r, c in cage.cells]
        total = sum(values)
        if total != cage.total:
            out.append(f"cage {k} sums to {total}, not {cage.total}")
        out += [f"cage {k} has {v} twice" for v in repeats(values)]
    return out
