"""The kakuro kind's part of io's dzn layout (:mod:`puzzlebench.io.dzn`): MiniZinc Kakuro data.

Roles: ``h`` and ``w`` the rows and columns, ``grid_data`` the h x w grid with 1 for a white cell and 0 for
any other; ``h_clue`` and ``v_clue`` one row per across / down run: (row, column, length, sum), 1-based,
and ``h_clues`` / ``v_clues`` or ``n_h`` / ``n_v`` (optional) the row counts.  The position is, in the
*first-cell* convention, the run's first white cell (the clue sits left of it, across, or above it,
down); in the *clue-cell* convention (the MiniZinc benchmarks' ``kakuro.mzn``) the clue cell itself.  The
convention is the one every row fits (a position is a white cell in one, a clue cell in the other), or
``--dzn-convention``.  A file with ``grid_data``, ``h_clue`` or ``v_clue`` is a Kakuro's.
"""

from __future__ import annotations

import numpy as np

from ...errors import PuzzleError
from ...toolkit.rules import Rules
from ...toolkit.syntax.dzn import CONVENTION_KEY, first_lines, matrix
from ...toolkit.text import MAX_SIDE, build_located
from .puzzle import Kakuro

ROLES = {"grid_data": ("grid_data",), "h": ("h",), "w": ("w",), "h_clue": ("h_clue",), "v_clue": ("v_clue",),
         "h_clues": ("h_clues", "n_h"), "v_clues": ("v_clues", "n_v")}
"""Role -> the variable names tried, in order."""
MARKERS = ("grid_data", "h_clue", "v_clue")
"""The roles whose variables mark a file as the kind's."""
MARKED = "grid_data (Kakuro)"
"""The marking variables, for messages."""
CONVENTIONS = ("first-cell", "clue-cell")
"""Where a Kakuro clue row (row, column, length, sum) puts its position: the run's first white
cell, or the clue cell left of (across) or above (down) it (the dzn layout's ``convention``)."""


def read(data, rules: Rules, name: str) -> Kakuro:
    h, h_line = data.scalar("kakuro", "h")
    w, w_line = data.scalar("kakuro", "w")
    grid, lines, a = data.grid("kakuro", "grid_data", True, h, w)
    rows, cols = grid.shape
    for value, line, what, size in ((h, h_line, "h", rows), (w, w_line, "w", cols)):
        if value is not None and value != size:
            raise PuzzleError(f"{what} = {value}, but grid_data has {size} {'rows' if what == 'h' else 'columns'}",
                              line=line)
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise PuzzleError(f"{a.name} is {rows} x {cols}; sides must be 1..{MAX_SIDE}", line=a.line)
    if not np.isin(grid, (0, 1)).all():
        raise PuzzleError(f"{a.name} must hold 1 (white cell) and 0 (any other cell) only", line=a.line)
    white = grid == 1
    tables = {role: _clue_table(data, role) for role in ("h_clue", "v_clue")}
    convention = data.convention or _detect_convention(tables, white)
    layers = {}
    for role, direction, step in (("h_clue", "across", (0, 1)), ("v_clue", "down", (1, 0))):
        layers[direction] = _runs(tables[role], direction, step, white, convention)
    row_lines = first_lines(lines, grid.shape)
    return build_located(lambda: Kakuro(white, layers["across"], layers["down"], name), row_lines, a.line)


def _clue_table(data, role: str) -> tuple[np.ndarray, list[int], str]:
    """(rows (row, column, length, sum), the line of each row, the variable name) of ``role``."""
    found = data.grid("kakuro", role, False)
    count, count_line = data.scalar("kakuro", role + "s")
    table = np.zeros((0, 4), dtype=np.int64)
    if found is not None and found[0].size:
        if len(found[2].value.shape) != 2 or found[0].shape[1] != 4:
            raise PuzzleError(f"{found[2].name} must be a [| ... |] array of rows (row, column, length, sum)",
                              line=found[2].line)
        table = found[0]
    if count is not None and count != len(table):
        count_name = data.name("kakuro", role + "s")
        raise PuzzleError(f"{count_name} = {count}, but {role} has {len(table)} rows", line=count_line)
    row_lines = first_lines(found[1], table.shape) if found is not None and len(table) else []
    return table, row_lines, found[2].name if found is not None else role


