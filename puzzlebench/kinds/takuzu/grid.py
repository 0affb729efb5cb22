"""The takuzu kind's part of io's grid layout (:mod:`puzzlebench.io.grid`): bare Takuzu grids.

A Takuzu grid has an even number of rows, at most 100, and holds ``0``/``1`` or ``O``/``X`` (``O`` is 0)
and one blank (``--symbols`` names two values and the blanks otherwise); a rectangular one on one line
needs ``--size RxC``.  Written: rows of ``0``, ``1`` and ``.`` blanks.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ...errors import PuzzleError
from ...toolkit.layout import Layout
from ...toolkit.rules import Rules
from ...toolkit.syntax.grids import paired_entries
from ...toolkit.text import MAX_SIDE, build_located
from .. import require_applicable
from .puzzle import Takuzu

SIDES = f"takuzu (even, ..{MAX_SIDE})"
"""The grids the kind's part reads, for messages."""
BLANK = -1
_VALUES = {("0", "1"): (0, 1), ("O", "X"): (0, 1)}


def fits(side: int) -> bool:
    """Can a grid of ``side`` rows be a Takuzu's?"""
    return side % 2 == 0 and side <= MAX_SIDE


def read(grids: list, path: str, rules: Rules, layout: Layout) -> list:
    """The Takuzu items of the file's grids."""
    require_applicable(rules, Takuzu.puzzle)
    used = {c for g in grids for row in g.rows for c in row}
    stated = layout.symbols
    pairs = [(stated.values[0], stated.values[1])] if stated else list(_VALUES)
    fitting = [p for p in pairs if len(used - set(p)) <= 1 or (stated and used - set(p) <= (stated.blanks or set()))]
    readings = {tuple(sorted((c, p.index(c) if c in p else -1) for c in used)): p for p in fitting}
    fitting = list(readings.values())
    if len(fitting) != 1:
        shown = ", ".join(repr(s) for s in sorted(used)[:6])
        raise PuzzleError(f"the grid's symbols ({shown}) are not two values 0/1 or O/X and one blank",
                          line=grids[0].lines[0])
    zero, one = fitting[0]
    table = {zero: 0, one: 1}
    values = {}
    for g in grids:
        values[id(g)] = np.array([[table.get(c, -1) for c in row] for row in g.rows], dtype=np.int64)
    return paired_entries(grids, values, path, partial(_takuzu, rules=rules), BLANK)


def _takuzu(values: np.ndarray, name: str, rows: list[int], rules: Rules) -> Takuzu:
    return build_located(lambda: Takuzu(values, bool(rules.distinct_lines), name), rows, rows[0])


def solution_size(puzzle: Takuzu) -> tuple[int, int]:
    """A Takuzu's solution grids are scanned at its size (a rectangular one on one line)."""
    return puzzle.shape


def solutions(grids: list, puzzle: Takuzu, titled: bool) -> list:
    """The items of a solution file's grids for ``puzzle``."""
    return read(grids, "", Rules(), Layout())


def format_puzzle(puzzle: Takuzu) -> str:
    if puzzle.distinct_lines:
        raise PuzzleError("the grid format cannot state the distinct rows and columns rule; use the native "
                          "format or the set option distinct_lines: true")
    if puzzle.shape[0] != puzzle.shape[1]:
        raise PuzzleError("the grid format states a rectangular takuzu only with its size (--size RxC) "
                          "beside it; use the native or lines format")
    return "".join("".join("." if v < 0 else str(v) for v in row) + "\n" for row in puzzle.givens.tolist())


def format_solution(puzzle: Takuzu, grid: np.ndarray) -> str:
    return "".join("".join(str(v) for v in row) + "\n" for row in np.asarray(grid).tolist())
