"""The kakuro kind's part of io's janko layout (:mod:`puzzlebench.io.janko`): ``-`` a block, ``0`` a white
cell, ``D,A`` a clue cell with down sum D and across sum A (``16,`` down only, ``,23`` across only); a
text with a ``,`` in a token is a Kakuro's.  A solution: digits in the white cells, ``-`` in every other.
"""

from __future__ import annotations

import re

import numpy as np

from ...toolkit.rules import Rules
from ...toolkit.syntax.janko import body, rows_text
from ...toolkit.text import TextLine, build_located, kakuro_clue, parse_row
from .puzzle import Kakuro

DATASET = "Kakuro"
"""The puzzlekit dataset name of the kind's puzzles."""
_CLUE = re.compile(r"([0-9]{0,2}),([0-9]{0,2})")


def claims(rows_after: list[TextLine], rows: int, tokens: set[str]) -> bool:
    """A clue token ``D,A``."""
    return any("," in t for t in tokens)


def _cell(token: str) -> tuple[int, int, int] | None:
    """Token -> (white, down, across)."""
    if token in ("-", "0"):
        return (0, 0, 0) if token == "-" else (1, 0, 0)
    return kakuro_clue(_CLUE, token)


def _solution_cell(token: str) -> int | None:
    if token == "-":
        return 0
    return int(token) if len(token) == 1 and token in "123456789" else None


def read(lines: list[TextLine], rows: int, cols: int, rules: Rules, name: str) -> Kakuro:
    grid_rows = body(lines, rows)
    cells = np.array([parse_row(r, cols, _cell, "'-', '0' or a clue D,A (sums 1..45)") for r in grid_rows],
                     dtype=np.int64).reshape(rows, cols, 3)
    return build_located(lambda: Kakuro(cells[..., 0], cells[..., 2], cells[..., 1], name),
                         [r.number for r in grid_rows], lines[0].number)


def solution_cell(lines: list[TextLine], puzzle: Kakuro):
    """(token parser, description) of the cells of ``puzzle``'s solution."""
    return _solution_cell, "a digit 1..9 or '-'"


def format_puzzle(puzzle: Kakuro) -> str:
    rows = [["0" if w else (f"{d or ''},{a or ''}" if d or a else "-") for w, d, a in zip(*cells)]
            for cells in zip(puzzle.white.tolist(), puzzle.down.tolist(), puzzle.across.tolist())]
    return rows_text(puzzle.shape, rows)


def format_solution(puzzle: Kakuro, grid: np.ndarray) -> str:
    rows = [[str(v) if w else "-" for v, w in zip(row, white)]
            for row, white in zip(grid.tolist(), puzzle.white.tolist())]
    return rows_text(puzzle.shape, rows)
