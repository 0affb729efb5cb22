"""Telling a file's format from its content."""

from __future__ import annotations

import re

from ..errors import PuzzleError
from ..puzzles import PUZZLE_NAMES, Kakuro
from . import lines, native, tatham
from .text import Cursor, content_lines, split_lines

_JANKO_HEADER = re.compile(r"[0-9]{1,3}\s+[0-9]{1,3}")


def detect_text(text: str) -> str:
    """The format of a puzzle file's text.

    A JSON object or a first line ``R C`` -> janko; a first word naming a
    puzzle -> native; ``AxB[flags]:`` -> tatham; a word of N*N characters
    (N = 4..36) -> lines.  Anything else is a PuzzleError at the first content line.
    """
    if text.lstrip().startswith("{"):
        return "janko"
    first = next(iter(content_lines(split_lines(text))), None)
    if first is None:
        raise PuzzleError("the file holds no puzzle: every line is blank or a # comment")
    if first.text.split()[0] in PUZZLE_NAMES:
        return "native"
    if _JANKO_HEADER.fullmatch(first.text):
        return "janko"
    if tatham.ID.fullmatch(first.text):
        return "tatham"
    if any(lines.has_grid_length(word) for word in first.text.split()):
        return "lines"
    raise PuzzleError(f"cannot tell the file's format from {first.text[:40]!r}: expected a native header "
                      "(sudoku/killer/kakuro/takuzu ...), a janko size line 'R C', a Tatham game ID "
                      "'3x3:...' or a sudoku line of N*N symbols", line=first.number)


def detect_solution_text(text: str, puzzle) -> str:
    """The format of a solution file for ``puzzle``: janko (JSON or a header matching the
    puzzle's shape), tatham (a game ID, which holds no solution), lines (a word of R*C
    symbols) or native (grid rows)."""
    if text.lstrip().startswith("{"):
        return "janko"
    is_row = native.looks_like_row(native.kakuro_solution_cell) if isinstance(puzzle, Kakuro) else None
    first = Cursor(split_lines(text)).peek(is_row)
    if first is None:
        raise PuzzleError("the file holds no solution: every line is blank or a # comment")
    rows, cols = puzzle.shape
    if _JANKO_HEADER.fullmatch(first.text) and tuple(map(int, first.text.split())) == (rows, cols):
        return "janko"
    if tatham.ID.fullmatch(first.text):
        return "tatham"
    if rows > 1 and any(len(word) == rows * cols for word in first.text.split()):
        return "lines"
    return "native"
