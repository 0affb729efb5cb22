"""What a reader returns for each puzzle of a file."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ..puzzles import Puzzle


@dataclass
class Entry:
    """One puzzle read from a file, with where it came from.

    ``name`` is a stable id within the file: the 1-based puzzle index for
    files holding a list (native, lines, Tatham), the record key for a
    puzzlekit JSON dataset.  ``line`` is the 1-based file line where the
    puzzle starts (None for JSON datasets).  ``solutions`` are the reference
    solutions the file (or its companion solution file) lists, in order: none,
    one, or several when the puzzle has more than one solution; a single grid
    or None may be passed for it.  ``extra`` keeps what else the file says
    about the puzzle: ``"url"`` (janko attribution), ``"fields"`` (other
    tokens of a lines-format line, such as a rating), ``"title"``.
    """

    puzzle: Puzzle
    name: str
    source: str
    line: int | None
    solutions: tuple[np.ndarray, ...] = ()
    extra: dict = field(default_factory=dict)

    def __post_init__(self):
        found = self.solutions
        if found is None:
            found = ()
        elif isinstance(found, np.ndarray):
            found = (found,)
        self.solutions = tuple(np.asarray(grid, dtype=np.int64) for grid in found)

    @property
    def solution(self) -> np.ndarray | None:
        """The first reference solution, or None when the file gives none."""
        return self.solutions[0] if self.solutions else None


def entries_only(items: list) -> list[Entry]:
    """A reader's items when every puzzle read; else the first PuzzleError among them is raised."""
    for item in items:
        if not isinstance(item, Entry):
            raise item
    return items
