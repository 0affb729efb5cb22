"""Kakuro formulations: assignment (binary), digit-set (combinations) and integer with big-M.

Notation shared by the docstrings: W is the set of white cells, K = {1..9} the
digits, and every run R (across or down) is a set of white cells with clue V_R.
Every white cell lies in exactly one across run and one down run.

``binary`` is the seed post's model (fjmartincampo.com/blog/2026/kakuro) as the
project's issue transcribes it (the post's text was not reachable from our
reference stores). It has the per-run "each digit at most once" rows, so it
enforces all-different and is correct. What is wrong is the post's claim that its
example has a unique solution: the grid as drawn (its clue labels checked against
the post's figure, assets/img/contentposts/kakuro.svg in the site repository) has
17 solutions, which tests/test_formulations_kakuro.py enumerates.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from puzzlebench.model import INF, Model, Rows, rows_from_triplets
from puzzlebench.puzzles import Kakuro
from puzzlebench.registry import formulation

from ._candidate_model import candidate_model
from ._combinations import cage_combinations
from ._propagate import propagate

DIGITS = Kakuro.max_digit


def white_index(puzzle: Kakuro) -> np.ndarray:
    """R x C array: the white cell's number 0..|W|-1 in row-major order, -1 elsewhere."""
    index = np.full(puzzle.shape, -1, dtype=np.int64)
    index[puzzle.white] = np.arange(int(puzzle.white.sum()))
    return index


def run_membership(puzzle: Kakuro) -> tuple[np.ndarray, np.ndarray]:
    """(run number, white-cell number) for every cell of every run, runs in ``puzzle.runs`` order."""
    index = white_index(puzzle)
    cells = [np.asarray(run.cells).reshape(-1, 2) for run in puzzle.runs]
    lengths = np.array([len(c) for c in cells])
    coords = np.concatenate(cells)
    return np.repeat(np.arange(len(cells)), lengths), index[coords[:, 0], coords[:, 1]]


def _decode_assignment(puzzle: Kakuro, num_white: int):
    """Decoder for models whose first 9|W| columns are x[c,k] at column 9c + k - 1."""
    digits = np.arange(1, DIGITS + 1)

    def decode(x: np.ndarray) -> np.ndarray:
        grid = np.zeros(puzzle.shape, dtype=np.int64)
        grid[puzzle.white] = np.rint(x[:num_white * DIGITS].reshape(num_white, DIGITS) @ digits)
        return grid
    return decode


def _one_digit_rows(puzzle: Kakuro, ncols: int) -> Rows:
    """sum_k x[c,k] = 1 for every white cell c, with x[c,k] at column 9c + k - 1."""
    num_white = int(puzzle.white.sum())
    return rows_from_triplets(np.repeat(np.arange(num_white), DIGITS), np.arange(num_white * DIGITS),
                              1.0, num_white, ncols, 1.0, 1.0)


def _run_rows(puzzle: Kakuro, ncols: int) -> list[Rows]:
    """The run sums on x and the per-run "each digit at most once" rows."""
    run_of, cell_of = run_membership(puzzle)
    k = np.arange(DIGITS)
    x_cols = (cell_of[:, None] * DIGITS + k).ravel()
    totals = np.array([run.total for run in puzzle.runs], dtype=float)
    return [rows_from_triplets(np.repeat(run_of, DIGITS), x_cols, np.tile(k + 1.0, len(run_of)),
                               len(totals), ncols, totals, totals),
            rows_from_triplets((run_of[:, None] * DIGITS + k).ravel(), x_cols, 1.0,
                               len(totals) * DIGITS, ncols, -INF, 1.0)]


def _binary_model(puzzle: Kakuro, formulation_name: str, objective: np.ndarray | None) -> Model:
    num_white = int(puzzle.white.sum())
    ncols = num_white * DIGITS
    return Model.from_rows(
        [_one_digit_rows(puzzle, ncols), *_run_rows(puzzle, ncols)],
        col_lower=np.zeros(ncols), col_upper=np.ones(ncols), integrality=np.ones(ncols, bool),
        objective=objective, decode=_decode_assignment(puzzle, num_white),
        name=f"kakuro/{formulation_name}/{puzzle.name}")


@formulation("kakuro", "binary", description="""
    The seed post's assignment model: a binary x[c,k] per white cell and digit,
    one digit per cell, each run's weighted sum equal to its clue and each digit
    at most once per run. Objective 0.""",
              constraints="""x[c,k] in {0,1} for c in W, k in K.

        sum_k x[c,k] = 1                      for every c in W
        sum_{c in R} sum_k k x[c,k] = V_R     for every run R
        sum_{c in R} x[c,k] <= 1              for every run R and k in K
        minimize 0
    """)
def binary(puzzle: Kakuro) -> Model:
    return _binary_model(puzzle, "binary", None)