def _run_of(row, step: tuple[int, int], white: np.ndarray, convention: str) -> tuple[tuple[int, int], str | None]:
    """(0-based clue cell, the problem or None) of a clue row read in ``convention``."""
    r, c, length, total = row
    rows, cols = white.shape
    direction = "across" if step == (0, 1) else "down"
    before = "left of" if direction == "across" else "above"
    if convention == "first-cell":
        if not (1 <= r <= rows and 1 <= c <= cols) or not white[r - 1, c - 1]:
            return (0, 0), f"({r}, {c}) is not a white cell of the {rows} x {cols} grid"
        clue, start = (r - 1 - step[0], c - 1 - step[1]), (r - 1, c - 1)
        if clue[0] < 0 or clue[1] < 0 or white[clue]:
            return clue, (f"the run does not start at ({r}, {c}): the cell {before} it is white or outside "
                          "the grid")
    else:
        if not (1 <= r <= rows and 1 <= c <= cols) or white[r - 1, c - 1]:
            return (0, 0), f"({r}, {c}) is not a clue cell (a non-white cell) of the {rows} x {cols} grid"
        clue, start = (r - 1, c - 1), (r - 1 + step[0], c - 1 + step[1])
    actual, (rr, cc) = 0, start
    while rr < rows and cc < cols and white[rr, cc]:
        actual, rr, cc = actual + 1, rr + step[0], cc + step[1]
    if actual != length:
        return clue, f"the {direction} run {'from' if convention == 'first-cell' else 'after'} ({r}, {c}) is " \
                     f"{actual} cells long in grid_data, not {length}"
    if total < 1:
        return clue, "the sum must be positive"
    return clue, None


def _detect_convention(tables: dict, white: np.ndarray) -> str:
    """The convention every clue row fits; a file whose rows fit neither is refused at the first row
    that does not fit the convention most rows fit."""
    steps = {"h_clue": (0, 1), "v_clue": (1, 0)}
    fits = {conv: sum(_run_of(row, steps[role], white, conv)[1] is None
                      for role, (table, _, _) in tables.items() for row in table.tolist())
            for conv in CONVENTIONS}
    total = sum(len(table) for table, _, _ in tables.values())
    for conv in CONVENTIONS:
        if fits[conv] == total:
            return conv
    return max(CONVENTIONS, key=fits.get)


def _runs(table, direction: str, step: tuple[int, int], white: np.ndarray, convention: str) -> np.ndarray:
    """The clue layer the (row, column, length, sum) rows of a table state, checked against the grid."""
    rows_table, row_lines, name = table
    layer = np.zeros(white.shape, dtype=np.int64)
    for k, row in enumerate(rows_table.tolist()):
        where = f"{name} row {k + 1} ({', '.join(map(str, row))})"
        clue, problem = _run_of(row, step, white, convention)
        if problem is not None:
            raise PuzzleError(f"{where}: {problem} (read with the {convention} convention; "
                              f"--dzn-convention names the other)", line=row_lines[k])
        if layer[clue]:
            raise PuzzleError(f"{where}: a second {direction} clue at ({clue[0] + 1}, {clue[1] + 1})",
                              line=row_lines[k])
        layer[clue] = row[3]
    return layer


def format_puzzle(puzzle: Kakuro, layout) -> str:
    """The data of ``puzzle`` in the convention of ``layout.dzn["convention"]`` (first-cell: ``h_clues``/
    ``h_clue`` rows from the run's first white cell, as read by default; clue-cell: ``n_h``/``h_clue`` rows
    from the clue cell, as the MiniZinc benchmarks' kakuro.mzn reads)."""
    return _format(puzzle, layout.dzn.get(CONVENTION_KEY, CONVENTIONS[0]))  # checked by io (settings_of)


def _format(p: Kakuro, convention: str) -> str:
    rows, cols = p.shape
    text = f"h = {rows};\nw = {cols};\ngrid_data = {matrix(p.white.astype(int).tolist(), cols)};\n"
    for role, count, direction in (("h_clue", "n_h", "across"), ("v_clue", "n_v", "down")):
        runs = [run for run in p.runs if run.direction == direction]
        where = [run.cells[0] if convention == "first-cell" else run.clue for run in runs]
        table = [[r + 1, c + 1, len(run.cells), run.total] for (r, c), run in zip(where, runs)]
        text += f"{role + 's' if convention == 'first-cell' else count} = {len(table)};\n{role} = {matrix(table, 4)};\n"
    return text
