"""Building blocks shared by the Sudoku and Killer formulations.

Conventions: a cell is its flat row-major index ``c = N*i + j``; digit ``k`` runs
over 1..N.  The assignment variable x[c,k] is column ``N*c + (k-1)`` of the
assignment block, so ``x.reshape(N*N, N)`` is the cell-by-digit table.  A *unit*
is a set of N cells that must hold 1..N once each (row, column, box, and the two
diagonals of Killer-X); units come from ``puzzle.units()``.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
import scipy.sparse as sp

from puzzlebench.model import INF, Model, Rows, rows_from_triplets


def model_name(puzzle, formulation: str) -> str:
    return f"{puzzle.puzzle}/{formulation}/{puzzle.name}"


def digit_weights(n: int) -> np.ndarray:
    """Coefficient k of every x[c,k]: the objective sum k*x and the value sum_k k*x[c,k]."""
    return np.tile(np.arange(1, n + 1, dtype=float), n * n)


def assignment_rows(units: np.ndarray, n: int, ncols: int) -> Rows:
    """sum_k x[c,k] = 1 for every cell c, then sum_{c in u} x[c,k] = 1 for every unit u and digit k."""
    cells = n * n
    digits = np.arange(n)
    if (np.diff(units, axis=1) > 0).all():  # cells ascending in every unit (as puzzle.units() lists them)
        # Every row has n entries, so the CSR arrays can be written down directly: no COO
        # triplets to sort, and a few arrays instead of a dozen (at 25x25 the temporaries'
        # fresh memory pages cost more than the arithmetic).
        index = np.int32 if ncols < np.iinfo(np.int32).max else np.int64
        indices = np.concatenate([np.arange(cells * n, dtype=index),
                                  (units[:, None, :] * n + digits[None, :, None]).astype(index).ravel()])
        nrows = cells + len(units) * n
        A = sp.csr_matrix((np.ones(len(indices)), indices, np.arange(0, len(indices) + 1, n, dtype=index)),
                          shape=(nrows, ncols))
        A.has_canonical_format = True
        return Rows(A, np.ones(nrows), np.ones(nrows))
    cell_row = np.repeat(np.arange(cells), n)
    cell_col = np.arange(cells * n)
    unit_row = cells + (np.arange(len(units))[:, None, None] * n + digits[None, None, :])
    unit_col = units[:, :, None] * n + digits[None, None, :]
    row = np.concatenate([cell_row, np.broadcast_to(unit_row, unit_col.shape).ravel()])
    col = np.concatenate([cell_col, unit_col.ravel()])
    return rows_from_triplets(row, col, 1.0, cells + len(units) * n, ncols, 1.0, 1.0)


def assignment_bounds(givens: np.ndarray, ncols: int) -> tuple[np.ndarray, np.ndarray]:
    """Column bounds 0 <= x <= 1 with x[c, g_c] >= 1 for every given cell (the first N^3 columns)."""
    n = givens.shape[0]
    lower, upper = np.zeros(ncols), np.ones(ncols)
    given = np.flatnonzero(givens.ravel())
    lower[given * n + givens.ravel()[given] - 1] = 1.0
    return lower, upper


def assignment_decoder(n: int) -> Callable[[np.ndarray], np.ndarray]:
    """Grid from the first N^3 columns: cell c holds the digit k with the largest x[c,k]."""
    def decode(x: np.ndarray) -> np.ndarray:
        return np.asarray(x[: n ** 3]).reshape(n * n, n).argmax(axis=1).reshape(n, n) + 1
    return decode


def integer_decoder(n: int, start: int = 0) -> Callable[[np.ndarray], np.ndarray]:
    """Grid from the N^2 cell-value columns y beginning at ``start``."""
    def decode(x: np.ndarray) -> np.ndarray:
        return np.rint(np.asarray(x[start: start + n * n])).astype(np.int64).reshape(n, n)
    return decode


def conflict_pairs(blocks: list[np.ndarray], givens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every pair a < b of cells that share a group, once, except pairs of two givens.

    ``blocks`` is a list of 2-D arrays, each a stack of equal-size groups of cells.
    """
    ncells = givens.size
    keys = []
    for groups in blocks:
        i, j = np.triu_indices(groups.shape[1], 1)
        a, b = groups[:, i].ravel(), groups[:, j].ravel()
        keys.append(np.minimum(a, b) * ncells + np.maximum(a, b))
    keys = np.unique(np.concatenate(keys))
    a, b = keys // ncells, keys % ncells
    given = givens.ravel() > 0
    keep = ~(given[a] & given[b])
    return a[keep], b[keep]


