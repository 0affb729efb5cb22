"""KenKen's symmetries, as :class:`puzzlebench.toolkit.symmetry.Transform` values: the square's
(``random_transform`` draws them: kinds ``rows``, ``cols`` and ``transpose``).

A KenKen admits the moves of the square -- reversing the row order, reversing the
column order, transposing -- and no others.  A digit relabelling changes sums,
products, differences and quotients, so it is no symmetry; a general row or
column permutation keeps the Latin square and every cage's arithmetic, but tears
a cage's cells apart (cages are connected regions), so it is none either.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ...errors import PuzzleError
from ...toolkit.symmetry import Transform, reversal
from .puzzle import KenKen, KenKenCage


def kenken_symmetries(puzzle: KenKen) -> tuple[str, ...]:
    return "rows", "cols", "transpose"


def random_kenken_transform(puzzle: KenKen, rng: np.random.Generator, use: set, transpose: bool) -> Transform:
    n = puzzle.n
    return Transform(row_perm=reversal(rng, n, "rows" in use), col_perm=reversal(rng, n, "cols" in use),
                     transpose=transpose)


def kenken_transform_count(puzzle: KenKen, use: set) -> int:
    return 2 ** len(use)


def apply_kenken_transform(transform: Transform, puzzle: KenKen, name: str) -> KenKen:
    """``transform`` acting on ``puzzle``, named ``name``; a transform other than reversals and
    transposition is a PuzzleError."""
    n = puzzle.n
    if transform.source_shape != puzzle.shape:
        raise PuzzleError(f"a transform of a {transform.source_shape[0]} x {transform.source_shape[1]} grid "
                          f"cannot act on a {n} x {n} KenKen")
    square = (np.arange(n), np.arange(n)[::-1])
    if (transform.digit_map is not None or transform.flip
            or not any(np.array_equal(transform.row_perm, p) for p in square)
            or not any(np.array_equal(transform.col_perm, p) for p in square)):
        raise PuzzleError("a KenKen admits only row and column reversals and the transposition")
    cages = tuple(KenKenCage(tuple(map(tuple, transform.map_cells(cage.cells).tolist())), cage.op, cage.target)
                  for cage in puzzle.cages)
    return dataclasses.replace(puzzle, cages=cages, name=name)
