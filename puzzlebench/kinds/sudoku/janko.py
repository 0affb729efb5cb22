"""The sudoku kind's part of io's janko layout (:mod:`puzzlebench.io.janko`): numbers 1..N, ``-`` a blank.

A text no other kind's part claims is a Sudoku's.  Boxes are the squarest shape (``options: {box: RxC}``
for another); the janko layout states no other.  A solution: the same rows without blanks.  The killer
kind's part shares the square check, the box check and the solution cells (a Killer's solution is a
Sudoku grid).
"""

from __future__ import annotations

import numpy as np

from ...errors import PuzzleError
from ...toolkit.rules import MAX_SUDOKU, Rules
from ...toolkit.syntax.janko import body, cannot_state, rows_text
from ...toolkit.text import TextLine, as_uint, build_located, parse_row
from .puzzle import Sudoku

DATASET = "Sudoku"
"""The puzzlekit dataset name of the kind's puzzles."""


def cell(n: int):
    """The token parser of an N x N Sudoku's cells: 1..N, ``-`` a blank (0)."""
    def parse(token: str) -> int | None:
        if token == "-":
            return 0
        value = as_uint(token)
        return value if value is not None and 1 <= value <= n else None
    return parse


def require_square(kind: str, lines: list[TextLine], rows: int, cols: int) -> None:
    """A Sudoku's (or a Killer's) grid is square, at most 36 rows."""
    if rows != cols or rows > MAX_SUDOKU:
        raise PuzzleError(f"a {kind} grid must be square with at most {MAX_SUDOKU} rows, got {rows} x {cols}",
                          line=lines[0].number)


def require_default_box(puzzle: Sudoku) -> None:
    """The janko layout states no box shape: only the squarest one is written."""
    if (puzzle.box_rows, puzzle.box_cols) != Rules().box_for(puzzle.n):
        raise cannot_state(f"the box shape {puzzle.box_rows}x{puzzle.box_cols}")


def read(lines: list[TextLine], rows: int, cols: int, rules: Rules, name: str) -> Sudoku:
    require_square(Sudoku.puzzle, lines, rows, cols)
    grid_rows = body(lines, rows)
    givens = np.array([parse_row(r, cols, cell(rows), f"a number 1..{rows} or '-'") for r in grid_rows])
    br, bc = rules.box_for(rows)
    return build_located(lambda: Sudoku(givens, br, bc, name), [r.number for r in grid_rows], lines[0].number)


def solution_cell(lines: list[TextLine], puzzle: Sudoku):
    """(token parser, description) of the cells of ``puzzle``'s solution (a Sudoku's or a Killer's)."""
    return cell(puzzle.n), f"a number 1..{puzzle.n}"


def format_puzzle(puzzle: Sudoku) -> str:
    require_default_box(puzzle)
    return rows_text(puzzle.shape, [[str(v) if v else "-" for v in row] for row in puzzle.givens.tolist()])


def format_solution(puzzle: Sudoku, grid: np.ndarray) -> str:
    """A Sudoku's (or a Killer's) solution rows."""
    return rows_text(puzzle.shape, [[str(v) if v > 0 else "-" for v in row] for row in grid.tolist()])