def pairwise_all_different(a: np.ndarray, b: np.ndarray, n: int, y_start: int, o_start: int,
                           ncols: int) -> Rows:
    """The big-M disjunction y_a != y_b for each pair p = (a, b), with order binary o_p:

        y_a - y_b + N*o_p >= 1        (o_p = 0: y_a > y_b)
        y_b - y_a - N*o_p >= 1 - N    (o_p = 1: y_b > y_a)

    y is the block of N^2 cell values at ``y_start``; o the block of pair binaries at ``o_start``.
    """
    pairs = len(a)
    p = np.arange(pairs)
    ya, yb, o = y_start + a, y_start + b, o_start + p
    row = np.concatenate([np.tile(2 * p, 3), np.tile(2 * p + 1, 3)])
    col = np.concatenate([ya, yb, o, ya, yb, o])
    val = np.repeat([1.0, -1.0, n, -1.0, 1.0, -n], pairs)
    lower = np.tile([1.0, 1.0 - n], pairs)
    return rows_from_triplets(row, col, val, 2 * pairs, ncols, lower, INF)


def integer_cell_bounds(givens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """1 <= y_c <= N, and y_c = g_c for a given cell."""
    n = givens.shape[0]
    flat = givens.ravel().astype(float)
    return np.where(flat > 0, flat, 1.0), np.where(flat > 0, flat, float(n))


def assignment_model(puzzle, name: str, objective: np.ndarray | None = None,
                     extra_rows: Sequence[Rows] = ()) -> Model:
    """The x[c,k] model over ``puzzle.units()`` plus ``extra_rows`` (over the same N^3 columns)."""
    n = puzzle.n
    ncols = n ** 3
    lower, upper = assignment_bounds(puzzle.givens, ncols)
    return Model.from_rows([assignment_rows(puzzle.units(), n, ncols), *extra_rows], col_lower=lower,
                           col_upper=upper, integrality=np.ones(ncols, bool), objective=objective,
                           decode=assignment_decoder(n), name=model_name(puzzle, name))


def integer_model(puzzle, name: str, groups: list[np.ndarray]) -> Model:
    """Columns y_c (N^2 cell values) then one order binary per pair of :func:`conflict_pairs`,
    with the rows of :func:`pairwise_all_different` and the unit sums
    sum_{c in u} y_c = N(N+1)/2 for every unit u of ``puzzle.units()``.

    The unit sums are implied by all-different over N cells with values in 1..N,
    so they remove no grid; they tighten the LP relaxation, without which CBC
    does not solve the seed Killer in 60 s (HiGHS needs 355 nodes; with them 0).
    """
    n = puzzle.n
    cells = n * n
    a, b = conflict_pairs(groups, puzzle.givens)
    ncols = cells + len(a)
    y_lower, y_upper = integer_cell_bounds(puzzle.givens)
    units = puzzle.units()
    full = n * (n + 1) / 2
    unit_sums = rows_from_triplets(np.repeat(np.arange(len(units)), n), units.ravel(), 1.0, len(units),
                                   ncols, full, full)
    return Model.from_rows([pairwise_all_different(a, b, n, 0, cells, ncols), unit_sums],
                           col_lower=np.concatenate([y_lower, np.zeros(len(a))]),
                           col_upper=np.concatenate([y_upper, np.ones(len(a))]),
                           integrality=np.ones(ncols, bool), decode=integer_decoder(n),
                           name=model_name(puzzle, name))
