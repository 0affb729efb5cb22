"""Independent rule checkers: they read only the puzzle and the grid, never a model.

``check(puzzle, grid)`` returns a list of violations, each a sentence a person
can act on ("row 3 has 7 twice"); an empty list means the grid is valid.
Positions in messages are 1-based.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from .puzzles import Kakuro, KillerSudoku, Sudoku, Takuzu, UNIT_KINDS


def check(puzzle, grid) -> list[str]:
    """All rule violations of ``grid`` as a solution of ``puzzle``."""
    grid = np.asarray(grid)
    if grid.shape != puzzle.shape:
        return [f"the grid is {grid.shape[0]} x {grid.shape[1] if grid.ndim > 1 else 0}, "
                f"the puzzle {puzzle.shape[0]} x {puzzle.shape[1]}"]
    if isinstance(puzzle, KillerSudoku):
        return _check_sudoku(puzzle, grid) + _check_cages(puzzle, grid)
    if isinstance(puzzle, Sudoku):
        return _check_sudoku(puzzle, grid)
    if isinstance(puzzle, Kakuro):
        return _check_kakuro(puzzle, grid)
    if isinstance(puzzle, Takuzu):
        return _check_takuzu(puzzle, grid)
    raise TypeError(f"no checker for {type(puzzle).__name__}")


def _repeats(values) -> list[int]:
    return sorted(v for v, k in Counter(values).items() if k > 1)


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
        out += [f"{label} has {v} twice" for v in _repeats(values)]
    return out


def _valid_sudoku(p: Sudoku, grid: np.ndarray) -> bool:
    """Whether ``grid`` keeps the givens and every unit of ``p`` holds 1..N once (no messages)."""
    n = p.n
    if not ((p.givens == 0) | (grid == p.givens)).all():
        return False
    values = np.sort(grid.ravel()[p.units()], axis=1)
    return bool((values == np.arange(1, n + 1)).all())


def _check_cages(p: KillerSudoku, grid: np.ndarray) -> list[str]:
    out = []
    for k, cage in enumerate(p.cages, start=1):
        values = [int(grid[r, c]) for r, c in cage.cells]
        total = sum(values)
        if total != cage.total:
            out.append(f"cage {k} sums to {total}, not {cage.total}")
        out += [f"cage {k} has {v} twice" for v in _repeats(values)]
    return out


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
        out += [f"{where} has {v} twice" for v in _repeats(values)]
    return out


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
