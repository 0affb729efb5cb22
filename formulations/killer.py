"""Killer Sudoku formulations: the Sudoku rows plus the cage rule, as sums, as digit sets, or on integers.

Notation for the docstrings: as in :mod:`.sudoku` (cells c, digits k = 1..N,
x[c,k], givens G), with U = ``puzzle.units()`` (rows, columns, boxes, and both
diagonals for Killer-X) and cages C with totals V_C.  The cage rule is: the
digits of C are distinct and sum to V_C.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from puzzlebench.model import INF, Model, Rows, rows_from_triplets
from puzzlebench.puzzles import KillerSudoku
from puzzlebench.registry import formulation

from ._candidate_model import candidate_model
from ._combinations import cage_combinations
from ._propagate import MAX_SUBSET, given_candidates, propagate
from ._sudoku_common import (assignment_bounds, assignment_decoder, assignment_model, assignment_rows,
                             digit_weights, integer_model, model_name)


def cage_cells(puzzle: KillerSudoku) -> list[np.ndarray]:
    """The flat cell indices of each cage."""
    return [np.array([r * puzzle.n + c for r, c in cage.cells]) for cage in puzzle.cages]


def cages_by_size(puzzle: KillerSudoku) -> list[np.ndarray]:
    """The cages' cells stacked by cage size: one (cages, size) array per size present."""
    cages = cage_cells(puzzle)
    sizes = np.array([len(cells) for cells in cages])
    return [np.array([cages[i] for i in np.flatnonzero(sizes == size)]) for size in np.unique(sizes)]


def admissible_sets(puzzle: KillerSudoku) -> list[np.ndarray]:
    """Per cage, the rows of :func:`cage_combinations` holding every digit given inside the cage."""
    flat = puzzle.givens.ravel()
    out = []
    for cells, cage in zip(cage_cells(puzzle), puzzle.cages):
        sets = cage_combinations(len(cells), cage.total, puzzle.n)
        given = flat[cells][flat[cells] > 0]
        out.append(sets[sets[:, given - 1].all(axis=1)])
    return out


