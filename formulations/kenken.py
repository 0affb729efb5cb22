"""KenKen (Calcudoku) formulations: a Latin square plus the cage clues, five ways.

Notation for the docstrings: cells c of the N x N grid, digits k = 1..N, U the N rows
and N columns (``puzzle.units()``), cages C with target T_C and operation op_C; the
two-cell cages of ``-`` and ``/`` are written C = {a, b}; a one-cell cage {c} holds T_C.
x[c,k] (binary, column N*c + k-1, first) says cell c holds k; v_c = sum_k k x[c,k] is
its digit.  For a cage, S_C is its admissible tuples (:func:`admissible_tuples`: the
fillings with digits 1..N meeting the clue, cells of C sharing a row or column
different), t_c the digit tuple t gives cell c.  All models minimise 0.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from puzzlebench.kinds.kenken.puzzle import KenKen
from puzzlebench.kinds.kenken.tuples import admissible_tuples
from puzzlebench.model import Model, Product, Rows, rows_from_triplets
from puzzlebench.registry import formulation

from ._sudoku_common import (
    assignment_decoder,
    assignment_rows,
    conflict_pairs,
    integer_decoder,
    model_name,
    pairwise_all_different,
)

LOG_DECIMALS = 6
"""Decimals of the logarithms in ``log-linear``: multiples of 10^-6, which CP-SAT scales to integers exactly."""


def _triplets(*blocks) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Concatenate (row, col, val) triplet blocks."""
    blocks = [b for b in blocks if len(b[0])] or [(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0))]
    return tuple(np.concatenate([np.asarray(b[i]) for b in blocks]) for i in range(3))


def _values(rows, cells, scale, weights, start: int = 0):
    """Triplets of scale_r * sum_k weights[k] * column(start + K*cell_r + k), K = len(weights), for each
    r: the digit of a cell from its x block (weights 1..N) or its y column (weights [1])."""
    rows, cells = np.asarray(rows, np.int64), np.asarray(cells, np.int64)
    scale, weights = np.broadcast_to(np.asarray(scale, float), rows.shape), np.asarray(weights, float)
    width = len(weights)
    cols = start + cells[:, None] * width + np.arange(width)
    return np.repeat(rows, width), cols.ravel(), (scale[:, None] * weights[None, :]).ravel()


def _cages(puzzle: KenKen, op: str) -> np.ndarray:
    """The numbers of the cages with operation ``op`` (``""``: the one-cell cages)."""
    return np.array([k for k, cage in enumerate(puzzle.cages) if cage.op == op], dtype=np.int64)


