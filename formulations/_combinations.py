"""Digit sets: the sets of distinct digits that fill a Killer cage or a Kakuro run with a given sum."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from puzzlebench.errors import PuzzleError
from puzzlebench.puzzles import digit_sum_range

MAX_CAGE_SETS = 100_000
"""The most digit sets one cage may have in the ``combinations`` formulation."""


@lru_cache(maxsize=None)
def cage_combinations(size: int, total: int, max_digit: int) -> np.ndarray:
    """The sets of ``size`` distinct digits from 1..max_digit that sum to ``total``.

    A read-only 0/1 matrix, one row per set (in lexicographic order of the sorted
    digits), one column per digit 1..max_digit; no rows if there is no such set.
    Raises :class:`PuzzleError` past :data:`MAX_CAGE_SETS` sets.
    """
    sets: list[tuple[int, ...]] = []

    def extend(chosen: tuple[int, ...], smallest: int, left: int, remaining: int) -> None:
        if left == 0:
            if remaining == 0:
                sets.append(chosen)
                if len(sets) > MAX_CAGE_SETS:
                    raise PuzzleError(f"a cage or run of {size} cells summing to {total} has more than "
                                      f"{MAX_CAGE_SETS} digit sets; use another formulation")
            return
        for d in range(smallest, max_digit - left + 2):
            low = left * d + left * (left - 1) // 2  # d, d+1, ..., d+left-1
            if low > remaining:
                break
            if d + digit_sum_range(left - 1, max_digit)[1] >= remaining:
                extend(chosen + (d,), d + 1, left - 1, remaining - d)

    extend((), 1, size, total)
    matrix = np.zeros((len(sets), max_digit), dtype=np.int8)
    if sets:
        matrix[np.repeat(np.arange(len(sets)), size), np.asarray(sets).ravel() - 1] = 1
    matrix.setflags(write=False)
    return matrix
