"""The killer kind's part of io's dzn layout (:mod:`puzzlebench.io.dzn`): MiniZinc Killer Sudoku data.

Roles: ``n`` as for a Sudoku (the sudoku kind's part), and either ``cages``, one row per cage holding its
sum then the (row, column) pairs of its cells, 1-based, padded with 0 to the longest cage; or
``cage_grid`` (or ``cage_id``), an N x N grid of cage ids 1..K, with ``sums`` (or ``cage_sums``) the K sums
in id order.  ``puzzle`` may add givens.  The diagonal rule is an instance-set option (``diagonal:
true``); the layout cannot state it.  A file with ``cages`` or ``cage_grid`` is a Killer's (its ``puzzle``
is the givens, not a Sudoku).
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import PuzzleError
from ...toolkit.rules import MAX_SUDOKU, Rules
from ...toolkit.syntax.dzn import Array, Assignment, first_lines, matrix
from ...toolkit.text import build_located
from ..sudoku.dzn import GRID_NAMES, SIZE_NAMES, box, box_lines, square
from .puzzle import Cage, KillerSudoku

ROLES = {"cages": ("cages",), "cage_grid": ("cage_grid", "cage_id"), "sums": ("sums", "cage_sums"),
         "puzzle": GRID_NAMES, "n": SIZE_NAMES, "box_rows": ("box_rows",), "box_cols": ("box_cols",)}
"""Role -> the variable names tried, in order."""
MARKERS = ("cages", "cage_grid")
"""The roles whose variables mark a file as the kind's."""
MARKED = "cages or cage_grid (Killer)"
"""The marking variables, for messages."""


def read(data, rules: Rules, name: str) -> KillerSudoku:
    rows_form, grid_form = data.get("killer", "cages", False), data.get("killer", "cage_grid", False)
    if rows_form and grid_form:
        raise PuzzleError(f"the file has both {rows_form.name} (cage rows) and {grid_form.name} (a cage grid): "
                          "say which to read with --dzn-map", line=grid_form.line)
    if grid_form:
        ids, _, a = square(data, "killer", "cage_grid")
        n = len(ids)
        cages, where = _cages_from_grid(data, ids, a), a.line
    else:
        found = square(data, "killer", "puzzle", False)
        cages, where, n = _cage_rows(data, len(found[0]) if found else None)
    givens_found = square(data, "killer", "puzzle", False, n)
    givens = givens_found[0] if givens_found else np.zeros((n, n), dtype=np.int64)
    br, bc = box(data, "killer", n, rules)
    return build_located(lambda: KillerSudoku(givens, br, bc, name, cages=cages, diagonal=bool(rules.diagonal)),
                         givens_found[1] if givens_found else [], where)


def _cages_from_grid(data, ids: np.ndarray, grid: Assignment) -> tuple[Cage, ...]:
    a = data.get("killer", "sums")
    if not isinstance(a.value, Array) or len(a.value.shape) != 1 or any(
            isinstance(v, bool) or not isinstance(v, int) for v in a.value.values):
        raise PuzzleError(f"{a.name} must be a 1-D array of cage sums", line=a.line)
    sums = a.value.values
    bad = np.argwhere((ids < 1) | (ids > len(sums)))
    if len(bad):
        r, c = bad[0]
        raise PuzzleError(f"{grid.name} has the cage id {ids[r, c]} at row {r + 1}, column {c + 1}; "
                          f"{a.name} lists {len(sums)} sums, so ids are 1..{len(sums)}", line=grid.line)
    cells = [[] for _ in sums]
    for r, c in np.ndindex(*ids.shape):
        cells[ids[r, c] - 1].append((r, c))
    empty = next((k for k, cs in enumerate(cells) if not cs), None)
    if empty is not None:
        raise PuzzleError(f"{a.name} lists {len(sums)} sums but no cell of {grid.name} has the id {empty + 1}",
                          line=a.line)
    return tuple(Cage(tuple(cs), total) for cs, total in zip(cells, sums))


def _cage_rows(data, side: int | None) -> tuple[tuple[Cage, ...], int, int]:
    found = data.grid("killer", "cages")
    values, lines, a = found
    if values.ndim != 2 or a.value.shape != values.shape or values.shape[1] < 3 or values.shape[1] % 2 == 0:
        raise PuzzleError(f"{a.name} must be a [| ... |] array, one row per cage: the sum, then (row, column) "
                          "pairs, padded with 0", line=a.line)
    row_lines = first_lines(lines, values.shape)
    cells_per_row = [[(int(r), int(c)) for r, c in zip(row[1::2], row[2::2]) if (r, c) != (0, 0)]
                     for row in values]
    if side is None:  # n is the box or the grid size, and the cages cover the grid
        n, n_line = data.scalar("killer", "n")
        reach = max((max(r, c) for cells in cells_per_row for r, c in cells), default=0)
        side = reach if n is None else (n if reach <= n else n * n)
        if not 1 <= side <= MAX_SUDOKU:
            raise PuzzleError(f"{a.name}: the cells reach row or column {reach}; a killer grid has "
                              f"1..{MAX_SUDOKU} rows", line=n_line or a.line)
    cages = []
    for k, (row, cells) in enumerate(zip(values, cells_per_row)):
        bad = [(r, c) for r, c in cells if not (1 <= r <= side and 1 <= c <= side)]
        if bad:
            raise PuzzleError(f"{a.name} row {k + 1}: cell ({bad[0][0]}, {bad[0][1]}) is outside the "
                              f"{side} x {side} grid (rows and columns count from 1)", line=row_lines[k])
        if not cells:
            raise PuzzleError(f"{a.name} row {k + 1} lists no cell", line=row_lines[k])
        cages.append(Cage(tuple((r - 1, c - 1) for r, c in cells), int(row[0])))
    try:
        KillerSudoku(np.zeros((side, side), np.int64), *_default_box(side), cages=tuple(cages))
    except PuzzleError as err:
        k = _cage_number(err.problem)
        raise PuzzleError(err.problem, line=row_lines[k] if k is not None and k < len(row_lines) else a.line) from None
    return tuple(cages), a.line, side


def _default_box(side: int) -> tuple[int, int]:
    return Rules().box_for(side)


def _cage_number(problem: str) -> int | None:
    match = re.search(r"cage ([0-9]+)", problem)
    return int(match[1]) - 1 if match else None


def format_puzzle(puzzle: KillerSudoku, layout) -> str:
    if puzzle.diagonal:
        raise PuzzleError("the dzn format cannot state the diagonal rule; use the native format")
    longest = max(len(c.cells) for c in puzzle.cages)
    cage_rows = [[c.total] + [v + 1 for cell in c.cells for v in cell] + [0] * (2 * (longest - len(c.cells)))
                 for c in puzzle.cages]
    text = box_lines(puzzle) + f"cages = {matrix(cage_rows, 2 * longest + 1)};\n"
    if puzzle.num_givens:
        text += f"puzzle = {matrix(puzzle.givens.tolist(), puzzle.n)};\n"
    return text
