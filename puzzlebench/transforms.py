"""Symmetry transforms: equivalent copies of a puzzle whose solutions map back.

A :class:`~puzzlebench.toolkit.symmetry.Transform` composes elementary symmetries (see its module).

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

import numpy as np

from .errors import PuzzleError
from .kinds import kind_of
from .toolkit.symmetry import SYMMETRIES, Transform


def supported_kinds(puzzle) -> tuple[str, ...]:
    """The kinds of :data:`SYMMETRIES` that change something for ``puzzle`` (its puzzle kind's ``symmetries``)."""
    return kind_of(puzzle).symmetries(puzzle)


def apply_transform(transform: Transform, puzzle):
    """The transformed puzzle, through its kind: same type, name suffixed ``~p<copy_id>``."""
    if puzzle.shape != transform.source_shape:
        raise PuzzleError(f"a transform of a {transform.source_shape[0]} x {transform.source_shape[1]} grid "
                          f"cannot act on a {puzzle.shape[0]} x {puzzle.shape[1]} puzzle")
    return kind_of(puzzle).apply_transform(transform, puzzle, f"{puzzle.name}~p{transform.copy_id}")


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
        yield transform.copy_id, transform, apply_transform(transform, puzzle)
        if len(seen) == count:
            return
    raise PuzzleError(f"this {puzzle.puzzle} has only {len(seen)} distinct non-identity transforms of kinds "
                      f"{', '.join(kinds)}; asked for {count}")
