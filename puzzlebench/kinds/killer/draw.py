"""Drawing a Killer Sudoku (see :mod:`puzzlebench.draw`: cell (r, c) spans [c, c+1] x [r, r+1], y down)."""

from __future__ import annotations

import numpy as np

from ...toolkit.drawing import DIAGONAL_COLOUR, cage_clues
from ..sudoku.draw import draw_sudoku
from .puzzle import KillerSudoku


def draw_killer(ax, puzzle: KillerSudoku, solution, size: float) -> None:
    from matplotlib.colors import to_rgba
    n = puzzle.n
    if puzzle.diagonal:
        shade = np.zeros((n, n, 4))
        on_diagonal = np.eye(n, dtype=bool) | np.fliplr(np.eye(n, dtype=bool))
        shade[on_diagonal] = to_rgba(DIAGONAL_COLOUR)
        ax.imshow(shade, extent=(0, n, n, 0), interpolation="nearest", zorder=0)
    draw_sudoku(ax, puzzle, solution, size, scale=0.8, dy=0.07)  # clear of the cage lines and sums
    corners = np.array([min(cage.cells) for cage in puzzle.cages])
    cage_clues(ax, puzzle.cage_index, corners, [str(cage.total) for cage in puzzle.cages], size)
