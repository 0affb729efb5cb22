"""The killer kind's part of io's tatham layout (:mod:`puzzlebench.io.tatham`): Solo IDs with ``k``.

A Killer is a Solo game ID (the sudoku kind's part: size, flags, number code) whose flags hold ``k``, and
``x`` for Killer-X (both diagonals hold every digit).  Its DESC is ``grid,cages,sums``: ``cages`` lists the
2*CR*(CR-1) cell boundaries -- first those between horizontal neighbours in reading order, then those
between vertical neighbours column by column -- as run lengths: ``_`` is a wall, ``a``..``y`` are 1..25
open boundaries followed by a wall, and ``z`` 26 open boundaries with no wall (as Solo's decoder reads it;
Solo's encoder writes ``z`` for 25, so the two disagree on runs longer than 25, which 9x9 cage layouts
cannot have; :func:`puzzlebench.toolkit.syntax.tatham.decode_block_structure`); ``sums`` is a grid like the first
whose numbers are the cage sums, each in one cell of its cage.
"""

from __future__ import annotations

import numpy as np

from ...errors import PuzzleError
from .cages import cages_from_index, canonical_index
from ...toolkit.regions import label_regions
from ...toolkit.rules import Rules
from ...toolkit.syntax.tatham import decode_block_structure, encode_block_structure
from ...toolkit.text import build_located
from ..common import digit_sum_range
from ..sudoku.tatham import GAME, looks_like  # noqa: F401 -- a Killer ID is a Solo ID: the part's game and test
from ..sudoku.tatham import decode_numbers, encode_numbers, side
from .puzzle import KillerSudoku
from .. import require_applicable


def takes(flags: str) -> bool:
    """A Solo ID with ``k`` is a Killer."""
    return "k" in flags


def read(sides: tuple[int, int], flags: str, desc: str, rules: Rules, name: str) -> KillerSudoku:
    n = side(sides, flags)
    rules = rules.overridden(box=sides, diagonal=True if "x" in flags else None)
    require_applicable(rules, KillerSudoku.puzzle)
    parts = desc.split(",")
    if len(parts) != 3:
        raise PuzzleError("a Killer Solo ID has three comma-separated parts: grid,cages,sums")
    givens = decode_numbers(parts[0], n * n, n, "grid").reshape(n, n)
    index, _ = label_regions(decode_block_structure(parts[1], n).tolist())
    sums = decode_numbers(parts[2], n * n, n * n * n, "cage sums").reshape(n, n)
    totals = []
    for k in range(int(index.max()) + 1):
        cells = np.argwhere(index == k)
        found = sums[index == k]
        found = found[found > 0]
        where = f"the cage at row {cells[0][0] + 1}, column {cells[0][1] + 1}"
        if len(found) != 1:
            raise PuzzleError(f"{where} has {len(found)} sums, expected one")
        lo, hi = digit_sum_range(len(cells), n)
        if len(cells) > n or not lo <= found[0] <= hi:
            raise PuzzleError(f"{where} has {len(cells)} cells and cannot sum to {found[0]}")
        totals.append(int(found[0]))
    cages = cages_from_index(index, totals)
    return build_located(lambda: KillerSudoku(givens, *sides, name, cages=cages, diagonal=bool(rules.diagonal)),
                         [], None)


def format_puzzle(puzzle: KillerSudoku) -> str:
    sums = np.zeros(puzzle.shape, dtype=np.int64)
    for cage in puzzle.cages:
        sums[min(cage.cells)] = cage.total
    flags = ("x" if puzzle.diagonal else "") + "k"
    return (f"{puzzle.box_rows}x{puzzle.box_cols}{flags}:{encode_numbers(puzzle.givens.ravel().tolist())},"
            f"{encode_block_structure(canonical_index(puzzle))},{encode_numbers(sums.ravel().tolist())}\n")
