"""A cage's admissible digit tuples: the fillings of its cells that meet its clue and the Latin rule inside it."""

from __future__ import annotations

import numpy as np

from ...errors import PuzzleError
from .puzzle import KenKen, KenKenCage

MAX_CAGE_TUPLES = 200_000
"""The most admissible tuples one cage may have in a formulation that enumerates them."""


def admissible_tuples(cage: KenKenCage, n: int) -> np.ndarray:
    """Every filling of ``cage`` with digits 1..n that meets its clue, cells that share a row or
    column holding different digits: an int64 array (tuples, cells), cells in the cage's order,
    tuples in lexicographic order.  Built cell by cell, pruning partial sums that cannot reach the
    target and partial products that do not divide it; past :data:`MAX_CAGE_TUPLES` a PuzzleError."""
    cells, op, target = cage.cells, cage.op, cage.target
    size = len(cells)
    digits = np.arange(1, n + 1, dtype=np.int64)
    partial = np.zeros((1, 0), dtype=np.int64)
    for i, (r, c) in enumerate(cells):
        partial = np.concatenate([np.repeat(partial, n, axis=0), np.tile(digits, len(partial))[:, None]], axis=1)
        keep = np.ones(len(partial), bool)
        for j, (rr, cc) in enumerate(cells[:i]):
            if rr == r or cc == c:
                keep &= partial[:, j] != partial[:, i]
        left = size - i - 1
        if op == "+":
            total = partial.sum(axis=1)
            keep &= (total + left <= target) & (total + left * n >= target)
        elif op == "x":
            keep &= target % np.prod(partial, axis=1) == 0
        partial = partial[keep]
        if len(partial) > MAX_CAGE_TUPLES:
            raise PuzzleError(f"cage {cage.label} of {size} cells has more than {MAX_CAGE_TUPLES} partial "
                              f"fillings; use a formulation that does not enumerate them")
    if op == "":
        partial = partial[partial[:, 0] == target]
    elif op == "x":
        partial = partial[np.prod(partial, axis=1) == target]
    elif op == "-":
        partial = partial[np.abs(partial[:, 0] - partial[:, 1]) == target]
    elif op == "/":
        large, small = partial.max(axis=1), partial.min(axis=1)
        partial = partial[large == target * small]
    return partial


def cage_tuples(puzzle: KenKen, cages=None) -> list[np.ndarray]:
    """:func:`admissible_tuples` of each cage of ``puzzle`` (or of the cage numbers ``cages``)."""
    chosen = range(len(puzzle.cages)) if cages is None else cages
    return [admissible_tuples(puzzle.cages[k], puzzle.n) for k in chosen]
