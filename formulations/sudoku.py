"""Sudoku formulations: the binary assignment model and its variants, and integer cell values.

Notation for the docstrings: cells c = (i, j) of the N x N grid, digits k = 1..N,
U the units of ``puzzle.units()`` (N rows, N columns, N boxes), G the given
cells with digits g_c.  All models minimise their objective.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import scipy.sparse as sp

from puzzlebench.model import Model, rows_from_triplets
from puzzlebench.puzzles import Sudoku
from puzzlebench.registry import formulation

from ._candidate_model import candidate_model, with_cell_values
from ._propagate import MAX_SUBSET, given_candidates, propagate
from ._sudoku_common import (assignment_bounds, assignment_model, assignment_rows, digit_weights,
                             integer_decoder, integer_model, model_name)


@formulation("sudoku", "binary", description="""
    The classic assignment model: a binary x[c,k] per cell and digit, one digit per
    cell, each digit exactly once in every row, column and box, givens fixed by
    bounds and a zero objective (the model of the fjmartincampo.com 2025 post and
    of the MATLAB intlinprog example).""",
              constraints="""minimize 0
    s.t.  sum_k x[c,k] = 1                  for every cell c
          sum_{c in u} x[c,k] = 1           for every unit u in U and digit k
          x[c,g_c] >= 1 (column lower bound) for every given cell c in G
          x[c,k] in {0,1}
    """)
def binary(puzzle: Sudoku) -> Model:
    return assignment_model(puzzle, "binary")


@formulation("sudoku", "binary-symbreak", description="""
    The binary assignment model with the MATLAB example's objective sum k*x[c,k]
    instead of 0.  That objective is the sum of all digits in the grid, the same
    constant N^2(N+1)/2 at every feasible point, so it only changes how the solver
    searches, not which grids are optimal.""",
              constraints="""minimize sum_{c,k} k * x[c,k]      (= N^2 (N+1)/2 at every feasible point)
    s.t.  sum_k x[c,k] = 1                  for every cell c
          sum_{c in u} x[c,k] = 1           for every unit u in U and digit k
          x[c,g_c] >= 1 (column lower bound) for every given cell c in G
          x[c,k] in {0,1}
    """)
def binary_symbreak(puzzle: Sudoku) -> Model:
    return assignment_model(puzzle, "binary-symbreak", digit_weights(puzzle.n))


def candidate_digits(puzzle: Sudoku) -> tuple[np.ndarray, np.ndarray]:
    """Which digits are still open, as boolean tables.

    Returns ``(candidates, placed)``: ``candidates[c, k-1]`` says cell c is blank and
    no given in a unit of c is k; ``placed[u, k-1]`` says a given in unit u is k.
    """
    n = puzzle.n
    units = puzzle.units()
    flat = puzzle.givens.ravel()
    unit_ids = np.repeat(np.arange(len(units)), n)
    seen = np.zeros((len(units), n + 1), bool)  # column 0 collects the blanks
    seen[unit_ids, flat[units].ravel()] = True
    placed = seen[:, 1:]
    membership = sp.csr_matrix((np.ones(units.size), (units.ravel(), unit_ids)), shape=(n * n, len(units)))
    blocked = (membership @ placed.astype(float)) > 0
    return (flat == 0)[:, None] & ~blocked, placed


@formulation("sudoku", "binary-reduced", description="""
    The binary assignment model restricted to candidates: a cell with a given has
    no variables, and x[c,k] exists only if no given in a row, column or box of c
    is k.  A row for a unit-digit pair that a given already covers is dropped.  If
    a blank cell or an uncovered unit-digit pair has no candidate left, its row
    is kept empty (0 = 1), so every solver reports the model infeasible.""",
              constraints="""With K(c) = {k : c blank and no given in a unit of c equals k} (the candidates)
    and P = {(u,k) : no given in unit u equals k} (the unit-digit pairs left open),
    one binary x[c,k] per c and k in K(c):

    minimize 0
    s.t.  sum_{k in K(c)} x[c,k] = 1                 for every blank cell c
          sum_{c in u : k in K(c)} x[c,k] = 1        for every (u,k) in P
          x[c,k] in {0,1}
    A row whose sum is empty reads 0 = 1 and makes the model infeasible.  Given
    cells keep their digit in ``decode``.
    """)
def binary_reduced(puzzle: Sudoku) -> Model:
    n = puzzle.n
    units = puzzle.units()
    flat = puzzle.givens.ravel()
    candidates, placed = candidate_digits(puzzle)
    var_cell, var_digit = np.nonzero(candidates)
    nvar = len(var_cell)
    var_index = np.full(candidates.shape, -1)
    var_index[var_cell, var_digit] = np.arange(nvar)

    blank = np.flatnonzero(flat == 0)
    cell_rank = np.full(n * n, -1)
    cell_rank[blank] = np.arange(len(blank))
    open_unit, open_digit = np.nonzero(~placed)
    pair_rank = np.full(placed.shape, -1)
    pair_rank[open_unit, open_digit] = len(blank) + np.arange(len(open_unit))

    unit_vars = var_index[units[:, :, None], np.arange(n)[None, None, :]]  # (unit, position, digit)
    present = unit_vars >= 0
    unit_rows = np.broadcast_to(pair_rank[:, None, :], unit_vars.shape)[present]
    row = np.concatenate([cell_rank[var_cell], unit_rows])
    col = np.concatenate([np.arange(nvar), unit_vars[present]])
    rows = rows_from_triplets(row, col, 1.0, len(blank) + len(open_unit), nvar, 1.0, 1.0)

    def decode(x: np.ndarray) -> np.ndarray:
        grid = flat.copy()
        chosen = np.asarray(x) > 0.5
        grid[var_cell[chosen]] = var_digit[chosen] + 1
        return grid.reshape(n, n)

    return Model.from_rows([rows], col_lower=np.zeros(nvar), col_upper=np.ones(nvar),
                           integrality=np.ones(nvar, bool), decode=decode,
                           name=model_name(puzzle, "binary-reduced"))


@formulation("sudoku", "integer", description="""
    One integer y in 1..N per cell and, for every pair of cells sharing a row,
    column or box (each pair once), a binary order variable o with the big-M
    (M = N) disjunction y_a >= y_b + 1 or y_b >= y_a + 1, plus the implied unit
    sums sum y = N(N+1)/2.  Givens are fixed by bounds; pairs of two givens are
    left out, pairs with one given are kept.""",
              constraints="""With E = {(a,b) : a < b share a unit in U, not both in G}:

    minimize 0
    s.t.  y_a - y_b + N * o_ab >= 1          for every (a,b) in E
          y_b - y_a - N * o_ab >= 1 - N      for every (a,b) in E
          sum_{c in u} y_c = N(N+1)/2        for every unit u in U (implied; tightens the LP)
          1 <= y_c <= N, y_c integer;  y_c = g_c (bounds) for c in G
          o_ab in {0,1}
    o_ab = 0 forces y_a > y_b and o_ab = 1 forces y_b > y_a; since |y_a - y_b| <= N - 1,
    the relaxed side never binds.  Pairs with one given are kept as written, with
    the given's y a fixed column.
    """)
def integer(puzzle: Sudoku) -> Model:
    return integer_model(puzzle, "integer", [puzzle.units()])


@formulation("sudoku", "integer-linked", description="""
    The binary assignment model plus one integer y in 1..N per cell linked by
    y = sum_k k*x; the grid is read from y.  It measures what the extra integer
    layer costs or gains over the plain binary model.""",
              constraints="""Columns x[c,k] (N^3 binaries) then y_c (N^2 integers):

    minimize 0
    s.t.  sum_k x[c,k] = 1                  for every cell c
          sum_{c in u} x[c,k] = 1           for every unit u in U and digit k
          y_c - sum_k k * x[c,k] = 0        for every cell c
          x[c,g_c] >= 1 (column lower bound) for every given cell c in G
          x[c,k] in {0,1};  1 <= y_c <= N, y_c integer
    Givens are fixed on x only; the linking row carries them to y.
    """)
def integer_linked(puzzle: Sudoku) -> Model:
    n = puzzle.n
    cells = n * n
    ncols = n ** 3 + cells
    lower, upper = assignment_bounds(puzzle.givens, ncols)
    lower[n ** 3:], upper[n ** 3:] = 1.0, float(n)
    x = np.arange(n ** 3)
    link = rows_from_triplets(np.concatenate([x // n, np.arange(cells)]),
                              np.concatenate([x, n ** 3 + np.arange(cells)]),
                              np.concatenate([-digit_weights(n), np.ones(cells)]), cells, ncols, 0.0, 0.0)
    return Model.from_rows([assignment_rows(puzzle.units(), n, ncols), link], col_lower=lower,
                           col_upper=upper, integrality=np.ones(ncols, bool),
                           decode=integer_decoder(n, n ** 3), name=model_name(puzzle, "integer-linked"))


@formulation("sudoku", "propagated", description="""
    Propagation to a fixpoint before modelling (naked and hidden singles, locked
    candidates: box/line pointing and claiming), then the binary assignment model
    over the candidates left: cells propagation fixed are fixed columns, unit-digit
    rows a fixed cell covers are dropped.  Propagation is timed as part of the
    build; a puzzle it solves is flagged solved in preprocessing.""",
              constraints="""Propagation (formulations/_propagate.py) over the units U from the givens gives the
    candidates K(c) (F: the cells with |K(c)| = 1); with x[c,k] for k in K(c):

    minimize 0
    s.t.  sum_{k in K(c)} x[c,k] = 1                   for every cell c not in F
          sum_{c in u : k in K(c)} x[c,k] = 1          for every u in U and digit k held by no cell of u in F
          x[c,k] = 1 (bounds)                          for c in F, K(c) = {k}
          x[c,k] in {0,1}
    A contradiction found by propagation adds the row 0 = 1.
    """)
def propagated(puzzle: Sudoku) -> Model:
    reduction = propagate(given_candidates(puzzle.givens, puzzle.n), puzzle.units())
    return candidate_model(reduction, puzzle.units(), [], name=model_name(puzzle, "propagated"),
                           to_grid=lambda values: values.reshape(puzzle.shape))


@formulation("sudoku", "propagated-subsets", description="""
    The ``propagated`` model after stronger propagation: on top of singles and
    locked candidates, naked and hidden subsets (pairs, triples, quads) in every
    unit and fish (X-wing, swordfish, jellyfish) on rows and columns, to a
    fixpoint; then the binary assignment model over the candidates left.  The
    candidates each rule removed are in the model's presolve_info.""",
              constraints="""Propagation (formulations/_propagate.py, ``subsets=4`` with the grid's rows and
    columns for the fish) gives K(c) and F; the model is the one of ``propagated``:

    minimize 0
    s.t.  sum_{k in K(c)} x[c,k] = 1                   for every cell c not in F
          sum_{c in u : k in K(c)} x[c,k] = 1          for every u in U and digit k held by no cell of u in F
          x[c,k] = 1 (bounds)                          for c in F, K(c) = {k}
          x[c,k] in {0,1}
    A contradiction found by propagation adds the row 0 = 1.
    """)
