"""Drawing a Takuzu (see :mod:`puzzlebench.draw`: cell (r, c) spans [c, c+1] x [r, r+1], y down)."""

from __future__ import annotations

import numpy as np

from ...toolkit.drawing import GIVEN_COLOUR, SOLUTION_COLOUR, grid_lines
from .puzzle import Takuzu


def draw_takuzu(ax, puzzle: Takuzu, solution, size: float) -> None:
    from matplotlib.collections import EllipseCollection
    rows, cols = puzzle.shape
    grid_lines(ax, rows, cols, size)
    given = puzzle.givens >= 0
    layers = [(puzzle.givens, given, GIVEN_COLOUR)]
    if solution is not None:
        layers.append((solution, ~given & (solution >= 0), SOLUTION_COLOUR))
    for grid, mask, colour in layers:
        cells = np.argwhere(mask)
        if not len(cells):
            continue
        ones = grid[mask] == 1
        diameter = np.full(len(cells), 0.62)
        ax.add_collection(EllipseCollection(
            diameter, diameter, np.zeros(len(cells)), units="xy", offsets=cells[:, ::-1] + 0.5,
            offset_transform=ax.transData, facecolors=[colour if o else "none" for o in ones],
            edgecolors=colour, linewidths=max(1.0, size / 18), zorder=4))
