"""Drawing a Killer Sudoku (see :mod:`puzzlebench.draw`: cell (r, c) spans [c, c+1] x [r, r+1], y down)."""

from __future__ import annotations

import numpy as np

from ...draw import (
    DIAGONAL_COLOUR,
    DIGIT_EM,
    SUM_FONT,
    SUM_OFFSET,
    cage_outlines,
    clear_corners,
    lines,
)
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
    font = size * SUM_FONT
    corners = np.array([min(cage.cells) for cage in puzzle.cages])
    widths = np.array([len(str(cage.total)) for cage in puzzle.cages]) * DIGIT_EM * SUM_FONT
    outlines = clear_corners(cage_outlines(puzzle.cage_index), corners, SUM_OFFSET + widths + 0.06,
                             SUM_OFFSET + SUM_FONT + 0.04)
    lines(ax, outlines, max(0.6, size / 36), "black", (0, (4, 3)), zorder=3)
    for (r, c), cage in zip(corners, puzzle.cages):
        ax.text(c + SUM_OFFSET, r + SUM_OFFSET, str(cage.total), ha="left", va="top", fontsize=font, zorder=5)
