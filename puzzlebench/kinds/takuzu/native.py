"""The Takuzu native layout (the header ``takuzu ROWS COLS [distinct]``; see :mod:`puzzlebench.io.native`)."""

from __future__ import annotations

import numpy as np

from ...toolkit.text import build_located, grid_text, parse_row
from .puzzle import Takuzu


def takuzu_cell(token: str) -> int | None:
    return {"0": 0, "1": 1, ".": -1}.get(token)


def read_takuzu(cursor, header, rules, name, where):
    rows = cursor.take_rows(header.rows, where)
    givens = np.array([parse_row(row, header.cols, takuzu_cell, "0, 1 or '.'") for row in rows])
    return build_located(lambda: Takuzu(givens, bool(rules.distinct_lines), name),
                         [r.number for r in rows], header.line)


def format_takuzu(puzzle: Takuzu) -> str:
    rows, cols = puzzle.shape
    head = f"takuzu {rows} {cols}" + (" distinct" if puzzle.distinct_lines else "")
    return head + "\n" + grid_text([[{-1: "."}.get(v, str(v)) for v in row] for row in puzzle.givens.tolist()])


def solution_cell(puzzle: Takuzu):
    """Takuzu solution tokens: 0 and 1."""
    return takuzu_cell, "0 or 1"


def format_solution(puzzle: Takuzu, grid: np.ndarray) -> str:
    return grid_text([[str(v) if v in (0, 1) else "." for v in row] for row in grid.tolist()])
