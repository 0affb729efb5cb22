"""A puzzle's identity, independent of its name and of the order cages are listed in."""

from __future__ import annotations

from ..puzzles import Kakuro, KillerSudoku, Sudoku


def puzzle_key(puzzle) -> tuple:
    """A hashable key equal for two puzzles exactly when they state the same puzzle
    (same type, grid, clues, cages and rule options; the name is ignored)."""
    if isinstance(puzzle, Kakuro):
        return ("kakuro", puzzle.shape, puzzle.white.tobytes(), puzzle.across.tobytes(), puzzle.down.tobytes())
    if isinstance(puzzle, Sudoku):
        key = (puzzle.puzzle, puzzle.shape, puzzle.box_rows, puzzle.box_cols, puzzle.givens.tobytes())
        if isinstance(puzzle, KillerSudoku):
            cages = frozenset((frozenset(cage.cells), cage.total) for cage in puzzle.cages)
            key += (cages, puzzle.diagonal)
        return key
    return ("takuzu", puzzle.shape, puzzle.givens.tobytes(), puzzle.distinct_lines)
