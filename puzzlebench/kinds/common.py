"""Helpers the kinds share: validated grids and digit sums; a solved assignment model's columns and a
puzzle's description by its givens (the kinds' generator parts name them)."""

from __future__ import annotations

import numpy as np

from ..errors import PuzzleError


def as_grid(values, name: str) -> np.ndarray:
    """``values`` as a read-only non-empty 2-D int64 array (``name`` says what it is in the error)."""
    arr = np.asarray(values, dtype=np.int64)
    if arr.ndim != 2 or arr.size == 0:
        raise PuzzleError(f"{name} must be a non-empty 2-D grid, got shape {arr.shape}")
    arr = arr.copy()
    arr.setflags(write=False)
    return arr


def digit_sum_range(length: int, max_digit: int) -> tuple[int, int]:
    """Smallest and largest sum of ``length`` distinct digits from 1..max_digit."""
    return length * (length + 1) // 2, length * (2 * max_digit - length + 1) // 2


def first_duplicate(values: np.ndarray) -> tuple[int, int] | None:
    """The first digit (> 0) seen twice in ``values`` and the position of its second sighting."""
    seen: dict[int, int] = {}
    for pos, v in enumerate(values.tolist()):
        if v > 0:
            if v in seen:
                return v, pos
            seen[v] = pos
    return None


def assignment_solution_columns(puzzle, solution: np.ndarray, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The columns of a cell-digit assignment model's binaries x[c,k] (column N*c + k-1, first in the
    model: Sudoku, Killer, KenKen) that are 1 at ``solution`` in the cells ``cells``, and their values."""
    return puzzle.n * cells + solution.ravel()[cells] - 1, np.ones(len(cells), np.int64)


def describe_givens(puzzle) -> str:
    """``9x9, 28 givens (65% blank)`` (a puzzle of givens: Sudoku, Takuzu)."""
    rows, cols = puzzle.shape
    givens = puzzle.num_givens
    return f"{rows}x{cols}, {givens} givens ({100 * (1 - givens / (rows * cols)):.0f}% blank)"
