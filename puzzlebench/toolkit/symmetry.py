"""Symmetry transforms the kinds build their copies from: :class:`Transform` and the elementary
permutations (the dispatcher, which draws a puzzle's random transform through its kind, is
:mod:`puzzlebench.transforms`).

A :class:`Transform` composes elementary symmetries and stores them as arrays.
Acting on a grid ``G`` (givens or a solution) it computes, in this order::

    H = G.T if transpose else G
    T[i, j] = H[row_perm[i], col_perm[j]]
    T = digit_map[T]            (value relabelling, blanks 0 stay 0)
    T = 1 - T where T >= 0      (Takuzu ``flip``; blanks -1 stay -1)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import PuzzleError

SYMMETRIES = ("digits", "rows", "cols", "bands", "stacks", "transpose")
"""The kinds of transform (``permute --kinds``): each a symmetry a puzzle may admit."""


@dataclass(frozen=True, eq=False)
class Transform:
    """A composition of the elementary symmetries (see the module docstring).

    ``row_perm`` / ``col_perm`` index the rows / columns of the (possibly
    transposed) original, so their lengths are the transformed shape.
    ``digit_map[v]`` is the new value of digit ``v`` (``digit_map[0] == 0``), or
    None to keep the values.  ``copy_id`` numbers the copy in the new name.
    """

    row_perm: np.ndarray
    col_perm: np.ndarray
    transpose: bool = False
    digit_map: np.ndarray | None = None
    flip: bool = False
    copy_id: int = 0

    @property
    def shape(self) -> tuple[int, int]:
        """The shape of a transformed grid."""
        return len(self.row_perm), len(self.col_perm)

    @property
    def source_shape(self) -> tuple[int, int]:
        """The shape of an original grid."""
        return self.shape[::-1] if self.transpose else self.shape

    @property
    def signature(self) -> tuple:
        """A hashable value equal for equal transforms (whatever ``copy_id``)."""
        digits = None if self.digit_map is None else tuple(self.digit_map.tolist())
        return (tuple(self.row_perm.tolist()), tuple(self.col_perm.tolist()), self.transpose, digits, self.flip)

    @property
    def is_identity(self) -> bool:
        rows, cols = self.shape
        return (not self.transpose and not self.flip
                and np.array_equal(self.row_perm, np.arange(rows))
                and np.array_equal(self.col_perm, np.arange(cols))
                and (self.digit_map is None or np.array_equal(self.digit_map, np.arange(len(self.digit_map)))))

    def map_cells(self, cells) -> np.ndarray:
        """Where original cells ``(row, col)`` (shape (k, 2)) land in the transformed grid."""
        cells = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
        if self.transpose:
            cells = cells[:, ::-1]
        return np.stack([np.argsort(self.row_perm)[cells[:, 0]], np.argsort(self.col_perm)[cells[:, 1]]], axis=1)

    def map_solution(self, grid) -> np.ndarray:
        """A grid of the original puzzle (its solution, or its givens) -> the same grid of the transformed one."""
        grid = self._checked(grid, self.source_shape)
        moved = self.move(grid)
        if self.digit_map is not None:
            moved = self.digit_map[moved]
        if self.flip:
            moved = np.where(moved >= 0, 1 - moved, moved)
        return moved

    def unmap_solution(self, grid) -> np.ndarray:
        """A solution of the transformed puzzle -> the solution of the original puzzle."""
        grid = self._checked(grid, self.shape)
        if self.flip:
            grid = np.where(grid >= 0, 1 - grid, grid)
        if self.digit_map is not None:
            grid = np.argsort(self.digit_map)[grid]
        moved = grid[np.ix_(np.argsort(self.row_perm), np.argsort(self.col_perm))]
        return moved.T if self.transpose else moved

    def move(self, grid: np.ndarray) -> np.ndarray:
        """Only the geometric part of :meth:`map_solution` (for masks and clue layers)."""
        return (grid.T if self.transpose else grid)[np.ix_(self.row_perm, self.col_perm)]

    def _checked(self, grid, shape: tuple[int, int]) -> np.ndarray:
        grid = np.asarray(grid, dtype=np.int64)
        if grid.shape != shape:
            raise PuzzleError(f"the grid is {' x '.join(map(str, grid.shape))}, expected {shape[0]} x {shape[1]}")
        if self.digit_map is not None and ((grid < 0) | (grid >= len(self.digit_map))).any():
            raise PuzzleError(f"the grid holds values outside 0..{len(self.digit_map) - 1}")
        if self.flip and ((grid < -1) | (grid > 1)).any():
            raise PuzzleError("the grid holds values other than -1, 0 and 1")
        return grid


def reflection(max_digit: int) -> np.ndarray:
    """The digit map k -> max_digit+1-k (0 stays 0)."""
    return np.r_[0, max_digit:0:-1]


def require_reflection(transform: Transform, puzzle, max_digit: int) -> None:
    """Refuse a digit map other than k -> max_digit+1-k for a puzzle with sums (Killer, Kakuro)."""
    if transform.digit_map is not None and not np.array_equal(transform.digit_map, reflection(max_digit)):
        raise PuzzleError(f"a {puzzle.puzzle} admits only the digit map k -> {max_digit + 1}-k, "
                          "which maps sums to sums")


def blocked_perm(rng: np.random.Generator, blocks: int, size: int, shuffle_blocks: bool,
                  shuffle_within: bool) -> np.ndarray:
    """A permutation of ``blocks * size`` lines that keeps each block of ``size`` together."""
    order = rng.permutation(blocks) if shuffle_blocks else np.arange(blocks)
    within = np.tile(np.arange(size), (blocks, 1))
    if shuffle_within:
        within = rng.permuted(within, axis=1)
    return (order[:, None] * size + within).ravel()


def reversal(rng: np.random.Generator, length: int, allowed: bool) -> np.ndarray:
    """The identity or, with probability 1/2 when ``allowed``, the reversal of ``length`` lines."""
    line = np.arange(length)
    return line[::-1].copy() if allowed and rng.random() < 0.5 else line
