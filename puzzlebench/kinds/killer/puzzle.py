"""The Killer Sudoku data type: a Sudoku whose cells are partitioned into cages with sums."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from ...errors import PuzzleError
from ..common import digit_sum_range
from ..sudoku.puzzle import Sudoku


@dataclass(frozen=True)
class Cage:
    """A Killer cage: its cells ``(row, col)`` and the sum they must make."""

    cells: tuple[tuple[int, int], ...]
    total: int


@dataclass(frozen=True, eq=False)
class KillerSudoku(Sudoku):
    """A Sudoku whose cells are partitioned into cages with sums (givens optional).

    Rules: the Sudoku rules; the digits of each cage are distinct and sum to its
    total; with ``diagonal`` (Killer-X) both main diagonals also hold 1..N once.
    """

    cages: tuple[Cage, ...] = ()
    diagonal: bool = False
    puzzle: ClassVar[str] = "killer"

    def __post_init__(self):
        object.__setattr__(self, "cages", tuple(
            c if isinstance(c, Cage) else Cage(tuple(map(tuple, c[0])), int(c[1])) for c in self.cages))
        super().__post_init__()
        n = self.n
        owner = np.full((n, n), -1)
        for k, cage in enumerate(self.cages):
            if not cage.cells:
                raise PuzzleError(f"cage {k + 1} has no cells")
            for r, c in cage.cells:
                if not (0 <= r < n and 0 <= c < n):
                    raise PuzzleError(f"cage {k + 1} has cell ({r + 1}, {c + 1}) outside the {n}x{n} grid")
                if owner[r, c] >= 0:
                    raise PuzzleError(
                        f"cell ({r + 1}, {c + 1}) is in cage {owner[r, c] + 1} and in cage {k + 1}", row=r)
                owner[r, c] = k
            size = len(cage.cells)
            if size > n:
                raise PuzzleError(f"cage {k + 1} has {size} cells, more than the {n} distinct digits")
            lo, hi = digit_sum_range(size, n)
            if not lo <= cage.total <= hi:
                raise PuzzleError(f"cage {k + 1} has {size} cells and cannot sum to {cage.total} "
                                  f"(possible: {lo}..{hi})", row=cage.cells[0][0])
        missing = np.argwhere(owner < 0)
        if len(missing):
            r, c = missing[0]
            raise PuzzleError(f"cell ({r + 1}, {c + 1}) is in no cage", row=int(r))
        object.__setattr__(self, "cage_index", owner)
        owner.setflags(write=False)
    cage_index: np.ndarray = field(init=False, repr=False)

    @property
    def cage_sums(self) -> np.ndarray:
        return np.array([c.total for c in self.cages], dtype=np.int64)

    def units(self) -> np.ndarray:
        units = super().units()
        if not self.diagonal:
            return units
        n = self.n
        diag = np.arange(n) * (n + 1)
        anti = np.arange(n) * (n - 1) + (n - 1)
        return np.concatenate([units, diag[None], anti[None]])