@formulation("kakuro", "binary-symbreak", description="""
    The binary model with objective sum k x[c,k] (the sum of all digits). Because
    every white cell lies in exactly one across run, that sum equals the sum of the
    across clues on every point of the LP relaxation, so the objective is a
    constant: it changes no bound and excludes no solution, and any effect on
    solve times comes from the solver's path (LP pivots, heuristics), not from
    symmetry breaking.""",
              constraints="""The ``binary`` rows and variables, with

        minimize sum_{c in W} sum_k k x[c,k]

    Summing the across-run rows gives sum_c sum_k k x[c,k] = sum_{R across} V_R for
    every x satisfying them, fractional or not, so this objective is constant on
    the LP relaxation.
    """)
def binary_symbreak(puzzle: Kakuro) -> Model:
    num_white = int(puzzle.white.sum())
    return _binary_model(puzzle, "binary-symbreak", np.tile(np.arange(1.0, DIGITS + 1), num_white))


@formulation("kakuro", "combinations", description="""
    Assignment variables x[c,k] plus one binary z per run and feasible digit set
    (the sets of |R| distinct digits summing to the clue, enumerated in advance):
    each run picks one set, and the digits placed in the run are exactly the
    digits of the chosen set. The sum and all-different rules are implied.""",
              constraints="""x[c,k] in {0,1} for c in W, k in K; z[R,S] in {0,1} for every run R and
    S in S_R = {S subset of K : |S| = |R|, sum(S) = V_R}.

        sum_k x[c,k] = 1                                  for every c in W
        sum_{S in S_R} z[R,S] = 1                         for every run R
        sum_{c in R} x[c,k] = sum_{S in S_R, k in S} z[R,S]   for every run R and k in K
        minimize 0

    The last rows give each digit at most once per run, and the digits of R are
    the chosen set S, whose sum is V_R.
    """)
def combinations_model(puzzle: Kakuro) -> Model:
    num_white = int(puzzle.white.sum())
    num_x = num_white * DIGITS
    masks = [cage_combinations(len(run.cells), run.total, DIGITS).astype(bool) for run in puzzle.runs]
    sets_per_run = np.array([len(m) for m in masks])
    z_run = np.repeat(np.arange(len(masks)), sets_per_run)
    z_col = num_x + np.arange(len(z_run))
    mask = np.concatenate(masks)
    ncols = num_x + len(z_run)
    num_runs = len(puzzle.runs)

    run_of, cell_of = run_membership(puzzle)
    k = np.arange(DIGITS)
    set_row, set_digit = np.nonzero(mask)
    link_rows = np.concatenate([(run_of[:, None] * DIGITS + k).ravel(), z_run[set_row] * DIGITS + set_digit])
    link_cols = np.concatenate([(cell_of[:, None] * DIGITS + k).ravel(), z_col[set_row]])
    link_vals = np.concatenate([np.ones(len(run_of) * DIGITS), -np.ones(len(set_row))])
    blocks = [
        _one_digit_rows(puzzle, ncols),
        rows_from_triplets(z_run, z_col, 1.0, num_runs, ncols, 1.0, 1.0),
        rows_from_triplets(link_rows, link_cols, link_vals, num_runs * DIGITS, ncols, 0.0, 0.0),
    ]
    return Model.from_rows(blocks, col_lower=np.zeros(ncols), col_upper=np.ones(ncols),
                           integrality=np.ones(ncols, bool), decode=_decode_assignment(puzzle, num_white),
                           name=f"kakuro/combinations/{puzzle.name}")


BIG_M = DIGITS
"""The big-M of the ``integer`` formulation (see its docstring for why 9 and not 8)."""


@formulation("kakuro", "integer", description="""
    One integer digit y[c] in 1..9 per white cell, run sums as equalities, and
    all-different inside each run as pairwise disjunctions with a binary order
    variable and big-M 9, the smallest M valid for digits in 1..9.""",
              constraints="""y[c] in {1..9} for c in W; o[a,b] in {0,1} for every pair a < b of cells
    sharing a run (two cells share at most one run).

        sum_{c in R} y[c] = V_R               for every run R
        y[a] - y[b] >= 1 - M o[a,b]           for every such pair
        y[b] - y[a] >= 1 - M (1 - o[a,b])     for every such pair
        minimize 0,   M = 9

    o[a,b] = 1 forces y[b] > y[a], o = 0 forces y[a] > y[b]. The relaxed side must
    allow every y in [1,9]^2, i.e. 1 - M <= min(y[a] - y[b]) = -8, so M = 9 is the
    smallest valid M; M = 8 would forbid a 1 and a 9 in the same run.
    """)
def integer(puzzle: Kakuro) -> Model:
    return integer_run_model(puzzle, "integer")


def run_cells(puzzle: Kakuro) -> list[np.ndarray]:
    """The white-cell numbers (:func:`white_index`) of each run, in ``puzzle.runs`` order."""
    index = white_index(puzzle)
    return [index[tuple(np.asarray(run.cells).T)] for run in puzzle.runs]


