"""Killer cages from a region index grid, in the canonical order of :mod:`puzzlebench.toolkit.regions`:
ordered by their first cell (row-major) with their cells row-major, whatever the file's labels, so writers
name cages in the order readers build them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...errors import PuzzleError
from ...toolkit.regions import connected
from ..sudoku.puzzle import sudoku_units
from .puzzle import Cage, KillerSudoku


def cages_from_index(index: np.ndarray, totals: Sequence[int]) -> tuple[Cage, ...]:
    """Cages from a region index grid (regions numbered 0..k-1) and each region's total."""
    cells: list[list[tuple[int, int]]] = [[] for _ in totals]
    for r, c in np.ndindex(*index.shape):
        cells[index[r, c]].append((r, c))
    return tuple(Cage(tuple(cs), int(t)) for cs, t in zip(cells, totals))


def canonical_index(puzzle: KillerSudoku) -> np.ndarray:
    """The puzzle's cage index renumbered by first appearance (row-major)."""
    first = {}
    for k in puzzle.cage_index.ravel().tolist():
        first.setdefault(k, len(first))
    return np.vectorize(first.__getitem__, otypes=[np.int64])(puzzle.cage_index)


def complete_cages(n: int, box: tuple[int, int], cages: Sequence[Cage]) -> tuple[Cage, ...]:
    """``cages`` plus, for the cells in no cage, the cages the Sudoku rules imply (the 45 rule).

    Some layouts (f-puzzles) leave cells out of every cage; puzzlebench's Killer covers each
    cell with one cage.  When every cage meeting a row, column or box lies inside it, that
    unit's uncaged cells hold the digits its cages do not: one cage of distinct digits
    summing to N(N+1)/2 minus the cages' sums, a constraint the Sudoku rules already impose,
    so the puzzle keeps its solutions.  Cells left over (or a connected-ness the native layout
    cannot state) are a PuzzleError.
    """
    box_of = sudoku_units(n, *box)
    owner = np.full(n * n, -1, dtype=np.int64)
    for k, cage in enumerate(cages):
        for r, c in cage.cells:
            if 0 <= r < n and 0 <= c < n:
                owner[r * n + c] = k
    cages = list(cages)
    full = n * (n + 1) // 2
    changed = True
    while (owner < 0).any() and changed:
        changed = False
        for unit in box_of:
            members = set(unit.tolist())
            free = sorted(i for i in members if owner[i] < 0)
            inside = {int(owner[i]) for i in members if owner[i] >= 0}
            if not free or any(not all(r * n + c in members for r, c in cages[k].cells) for k in inside):
                continue
            cells = tuple((i // n, i % n) for i in free)
            if not connected(cells):
                continue
            owner[free] = len(cages)
            cages.append(Cage(cells, full - sum(cages[k].total for k in inside)))
            changed = True
    if (owner < 0).any():
        missing = [f"({i // n + 1}, {i % n + 1})" for i in np.flatnonzero(owner < 0)[:4]]
        raise PuzzleError(f"cell{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                          f"{'are' if len(missing) > 1 else 'is'} in no cage, and no row, column or box whose "
                          "other cells are all in cages inside it gives them a sum: a Killer here covers "
                          "every cell with a cage")
    return tuple(cages)
