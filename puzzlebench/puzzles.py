"""The four puzzles as validated, immutable data types.

Grids are numpy integer arrays indexed ``[row, col]`` from 0.  A blank is 0 in
Sudoku and Killer givens and -1 in Takuzu givens (where 0 is a digit).
Construction checks everything a user can get wrong and raises
:class:`~puzzlebench.errors.PuzzleError` naming the grid row concerned, so that
a parser can point at the file line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from .errors import PuzzleError

PUZZLE_NAMES = ("sudoku", "killer", "kakuro", "takuzu")


def _grid(values, name: str) -> np.ndarray:
    arr = np.asarray(values, dtype=np.int64)
    if arr.ndim != 2 or arr.size == 0:
        raise PuzzleError(f"{name} must be a non-empty 2-D grid, got shape {arr.shape}")
    arr = arr.copy()
    arr.setflags(write=False)
    return arr


def digit_sum_range(length: int, max_digit: int) -> tuple[int, int]:
    """Smallest and largest sum of ``length`` distinct digits from 1..max_digit."""
    return length * (length + 1) // 2, length * (2 * max_digit - length + 1) // 2


def default_box_shape(n: int) -> tuple[int, int]:
    """The box shape br x bc (br <= bc, br*bc = n) closest to square: 6 -> 2x3, 12 -> 3x4."""
    br = math.isqrt(n)
    while n % br:
        br -= 1
    return br, n // br


def first_duplicate(values: np.ndarray) -> tuple[int, int] | None:
    """The first digit (> 0) seen twice in ``values`` and the position of its second sighting."""
    seen: dict[int, int] = {}
    for pos, v in enumerate(values.tolist()):
        if v > 0:
            if v in seen:
                return v, pos
            seen[v] = pos
    return None


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
        g = _grid(self.givens, "a Sudoku grid")
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
        bad = np.argwhere((g < 0) | (g > n))
        if len(bad):
            r, c = bad[0]
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


def sudoku_units(n: int, br: int, bc: int) -> np.ndarray:
    """Rows, then columns, then boxes (numbered left to right, top to bottom) as flat cell indices."""
    idx = np.arange(n * n).reshape(n, n)
    boxes = idx.reshape(n // br, br, n // bc, bc).transpose(0, 2, 1, 3).reshape(n, n)
    return np.concatenate([idx, idx.T, boxes])


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


@dataclass(frozen=True)
class Run:
    """A Kakuro run: white cells ``(row, col)`` in a line, whose distinct digits sum to ``total``."""

    direction: str  # "across" or "down"
    clue: tuple[int, int]
    cells: tuple[tuple[int, int], ...]
    total: int


@dataclass(frozen=True, eq=False)
class Kakuro:
    """An R x C Kakuro: ``white`` marks cells to fill with 1..9; clue cells hold
    ``across[r, c]`` / ``down[r, c]`` sums (0 = no clue).

    Rules: each run (maximal line of white cells right of, or below, a clue)
    holds distinct digits summing to its clue.
    """

    white: np.ndarray
    across: np.ndarray
    down: np.ndarray
    name: str = ""
    puzzle: ClassVar[str] = "kakuro"
    max_digit: ClassVar[int] = 9

    def __post_init__(self):
        white = _grid(self.white, "a Kakuro grid").astype(bool)
        across = _grid(self.across, "Kakuro across clues")
        down = _grid(self.down, "Kakuro down clues")
        if not (white.shape == across.shape == down.shape):
            raise PuzzleError("Kakuro layers differ in shape")
        if not white.any():  # no run to fill: every formulation would be an empty model, not a puzzle
            raise PuzzleError("the Kakuro has no white cell: nothing to fill")
        for name, layer in (("across", across), ("down", down)):
            bad = np.argwhere(white & (layer != 0))
            if len(bad):
                r, c = bad[0]
                raise PuzzleError(f"white cell ({r + 1}, {c + 1}) carries an {name} clue", row=int(r))
            neg = np.argwhere(layer < 0)
            if len(neg):
                r, c = neg[0]
                raise PuzzleError(f"negative {name} clue at ({r + 1}, {c + 1})", row=int(r))
        white.setflags(write=False)
        object.__setattr__(self, "white", white)
        object.__setattr__(self, "across", across)
        object.__setattr__(self, "down", down)
        object.__setattr__(self, "runs", self._derive_runs())

    runs: tuple[Run, ...] = field(init=False, repr=False)

    @property
    def shape(self) -> tuple[int, int]:
        return self.white.shape

    @property
    def num_givens(self) -> int:
        return len(self.runs)

    def _derive_runs(self) -> tuple[Run, ...]:
        runs = []
        rows, cols = self.shape
        for direction, layer, (dr, dc) in (("across", self.across, (0, 1)), ("down", self.down, (1, 0))):
            for r, c in np.argwhere(layer > 0):
                cells = []
                rr, cc = r + dr, c + dc
                while rr < rows and cc < cols and self.white[rr, cc]:
                    cells.append((int(rr), int(cc)))
                    rr, cc = rr + dr, cc + dc
                total = int(layer[r, c])
                where = f"{direction} clue {total} at ({r + 1}, {c + 1})"
                if not cells:
                    raise PuzzleError(f"{where} has no run of white cells", row=int(r))
                if len(cells) > self.max_digit:
                    raise PuzzleError(f"{where} heads a run of {len(cells)} cells, longer than 9", row=int(r))
                lo, hi = digit_sum_range(len(cells), self.max_digit)
                if not lo <= total <= hi:
                    raise PuzzleError(f"{where} heads {len(cells)} cells, which cannot sum to {total} "
                                      f"(possible: {lo}..{hi})", row=int(r))
                runs.append(Run(direction, (int(r), int(c)), tuple(cells), total))
        covered = {d: np.zeros(self.shape, bool) for d in ("across", "down")}
        for run in runs:
            for cell in run.cells:
                covered[run.direction][cell] = True
        for direction in ("across", "down"):
            bad = np.argwhere(self.white & ~covered[direction])
            if len(bad):
                r, c = bad[0]
                raise PuzzleError(f"white cell ({r + 1}, {c + 1}) is in no {direction} run with a clue", row=int(r))
        return tuple(runs)


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
        g = _grid(self.givens, "a Takuzu grid")
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
                _, first, counts = np.unique(grid[full], axis=0, return_index=True, return_counts=True)
                if (counts > 1).any():
                    raise PuzzleError(f"givens conflict: two {kind} are equal but lines must be distinct")

    @property
    def shape(self) -> tuple[int, int]:
        return self.givens.shape

    @property
    def num_givens(self) -> int:
        return int((self.givens >= 0).sum())


Puzzle = Sudoku | KillerSudoku | Kakuro | Takuzu