def cage_rows(puzzle: KillerSudoku) -> list[Rows]:
    """Over the N^3 x columns: sum_{c in C} sum_k k x[c,k] = V_C, then sum_{c in C} x[c,k] <= 1."""
    n = puzzle.n
    ncols = n ** 3
    x = np.arange(ncols)
    cage, digit = puzzle.cage_index.ravel()[x // n], x % n
    ncages, totals = len(puzzle.cages), puzzle.cage_sums.astype(float)
    return [rows_from_triplets(cage, x, digit + 1.0, ncages, ncols, totals, totals),
            rows_from_triplets(cage * n + digit, x, 1.0, ncages * n, ncols, -INF, 1.0)]


@formulation("killer", "binary", description="""
    The binary Sudoku assignment model (rows, columns, boxes, and the diagonals for
    Killer-X) plus, per cage, the sum row sum k*x = total and one row per digit
    allowing it at most once in the cage (the seed model, after the
    fjmartincampo.com 2026 Killer post).  Givens, if any, are fixed by bounds; objective 0.""",
              constraints="""minimize 0
    s.t.  sum_k x[c,k] = 1                       for every cell c
          sum_{c in u} x[c,k] = 1                for every unit u in U and digit k
          sum_{c in C} sum_k k * x[c,k] = V_C    for every cage C
          sum_{c in C} x[c,k] <= 1               for every cage C and digit k
          x[c,g_c] >= 1 (column lower bound)     for every given cell c in G
          x[c,k] in {0,1}
    The at-most-once rows are not implied by the others: a cage that spans two
    boxes can hold one digit twice in cells that share no row, column or box and
    still meet its sum (4x4, 1-based: cage {(2,2),(2,3),(3,3)} with total 9 = 2+3+4
    is also met by 4+1+4 in a valid Sudoku grid).  Without them the model accepts grids
    that break the cage rule; tests/test_formulations_killer.py shows one.
    """)
def binary(puzzle: KillerSudoku) -> Model:
    return assignment_model(puzzle, "binary", extra_rows=cage_rows(puzzle))


@formulation("killer", "binary-symbreak", description="""
    The Killer binary model with objective sum k*x[c,k], the sum of all digits,
    which is the constant N^2(N+1)/2 at every feasible point.""",
              constraints="""minimize sum_{c,k} k * x[c,k]             (= N^2 (N+1)/2 at every feasible point)
    s.t.  sum_k x[c,k] = 1                       for every cell c
          sum_{c in u} x[c,k] = 1                for every unit u in U and digit k
          sum_{c in C} sum_k k * x[c,k] = V_C    for every cage C
          sum_{c in C} x[c,k] <= 1               for every cage C and digit k
          x[c,g_c] >= 1 (column lower bound)     for every given cell c in G
          x[c,k] in {0,1}
    """)
def binary_symbreak(puzzle: KillerSudoku) -> Model:
    return assignment_model(puzzle, "binary-symbreak", digit_weights(puzzle.n), cage_rows(puzzle))


@formulation("killer", "combinations", description="""
    The binary Sudoku assignment model plus, per cage, one binary per digit set that
    can fill it (distinct digits with the right total that contain the cage's
    givens), exactly one set chosen, and each digit used in the cage exactly as
    often (0 or 1) as the chosen set holds it.  Distinctness and the sum follow
    from the set, so no sum row is written.""",
              constraints="""With S_C = the admissible digit sets of cage C (``cage_combinations`` of its size,
    total and N, keeping the sets that contain every digit given in C), binaries
    z[C,s] for s in S_C after the N^3 columns x:

    minimize 0
    s.t.  sum_k x[c,k] = 1                               for every cell c
          sum_{c in u} x[c,k] = 1                        for every unit u in U and digit k
          sum_{s in S_C} z[C,s] = 1                      for every cage C
          sum_{c in C} x[c,k] - sum_{s in S_C : k in s} z[C,s] = 0   for every cage C and digit k
          x[c,g_c] >= 1 (column lower bound)             for every given cell c in G
          x[c,k], z[C,s] in {0,1}
    The last rows make the digits of C exactly the chosen set, so they are
    distinct and sum to V_C; the sum row sum k*x = V_C is implied and left out.
    A cage with no admissible set gets the empty row 0 = 1 (infeasible).
    """)
def combinations(puzzle: KillerSudoku) -> Model:
    n = puzzle.n
    nx = n ** 3
    sets = admissible_sets(puzzle)
    counts = np.array([len(s) for s in sets])
    ncages, ncols = len(sets), nx + int(counts.sum())
    z = np.arange(nx, ncols)
    z_cage = np.repeat(np.arange(ncages), counts)
    pick_one = rows_from_triplets(z_cage, z, 1.0, ncages, ncols, 1.0, 1.0)

    x = np.arange(nx)
    x_cage = puzzle.cage_index.ravel()[x // n]
    set_index, set_digit = np.nonzero(np.vstack(sets))
    link = rows_from_triplets(np.concatenate([x_cage * n + x % n, z_cage[set_index] * n + set_digit]),
                              np.concatenate([x, nx + set_index]),
                              np.concatenate([np.ones(nx), -np.ones(len(set_index))]),
                              ncages * n, ncols, 0.0, 0.0)
    lower, upper = assignment_bounds(puzzle.givens, ncols)
    return Model.from_rows([assignment_rows(puzzle.units(), n, ncols), pick_one, link],
                           col_lower=lower, col_upper=upper, integrality=np.ones(ncols, bool),
                           decode=assignment_decoder(n), name=model_name(puzzle, "combinations"))


@formulation("killer", "integer", description="""
    One integer y in 1..N per cell; for every pair of cells sharing a row, column,
    box, diagonal (Killer-X) or cage, a binary order variable with the big-M
    (M = N) disjunction y_a >= y_b + 1 or y_b >= y_a + 1; the cage sums
    sum y = total; and the implied unit sums sum y = N(N+1)/2.  Givens are fixed by bounds.""",
              constraints="""With E = {(a,b) : a < b share a unit in U or a cage, not both in G}:

    minimize 0
    s.t.  y_a - y_b + N * o_ab >= 1          for every (a,b) in E
          y_b - y_a - N * o_ab >= 1 - N      for every (a,b) in E
          sum_{c in C} y_c = V_C             for every cage C
          sum_{c in u} y_c = N(N+1)/2        for every unit u in U (implied; tightens the LP)
          1 <= y_c <= N, y_c integer;  y_c = g_c (bounds) for c in G
          o_ab in {0,1}
    Pairs with one given are kept as written, with the given's y a fixed column.
    """)
def integer(puzzle: KillerSudoku) -> Model:
    return integer_cage_model(puzzle, "integer")


def integer_cage_model(puzzle: KillerSudoku, name: str) -> Model:
    """The model of :func:`integer`, named ``name``."""
    model = integer_model(puzzle, name, [puzzle.units(), *cages_by_size(puzzle)])
    cells = np.arange(puzzle.n ** 2)
    totals = puzzle.cage_sums.astype(float)
    return model.with_rows(rows_from_triplets(puzzle.cage_index.ravel(), cells, 1.0, len(totals),
                                              model.num_cols, totals, totals))


@formulation("killer", "propagated", description="""
    Propagation to a fixpoint before modelling (naked and hidden singles, locked
    candidates over units and cages, and generalised arc consistency on every cage:
    a digit stays in a cell only if some distinct assignment of the cage's
    candidates with that digit there meets the total), then the binary assignment
    model over the candidates left plus the combinations model's digit-set binaries
    over each cage's admissible sets.  Propagation is timed as part of the build;
    a puzzle it solves is flagged solved in preprocessing.""",
              constraints="""Propagation (formulations/_propagate.py) over the units U and the cages C with
    their totals gives the candidates K(c) (F: the cells with |K(c)| = 1) and, per cage,
    the admissible digit sets S_C (sets of |C| distinct digits summing to V_C that
    some assignment of candidates realises).  With x[c,k] for k in K(c) and z[C,s]
    for s in S_C, for the cages not inside F:

    minimize 0
    s.t.  sum_{k in K(c)} x[c,k] = 1                         for every cell c not in F
          sum_{c in u : k in K(c)} x[c,k] = 1                for every u in U and digit k held by no cell of u in F
          sum_{s in S_C} z[C,s] = 1                          for every cage C not inside F
          sum_{c in C : k in K(c)} x[c,k] - sum_{s in S_C : k in s} z[C,s] = 0
                                                             for those C and every digit k in some K(c) or s
          x[c,k] = 1 (bounds)                                for c in F, K(c) = {k}
          x, z binary
    The link rows make the cage's digits the chosen set: distinct, summing to V_C.
    A contradiction found by propagation adds the row 0 = 1.
    """)
def propagated(puzzle: KillerSudoku) -> Model:
    return propagated_model(puzzle, "propagated", subsets=1)


def propagated_model(puzzle: KillerSudoku, name: str, subsets: int) -> Model:
    """The ``propagated`` model after propagation with subset rules up to ``subsets`` (1: none)."""
    units, cages = puzzle.units(), cage_cells(puzzle)
    grid = np.arange(puzzle.n * puzzle.n).reshape(puzzle.n, puzzle.n) if subsets > 1 else None
    reduction = propagate(given_candidates(puzzle.givens, puzzle.n), units, cages, puzzle.cage_sums,
                          subsets=subsets, grid=grid)
    model = candidate_model(reduction, units, cages, name=model_name(puzzle, name),
                            to_grid=lambda values: values.reshape(puzzle.shape))
    model.presolve_info["removed"] = reduction.removed
    return model


@formulation("killer", "propagated-subsets", description="""
    The ``propagated`` model after stronger propagation: naked subsets (pairs to
    quads) in every unit and cage, hidden subsets in every unit and fish (X-wing
    to jellyfish) on rows and columns, on top of singles, locked candidates and
    the cages' digit-set filtering; the candidates each rule removed are in the
    model's presolve_info.""",
              constraints="""Propagation (formulations/_propagate.py, ``subsets=4``, the grid's rows and columns for
    the fish) gives K(c), F and S_C; the model is the one of ``propagated``:

    minimize 0
    s.t.  sum_{k in K(c)} x[c,k] = 1                         for every cell c not in F
          sum_{c in u : k in K(c)} x[c,k] = 1                for every u in U and digit k held by no cell of u in F
          sum_{s in S_C} z[C,s] = 1                          for every cage C not inside F
          sum_{c in C : k in K(c)} x[c,k] - sum_{s in S_C : k in s} z[C,s] = 0
                                                             for those C and every digit k in some K(c) or s
          x[c,k] = 1 (bounds)                                for c in F, K(c) = {k}
          x, z binary
    """)
def propagated_subsets(puzzle: KillerSudoku) -> Model:
    return propagated_model(puzzle, "propagated-subsets", subsets=MAX_SUBSET)


@formulation("killer", "cp-natural", description="""
    The natural constraint-programming model: one integer y in 1..N per cell, every
    row, column, box (and diagonal for Killer-X) and every cage declared
    all-different, and the cage sums.  CP-SAT gets exactly that (AddAllDifferent
    per group); MIP solvers, which ignore the declaration, get the ``integer``
    model (pairwise big-M disjunctions and implied unit sums besides the cage sums).""",
              constraints="""The ``integer`` model (y_c in 1..N, order binaries o_ab with the big-M rows over
    units and cages, sum_{c in C} y_c = V_C, sum_{c in u} y_c = N(N+1)/2) with the declarations

          all_different(y_c : c in u)         for every unit u in U
          all_different(y_c : c in C)         for every cage C

    and the big-M rows and unit sums marked as implied by them: CP-SAT solves y, the
    cage sums and AddAllDifferent per group (the o columns left out); MIP solvers
    solve the ``integer`` model.
    """)
def cp_natural(puzzle: KillerSudoku) -> Model:
    model = integer_cage_model(puzzle, "cp-natural")
    pairs = model.num_cols - puzzle.n ** 2
    return replace(model, all_different=[*puzzle.units(), *cage_cells(puzzle)],
                   all_different_rows=np.arange(2 * pairs + len(puzzle.units())))
