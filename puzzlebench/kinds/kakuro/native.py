"""The Kakuro native layout (the header ``kakuro ROWS COLS``; see :mod:`puzzlebench.io.native`)."""

from __future__ import annotations

import re

import numpy as np

from ...toolkit.text import build_located, grid_text, kakuro_clue, looks_like_row, parse_row
from .puzzle import Kakuro

_CLUE = re.compile(r"([0-9]{0,2})\\([0-9]{0,2})")


def kakuro_cell(token: str) -> tuple[int, int, int] | None:
    """Token -> (white, down, across), None if invalid."""
    if token == "#":
        return 0, 0, 0
    if token == ".":
        return 1, 0, 0
    return kakuro_clue(_CLUE, token)


def kakuro_solution_cell(token: str) -> int | None:
    if token in ("#", ".", "0"):
        return 0
    return int(token) if len(token) == 1 and token in "123456789" else None


def read_kakuro(cursor, header, rules, name, where):
    rows = cursor.take_rows(header.rows, where, is_row=looks_like_row(kakuro_cell))
    cells = np.array([parse_row(row, header.cols, kakuro_cell, "'#', '.' or a clue D\\A (sums 1..45)")
                      for row in rows], dtype=np.int64).reshape(header.rows, header.cols, 3)
    return build_located(lambda: Kakuro(cells[..., 0], cells[..., 2], cells[..., 1], name),
                         [r.number for r in rows], header.line)


def _kakuro_tokens(p: Kakuro) -> list[list[str]]:
    rows, cols = p.shape
    tokens = []
    for r in range(rows):
        row = []
        for c in range(cols):
            down, across = int(p.down[r, c]), int(p.across[r, c])
            if p.white[r, c]:
                row.append(".")
            elif down or across:
                row.append(f"{down or ''}\\{across or ''}")
            else:
                row.append("#")
        tokens.append(row)
    return tokens


def format_kakuro(puzzle: Kakuro) -> str:
    return f"kakuro {puzzle.shape[0]} {puzzle.shape[1]}\n" + grid_text(_kakuro_tokens(puzzle), "left")


def solution_cell(puzzle: Kakuro):
    """Kakuro solution tokens: digits in white cells, ``#`` (or ``.``, ``0``) elsewhere."""
    return kakuro_solution_cell, "a digit 1..9 or '#'"


def format_solution(puzzle: Kakuro, grid: np.ndarray) -> str:
    tokens = [["#" if not w else (str(v) if v > 0 else ".") for v, w in zip(row, white)]
              for row, white in zip(grid.tolist(), puzzle.white.tolist())]
    return grid_text(tokens)
