"""The Takuzu (Binary Sudoku, Binairo) data type: an R x C grid of 0/1 givens."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...errors import PuzzleError
from ..common import as_grid


@dataclass(frozen=True, eq=False)
class Takuzu:
    """An R x C Binary Sudoku (Takuzu, Binairo), R and C even; ``givens`` holds -1 for a blank.

    Rules: each row holds C/2 zeros and C/2 ones, each column R/2 of each; no three
    equal cells are adjacent in a row or column; with ``distinct_lines`` no two rows
    and no two columns are equal.
    """

    givens: np.ndarray
    distinct_lines: bool = False
    name: str = ""
    puzzle: ClassVar[str] = "takuzu"

    def __post_init__(self):
        g = as_grid(self.givens, "a Takuzu grid")
        object.__setattr__(self, "givens", g)
        rows, cols = g.shape
        if rows % 2 or cols % 2:
            raise PuzzleError(f"a Takuzu grid must have an even number of rows and columns, got {rows} x {cols}")
        bad = np.argwhere((g < -1) | (g > 1))
        if len(bad):
            r, c = bad[0]
            raise PuzzleError(f"given {g[r, c]} at ({r + 1}, {c + 1}) is not 0 or 1", row=int(r))
        for axis, kind, half in ((1, "row", cols // 2), (0, "column", rows // 2)):
            for v in (0, 1):
                counts = (g == v).sum(axis=axis)
                over = np.flatnonzero(counts > half)
                if len(over):
                    i = int(over[0])
                    raise PuzzleError(f"givens conflict: {kind} {i + 1} has more than {half} {v}s",
                                      row=i if kind == "row" else None)
        for kind, grid in (("row", g), ("column", g.T)):
            triple = (grid[:, :-2] >= 0) & (grid[:, :-2] == grid[:, 1:-1]) & (grid[:, 1:-1] == grid[:, 2:])
            hit = np.argwhere(triple)
            if len(hit):
                i, j = hit[0]
                raise PuzzleError(f"givens conflict: {kind} {i + 1} has three {grid[i, j]}s in a row "
                                  f"from position {j + 1}", row=int(i) if kind == "row" else int(j))
        if self.distinct_lines:
            for kind, grid in (("rows", g), ("columns", g.T)):
                full = np.flatnonzero((grid >= 0).all(axis=1))
                counts = np.unique(grid[full], axis=0, return_counts=True)[1]
                if (counts > 1).any():
                    raise PuzzleError(f"givens conflict: two {kind} are equal but lines must be distinct")

    @property
    def shape(self) -> tuple[int, int]:
        return self.givens.shape

    @property
    def num_givens(self) -> int:
        return int((self.givens >= 0).sum())

