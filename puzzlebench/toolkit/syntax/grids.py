"""The bare grids of the grid layout (:mod:`puzzlebench.io.grid`) as its scanner finds them, and the
pairing of each puzzle grid with the solution grids titled after it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...errors import PuzzleError
from ..entry import Entry


@dataclass
class ScannedGrid:
    """Rows of cell symbols as read, the lines they are on, the ``!`` marks, and the title."""

    rows: list[list[str]] = field(default_factory=list)
    marks: list[list[bool]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    title: str = ""
    width: int = 0
    height: int = 0
    tokens: bool | None = None

    @property
    def complete(self) -> bool:
        return len(self.rows) == self.height


def _pairs(grids: list[ScannedGrid]) -> list[tuple[ScannedGrid, list[ScannedGrid]]]:
    """Each puzzle grid with the grids titled "Solution..." that follow it."""
    pairs: list[tuple[ScannedGrid, list[ScannedGrid]]] = []
    for g in grids:
        if g.title.lower().startswith("solution") and pairs:
            pairs[-1][1].append(g)
        else:
            pairs.append((g, []))
    return pairs


def paired_entries(grids: list[ScannedGrid], values: dict, path: str, make, blank: int) -> list:
    """Entries of the puzzle grids among ``grids``, each with the grids titled "Solution..." after it
    (``values``: id of a grid -> its values or a PuzzleError; ``make(values, name, row lines)`` the
    puzzle; ``blank`` a blank cell's value); a grid that does not read is a PuzzleError."""
    items = []
    for number, (g, solution_grids) in enumerate(_pairs(grids), start=1):
        name = str(number)
        try:
            grid = values[id(g)]
            if isinstance(grid, PuzzleError):
                raise grid
            marks = np.array(g.marks, dtype=bool)
            solutions = []
            if marks.any():  # komo: the marked cells are the givens, a full grid is the solution too
                if (grid != blank).all():
                    solutions.append(grid)
                grid = np.where(marks, grid, blank)
            for s in solution_grids:
                found = values[id(s)]
                if isinstance(found, PuzzleError):
                    raise found
                if (found == blank).any():
                    raise PuzzleError("the solution grid has blanks", line=s.lines[0])
                solutions.append(found)
            puzzle = make(grid, name, g.lines)
        except PuzzleError as err:
            items.append(err.locate(None, g.lines[0]))
            continue
        extra = {"title": g.title} if g.title else {}
        items.append(Entry(puzzle, name, path, g.lines[0], tuple(solutions), extra))
    return items
