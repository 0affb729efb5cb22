"""The sudoku kind's part of io's killer-json layout (:mod:`puzzlebench.io.killer_json`): an f-puzzles
object with no cages is a plain Sudoku (with both diagonals, a Sudoku-X, it is refused: not modelled).
"""

from __future__ import annotations

import numpy as np

from ...errors import PuzzleError
from ...toolkit.rules import Rules
from ...toolkit.syntax.fpuzzles import fpuzzles_grid
from .puzzle import Sudoku

KEYS = ()
"""The f-puzzles keys the part reads beyond the grid: none."""


def claims(data) -> bool:
    """An f-puzzles object (one with cages is claimed before, by the kinds that extend a Sudoku)."""
    return isinstance(data, dict)


def read(data: dict, rules: Rules) -> tuple[Sudoku, np.ndarray | None]:
    givens, diagonal, solution = fpuzzles_grid(data, KEYS)
    if diagonal:
        raise PuzzleError("a Sudoku-X (diagonals without cages) is not a puzzle puzzlebench models")
    return Sudoku(givens, *rules.box_for(len(givens)), "1"), solution


def document(puzzle: Sudoku) -> dict:
    """The f-puzzles keys that state the puzzle beyond its size and givens: none."""
    return {}
