"""Independent rule checkers: they read only the puzzle and the grid, never a model.

``check(puzzle, grid)`` returns a list of violations, each a sentence a person
can act on ("row 3 has 7 twice"); an empty list means the grid is valid.
Positions in messages are 1-based.  Each kind's rules are its own
(``puzzlebench/kinds/<kind>/check.py``); this module checks the shape and asks
the puzzle's kind (:func:`puzzlebench.kinds.kind_of`: a puzzle of no kind is a PuzzleError);
they share :func:`puzzlebench.toolkit.repeats.repeats`.
"""

from __future__ import annotations

import numpy as np

from .kinds import kind_of


def check(puzzle, grid) -> list[str]:
    """All rule violations of ``grid`` as a solution of ``puzzle``."""
    kind = kind_of(puzzle)
    grid = np.asarray(grid)
    if grid.shape != puzzle.shape:
        return [f"the grid is {grid.shape[0]} x {grid.shape[1] if grid.ndim > 1 else 0}, "
                f"the puzzle {puzzle.shape[0]} x {puzzle.shape[1]}"]
    return kind.check(puzzle, grid)

