"""Pictures of puzzles (and their solutions) for papers, drawn with matplotlib.

Cell ``(row, col)`` covers ``[col, col+1] x [row, row+1]`` in data coordinates,
with the y axis pointing down, so row 0 is on top.  Givens are bold black,
solution entries blue.  Text and line sizes follow the size of a cell on the
page, so a 36 x 36 Sudoku stays as legible as a 4 x 4.  matplotlib is imported
inside the functions and no global state (pyplot, the backend) is touched.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .errors import PuzzleError
from .kinds import kind_of

DRAWING_FORMATS = ("png", "svg", "pdf")
CELL_INCHES = 0.5      # preferred cell size on the page
MAX_INCHES = 14.0      # largest side of a figure made here
PNG_DPI = 200


def draw(puzzle, solution=None, ax=None):
    """Draw ``puzzle`` (and ``solution`` when given) and return the matplotlib Figure.

    With ``ax`` the drawing goes into that Axes; otherwise into a new Figure
    sized to the grid.  Blank solution entries (0, or -1 for Takuzu) stay empty.
    """
    kind = kind_of(puzzle)  # a puzzle of no kind is refused before a figure is made
    rows, cols = puzzle.shape
    if solution is not None:
        solution = np.asarray(solution, dtype=np.int64)
        if solution.shape != (rows, cols):
            raise PuzzleError(f"the solution is {' x '.join(map(str, solution.shape))}, "
                              f"the puzzle {rows} x {cols}")
    if ax is None:
        ax = _new_axes(rows, cols)
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    ax.set_axis_off()
    size = _cell_points(ax, rows, cols)
    kind.draw(ax, puzzle, solution, size)
    return ax.figure


def save_drawing(puzzle, solution, path) -> None:
    """Draw ``puzzle`` (and ``solution``, or None) into ``path``; the extension picks png, svg or pdf."""
    extension = Path(path).suffix.lower().lstrip(".")
    if extension not in DRAWING_FORMATS:
        raise PuzzleError(f"cannot draw into {str(path)!r}: the file name must end in "
                          f"{', '.join('.' + f for f in DRAWING_FORMATS)}")
    import matplotlib

    from .system.atomic import replacing
    figure = draw(puzzle, solution)
    with matplotlib.rc_context({"pdf.fonttype": 42}), replacing(path, binary=True) as fh:  # TrueType, not Type 3
        figure.savefig(fh, format=extension, dpi=PNG_DPI)


def _new_axes(rows: int, cols: int):
    from matplotlib.figure import Figure
    scale = min(CELL_INCHES, MAX_INCHES / max(rows, cols))
    margin = 0.1
    figure = Figure(figsize=(cols * scale + 2 * margin, rows * scale + 2 * margin))
    width, height = figure.get_size_inches()
    return figure.add_axes((margin / width, margin / height, 1 - 2 * margin / width, 1 - 2 * margin / height))


def _cell_points(ax, rows: int, cols: int) -> float:
    """The side of one cell on the page, in points."""
    ax.apply_aspect()
    box = ax.get_position()
    width, height = ax.figure.get_size_inches()
    return 72.0 * min(box.width * width / cols, box.height * height / rows)