def _pairs(puzzle: KenKen, cages: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cells a and b of two-cell cages (flat indices) and their targets."""
    cells = np.array([puzzle.cage_cells()[k] for k in cages], dtype=np.int64).reshape(-1, 2)
    return cells[:, 0], cells[:, 1], np.array([puzzle.cages[k].target for k in cages], dtype=float)


def _sum_rows(puzzle: KenKen, cages: np.ndarray, weights, start: int, ncols: int, lower, upper) -> Rows:
    """sum_{c in C} sum_k weights[k] * (column of c, k) in [lower_C, upper_C] for the cages ``cages``."""
    cells = [puzzle.cage_cells()[k] for k in cages]
    row = np.repeat(np.arange(len(cages)), [len(c) for c in cells])
    flat = np.concatenate(cells) if cells else np.zeros(0, np.int64)
    r, c, v = _values(row, flat, 1.0, weights, start)
    return rows_from_triplets(r, c, v, len(cages), ncols, lower, upper)


def _pair_rows(a, b, alpha, beta, weights, start, o_cols, gamma, lower, upper, ncols) -> Rows:
    """alpha_r * val(a_r) + beta_r * val(b_r) + gamma_r * o_r in [lower_r, upper_r] for each row r,
    val the cell's digit as in :func:`_values`."""
    rows = np.arange(len(a))
    r, c, v = _triplets(_values(rows, a, alpha, weights, start), _values(rows, b, beta, weights, start),
                        (rows, np.asarray(o_cols, np.int64), np.asarray(gamma, float)))
    return rows_from_triplets(r, c, v, len(a), ncols, lower, upper)


def _table(puzzle: KenKen, cages: np.ndarray, z_start: int, value_start: int | None, ncols: int) -> Rows:
    """The cages ``cages`` as tables of their admissible tuples, binaries z[C,t] from column ``z_start``:

        sum_{t in S_C} z[C,t] = 1                                  for every cage C
        x[c,k] - sum_{t in S_C : t_c = k} z[C,t] = 0               for every c in C and digit k
                                                                   (``value_start`` None: the x block)
        y_c - sum_{t in S_C} t_c z[C,t] = 0                        for every c in C
                                                                   (y_c at column value_start + c)
    The columns z come in the order of ``cages``, each cage's tuples in lexicographic order.
    """
    n = puzzle.n
    tables = [admissible_tuples(puzzle.cages[k], n) for k in cages]
    counts = np.array([len(t) for t in tables], dtype=np.int64)
    z_of_cage = z_start + np.concatenate([[0], np.cumsum(counts)])
    pick = (np.repeat(np.arange(len(cages)), counts), np.arange(z_start, z_start + counts.sum()), np.ones(counts.sum()))
    per_cell = n if value_start is None else 1
    link_rows, link_cols, link_vals = [], [], []
    cell_pos = 0
    for number, (k, table) in enumerate(zip(cages, tables)):
        cells = puzzle.cage_cells()[k]
        z = np.arange(z_of_cage[number], z_of_cage[number + 1])
        base = len(cages) + (cell_pos + np.arange(len(cells))) * per_cell
        if value_start is None:  # row of (c, k): x[c,k] minus the tuples that put k in c
            link_rows += [np.repeat(base, n) + np.tile(np.arange(n), len(cells)), (base[None, :] + table - 1).ravel()]
            link_cols += [(cells[:, None] * n + np.arange(n)).ravel(), np.repeat(z, len(cells))]
            link_vals += [np.ones(len(cells) * n), -np.ones(table.size)]
        else:  # row of c: y_c minus the digit each tuple puts in c
            link_rows += [base, np.tile(base, len(z))]
            link_cols += [value_start + cells, np.repeat(z, len(cells))]
            link_vals += [np.ones(len(cells)), -table.ravel().astype(float)]
        cell_pos += len(cells)
    r, c, v = _triplets(pick, *zip(link_rows, link_cols, link_vals))
    nrows = len(cages) + cell_pos * per_cell
    lower = np.concatenate([np.ones(len(cages)), np.zeros(cell_pos * per_cell)])
    return rows_from_triplets(r, c, v, nrows, ncols, lower, lower)


def _table_size(puzzle: KenKen, cages: np.ndarray) -> int:
    return sum(len(admissible_tuples(puzzle.cages[k], puzzle.n)) for k in cages)


def _single_bounds(puzzle: KenKen, lower: np.ndarray, upper: np.ndarray, y_start: int | None = None) -> None:
    """Fix the one-cell cages by column bounds: x[c,T] >= 1, or y_c = T."""
    for k in _cages(puzzle, ""):
        cage = puzzle.cages[k]
        (r, c), = cage.cells
        if y_start is None:
            lower[(r * puzzle.n + c) * puzzle.n + cage.target - 1] = 1.0
        else:
            lower[y_start + r * puzzle.n + c] = upper[y_start + r * puzzle.n + c] = cage.target


def _binary_model(puzzle: KenKen, name: str, blocks, ncols: int) -> Model:
    """x[c,k] first (Latin rows included), then the formulation's extra binaries; one-cell cages by bounds."""
    n = puzzle.n
    lower, upper = np.zeros(ncols), np.ones(ncols)
    _single_bounds(puzzle, lower, upper)
    return Model.from_rows([assignment_rows(puzzle.units(), n, ncols), *blocks], col_lower=lower, col_upper=upper,
                           integrality=np.ones(ncols, bool), decode=assignment_decoder(n),
                           name=model_name(puzzle, name))


@formulation("kenken", "binary", description="""
    The binary Latin-square assignment model plus, per cage, one binary per admissible
    digit tuple (a filling of the cage's cells that meets its clue, cells sharing a row
    or column different), exactly one tuple chosen, and each cell holding the digit its
    chosen tuple gives it, as Killer's combinations model does with digit sets.  Every
    operation is handled the same way; the seed model and the certifying formulation
    of the generator.""",
              constraints="""With binaries z[C,t] for t in S_C after the N^3 columns x, cages in order:

    minimize 0
    s.t.  sum_k x[c,k] = 1                              for every cell c
          sum_{c in u} x[c,k] = 1                       for every unit u in U and digit k
          sum_{t in S_C} z[C,t] = 1                     for every cage C
          x[c,k] - sum_{t in S_C : t_c = k} z[C,t] = 0  for every cage C, cell c in C and digit k
          x[c,k], z[C,t] in {0,1}
    The link rows make the cage's digits the chosen tuple, so the clue holds; every
    binary is determined by the grid (a no-good cut removes exactly one grid).  A cage
    with no admissible tuple gets the rows sum z = 1 over no column: 0 = 1 (infeasible).
    """)
def binary(puzzle: KenKen) -> Model:
    nx = puzzle.n ** 3
    cages = np.arange(len(puzzle.cages))
    ncols = nx + _table_size(puzzle, cages)
    return _binary_model(puzzle, "binary", [_table(puzzle, cages, nx, None, ncols)], ncols)


def log_tolerance(n: int, cells: int) -> float:
    """delta(N, m) = (1/2) ln(N^m / (N^m - 1)): half the least distance between the logarithms of
    two different whole numbers up to N^m (two products of m digits 1..N, or for m = 2 two
    ratios p/q and r/s of digits: |ln(ps/qr)| >= ln(N^2/(N^2-1)))."""
    top = float(n) ** cells
    return 0.5 * math.log(top / (top - 1)) if top > 1 else math.inf   # N = 1: one whole number, no distance


def _log(values) -> np.ndarray:
    return np.round(np.log(np.asarray(values, float)), LOG_DECIMALS)


def log_linear_applies(puzzle: KenKen) -> bool:
    """Whether every product and division cage of m cells keeps the rounding of its logarithms,
    (m+1)/2 * 10^-LOG_DECIMALS, below half of delta(N, m)."""
    rounding = 0.5 * 10.0 ** -LOG_DECIMALS
    return all((len(cage.cells) + 1) * rounding < log_tolerance(puzzle.n, max(2, len(cage.cells))) / 2
               for cage in puzzle.cages if cage.op in ("x", "/"))   # not `in "x/"`: a one-cell cage's op is ""


@formulation("kenken", "log-linear", applies=log_linear_applies,
             takes="puzzles whose product and division cages of m cells keep the rounding of their logarithms, "
                   "(m+1)/2 * 10^-6, below half of delta(N, m)", description="""
    The binary Latin-square assignment model with every clue linear in the digits or
    their logarithms: sum rows for +; for x, the sum of ln k over the cage equals ln T
    within half the least gap between logarithms of distinct products (exact over the
    integers, a tolerance trap on a solver whose feasibility tolerance reaches that
    gap); for - and / one sign binary makes the difference of digits, or of their
    logarithms, +T or -T.  Logarithms rounded to 6 decimals so that CP-SAT reads them.""",
              constraints="""With l_k = ln k and L_T = ln T rounded to 6 decimals, delta_C = delta(N, max(2, |C|))
    (:func:`log_tolerance`), and a sign binary o_C per - or / cage after the N^3 columns x:

    minimize 0
    s.t.  sum_k x[c,k] = 1                                          for every cell c
          sum_{c in u} x[c,k] = 1                                   for every unit u in U and digit k
          sum_{c in C} v_c = T_C                                    for every + cage C
          L_T - delta_C <= sum_{c in C} sum_k l_k x[c,k] <= L_T + delta_C   for every x cage C
          v_a - v_b + 2 T_C o_C = T_C                               for every - cage {a,b}
          L_T - delta_C <= sum_k l_k (x[a,k] - x[b,k]) + 2 L_T o_C <= L_T + delta_C
                                                                    for every / cage {a,b}
          x[c,T_C] >= 1 (column lower bound)                        for every one-cell cage {c}
          x[c,k], o_C in {0,1}
    Exact while the rounding, (|C|+1)/2 * 10^-6, plus the solver's feasibility tolerance stay
    below delta_C; the formulation takes only puzzles where the rounding is below delta_C / 2.
    """)
def log_linear(puzzle: KenKen) -> Model:
    n = puzzle.n
    nx = n ** 3
    plus, times, minus, divide = (_cages(puzzle, op) for op in "+x-/")
    ncols = nx + len(minus) + len(divide)
    digits, logs = np.arange(1, n + 1), _log(np.arange(1, n + 1))
    targets = np.array([cage.target for cage in puzzle.cages], dtype=float)
    sizes = np.array([len(cage.cells) for cage in puzzle.cages])
    delta = np.array([log_tolerance(n, max(2, m)) for m in sizes])
    blocks = [_sum_rows(puzzle, plus, digits, 0, ncols, targets[plus], targets[plus]),
              _sum_rows(puzzle, times, logs, 0, ncols, _log(targets[times]) - delta[times],
                        _log(targets[times]) + delta[times])]
    ma, mb, mt = _pairs(puzzle, minus)
    blocks.append(_pair_rows(ma, mb, 1.0, -1.0, digits, 0, nx + np.arange(len(minus)), 2 * mt, mt, mt, ncols))
    da, db, dt = _pairs(puzzle, divide)
    dl = _log(dt)
    blocks.append(_pair_rows(da, db, 1.0, -1.0, logs, 0, nx + len(minus) + np.arange(len(divide)), 2 * dl,
                             dl - delta[divide], dl + delta[divide], ncols))
    return _binary_model(puzzle, "log-linear", blocks, ncols)


def _big_m_difference(a, b, alpha_b, targets, big_m, o_cols, weights, start, ncols) -> list[Rows]:
    """The disjunction val(a) + alpha_b * val(b) = 0 (o = 0) or val(b) + alpha_b * val(a) = 0 (o = 1):

        -M o <= val(a) + alpha_b val(b) <= M o
        -M (1 - o) <= val(b) + alpha_b val(a) <= M (1 - o)
    written as four one-sided rows with o on the left, with M from ``big_m``."""
    inf = np.full(len(a), np.inf)
    return [_pair_rows(a, b, 1.0, alpha_b, weights, start, o_cols, -big_m, -inf, targets, ncols),
            _pair_rows(a, b, 1.0, alpha_b, weights, start, o_cols, big_m, targets, inf, ncols),
            _pair_rows(b, a, 1.0, alpha_b, weights, start, o_cols, big_m, -inf, targets + big_m, ncols),
            _pair_rows(b, a, 1.0, alpha_b, weights, start, o_cols, -big_m, targets - big_m, inf, ncols)]


def _minus_divide_big_m(puzzle: KenKen, o_start: int, weights, start: int, ncols: int) -> list[Rows]:
    """The big-M rows of every - cage then every / cage, sign binaries from ``o_start`` (:func:`big_m`)."""
    n = puzzle.n
    minus, divide = _cages(puzzle, "-"), _cages(puzzle, "/")
    ma, mb, mt = _pairs(puzzle, minus)
    da, db, dt = _pairs(puzzle, divide)
    return [*_big_m_difference(ma, mb, -1.0, mt, mt + n - 1, o_start + np.arange(len(minus)), weights, start,
                               ncols),
            *_big_m_difference(da, db, -dt, np.zeros(len(divide)), dt * n - 1,
                               o_start + len(minus) + np.arange(len(divide)), weights, start, ncols)]


@formulation("kenken", "big-m", description="""
    The binary Latin-square assignment model with sum rows for +, big-M disjunctions
    (one binary per cage) for - and / on the cell values sum k*x, and the admissible
    digit tuples of the binary model for x, the one operation big-M rows on two
    values cannot state.""",
              constraints="""With a binary o_C per - or / cage after the N^3 columns x, then z[C,t] for the x cages:

    minimize 0
    s.t.  sum_k x[c,k] = 1                                for every cell c
          sum_{c in u} x[c,k] = 1                         for every unit u in U and digit k
          sum_{c in C} v_c = T_C                          for every + cage C
          v_a - v_b - T_C <= M o_C,  v_a - v_b - T_C >= -M o_C,
          v_b - v_a - T_C <= M (1 - o_C),  v_b - v_a - T_C >= -M (1 - o_C)
                                                          for every - cage {a,b}, M = T_C + N - 1
          v_a - T_C v_b <= M o_C,  v_a - T_C v_b >= -M o_C,
          v_b - T_C v_a <= M (1 - o_C),  v_b - T_C v_a >= -M (1 - o_C)
                                                          for every / cage {a,b}, M = T_C N - 1
          sum_{t in S_C} z[C,t] = 1,  x[c,k] - sum_{t in S_C : t_c = k} z[C,t] = 0
                                                          for every x cage C, c in C, digit k
          x[c,T_C] >= 1 (column lower bound)              for every one-cell cage {c}
          x[c,k], o_C, z[C,t] in {0,1}
    Each M is the largest |value| the bounded side can take, so o_C = 1 (0) frees the row pair.
    """)
def big_m(puzzle: KenKen) -> Model:
    n = puzzle.n
    nx = n ** 3
    plus, times = _cages(puzzle, "+"), _cages(puzzle, "x")
    signs = len(_cages(puzzle, "-")) + len(_cages(puzzle, "/"))
    ncols = nx + signs + _table_size(puzzle, times)
    targets = np.array([cage.target for cage in puzzle.cages], dtype=float)
    digits = np.arange(1, n + 1)
    blocks = [_sum_rows(puzzle, plus, digits, 0, ncols, targets[plus], targets[plus]),
              *_minus_divide_big_m(puzzle, nx, digits, 0, ncols),
              _table(puzzle, times, nx + signs, None, ncols)]
    return _binary_model(puzzle, "big-m", blocks, ncols)


def integer_kenken_model(puzzle: KenKen, name: str) -> Model:
    """The model of :func:`integer`, named ``name``; columns y, order binaries, sign binaries, z."""
    n = puzzle.n
    cells = n * n
    a, b = conflict_pairs([puzzle.units()], np.zeros((n, n), np.int64))
    plus, times, minus, divide = (_cages(puzzle, op) for op in "+x-/")
    o_start = cells + len(a)
    z_start = o_start + len(minus) + len(divide)
    ncols = z_start + _table_size(puzzle, times)
    targets = np.array([cage.target for cage in puzzle.cages], dtype=float)
    units = puzzle.units()
    full = n * (n + 1) / 2
    ma, mb, mt = _pairs(puzzle, minus)
    blocks = [pairwise_all_different(a, b, n, 0, cells, ncols),
              rows_from_triplets(np.repeat(np.arange(len(units)), n), units.ravel(), 1.0, len(units), ncols,
                                 full, full),
              _sum_rows(puzzle, plus, [1.0], 0, ncols, targets[plus], targets[plus]),
              _pair_rows(ma, mb, 1.0, -1.0, [1.0], 0, o_start + np.arange(len(minus)), 2 * mt, mt, mt, ncols),
              *_minus_divide_big_m(puzzle, o_start, [1.0], 0, ncols)[4:],
              _table(puzzle, times, z_start, 0, ncols)]
    lower, upper = np.zeros(ncols), np.ones(ncols)
    lower[:cells], upper[:cells] = 1.0, float(n)
    _single_bounds(puzzle, lower, upper, y_start=0)
    return Model.from_rows(blocks, col_lower=lower, col_upper=upper, integrality=np.ones(ncols, bool),
                           decode=integer_decoder(n), name=model_name(puzzle, name))


@formulation("kenken", "integer", description="""
    One integer y in 1..N per cell; for every pair of cells sharing a row or column a
    binary order variable with the big-M (M = N) disjunction y_a >= y_b + 1 or
    y_b >= y_a + 1, and the implied line sums N(N+1)/2; cage sums for +; for - one sign
    binary making y_a - y_b = +T or -T; big-M disjunctions for /; and for x the
    admissible digit tuples, y_c equal to the digit the chosen tuple gives c.""",
              constraints="""With E = {(a,b) : a < b share a row or column}, order binaries o_ab, a sign binary s_C per
    - or / cage, and z[C,t] for the x cages:

    minimize 0
    s.t.  y_a - y_b + N o_ab >= 1,  y_b - y_a - N o_ab >= 1 - N      for every (a,b) in E
          sum_{c in u} y_c = N(N+1)/2                               for every u in U (implied)
          sum_{c in C} y_c = T_C                                    for every + cage C
          y_a - y_b + 2 T_C s_C = T_C                               for every - cage {a,b}
          y_a - T_C y_b <= M s_C,  y_a - T_C y_b >= -M s_C,
          y_b - T_C y_a <= M (1 - s_C),  y_b - T_C y_a >= -M (1 - s_C)
                                                                    for every / cage {a,b}, M = T_C N - 1
          sum_{t in S_C} z[C,t] = 1,  y_c - sum_{t in S_C} t_c z[C,t] = 0   for every x cage C, c in C
          1 <= y_c <= N integer;  y_c = T_C (bounds) for every one-cell cage {c}
          o_ab, s_C, z[C,t] in {0,1}
    """)
def integer(puzzle: KenKen) -> Model:
    return integer_kenken_model(puzzle, "integer")


@formulation("kenken", "cp-natural", description="""
    The constraint-programming model over one integer per cell: every row and column
    declared all-different, every x cage declared a product (prod y_c = T), and the
    other cage rows of the integer model (sums, the - sign binary, the / disjunction).
    CP-SAT gets AddAllDifferent per line, AddMultiplicationEquality per x cage and
    those rows; MIP solvers, which ignore the declarations, get the integer model
    (its x tuple tables standing for the products).""",
              constraints="""The ``integer`` model (y_c in 1..N, order binaries o_ab with the big-M rows over rows and
    columns, the line sums, the cage rows) with the declarations

          all_different(y_c : c in u)          for every row and column u in U
          prod_{c in C} y_c = T_C              for every x cage C

    the big-M rows and line sums marked as implied by the first, the x cages' tuple-table rows by
    the second: CP-SAT solves y, the +, - and / cage rows, AddAllDifferent per line and
    AddMultiplicationEquality per x cage (the o and z columns left out); MIP solvers solve the
    ``integer`` model.
    """)
def cp_natural(puzzle: KenKen) -> Model:
    model = integer_kenken_model(puzzle, "cp-natural")
    n = puzzle.n
    pairs = len(conflict_pairs([puzzle.units()], np.zeros((n, n), np.int64))[0])
    times = _cages(puzzle, "x")
    cells = puzzle.cage_cells()
    table_rows = len(times) + sum(len(cells[k]) for k in times)  # the last block (integer_kenken_model)
    return replace(model, all_different=list(puzzle.units()),
                   all_different_rows=np.arange(2 * pairs + len(puzzle.units())),
                   products=[Product(cells[k], puzzle.cages[k].target) for k in times],
                   product_rows=np.arange(model.num_rows - table_rows, model.num_rows))
