"""Killer cages as regions of a label grid, in one canonical order.

Every reader builds cages through :func:`cages_from_labels`, so cages come out
ordered by their first cell (row-major) with their cells row-major, whatever
the file's labels; writers name cages in that same order.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..errors import PuzzleError
from ..kinds.killer.puzzle import Cage

if TYPE_CHECKING:
    from ..kinds.killer.puzzle import KillerSudoku

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def label_regions(labels: Sequence[Sequence[Hashable]]) -> tuple[np.ndarray, list[Hashable]]:
    """Number the regions of a label grid by first appearance (row-major).

    Returns the region index grid and the label of each region.  A label whose
    cells are not orthogonally connected is a PuzzleError naming the row where
    its second piece starts (two cages sharing a label, usually a typo).
    """
    rows, cols = len(labels), len(labels[0])
    index = np.full((rows, cols), -1, dtype=np.int64)
    order: list[Hashable] = []
    first_row: dict[Hashable, int] = {}
    for r in range(rows):
        for c in range(cols):
            if index[r, c] >= 0:
                continue
            label = labels[r][c]
            if label in first_row:
                raise PuzzleError(f"cage {label} covers two separate regions (rows {first_row[label] + 1} "
                                  f"and {r + 1}): give each cage its own label", row=r)
            first_row[label] = r
            index[r, c] = len(order)
            stack = [(r, c)]
            while stack:
                y, x = stack.pop()
                for yy, xx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                    if 0 <= yy < rows and 0 <= xx < cols and index[yy, xx] < 0 and labels[yy][xx] == label:
                        index[yy, xx] = len(order)
                        stack.append((yy, xx))
            order.append(label)
    return index, order


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


def cage_labels(count: int) -> list[str]:
    """Short labels for ``count`` cages: letters while they last, else numbers 1..count."""
    if count <= len(_LETTERS):
        return list(_LETTERS[:count])
    return [str(k + 1) for k in range(count)]


def complete_cages(n: int, box: tuple[int, int], cages: Sequence[Cage]) -> tuple[Cage, ...]:
    """``cages`` plus, for the cells in no cage, the cages the Sudoku rules imply (the 45 rule).

    Some layouts (f-puzzles) leave cells out of every cage; puzzlebench's Killer covers each
    cell with one cage.  When every cage meeting a row, column or box lies inside it, that
    unit's uncaged cells hold the digits its cages do not: one cage of distinct digits
    summing to N(N+1)/2 minus the cages' sums, a constraint the Sudoku rules already impose,
    so the puzzle keeps its solutions.  Cells left over (or a connected-ness the native layout
    cannot state) are a PuzzleError.
    """
    from ..kinds.sudoku.puzzle import sudoku_units
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


def connected(cells) -> bool:
    """Are the cells orthogonally connected?"""
    cells = list(cells)
    todo, seen = [cells[0]], {cells[0]}
    members = set(cells)
    while todo:
        r, c = todo.pop()
        for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if near in members and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(members)
