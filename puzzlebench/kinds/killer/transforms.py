"""Killer symmetries: the Sudoku line moves, the digit map k -> N+1-k only (a cage sum V of s cells
becomes s(N+1)-V); Killer-X keeps to the reversals and the transposition (see :mod:`puzzlebench.transforms`)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from ...toolkit.symmetry import Transform, reflection, require_reflection, reversal
from ..sudoku.transforms import line_factors, line_perms, sudoku_symmetries
from .puzzle import Cage, KillerSudoku


def killer_symmetries(puzzle: KillerSudoku) -> tuple[str, ...]:
    if puzzle.diagonal:
        return ("digits", "rows", "cols") + (("transpose",) if puzzle.box_rows == puzzle.box_cols else ())
    return sudoku_symmetries(puzzle)


def random_killer_transform(puzzle: KillerSudoku, rng: np.random.Generator, use: set,
                            transpose: bool) -> Transform:
    n = puzzle.n
    digit_map = reflection(n) if "digits" in use and rng.random() < 0.5 else None
    if puzzle.diagonal:
        row_perm, col_perm = reversal(rng, n, "rows" in use), reversal(rng, n, "cols" in use)
    else:
        row_perm, col_perm = line_perms(puzzle, rng, use)
    return Transform(row_perm=row_perm, col_perm=col_perm, transpose=transpose, digit_map=digit_map)


def killer_transform_count(puzzle: KillerSudoku, use: set) -> int:
    factors = {kind: 2 for kind in use}
    if not puzzle.diagonal:
        factors |= {kind: count for kind, count in line_factors(puzzle).items() if kind in use}
    return math.prod(factors.values())


def _map_cage(transform: Transform, cage: Cage, n: int) -> Cage:
    cells = transform.map_cells(cage.cells)
    cells = cells[np.lexsort((cells[:, 1], cells[:, 0]))]
    total = cage.total if transform.digit_map is None else len(cells) * (n + 1) - cage.total
    return Cage(tuple(map(tuple, cells.tolist())), total)


def apply_killer_transform(transform: Transform, puzzle: KillerSudoku, name: str) -> KillerSudoku:
    require_reflection(transform, puzzle, puzzle.n)
    return dataclasses.replace(puzzle, givens=transform.map_solution(puzzle.givens), name=name,
                               cages=tuple(_map_cage(transform, cage, puzzle.n) for cage in puzzle.cages))
