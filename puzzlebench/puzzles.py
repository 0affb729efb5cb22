"""The five built-in puzzles as validated, immutable data types (re-exported from their kinds).

Grids are numpy integer arrays indexed ``[row, col]`` from 0.  A blank is 0 in
Sudoku and Killer givens and -1 in Takuzu givens (where 0 is a digit).
Construction checks everything a user can get wrong and raises
:class:`~puzzlebench.errors.PuzzleError` naming the grid row concerned, so that
a parser can point at the file line.  Each type lives in its kind's folder,
``puzzlebench/kinds/<kind>/puzzle.py``; this module gathers them.
``PUZZLE_NAMES`` is the names of every registered kind (:func:`puzzlebench.kinds.names`).
"""

from __future__ import annotations

from .kinds.common import digit_sum_range, first_duplicate
from .kinds.kakuro.puzzle import Kakuro, KakuroRun
from .kinds.kenken.puzzle import KenKen, KenKenCage
from .kinds.killer.puzzle import Cage, KillerSudoku
from .kinds.sudoku.puzzle import UNIT_KINDS, Sudoku, sudoku_units
from .kinds.takuzu.puzzle import Takuzu
from .toolkit.rules import default_box_shape

__all__ = ["UNIT_KINDS", "Cage", "Kakuro", "KenKen", "KenKenCage", "KillerSudoku", "Puzzle", "KakuroRun", "Sudoku", "Takuzu",
           "default_box_shape", "digit_sum_range", "first_duplicate", "sudoku_units"]

Puzzle = Sudoku | KillerSudoku | Kakuro | Takuzu | KenKen
"""The built-in puzzle types (a type hint; kinds from other packages add theirs)."""


def __getattr__(name: str):
    if name == "PUZZLE_NAMES":  # computed on use: kinds from installed packages count too
        from .kinds import names
        return names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
