"""The sudoku kind's part of io's grid layout (:mod:`puzzlebench.io.grid`): bare Sudoku grids.

A Sudoku grid is square, 4 to 36 rows.  Symbols: one alphabet for all the file's grids of a size,
inferred from all of them (:mod:`puzzlebench.toolkit.symbols`; ``--symbols`` when several fit): 9x9 digits
``1-9`` and one blank (``.``, ``0``, ``*``, ``e``, ...), 16x16 ``1-9A-G``, ``0-9A-F`` or decimal numbers
1..16.  A Killer's solution is read and written here too (a Killer's grid is a Sudoku's).
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ...errors import PuzzleError
from ...toolkit import symbols
from ...toolkit.layout import Layout
from ...toolkit.rules import MAX_SUDOKU, Rules
from ...toolkit.syntax.grid_words import encode
from ...toolkit.syntax.grids import paired_entries
from ...toolkit.text import build_located
from .. import require_applicable
from .puzzle import Sudoku

SIDES = f"sudoku (4..{MAX_SUDOKU})"
"""The grids the kind's part reads, for messages."""
BLANK = 0


def fits(side: int) -> bool:
    """Can a grid of ``side`` rows be a Sudoku's?"""
    return 4 <= side <= MAX_SUDOKU


def read(grids: list, path: str, rules: Rules, layout: Layout, solutions: bool = False) -> list:
    """The Sudoku items of the file's grids (``solutions``: every grid is a solution, no blanks)."""
    require_applicable(rules, Sudoku.puzzle)
    items = []
    for n in sorted({g.height for g in grids}):
        same = [g for g in grids if g.height == n]
        if any(g.width != n for g in same) or not 4 <= n <= MAX_SUDOKU:
            bad = next(g for g in same if g.width != n or not 4 <= n <= MAX_SUDOKU)
            raise PuzzleError(f"a {bad.height} x {bad.width} grid is no sudoku (square, 4..{MAX_SUDOKU} rows)",
                              line=bad.lines[0])
        values = dict(zip(map(id, same), _decode(same, n, layout, blank_free=solutions)))
        items += paired_entries(same, values, path, partial(_sudoku, rules=rules), BLANK)
    return items


def _decode(grids: list, n: int, layout: Layout, blank_free: bool = False) -> list:
    """Each grid's values (0 for blanks) with one alphabet for them all, or a PuzzleError for a grid
    whose symbol that alphabet cannot read (left out of the inference)."""
    out: list = [None] * len(grids)
    live = list(range(len(grids)))
    while live:
        words = [[c for row in grids[k].rows for c in row] for k in live]
        tokens = any(grids[k].tokens for k in live)
        try:
            decoded = symbols.decode(words if tokens else ["".join(w) for w in words], n, layout.symbols,
                                     tokens=tokens, blank_free=blank_free)
        except PuzzleError as err:
            if err.row is None:
                raise err.locate(None, grids[live[0]].lines[0]) from None
            bad = live.pop(err.row)
            out[bad] = err.locate(None, grids[bad].lines[0])
            continue
        for k, values in zip(live, decoded):
            out[k] = values
        break
    return out


def _sudoku(values: np.ndarray, name: str, rows: list[int], rules: Rules) -> Sudoku:
    br, bc = rules.box_for(len(values))
    return build_located(lambda: Sudoku(values, br, bc, name), rows, rows[0])


def solution_size(puzzle: Sudoku) -> None:
    """A Sudoku's solution grids are scanned at no stated size (their rows say it)."""
    return None


def solutions(grids: list, puzzle: Sudoku, titled: bool) -> list:
    """The items of a solution file's grids for ``puzzle`` (a Sudoku or a Killer); ``titled``: the file
    titles its solutions "Solution...", else every grid is one."""
    return read(grids, "", Rules(box=(puzzle.box_rows, puzzle.box_cols)), Layout(), solutions=not titled)


def format_puzzle(puzzle: Sudoku) -> str:
    default = Rules().box_for(puzzle.n)
    if (puzzle.box_rows, puzzle.box_cols) != default:
        raise PuzzleError(f"the grid format cannot state the box shape {puzzle.box_rows}x{puzzle.box_cols}; "
                          "use the native format")
    return _rows(puzzle.givens)


def format_solution(puzzle: Sudoku, grid: np.ndarray) -> str:
    return _rows(np.asarray(grid))


def _rows(grid: np.ndarray) -> str:
    word = encode(grid)
    n = grid.shape[1]
    return "".join(word[r * n:(r + 1) * n] + "\n" for r in range(grid.shape[0]))