def propagated_subsets(puzzle: Sudoku) -> Model:
    return subsets_model(puzzle, "propagated-subsets")[0]


def subsets_model(puzzle: Sudoku, name: str):
    """The ``propagated-subsets`` model named ``name`` and the propagation's Reduction."""
    grid = np.arange(puzzle.n * puzzle.n).reshape(puzzle.n, puzzle.n)
    reduction = propagate(given_candidates(puzzle.givens, puzzle.n), puzzle.units(), subsets=MAX_SUBSET,
                          grid=grid)
    model = candidate_model(reduction, puzzle.units(), [], name=model_name(puzzle, name),
                            to_grid=lambda values: values.reshape(puzzle.shape))
    model.presolve_info["removed"] = reduction.removed
    return model, reduction


@formulation("sudoku", "propagated-alldiff", description="""
    The ``propagated-subsets`` model plus one integer y per cell linked to its
    binaries by y = sum_k k*x, with every unit's y declared all-different.  The
    declaration is what the scip-alldiff configuration propagates (a matching per
    unit at every node) and what CP-SAT adds as AddAllDifferent; other MIP solvers
    solve the binary rows, with y as extra integer columns.""",
              constraints="""K(c), F and the rows of ``propagated-subsets``, then columns y_c (one per cell):

    minimize 0
    s.t.  the rows of propagated-subsets over x[c,k], k in K(c)
          y_c - sum_{k in K(c)} k * x[c,k] = 0          for every cell c
          min K(c) <= y_c <= max K(c), y_c integer
          all_different(y_c : c in u)                   for every unit u in U (declared, implied)
    """)