def integer_run_model(puzzle: Kakuro, name: str) -> Model:
    """The model of :func:`integer`, named ``name``."""
    num_white = int(puzzle.white.sum())
    pairs = []
    for cells in run_cells(puzzle):
        a, b = np.triu_indices(len(cells), 1)
        pairs.append(np.stack([cells[a], cells[b]], axis=1))
    pairs = np.concatenate(pairs)
    num_pairs = len(pairs)
    ncols = num_white + num_pairs
    o = num_white + np.arange(num_pairs)

    run_of, cell_of = run_membership(puzzle)
    totals = np.array([run.total for run in puzzle.runs], dtype=float)
    p = np.arange(num_pairs)
    order_rows = np.concatenate([p, p, p, num_pairs + p, num_pairs + p, num_pairs + p])
    order_cols = np.concatenate([pairs[:, 0], pairs[:, 1], o, pairs[:, 0], pairs[:, 1], o])
    order_vals = np.concatenate([np.ones(num_pairs), -np.ones(num_pairs), np.full(num_pairs, BIG_M),
                                 -np.ones(num_pairs), np.ones(num_pairs), np.full(num_pairs, -BIG_M)])
    blocks = [
        rows_from_triplets(run_of, cell_of, 1.0, len(totals), ncols, totals, totals),
        rows_from_triplets(order_rows, order_cols, order_vals, 2 * num_pairs, ncols,
                           np.repeat([1.0, 1.0 - BIG_M], num_pairs), INF),
    ]

    def decode(x: np.ndarray) -> np.ndarray:
        grid = np.zeros(puzzle.shape, dtype=np.int64)
        grid[puzzle.white] = np.rint(x[:num_white])
        return grid

    return Model.from_rows(blocks, col_lower=np.r_[np.ones(num_white), np.zeros(num_pairs)],
                           col_upper=np.r_[np.full(num_white, DIGITS), np.ones(num_pairs)],
                           integrality=np.ones(ncols, bool), decode=decode,
                           name=f"kakuro/{name}/{puzzle.name}")


@formulation("kakuro", "propagated", description="""
    Propagation to a fixpoint before modelling (naked singles along runs, hidden
    singles of the digits every admissible set of a run holds, and generalised arc
    consistency on every run: a digit stays in a cell only if some distinct
    assignment of the run's candidates with that digit there meets the clue), then
    x only for the candidates left and the combinations model's digit-set binaries
    over each run's admissible sets.  Propagation is timed as
    part of the build; a puzzle it solves is flagged solved in preprocessing.""",
              constraints="""Propagation (formulations/_propagate.py) over the runs R with clues V_R gives the
    candidates K(c) of every white cell (F: the cells with |K(c)| = 1) and, per run,
    the admissible digit sets S_R (sets of |R| distinct digits summing to V_R that
    some assignment of candidates realises).  With x[c,k] for k in K(c) and z[R,S]
    for S in S_R, for the runs not inside F:

        sum_{k in K(c)} x[c,k] = 1                          for every c in W not in F
        sum_{S in S_R} z[R,S] = 1                           for every run R not inside F
        sum_{c in R : k in K(c)} x[c,k] = sum_{S in S_R, k in S} z[R,S]
                                                            for those R and every k in some K(c) or S
        x[c,k] = 1 (bounds) for c in F, K(c) = {k};  x, z binary;  minimize 0
    A contradiction found by propagation adds the row 0 = 1.
    """)
def propagated(puzzle: Kakuro) -> Model:
    runs = run_cells(puzzle)
    totals = [run.total for run in puzzle.runs]
    reduction = propagate(np.ones((int(puzzle.white.sum()), DIGITS), bool), np.empty((0, 0), np.int64),
                          runs, totals)

    def to_grid(values: np.ndarray) -> np.ndarray:
        grid = np.zeros(puzzle.shape, dtype=np.int64)
        grid[puzzle.white] = values
        return grid

    return candidate_model(reduction, np.empty((0, 0), np.int64), runs,
                           name=f"kakuro/propagated/{puzzle.name}", to_grid=to_grid)


@formulation("kakuro", "cp-natural", description="""
    The natural constraint-programming model: one integer y in 1..9 per white cell,
    the run sums, and every run declared all-different.  CP-SAT adds
    AddAllDifferent and leaves out the pairwise rows; MIP solvers, which ignore the
    declaration, get the ``integer`` model's pairwise big-M disjunctions.""",
              constraints="""The ``integer`` model (y[c] in 1..9, sum_{c in R} y[c] = V_R, order binaries with
    big-M 9 for every pair sharing a run) with the declaration

        all_different(y[c] : c in R)          for every run R

    and the big-M rows marked as its encoding: CP-SAT solves y, the run sums and
    AddAllDifferent per run; MIP solvers solve the ``integer`` model.
    """)
def cp_natural(puzzle: Kakuro) -> Model:
    model = integer_run_model(puzzle, "cp-natural")
    runs = run_cells(puzzle)
    return replace(model, all_different=runs, all_different_rows=np.arange(len(runs), model.num_rows))
