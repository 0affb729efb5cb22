"""The killer kind's part of io's janko layout (:mod:`puzzlebench.io.janko`): two layers of rows.

R rows of the clue layer (each cage's sum in one of its cells, ``-`` elsewhere), then R rows of the
region layer (a cage id per cell): a text of twice as many rows as its header says is a Killer's.
Boxes are the squarest shape (2x2, 2x3, 3x3); no givens, no diagonal rule.  A solution is a Sudoku's
(the sudoku kind's part reads and writes it).
"""

from __future__ import annotations

import numpy as np

from ...errors import PuzzleError
from ...toolkit.syntax.janko import body, cannot_state, rows_text
from .cages import cages_from_index, canonical_index
from ...toolkit.regions import label_regions
from ...toolkit.rules import Rules
from ...toolkit.text import TextLine, as_uint, build_located, parse_row, row_cells
from ..common import digit_sum_range
from ..sudoku.janko import format_solution, solution_cell  # noqa: F401 -- a Killer's solution is a Sudoku grid
from ..sudoku.janko import require_default_box, require_square
from .puzzle import KillerSudoku

DATASET = "KillerSudoku"
"""The puzzlekit dataset name of the kind's puzzles."""


def claims(rows_after: list[TextLine], rows: int, tokens: set[str]) -> bool:
    """Two layers of the header's R rows."""
    return len(rows_after) == 2 * rows


def _number(token: str) -> int | None:
    if token == "-":
        return 0
    value = as_uint(token)
    return value if value else None


def read(lines: list[TextLine], n: int, cols: int, rules: Rules, name: str) -> KillerSudoku:
    require_square(KillerSudoku.puzzle, lines, n, cols)
    layers = body(lines, 2 * n)
    clue_rows, region_rows = layers[:n], layers[n:]
    clues = np.array([parse_row(r, n, _number, "a cage sum or '-'") for r in clue_rows])
    labels = [row_cells(r, n) for r in region_rows]
    index, order = build_located(lambda: label_regions(labels), [r.number for r in region_rows], lines[0].number)
    totals = []
    for k, label in enumerate(order):
        cells = np.argwhere(index == k)
        sums = [(int(r), int(clues[r, c])) for r, c in cells if clues[r, c]]
        if not sums:
            raise PuzzleError(f"cage {label} has no sum in the clue layer", line=region_rows[cells[0][0]].number)
        if len(sums) > 1:
            raise PuzzleError(f"cage {label} has two sums, {sums[0][1]} and {sums[1][1]}: "
                              "cages overlap or a region id is reused", line=clue_rows[sums[1][0]].number)
        lo, hi = digit_sum_range(len(cells), n)
        row, total = sums[0]
        if len(cells) > n or not lo <= total <= hi:
            raise PuzzleError(f"cage {label} has {len(cells)} cells and cannot sum to {total}",
                              line=clue_rows[row].number)
        totals.append(total)
    br, bc = rules.box_for(n)
    cages = cages_from_index(index, totals)
    return build_located(lambda: KillerSudoku(np.zeros((n, n), np.int64), br, bc, name, cages=cages,
                                              diagonal=bool(rules.diagonal)), [], lines[0].number)


def format_puzzle(p: KillerSudoku) -> str:
    require_default_box(p)
    if p.diagonal:
        raise cannot_state("the diagonal rule")
    if p.num_givens:
        raise cannot_state("killer givens")
    index = canonical_index(p)
    clues = [["-"] * p.n for _ in range(p.n)]
    for cage in p.cages:
        r, c = min(cage.cells)
        clues[r][c] = str(cage.total)
    regions = [[str(k + 1) for k in row] for row in index.tolist()]
    return rows_text(p.shape, clues + regions)
