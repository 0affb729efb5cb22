"""Drawing a Sudoku (see :mod:`puzzlebench.draw`: cell (r, c) spans [c, c+1] x [r, r+1], y down)."""

from __future__ import annotations

from ...toolkit.drawing import GIVEN_COLOUR, SOLUTION_COLOUR, digit_size, grid_lines, numbers
from .puzzle import Sudoku


def draw_sudoku(ax, puzzle: Sudoku, solution, size: float, scale: float = 1.0, dy: float = 0.0) -> None:
    """Grid, givens and solution; digits at ``scale`` times their usual size, ``dy`` cells low."""
    grid_lines(ax, puzzle.n, puzzle.n, size, puzzle.box_rows, puzzle.box_cols)
    font = scale * digit_size(size, len(str(puzzle.n)))
    given = puzzle.givens > 0
    numbers(ax, puzzle.givens, given, font, GIVEN_COLOUR, True, dy)
    if solution is not None:
        numbers(ax, solution, ~given & (solution > 0), font, SOLUTION_COLOUR, False, dy)
