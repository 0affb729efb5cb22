"""Sudoku symmetries: any digit relabelling, rows within bands, columns within stacks, bands,
stacks, and the transposition when the boxes are square (see :mod:`puzzlebench.transforms`)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from ...toolkit.symmetry import SYMMETRIES, Transform, blocked_perm
from .puzzle import Sudoku


def sudoku_symmetries(puzzle: Sudoku) -> tuple[str, ...]:
    return SYMMETRIES[:-1] + (("transpose",) if puzzle.box_rows == puzzle.box_cols else ())


def line_perms(puzzle: Sudoku, rng: np.random.Generator, use: set) -> tuple[np.ndarray, np.ndarray]:
    """Row and column orders keeping bands and stacks: lines within them, and them among themselves."""
    n, br, bc = puzzle.n, puzzle.box_rows, puzzle.box_cols
    return (blocked_perm(rng, n // br, br, "bands" in use, "rows" in use),
            blocked_perm(rng, n // bc, bc, "stacks" in use, "cols" in use))


def random_sudoku_transform(puzzle: Sudoku, rng: np.random.Generator, use: set, transpose: bool) -> Transform:
    digit_map = np.r_[0, rng.permutation(puzzle.n) + 1] if "digits" in use else None
    row_perm, col_perm = line_perms(puzzle, rng, use)
    return Transform(row_perm=row_perm, col_perm=col_perm, transpose=transpose, digit_map=digit_map)


def line_factors(puzzle: Sudoku) -> dict[str, int]:
    """How many orders each line kind draws from: (br!)^(N/br) rows, (bc!)^(N/bc) columns, bands, stacks."""
    n, br, bc = puzzle.n, puzzle.box_rows, puzzle.box_cols
    return {"rows": math.factorial(br) ** (n // br), "cols": math.factorial(bc) ** (n // bc),
            "bands": math.factorial(n // br), "stacks": math.factorial(n // bc)}


def sudoku_transform_count(puzzle: Sudoku, use: set) -> int:
    factors = {kind: 2 for kind in use} | line_factors(puzzle) | {"digits": math.factorial(puzzle.n)}
    return math.prod(factors[kind] for kind in use)


def apply_sudoku_transform(transform: Transform, puzzle: Sudoku, name: str) -> Sudoku:
    return dataclasses.replace(puzzle, givens=transform.map_solution(puzzle.givens), name=name)
