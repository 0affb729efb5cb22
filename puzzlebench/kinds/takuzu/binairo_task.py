"""puzzle-binairo.com task strings (the ``binairo-task`` format): a Takuzu grid as one run-length word a line.

The cells row-major: ``0`` and ``1`` are givens, a letter ``a``..``z`` is a run
of 1..26 blank cells (``a1d11d...``).  The grid is square (the side from the
cell count) unless ``--size RxC`` says otherwise; sides are even.  Puzzles are
named 1, 2, ... by line; ``#`` comment lines are skipped; no solutions::

    b1a0c00a1a1d0a1a
"""

from __future__ import annotations

import math
import re

import numpy as np

from ...errors import PuzzleError
from ...toolkit.entry import Entry
from ...toolkit.layout import Layout
from ...toolkit.rules import Rules
from ...toolkit.text import MAX_SIDE, build_located, content_lines, split_lines
from .. import require_applicable, require_kind
from .puzzle import Takuzu

PUZZLES = ("takuzu",)
HINT = "a puzzle-binairo.com task string 'b1a0c00a1a1d0a1a'"
DETECT = "line"
"""Detection tests :func:`looks_like` on the file's first content line (:func:`puzzlebench.io.detect.candidates`)."""
PLACE = 13
"""The format's place in ``--format``'s list and among detection's tests (:data:`puzzlebench.io.PLACES`)."""
_TASK = re.compile(r"[a-z01]+")


def _cells(task: str) -> list[int]:
    cells: list[int] = []
    for ch in task:
        if ch in "01":
            cells.append(int(ch))
        else:
            cells += [-1] * (ord(ch) - ord("a") + 1)
    return cells


def looks_like(line: str) -> bool:
    """One word of letters and 0/1 digits (a letter at least), spelling an even square grid."""
    if not _TASK.fullmatch(line) or line.isdigit():
        return False
    side = math.isqrt(len(_cells(line)))
    return side * side == len(_cells(line)) and side % 2 == 0 and side >= 4


def read(text: str, path: str, puzzle: str | None, rules: Rules, layout: Layout = Layout()) -> list:
    if puzzle not in (None, *PUZZLES):
        raise PuzzleError(f"the binairo-task format holds only takuzu puzzles, not {puzzle}")
    require_applicable(rules, PUZZLES[0])
    entries = []
    for line in content_lines(split_lines(text)):
        name = str(len(entries) + 1)
        try:
            entries.append(Entry(_task(line.text, layout.size, rules, name), name, path, line.number))
        except PuzzleError as err:
            entries.append(err.locate(None, line.number))
    return entries


def _task(task: str, size, rules: Rules, name: str) -> Takuzu:
    if not _TASK.fullmatch(task):
        bad = next(ch for ch in task if not _TASK.fullmatch(ch))
        raise PuzzleError(f"a task string holds 0, 1 and letters a-z (runs of blanks), not {bad!r}")
    cells = _cells(task)
    if size is None:
        side = math.isqrt(len(cells))
        if side * side != len(cells):
            raise PuzzleError(f"the task spells {len(cells)} cells, no square grid; say its size with --size RxC")
        size = (side, side)
    if size[0] * size[1] != len(cells) or max(size) > MAX_SIDE:
        raise PuzzleError(f"the task spells {len(cells)} cells, not {size[0]}x{size[1]}"
                          + (f" (sides at most {MAX_SIDE})" if max(size) > MAX_SIDE else ""))
    grid = np.array(cells, dtype=np.int64).reshape(size)
    return build_located(lambda: Takuzu(grid, bool(rules.distinct_lines), name), [], None)


def format_puzzle(puzzle) -> str:
    require_kind(puzzle, "binairo-task", PUZZLES)
    if puzzle.distinct_lines or puzzle.shape[0] != puzzle.shape[1]:
        raise PuzzleError("the binairo-task format states square grids without the distinct rows and columns "
                          "rule; use the native format")
    out, run = [], 0
    for v in puzzle.givens.ravel().tolist() + [0]:
        if v < 0:
            run += 1
            continue
        while run:
            out.append(chr(ord("a") + min(run, 26) - 1))
            run -= min(run, 26)
        out.append(str(v))
    return "".join(out[:-1]) + "\n"


def unsupported_solutions() -> PuzzleError:
    return PuzzleError("task strings hold no solutions; write the solution in the native format")


def read_solutions(text: str, puzzle) -> list:
    raise unsupported_solutions()


format_solution = read_solutions
