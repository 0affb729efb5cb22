"""A puzzle's identity, independent of its name and of the order cages are listed in."""

from __future__ import annotations

from ..kinds import kind_key


def puzzle_key(puzzle) -> tuple:
    """A hashable key equal for two puzzles exactly when they state the same puzzle
    (same kind, grid, clues, cages and rule options; the name is ignored): the kind's
    name and its ``key``.  A puzzle of no kind is a PuzzleError."""
    return kind_key(puzzle)
