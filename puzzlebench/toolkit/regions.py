"""Cages as regions of a label grid, in one canonical order: regions numbered by first appearance
(row-major), whatever the file's labels, and labels for writing them in that same order.

The Killer's cages are built from such an index by :mod:`puzzlebench.kinds.killer.cages`, the KenKen's by its
own readers.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from ..errors import PuzzleError

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


def cage_labels(count: int) -> list[str]:
    """Short labels for ``count`` cages: letters while they last, else numbers 1..count."""
    if count <= len(_LETTERS):
        return list(_LETTERS[:count])
    return [str(k + 1) for k in range(count)]


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
