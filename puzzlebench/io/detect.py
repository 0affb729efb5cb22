"""Telling a file's format from its content (and, for MiniZinc data, its suffix)."""

from __future__ import annotations

import math
import re

from ..errors import PuzzleError
from ..puzzles import PUZZLE_NAMES, Kakuro, KillerSudoku
from . import dzn, kakuro_csv, killer_csv, lines, native, tatham
from .text import Cursor, content_lines, split_lines

_JANKO_HEADER = re.compile(r"[0-9]{1,3}\s+[0-9]{1,3}")
_SHAPE = re.compile(r"[0-9]{1,3}x[0-9]{1,3}")


def _lines_word(text: str) -> bool:
    """The line's first word of N*N characters spells a Sudoku, or the line is a Takuzu word of
    0, 1, '-' and '.' (after an optional RxC)."""
    words = text.split()
    grid = next((w for w in words if lines.has_grid_length(w)), None)
    if grid is not None and lines.decode(grid, math.isqrt(len(grid))) is not None:
        return True
    if words and _SHAPE.fullmatch(words[0]):
        words = words[1:]
    return bool(words) and len(words[0]) >= 4 and set(words[0]) <= set("01.-")


_TESTS = (  # format -> does the first content line look like it?
    ("native", lambda text: text.split()[0] in PUZZLE_NAMES),
    ("janko", lambda text: bool(_JANKO_HEADER.fullmatch(text))),
    ("tatham", lambda text: bool(tatham.ID.fullmatch(text))),
    ("kakuro-csv", kakuro_csv.looks_like),
    ("killer-csv", killer_csv.looks_like),
    ("lines", _lines_word),
)


def detect_text(text: str, suffix: str = "") -> str:
    """The format of a puzzle file's text.

    A ``.dzn`` suffix, or a first line that is a ``%`` comment or ``NAME =`` -> dzn; a JSON
    object -> janko; else the first content line decides: a puzzle name -> native, ``R C``
    -> janko, ``AxB[flags]:`` -> tatham, comma-separated Kakuro cells -> kakuro-csv, a
    cage-id string and its sums -> killer-csv, a word of N*N Sudoku symbols or a Takuzu line
    -> lines.  A line two formats could read is refused, naming both; a line none can read
    is a PuzzleError at that line.
    """
    if suffix.lower() == ".dzn":
        return "dzn"
    if text.lstrip().startswith("{"):
        return "janko"
    raw = next((line for line in split_lines(text) if line.text), None)
    if raw is not None and dzn.FIRST_LINE.match(raw.text):
        return "dzn"
    first = next(iter(content_lines(split_lines(text))), None)
    if first is None:
        raise PuzzleError("the file holds no puzzle: every line is blank or a # comment")
    found = [fmt for fmt, test in _TESTS if test(first.text)]
    if len(found) > 1:
        raise PuzzleError(f"this line could be the {' or the '.join(found)} format: say which with --format",
                          line=first.number)
    if found:
        return found[0]
    if any(lines.has_grid_length(word) for word in first.text.split()):
        return "lines"  # a Sudoku word with a bad symbol: the lines reader says which
    raise PuzzleError(f"cannot tell the file's format from {first.text[:40]!r}: expected a native header "
                      "(sudoku/killer/kakuro/takuzu ...), a janko size line 'R C', a Tatham game ID "
                      "'3x3:...', a MiniZinc assignment 'n = 3;', comma-separated Kakuro cells 'x,23\\,0', "
                      "a Killer cage string with its sums, or a line of N*N sudoku or takuzu symbols",
                      line=first.number)


def detect_solution_text(text: str, puzzle) -> str:
    """The format of a solution file for ``puzzle``: janko (JSON or a header matching the
    puzzle's shape), tatham (a game ID, which holds no solution), kakuro-csv / killer-csv
    (comma-separated rows), lines (a word of R*C symbols) or native (grid rows)."""
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
    if "," in first.text and isinstance(puzzle, (Kakuro, KillerSudoku)):
        return "kakuro-csv" if isinstance(puzzle, Kakuro) else "killer-csv"
    if rows > 1 and any(len(word) == rows * cols for word in first.text.split()):
        return "lines"
    return "native"
