"""The Sudoku rules checker: it reads only the puzzle and the grid, never a model (see :mod:`puzzlebench.checker`)."""

from __future__ import annotations

import numpy as np

from ...toolkit.repeats import repeats
from .puzzle import UNIT_KINDS, Sudoku


def _check_sudoku(p: Sudoku, grid: np.ndarray) -> list[str]:
    n = p.n
    if _valid_sudoku(p, grid):  # the common case, in a few vectorized operations
        return []
    out = []
    bad = np.argwhere((grid < 1) | (grid > n))
    out += [f"cell ({r + 1}, {c + 1}) holds {grid[r, c]}, not a digit 1..{n}" for r, c in bad]
    given = np.argwhere((p.givens > 0) & (grid != p.givens))
    out += [f"cell ({r + 1}, {c + 1}) is given as {p.givens[r, c]} but holds {grid[r, c]}" for r, c in given]
    flat = grid.ravel().tolist()
    for u, cells in enumerate(p.units()):
        kind = UNIT_KINDS[u // n] if u < 3 * n else ("main diagonal", "anti-diagonal")[u - 3 * n]
        label = f"{kind} {u % n + 1}" if u < 3 * n else kind
        values = [flat[i] for i in cells]
        out += [f"{label} has {v} twice" for v in repeats(values)]
    return out


def _valid_sudoku(p: Sudoku, grid: np.ndarray) -> bool:
    """Whether ``grid`` keeps the givens and every unit of ``p`` holds 1..N once (no messages)."""
    n = p.n
    if not ((p.givens == 0) | (grid == p.givens)).all():
        return False
    values = np.sort(grid.ravel()[p.units()], axis=1)
    return bool((values == np.arange(1, n + 1)).all())
