"""Helpers the kinds' data types share: validated grids and digit sums."""

from __future__ import annotations

import numpy as np

from ..errors import PuzzleError


def as_grid(values, name: str) -> np.ndarray:
    """``values`` as a read-only non-empty 2-D int64 array (``name`` says what it is in the error)."""
    arr = np.asarray(values, dtype=np.int64)
    if arr.ndim != 2 or arr.size == 0:
        raise PuzzleError(f"{name} must be a non-empty 2-D grid, got shape {arr.shape}")
    arr = arr.copy()
    arr.setflags(write=False)
    return arr


def digit_sum_range(length: int, max_digit: int) -> tuple[int, int]:
    """Smallest and largest sum of ``length`` distinct digits from 1..max_digit."""
    return length * (length + 1) // 2, length * (2 * max_digit - length + 1) // 2


def first_duplicate(values: np.ndarray) -> tuple[int, int] | None:
    """The first digit (> 0) seen twice in ``values`` and the position of its second sighting."""
    seen: dict[int, int] = {}
    for pos, v in enumerate(values.tolist()):
        if v > 0:
            if v in seen:
                return v, pos
            seen[v] = pos
    return None
