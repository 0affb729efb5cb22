"""Drawing a KenKen: the grid, each cage's dashed inset outline, its clue ("12+", "6×", "3") in the
cage's top-left cell and the solution's digits, as a Killer is drawn (see :mod:`puzzlebench.draw`:
cell (r, c) spans [c, c+1] x [r, r+1], y down)."""

from __future__ import annotations

import numpy as np

from ...draw import (
    DIGIT_EM,
    SOLUTION_COLOUR,
    SUM_FONT,
    SUM_OFFSET,
    cage_outlines,
    clear_corners,
    digit_size,
    grid_lines,
    lines,
    numbers,
)
from .puzzle import KenKen


def draw_kenken(ax, puzzle: KenKen, solution, size: float) -> None:
    n = puzzle.n
    grid_lines(ax, n, n, size)
    corners = np.array([cage.cells[0] for cage in puzzle.cages])  # cells are row-major: the first is top-left
    labels = [cage.label.replace("x", "×").replace("/", "÷").replace("-", "−") for cage in puzzle.cages]
    widths = np.array([len(label) for label in labels]) * DIGIT_EM * SUM_FONT
    outlines = clear_corners(cage_outlines(puzzle.cage_index), corners, SUM_OFFSET + widths + 0.06,
                             SUM_OFFSET + SUM_FONT + 0.04)
    lines(ax, outlines, max(0.6, size / 36), "black", (0, (4, 3)), zorder=3)
    for (r, c), label in zip(corners, labels):
        ax.text(c + SUM_OFFSET, r + SUM_OFFSET, label, ha="left", va="top", fontsize=size * SUM_FONT, zorder=5)
    if solution is not None:
        numbers(ax, solution, solution > 0, 0.8 * digit_size(size, 1), SOLUTION_COLOUR, False, 0.07)
