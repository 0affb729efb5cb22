"""Kakuro symmetries: the digit map k -> 10-k (a run sum V becomes 10*len-V) and the transposition,
which swaps across and down clues (see :mod:`puzzlebench.transforms`)."""

from __future__ import annotations

import numpy as np

from ...toolkit.symmetry import Transform, reflection, require_reflection
from .puzzle import Kakuro


def kakuro_symmetries(puzzle: Kakuro) -> tuple[str, ...]:
    return "digits", "transpose"


def random_kakuro_transform(puzzle: Kakuro, rng: np.random.Generator, use: set, transpose: bool) -> Transform:
    rows, cols = puzzle.shape[::-1] if transpose else puzzle.shape
    digit_map = reflection(Kakuro.max_digit) if "digits" in use and rng.random() < 0.5 else None
    return Transform(row_perm=np.arange(rows), col_perm=np.arange(cols), transpose=transpose, digit_map=digit_map)


def kakuro_transform_count(puzzle: Kakuro, use: set) -> int:
    return 2 ** len(use)


def apply_kakuro_transform(transform: Transform, puzzle: Kakuro, name: str) -> Kakuro:
    require_reflection(transform, puzzle, Kakuro.max_digit)
    layers = {"across": np.zeros(puzzle.shape, np.int64), "down": np.zeros(puzzle.shape, np.int64)}
    for run in puzzle.runs:
        size = len(run.cells)
        total = run.total if transform.digit_map is None else size * (Kakuro.max_digit + 1) - run.total
        layers[run.direction][run.clue] = total
    white = transform.move(puzzle.white)
    across, down = (transform.move(layers["down"]), transform.move(layers["across"])) if transform.transpose else \
        (transform.move(layers["across"]), transform.move(layers["down"]))
    return Kakuro(white=white, across=across, down=down, name=name)
