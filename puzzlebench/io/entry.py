"""What a reader returns for each puzzle of a file."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..puzzles import Puzzle


@dataclass
class Entry:
    """One puzzle read from a file, with where it came from.

    ``name`` is a stable id within the file: the 1-based puzzle index for
    files holding a list (native, lines, Tatham), the record key for a
    puzzlekit JSON dataset.  ``line`` is the 1-based file line where the
    puzzle starts (None for JSON datasets).  ``solution`` is the reference
    solution when the file holds one.  ``extra`` keeps what else the file
    says about the puzzle: ``"url"`` (janko attribution), ``"fields"``
    (other tokens of a lines-format line, such as a rating).
    """

    puzzle: Puzzle
    name: str
    source: str
    line: int | None
    solution: np.ndarray | None = None
    extra: dict = field(default_factory=dict)
