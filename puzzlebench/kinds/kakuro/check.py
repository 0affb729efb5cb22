"""The Kakuro rules checker: it reads only the puzzle and the grid, never a model (see :mod:`puzzlebench.checker`)."""

from __future__ import annotations

import numpy as np

from ...toolkit.repeats import repeats
from .puzzle import Kakuro


def _check_kakuro(p: Kakuro, grid: np.ndarray) -> list[str]:
    out = []
    bad = np.argwhere(p.white & ((grid < 1) | (grid > p.max_digit)))
    out += [f"white cell ({r + 1}, {c + 1}) holds {grid[r, c]}, not a digit 1..9" for r, c in bad]
    filled = np.argwhere(~p.white & (grid != 0))
    out += [f"cell ({r + 1}, {c + 1}) is not white but holds {grid[r, c]}" for r, c in filled]
    for run in p.runs:
        values = [int(grid[r, c]) for r, c in run.cells]
        where = f"{run.direction} run at ({run.clue[0] + 1}, {run.clue[1] + 1})"
        if sum(values) != run.total:
            out.append(f"{where} sums to {sum(values)}, not {run.total}")
        out += [f"{where} has {v} twice" for v in repeats(values)]
    return out
