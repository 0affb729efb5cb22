"""Domain reduction for Takuzu by propagation to a fixpoint, before any model is built.

The state is ``cand[i, j, v]`` (R x C x 2, boolean): value v is still possible in
cell (i,j).  On every row and every column (a line of P cells), with "a cell is
v" meaning its only candidate is v, repeated until nothing changes:

- pair: cells j and j+1 are both v  =>  v is removed from cells j-1 and j+2;
- gap: cells j and j+2 are both v  =>  v is removed from cell j+1;
- count: P/2 cells of the line are v  =>  v is removed from the line's other
  cells (more than P/2 removes it from all, leaving an empty cell).

Every rule keeps every solution, so an empty cell proves the puzzle infeasible;
with distinct lines, two equal complete rows (or columns) do too.  The rules are
vectorized over all lines of both orientations with shifted boolean arrays.
"""

from __future__ import annotations

import numpy as np


def propagate_takuzu(givens: np.ndarray, distinct_lines: bool) -> tuple[np.ndarray, bool]:
    """The candidates at the fixpoint of the module docstring's rules, and whether they are consistent.

    ``givens`` holds -1 for a blank, else the cell's value.
    """
    givens = np.asarray(givens)
    cand = np.stack([givens != 1, givens != 0], axis=-1)
    while True:
        before = int(cand.sum())
        for lines in (cand, cand.transpose(1, 0, 2)):
            lines &= ~_line_removals(lines)
        if int(cand.sum()) == before or not cand.any(axis=2).all():
            break
    return cand, _consistent(cand, distinct_lines)


def _line_removals(lines: np.ndarray) -> np.ndarray:
    """The candidates the pair, gap and count rules remove from ``lines`` (L x P x 2)."""
    fixed = lines & ~lines[..., ::-1]
    remove = np.zeros_like(lines)
    pair = fixed[:, :-1] & fixed[:, 1:]
    remove[:, :-2] |= pair[:, 1:]
    remove[:, 2:] |= pair[:, :-1]
    remove[:, 1:-1] |= fixed[:, :-2] & fixed[:, 2:]
    count = fixed.sum(axis=1)[:, None, :]
    half = lines.shape[1] // 2
    remove |= ((count >= half) & ~fixed) | (count > half)
    return remove


def _consistent(cand: np.ndarray, distinct_lines: bool) -> bool:
    if not cand.any(axis=2).all():
        return False
    if not distinct_lines:
        return True
    values = np.where(cand.sum(axis=2) == 1, cand.argmax(axis=2), -1)
    for lines in (values, values.T):
        full = lines[(lines >= 0).all(axis=1)]
        if len(np.unique(full, axis=0)) < len(full):
            return False
    return True
