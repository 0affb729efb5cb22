"""The Sudoku native layout (the header ``sudoku N [RxC]``; see :mod:`puzzlebench.io.native`)."""

from __future__ import annotations

import numpy as np

from ...toolkit.text import TextLine, as_uint, build_located, digits, grid_text, parse_row
from .puzzle import Sudoku


def sudoku_cell(n: int):
    """Token -> given (0 for ``.`` or ``0``), None if invalid."""
    def cell(token: str) -> int | None:
        if token == ".":
            return 0
        value = as_uint(token)
        return value if value is not None and value <= n else None
    return cell


def givens_rows(rows: list[TextLine], n: int) -> np.ndarray:
    return np.array([parse_row(row, n, sudoku_cell(n), f"a digit 1..{n} or '.'") for row in rows])


def read_sudoku(cursor, header, rules, name, where):
    n = header.rows
    rows = cursor.take_rows(n, where)
    givens = givens_rows(rows, n)
    br, bc = rules.box_for(n)
    return build_located(lambda: Sudoku(givens, br, bc, name), [r.number for r in rows], header.line)


def format_sudoku(puzzle: Sudoku) -> str:
    return f"sudoku {puzzle.n} {puzzle.box_rows}x{puzzle.box_cols}\n" + grid_text(digits(puzzle.givens))


def solution_cell(puzzle: Sudoku):
    """Sudoku and Killer solution tokens: the digits 1..N (``.`` and ``0`` read as blank)."""
    return sudoku_cell(puzzle.n), f"a digit 1..{puzzle.n}"


def format_solution(puzzle: Sudoku, grid: np.ndarray) -> str:
    return grid_text(digits(grid))
