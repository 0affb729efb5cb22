"""The Sudoku data type: an N x N grid of givens with br x bc boxes."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...errors import PuzzleError
from ...toolkit.rules import default_box_shape
from ..common import as_grid, first_duplicate


@dataclass(frozen=True, eq=False)
class Sudoku:
    """An N x N Sudoku with br x bc boxes (br*bc = N); ``givens`` holds 0 for a blank.

    Rule: every row, column and box holds each of 1..N exactly once.
    """

    givens: np.ndarray
    box_rows: int = 0
    box_cols: int = 0
    name: str = ""
    puzzle: ClassVar[str] = "sudoku"

    def __post_init__(self):
        g = as_grid(self.givens, "a Sudoku grid")
        object.__setattr__(self, "givens", g)
        n = g.shape[0]
        if g.shape != (n, n):
            raise PuzzleError(f"a Sudoku grid must be square, got {g.shape[0]} x {g.shape[1]}")
        if not self.box_rows or not self.box_cols:
            br, bc = default_box_shape(n)
            object.__setattr__(self, "box_rows", br)
            object.__setattr__(self, "box_cols", bc)
        if self.box_rows * self.box_cols != n:
            raise PuzzleError(f"box shape {self.box_rows}x{self.box_cols} does not tile a {n}x{n} grid")
        outside = (g < 0) | (g > n)
        if outside.any():
            r, c = np.argwhere(outside)[0]
            raise PuzzleError(f"given {g[r, c]} at row {r + 1}, column {c + 1} is outside 1..{n}", row=int(r))
        self._check_conflicts()

    @property
    def n(self) -> int:
        return self.givens.shape[0]

    @property
    def shape(self) -> tuple[int, int]:
        return self.givens.shape

    @property
    def num_givens(self) -> int:
        return int((self.givens > 0).sum())

    def units(self) -> np.ndarray:
        """Cell indices (flat, row-major) of every row, column and box: shape (3N, N)."""
        return sudoku_units(self.n, self.box_rows, self.box_cols)

    def _check_conflicts(self) -> None:
        n = self.n
        flat = self.givens.ravel()
        values = np.sort(flat[self.units()], axis=1)
        if not ((values[:, 1:] == values[:, :-1]) & (values[:, 1:] > 0)).any():
            return  # no unit repeats a given: the common case, without the per-unit loop below
        for u, cells in enumerate(self.units()):
            if dup := first_duplicate(flat[cells]):
                kind, index = UNIT_KINDS[u // n] if u < 3 * n else "diagonal", u % n
                raise PuzzleError(f"givens conflict: {kind} {index + 1} has {dup[0]} twice",
                                  row=int(cells[dup[1]] // n))


UNIT_KINDS = ("row", "column", "box")


@functools.lru_cache(maxsize=None)
def sudoku_units(n: int, br: int, bc: int) -> np.ndarray:
    """Rows, then columns, then boxes (numbered left to right, top to bottom) as flat cell indices
    (one read-only array per shape)."""
    idx = np.arange(n * n).reshape(n, n)
    boxes = idx.reshape(n // br, br, n // bc, bc).transpose(0, 2, 1, 3).reshape(n, n)
    units = np.concatenate([idx, idx.T, boxes])
    units.flags.writeable = False
    return units

