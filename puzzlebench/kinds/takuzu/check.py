"""The Takuzu rules checker: it reads only the puzzle and the grid, never a model (see :mod:`puzzlebench.checker`)."""

from __future__ import annotations

import numpy as np

from .puzzle import Takuzu


def _check_takuzu(p: Takuzu, grid: np.ndarray) -> list[str]:
    out = []
    bad = np.argwhere((grid != 0) & (grid != 1))
    out += [f"cell ({r + 1}, {c + 1}) holds {grid[r, c]}, not 0 or 1" for r, c in bad]
    given = np.argwhere((p.givens >= 0) & (grid != p.givens))
    out += [f"cell ({r + 1}, {c + 1}) is given as {p.givens[r, c]} but holds {grid[r, c]}" for r, c in given]
    for kind, lines in (("row", grid), ("column", grid.T)):
        half = lines.shape[1] // 2
        for i, line in enumerate(lines.tolist(), start=1):
            ones = sum(1 for v in line if v == 1)
            if ones != half:
                out.append(f"{kind} {i} has {ones} ones and {len(line) - ones} zeros, not {half} of each")
            for j in range(len(line) - 2):
                if line[j] == line[j + 1] == line[j + 2]:
                    out.append(f"{kind} {i} has three {line[j]}s in a row at positions {j + 1}-{j + 3}")
        if p.distinct_lines:
            seen: dict[tuple, int] = {}
            for i, line in enumerate(map(tuple, lines.tolist()), start=1):
                if line in seen:
                    out.append(f"{kind}s {seen[line]} and {i} are equal")
                else:
                    seen[line] = i
    return out
