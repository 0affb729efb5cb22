"""Symmetry transforms: equivalent copies of a puzzle whose solutions map back.

A :class:`Transform` composes elementary symmetries and stores them as arrays.
Acting on a grid ``G`` (givens or a solution) it computes, in this order::

    H = G.T if transpose else G
    T[i, j] = H[row_perm[i], col_perm[j]]
    T = digit_map[T]            (value relabelling, blanks 0 stay 0)
    T = 1 - T where T >= 0      (Takuzu ``flip``; blanks -1 stay -1)

The symmetries each puzzle admits (the ``kinds`` of :func:`random_transform`):

========== ================================= ============================ ===================
kind       Sudoku                            Killer (Killer-X)            Kakuro / Takuzu
========== ================================= ============================ ===================
digits     any relabelling of 1..N           k -> N+1-k; a cage sum V of  Kakuro: k -> 10-k,
                                             s cells becomes s(N+1)-V     run V -> 10*len-V;
                                                                          Takuzu: 0 <-> 1
rows       rows within each band             as Sudoku (Killer-X:         Takuzu: reverse the
                                             reverse the row order)       row order
cols       columns within each stack         as Sudoku (Killer-X:         Takuzu: reverse the
                                             reverse the column order)    column order
bands      bands (br rows each) among bands  as Sudoku (Killer-X: none)   none
stacks     stacks (bc columns) among stacks  as Sudoku (Killer-X: none)   none
transpose  only when br == bc                as Sudoku (Killer-X too)     always (Kakuro swaps
                                                                          across/down clues)
========== ================================= ============================ ===================

Killer-X keeps to the symmetries of the square (the reversals and the
transposition), which map the two diagonals onto the two diagonals: reversing
the row order alone swaps the main and the anti-diagonal, which is harmless as
both must hold 1..N.  Takuzu admits no other row or column moves, as a general
permutation breaks the no-three-adjacent rule; the reversals and the
transposition also keep rows (columns) distinct when ``distinct_lines`` is set.
Kakuro clues sit left of and above their runs, so only the transposition
moves cells.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from .errors import PuzzleError
from .kinds import kind_of

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

    def apply(self, puzzle):
        """The transformed puzzle: same type, name suffixed ``~p<copy_id>``."""
        if puzzle.shape != self.source_shape:
            raise PuzzleError(f"a transform of a {self.source_shape[0]} x {self.source_shape[1]} grid "
                              f"cannot act on a {puzzle.shape[0]} x {puzzle.shape[1]} puzzle")
        return kind_of(puzzle).apply_transform(self, puzzle, f"{puzzle.name}~p{self.copy_id}")

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


def supported_kinds(puzzle) -> tuple[str, ...]:
    """The kinds of :data:`SYMMETRIES` that change something for ``puzzle`` (its puzzle kind's ``symmetries``)."""
    return kind_of(puzzle).symmetries(puzzle)


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


def random_transform(puzzle, rng: np.random.Generator, kinds=SYMMETRIES) -> Transform:
    """A random symmetry of ``puzzle`` drawn from the elementary ``kinds``.

    Kinds the puzzle does not admit are skipped (see :func:`supported_kinds`);
    an unknown kind, or a list none of whose kinds applies, is a PuzzleError.
    """
    unknown = sorted(set(kinds) - set(SYMMETRIES))
    if unknown:
        raise PuzzleError(f"unknown transform kind {unknown[0]!r}; choose from {', '.join(SYMMETRIES)}")
    use = set(kinds) & set(supported_kinds(puzzle))
    if not use:
        raise PuzzleError(f"none of the kinds {', '.join(kinds)} applies to this {puzzle.puzzle}; "
                          f"it admits {', '.join(supported_kinds(puzzle))}")
    transpose = "transpose" in use and bool(rng.random() < 0.5)
    return kind_of(puzzle).random_transform(puzzle, rng, use, transpose)


MAX_COPIES = 10_000
"""The most symmetry copies of one puzzle a command makes (as the config's ``permutations``)."""


def transform_count(puzzle, kinds=SYMMETRIES) -> int:
    """How many distinct transforms :func:`random_transform` can draw for ``puzzle`` from ``kinds``
    (the identity included): the product of the choices each kind makes independently, e.g. a
    Sudoku of N = br x bc with every kind: N! digit maps x (br!)^(N/br) row orders within bands x
    (bc!)^(N/bc) column orders within stacks x (N/br)! band orders x (N/bc)! stack orders x 2
    (transposed or not, when br = bc)."""
    use = set(kinds) & set(supported_kinds(puzzle))
    return kind_of(puzzle).transform_count(puzzle, use)


def check_copies(puzzle, count: int, kinds=SYMMETRIES) -> None:
    """PuzzleError unless ``puzzle`` has ``count`` distinct non-identity transforms of ``kinds``
    (and the kinds apply to it): refused before any copy is made, instead of drawing repeats for ever."""
    if count < 1:
        raise PuzzleError(f"the number of copies must be at least 1, got {count}")
    random_transform(puzzle, np.random.default_rng(0), kinds)  # unknown or inapplicable kinds: its error
    available = transform_count(puzzle, kinds) - 1
    if count > available:
        raise PuzzleError(f"this {puzzle.puzzle} has only {available} distinct non-identity transform(s) of "
                          f"kinds {', '.join(kinds)}; asked for {count}")


def permuted_copies(puzzle, count: int, seed: int, kinds=SYMMETRIES) -> list[tuple[int, Transform, object]]:
    """``count`` distinct non-identity transforms of ``puzzle`` and the copies they make.

    Returns ``(id, transform, copy)`` with ids 1..count; the same ``seed`` gives
    the same copies.  Asking for more copies than the puzzle's symmetry group
    (for the chosen kinds) holds is a PuzzleError, never silent repetition.
    """
    return list(iter_permuted_copies(puzzle, count, seed, kinds))


def iter_permuted_copies(puzzle, count: int, seed: int, kinds=SYMMETRIES) -> Iterator[tuple[int, Transform, object]]:
    """:func:`permuted_copies` one at a time, each made when asked for (only the transforms'
    signatures are kept, to keep the copies distinct); asking for more copies than
    :func:`transform_count` allows is a PuzzleError before the first copy."""
    check_copies(puzzle, count, kinds)
    rng = np.random.default_rng(seed)
    seen: set[tuple] = set()
    for _ in range(200 * count + 1000):
        transform = random_transform(puzzle, rng, kinds)
        if transform.is_identity or transform.signature in seen:
            continue
        seen.add(transform.signature)
        transform = dataclasses.replace(transform, copy_id=len(seen))
        yield transform.copy_id, transform, transform.apply(puzzle)
        if len(seen) == count:
            return
    raise PuzzleError(f"this {puzzle.puzzle} has only {len(seen)} distinct non-identity transforms of kinds "
                      f"{', '.join(kinds)}; asked for {count}")