def propagated_alldiff(puzzle: Sudoku) -> Model:
    model, reduction = subsets_model(puzzle, "propagated-alldiff")
    return with_cell_values(model, reduction, puzzle.units())


@formulation("sudoku", "cp-natural", description="""
    The natural constraint-programming model: one integer y in 1..N per cell with
    every row, column and box declared all-different.  CP-SAT gets exactly that
    (AddAllDifferent per unit); MIP solvers, which ignore the declaration, get the
    ``integer`` model (pairwise big-M disjunctions and implied unit sums), so the
    model is correct on every solver.""",
              constraints="""The ``integer`` model (y_c in 1..N, order binaries o_ab, the big-M rows and the
    unit sums sum_{c in u} y_c = N(N+1)/2) with the declaration

          all_different(y_c : c in u)         for every unit u in U

    and every row marked as implied by it: CP-SAT solves y in 1..N with AddAllDifferent
    per unit (the o columns left out); MIP solvers solve the ``integer`` model.  The
    unit sums tighten the LP but slow CP-SAT down (25x25 Frisch #2: 7.6 s with
    them, 0.55 s without), so they are not part of CP-SAT's model.
    """)
def cp_natural(puzzle: Sudoku) -> Model:
    units = puzzle.units()
    model = integer_model(puzzle, "cp-natural", [units])
    return replace(model, all_different=list(units), all_different_rows=np.arange(model.num_rows))
