"""The Kakuro data type: white cells to fill, and clue cells whose sums head runs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from ...errors import PuzzleError
from ..common import as_grid, digit_sum_range

DEFAULT_DENSITY = 0.3
"""The generator's share of black cells outside the clue row and column (``generate --density``)."""


@dataclass(frozen=True)
class KakuroRun:
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
        white = as_grid(self.white, "a Kakuro grid").astype(bool)
        across = as_grid(self.across, "Kakuro across clues")
        down = as_grid(self.down, "Kakuro down clues")
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

    runs: tuple[KakuroRun, ...] = field(init=False, repr=False)

    @property
    def shape(self) -> tuple[int, int]:
        return self.white.shape

    @property
    def num_givens(self) -> int:
        return len(self.runs)

    def _derive_runs(self) -> tuple[KakuroRun, ...]:
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
                runs.append(KakuroRun(direction, (int(r), int(c)), tuple(cells), total))
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

