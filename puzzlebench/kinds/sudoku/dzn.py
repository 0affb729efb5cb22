"""The sudoku kind's part of io's dzn layout (:mod:`puzzlebench.io.dzn`): MiniZinc Sudoku data.

Roles: ``puzzle`` (or ``x``, ``start``, ``puzzle_input``, ``givens``, ``grid``, ``board``, ``clues``), the
N x N grid, 0 or ``_`` a blank; ``n`` (or ``N``, ``S``, ``size``; optional), the box size (9x9: ``n = 3``,
the MiniZinc tutorial's ``S = 3``) or the grid size (``n = 9``); ``box_rows`` / ``box_cols`` (optional) a
box shape that is not square::

    n = 2;
    puzzle = [| 1, _, _, _ | _, _, 3, _ | _, 4, _, _ | _, _, _, 2 |];

A file with ``puzzle`` is a Sudoku's.  The square grids, the box shape and the ``n`` lines are shared with
the killer kind's part.
"""

from __future__ import annotations

from ...errors import PuzzleError
from ...toolkit.rules import MAX_SUDOKU, Rules
from ...toolkit.syntax.dzn import first_lines, matrix
from ...toolkit.text import build_located
from .puzzle import Sudoku

GRID_NAMES = ("puzzle", "x", "start", "puzzle_input", "givens", "grid", "board", "clues")
SIZE_NAMES = ("n", "N", "S", "size")
ROLES = {"puzzle": GRID_NAMES, "n": SIZE_NAMES, "box_rows": ("box_rows",), "box_cols": ("box_cols",)}
"""Role -> the variable names tried, in order."""
MARKERS = ("puzzle",)
"""The roles whose variables mark a file as the kind's."""
MARKED = "puzzle (Sudoku)"
"""The marking variables, for messages."""


def box(data, kind: str, side: int, rules: Rules) -> tuple[int, int]:
    """The box shape of a ``kind`` grid of ``side`` rows: ``box_rows``/``box_cols``, else from ``n`` (the box
    or the grid size), else the rules'."""
    n, line = data.scalar(kind, "n")
    br, br_line = data.scalar(kind, "box_rows")
    bc, _ = data.scalar(kind, "box_cols")
    if (br is None) != (bc is None):
        raise PuzzleError("box_rows and box_cols go together: give both or neither", line=br_line)
    if br is not None:
        return br, bc
    if n is not None and n != side:
        if n * n != side:
            raise PuzzleError(f"n = {n} does not match the {side} x {side} grid (n is the box size, "
                              f"{side ** 0.5:g} here, or the grid size, {side})", line=line)
        return n, n
    return rules.box_for(side)


def square(data, kind: str, role: str, required: bool = True, side: int | None = None):
    """(values, row lines, assignment) of the square grid of ``role`` (of ``side`` rows when given), or None
    when absent and not ``required``."""
    found = data.grid(kind, role, required, side, side)
    if found is None:
        return None
    values, lines, a = found
    rows, cols = values.shape
    if rows != cols or not 1 <= rows <= MAX_SUDOKU:
        raise PuzzleError(f"{a.name} is {rows} x {cols}; a {kind} grid is square, 1..{MAX_SUDOKU} rows",
                          line=a.line)
    if side is not None and rows != side:
        raise PuzzleError(f"{a.name} is {rows} x {cols}, the puzzle {side} x {side}", line=a.line)
    return values, first_lines(lines, values.shape), a


def read(data, rules: Rules, name: str) -> Sudoku:
    givens, row_lines, a = square(data, "sudoku", "puzzle")
    br, bc = box(data, "sudoku", len(givens), rules)
    return build_located(lambda: Sudoku(givens, br, bc, name), row_lines, a.line)


def box_lines(puzzle: Sudoku) -> str:
    """The ``n`` (and box shape) lines of a Sudoku's or a Killer's data."""
    if puzzle.box_rows == puzzle.box_cols:
        return f"n = {puzzle.box_rows};\n"
    return f"n = {puzzle.n};\nbox_rows = {puzzle.box_rows};\nbox_cols = {puzzle.box_cols};\n"


def format_puzzle(puzzle: Sudoku, layout) -> str:
    return box_lines(puzzle) + f"puzzle = {matrix(puzzle.givens.tolist(), puzzle.n)};\n"
