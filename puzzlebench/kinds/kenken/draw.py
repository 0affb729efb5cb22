"""Drawing a KenKen: the grid, each cage's dashed inset outline, its clue ("12+", "6×", "3") in the
cage's top-left cell and the solution's digits, as a Killer is drawn (see :mod:`puzzlebench.draw`:
cell (r, c) spans [c, c+1] x [r, r+1], y down)."""

from __future__ import annotations

import numpy as np

from ...toolkit.drawing import SOLUTION_COLOUR, cage_clues, digit_size, grid_lines, numbers
from .puzzle import KenKen


def draw_kenken(ax, puzzle: KenKen, solution, size: float) -> None:
    n = puzzle.n
    grid_lines(ax, n, n, size)
    corners = np.array([cage.cells[0] for cage in puzzle.cages])  # cells are row-major: the first is top-left
    labels = [cage.label.replace("x", "×").replace("/", "÷").replace("-", "−") for cage in puzzle.cages]
    cage_clues(ax, puzzle.cage_index, corners, labels, size)
    if solution is not None:
        numbers(ax, solution, solution > 0, 0.8 * digit_size(size, 1), SOLUTION_COLOUR, False, 0.07)
