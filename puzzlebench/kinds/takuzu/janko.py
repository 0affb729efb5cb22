"""The takuzu kind's part of io's janko layout (:mod:`puzzlebench.io.janko`): Binairo grids.

``1`` and ``2`` the two colours (read as 0 and 1), ``-`` (or ``0``, as in ``20x20_1.txt``) a blank; or
``O`` and ``X`` (read as 0 and 1) with ``.`` or ``-`` blanks (pottu/takuzu's instances, ``16 22``: not
square).  A text of only ``0 1 2 -`` or only ``O X . -`` is a Binairo's -- a grid of ``1``, ``2`` and ``-``
may be a Sudoku's too (``CLASH``).  A solution: the same symbols without blanks.  The distinct rows and
columns rule is an instance-set option: the layout cannot state it.
"""

from __future__ import annotations

import numpy as np

from ...toolkit.rules import Rules
from ...toolkit.syntax.janko import body, cannot_state, rows_text
from ...toolkit.text import TextLine, build_located, parse_row, row_cells
from .puzzle import Takuzu

DATASET = "Binairo"
"""The puzzlekit dataset name of the kind's puzzles."""
CLASH = "1, 2 and '-'"
"""The cells of a grid the part claims that may read as the default kind's too."""
_BINAIRO = {"1": 0, "2": 1, "-": -1, "0": -1}
_OX = {"O": 0, "X": 1, ".": -1, "-": -1}


def claims(rows_after: list[TextLine], rows: int, tokens: set[str]) -> bool:
    """Only ``0 1 2 -``, or only ``O X . -``."""
    return tokens <= set("012-") or tokens <= set(_OX)


def _table(tokens: set[str]) -> dict[str, int]:
    """The Binairo symbols a grid uses: O/X when it has no 1 or 2, else janko's 1/2."""
    return _OX if tokens <= set(_OX) and tokens & {"O", "X"} else _BINAIRO


def read(lines: list[TextLine], rows: int, cols: int, rules: Rules, name: str) -> Takuzu:
    grid_rows = body(lines, rows)
    table = _table({t for r in grid_rows for t in row_cells(r, cols)})
    what = "O, X or '.'" if table is _OX else "1, 2 or '-'"
    givens = np.array([parse_row(r, cols, table.get, what) for r in grid_rows])
    return build_located(lambda: Takuzu(givens, bool(rules.distinct_lines), name), [r.number for r in grid_rows],
                         lines[0].number)


def solution_cell(lines: list[TextLine], puzzle: Takuzu):
    """(token parser, description) of the cells of ``puzzle``'s solution."""
    rows, cols = puzzle.shape
    table = _table({t for r in body(lines, rows) for t in row_cells(r, cols)})
    return (lambda t: {0: 0, 1: 1}.get(table.get(t))), ("O or X" if table is _OX else "1 or 2")


def format_puzzle(puzzle: Takuzu) -> str:
    if puzzle.distinct_lines:
        raise cannot_state("the distinct rows and columns rule")
    return rows_text(puzzle.shape, [[{-1: "-", 0: "1", 1: "2"}[v] for v in row] for row in puzzle.givens.tolist()])


def format_solution(puzzle: Takuzu, grid: np.ndarray) -> str:
    return rows_text(puzzle.shape, [[{0: "1", 1: "2"}.get(v, "-") for v in row] for row in grid.tolist()])
