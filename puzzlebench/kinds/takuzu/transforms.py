"""Takuzu symmetries: 0 <-> 1, reversing the row or the column order, and the transposition
(see :mod:`puzzlebench.transforms`)."""

from __future__ import annotations

import dataclasses

import numpy as np

from ...toolkit.symmetry import Transform, reversal
from .puzzle import Takuzu


def takuzu_symmetries(puzzle: Takuzu) -> tuple[str, ...]:
    return "digits", "rows", "cols", "transpose"


def random_takuzu_transform(puzzle: Takuzu, rng: np.random.Generator, use: set, transpose: bool) -> Transform:
    rows, cols = puzzle.shape[::-1] if transpose else puzzle.shape
    row_perm, col_perm = reversal(rng, rows, "rows" in use), reversal(rng, cols, "cols" in use)
    flip = "digits" in use and bool(rng.random() < 0.5)
    return Transform(row_perm=row_perm, col_perm=col_perm, transpose=transpose, flip=flip)


def takuzu_transform_count(puzzle: Takuzu, use: set) -> int:
    return 2 ** len(use)


def apply_takuzu_transform(transform: Transform, puzzle: Takuzu, name: str) -> Takuzu:
    return dataclasses.replace(puzzle, givens=transform.map_solution(puzzle.givens), name=name)
