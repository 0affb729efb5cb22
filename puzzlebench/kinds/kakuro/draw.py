"""Drawing a Kakuro (see :mod:`puzzlebench.draw`: cell (r, c) spans [c, c+1] x [r, r+1], y down)."""

from __future__ import annotations

import numpy as np

from ...toolkit.drawing import (
    BLOCK_COLOUR,
    CLUE_COLOUR,
    SOLUTION_COLOUR,
    digit_size,
    grid_lines,
    lines,
    numbers,
)
from .puzzle import Kakuro


def draw_kakuro(ax, puzzle: Kakuro, solution, size: float) -> None:
    from matplotlib.collections import PolyCollection
    rows, cols = puzzle.shape
    clue = (puzzle.across > 0) | (puzzle.down > 0)
    block = ~puzzle.white & ~clue
    cells = np.argwhere(block)
    squares = [[(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)] for r, c in cells]
    upper = [[(c, r), (c + 1, r), (c + 1, r + 1)] for r, c in np.argwhere(clue)]   # across side
    lower = [[(c, r), (c, r + 1), (c + 1, r + 1)] for r, c in np.argwhere(clue)]   # down side
    has_across, has_down = puzzle.across[clue] > 0, puzzle.down[clue] > 0
    polygons = squares + upper + lower
    colours = [BLOCK_COLOUR] * len(squares) + [CLUE_COLOUR if a else BLOCK_COLOUR for a in has_across] \
        + [CLUE_COLOUR if d else BLOCK_COLOUR for d in has_down]
    if polygons:
        ax.add_collection(PolyCollection(polygons, facecolors=colours, edgecolors="none", zorder=0))
    grid_lines(ax, rows, cols, size)
    split = [[(c, r), (c + 1, r + 1)] for r, c in np.argwhere(clue)]
    if split:
        lines(ax, split, max(0.5, size / 45), "black", zorder=2)
    font = size * 0.3
    for r, c in np.argwhere(puzzle.across > 0):
        ax.text(c + 0.7, r + 0.32, str(puzzle.across[r, c]), ha="center", va="center_baseline",
                fontsize=font, fontweight="bold", zorder=4)
    for r, c in np.argwhere(puzzle.down > 0):
        ax.text(c + 0.3, r + 0.72, str(puzzle.down[r, c]), ha="center", va="center_baseline",
                fontsize=font, fontweight="bold", zorder=4)
    if solution is not None:
        numbers(ax, solution, puzzle.white & (solution > 0), digit_size(size, 1), SOLUTION_COLOUR, False)
