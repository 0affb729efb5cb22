"""The independent KenKen checker: it reads only the puzzle and the grid, never a model.

Like :func:`puzzlebench.checker.check`, it returns every violation as a sentence a
person can act on ("cage 3 (12x) makes 8, not 12"); an empty list means the grid is valid.
Positions in messages are 1-based.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from .puzzle import KenKen, combine


def check_kenken(puzzle: KenKen, grid) -> list[str]:
    """All rule violations of ``grid`` (of the puzzle's shape: :func:`puzzlebench.checker.check`
    refuses another first) as a solution of ``puzzle``."""
    grid = np.asarray(grid)
    n = puzzle.n
    out = [f"cell ({r + 1}, {c + 1}) holds {grid[r, c]}, not a digit 1..{n}"
           for r, c in np.argwhere((grid < 1) | (grid > n))]
    for kind, lines in (("row", grid), ("column", grid.T)):
        for i, line in enumerate(lines.tolist(), start=1):
            out += [f"{kind} {i} has {v} twice" for v, count in sorted(Counter(line).items()) if count > 1]
    for k, cage in enumerate(puzzle.cages, start=1):
        values = [int(grid[r, c]) for r, c in cage.cells]
        result = combine(cage.op, values)
        if result != cage.target:
            made = "no whole number" if result is None else str(result)
            out.append(f"cage {k} ({cage.label}) makes {made} from {', '.join(map(str, values))}, "
                       f"not {cage.target}")
    return out
