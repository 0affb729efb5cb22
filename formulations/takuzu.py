"""Takuzu (Binary Sudoku, Binairo) formulations: they differ only in how "no two
rows and no two columns are equal" is written when ``puzzle.distinct_lines`` is set.

Notation shared by the docstrings: x[i,j] in {0,1} for the R x C cells (column
i*C + j); a *line* is a row (C positions) or a column (R positions); for two
lines l, l' of the same kind and a position j, x and x' are their cells at j.
Every formulation has the *core* rows

    x[i,j] = g[i,j]                                for every given g[i,j] (as bounds)
    sum_j x[i,j] = C/2                             for every row i
    sum_i x[i,j] = R/2                             for every column j
    1 <= x[a] + x[b] + x[c] <= 2                   for every 3 consecutive cells a, b, c
                                                   of a row or a column

and without ``distinct_lines`` all four formulations are exactly this model.

The seed post (fjmartincampo.com/blog/2026/binarysudoku) makes lines distinct with
a variable z per pair of lines and position, meant as z = x XOR x', and
sum_j z >= 1. The project's issue says the post's model accepts solutions that
break a rule and asks for z "bounded from both sides", i.e. the post bounds z
from one side only. The post's text was not reachable from our reference stores,
so its rows are reconstructed here as the one-sided version that fails:

    z >= x - x',   z >= x' - x,   sum_j z[l,l',j] >= 1

These only say z >= |x - x'|: two equal lines pass with every z set to 1.
``binary`` keeps the post's variables and bounds z from the side that matters,
z <= x + x' and z <= 2 - x - x' (so z <= x XOR x'); ``xor-distinct`` uses both
sides. tests/test_formulations_takuzu.py solves the reconstructed post model and
shows it accept a grid with two equal rows that the fixed models reject.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from puzzlebench.errors import PuzzleError
from puzzlebench.model import INF, Model, Rows, rows_from_triplets
from puzzlebench.puzzles import Takuzu
from puzzlebench.registry import formulation

from ._propagate_takuzu import propagate_takuzu

MAX_ENCODED_LINE = 18
"""Longest line ``integer-encoding`` accepts: its big-M 2^P times the solvers' usual
integrality tolerance 1e-6 must stay below 1/2 (2^18 * 1e-6 = 0.26; 2^20 * 1e-6 = 1.05)."""


def cell_index(puzzle: Takuzu) -> np.ndarray:
    """R x C array of the column holding x[i,j]."""
    rows, cols = puzzle.shape
    return np.arange(rows * cols).reshape(rows, cols)


def cell_bounds(puzzle: Takuzu) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper bounds of x: a given fixes its cell, a blank is free in [0, 1]."""
    g = puzzle.givens.ravel()
    given = g >= 0
    return np.where(given, g, 0).astype(float), np.where(given, g, 1).astype(float)


def core_rows(puzzle: Takuzu, ncols: int) -> list[Rows]:
    """The balance rows and the no-three-in-a-line rows (see the module docstring)."""
    index = cell_index(puzzle)
    blocks = []
    for lines in (index, index.T):
        count, length = lines.shape
        blocks.append(rows_from_triplets(np.repeat(np.arange(count), length), lines.ravel(), 1.0,
                                         count, ncols, length / 2, length / 2))
        windows = np.stack([lines[:, :-2], lines[:, 1:-1], lines[:, 2:]], axis=-1).reshape(-1, 3)
        blocks.append(rows_from_triplets(np.repeat(np.arange(len(windows)), 3), windows.ravel(), 1.0,
                                         len(windows), ncols, 1.0, 2.0))
    return blocks


def core_row_count(puzzle: Takuzu) -> int:
    """How many rows :func:`core_rows` writes: a balance row per line and a window row per
    three consecutive cells of a line."""
    rows, cols = puzzle.shape
    return rows + cols + rows * (cols - 2) + cols * (rows - 2)


def line_pairs(lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For an L x P array of column indices (one line per row), the cells of the
    first and of the second line of every pair l < l': two arrays (L(L-1)/2) x P."""
    first, second = np.triu_indices(len(lines), 1)
    return lines[first], lines[second]


def _grid_decoder(puzzle: Takuzu):
    rows, cols = puzzle.shape

    def decode(x: np.ndarray) -> np.ndarray:
        return np.rint(x[:rows * cols]).astype(np.int64).reshape(rows, cols)
    return decode


def _core_model(puzzle: Takuzu, formulation_name: str, separate=None) -> Model:
    """The model of the core rows alone, on the cells x."""
    lower, upper = cell_bounds(puzzle)
    ncols = lower.size
    return Model.from_rows(core_rows(puzzle, ncols), col_lower=lower, col_upper=upper,
                           integrality=np.ones(ncols, bool), decode=_grid_decoder(puzzle),
                           name=f"takuzu/{formulation_name}/{puzzle.name}", separate=separate)


def _xor_rows(first: np.ndarray, second: np.ndarray, z_start: int, ncols: int, *, exact: bool) -> list[Rows]:
    """Rows for z[p,j] (column z_start + p*P + j) over line pairs p: z <= x XOR x'
    (and z >= x XOR x' when ``exact``), plus sum_j z[p,j] >= 1."""
    pairs, length = first.shape
    n = pairs * length
    z = z_start + np.arange(n)
    x, x2 = first.ravel(), second.ravel()
    e = np.arange(n)
    ones = np.ones(n)

    def three_term(signs, lower, upper):
        return rows_from_triplets(np.tile(e, 3), np.concatenate([z, x, x2]),
                                  np.concatenate([ones * s for s in signs]), n, ncols, lower, upper)

    blocks = [three_term((1, -1, -1), -INF, 0.0),   # z <= x + x'
              three_term((1, 1, 1), -INF, 2.0)]     # z <= 2 - x - x'
    if exact:
        blocks += [three_term((1, -1, 1), 0.0, INF),   # z >= x - x'
                   three_term((1, 1, -1), 0.0, INF)]   # z >= x' - x
    blocks.append(rows_from_triplets(np.repeat(np.arange(pairs), length), z, 1.0, pairs, ncols, 1.0, INF))
    return blocks


def _xor_model(puzzle: Takuzu, formulation_name: str, *, exact: bool) -> Model:
    index = cell_index(puzzle)
    num_x = index.size
    pairs = [line_pairs(lines) for lines in (index, index.T)] if puzzle.distinct_lines else []
    num_z = sum(first.size for first, _ in pairs)
    ncols = num_x + num_z
    blocks = core_rows(puzzle, ncols)
    z_start = num_x
    for first, second in pairs:
        blocks += _xor_rows(first, second, z_start, ncols, exact=exact)
        z_start += first.size
    lower, upper = cell_bounds(puzzle)
    return Model.from_rows(blocks, col_lower=np.r_[lower, np.zeros(num_z)], col_upper=np.r_[upper, np.ones(num_z)],
                           integrality=np.ones(ncols, bool), decode=_grid_decoder(puzzle),
                           name=f"takuzu/{formulation_name}/{puzzle.name}")


@formulation("takuzu", "binary", description="""
    x[i,j] binary with givens as bounds, C/2 ones per row and R/2 per column, and
    1 <= x_a + x_b + x_c <= 2 on every three consecutive cells. With distinct
    lines: the seed post's z per pair of lines and position with sum_j z >= 1,
    corrected to bound z from above by the XOR (z <= x + x', z <= 2 - x - x').
    Bounded from below only (z >= |x - x'|, our reconstruction of the post's
    rows), z can be 1 on equal lines, which then pass.""",
              constraints="""The core rows (module docstring), and with ``distinct_lines``, for every pair
    of rows and every pair of columns (l, l') and position j, z[l,l',j] in {0,1}:

        z[l,l',j] <= x + x'
        z[l,l',j] <= 2 - x - x'
        sum_j z[l,l',j] >= 1
        minimize 0

    The first two rows give z <= x XOR x' on binary x, so sum_j z >= 1 needs a
    position where the lines differ. The one-sided rows z >= x - x', z >= x' - x
    (the post's, as reconstructed) leave equal lines feasible with z = 1.
    """)
def binary(puzzle: Takuzu) -> Model:
    return _xor_model(puzzle, "binary", exact=False)


@formulation("takuzu", "xor-distinct", description="""
    The binary model with z = x XOR x' linearised exactly (bounded from both
    sides: z <= x + x', z <= 2 - x - x', z >= x - x', z >= x' - x) and
    sum_j z >= 1 per pair of rows and per pair of columns. The lower bounds are
    redundant for feasibility; they make z the exact XOR. Without distinct lines
    it is the binary model.""",
              constraints="""The core rows, and with ``distinct_lines``, for every pair of rows and every
    pair of columns (l, l') and position j, z[l,l',j] in {0,1}:

        z <= x + x',   z <= 2 - x - x',   z >= x - x',   z >= x' - x
        sum_j z[l,l',j] >= 1
        minimize 0

    On binary x the four rows give z = x XOR x'. Without ``distinct_lines`` this is
    exactly ``binary``.
    """)
def xor_distinct(puzzle: Takuzu) -> Model:
    return _xor_model(puzzle, "xor-distinct", exact=True)


def encodable(puzzle: Takuzu) -> bool:
    """Whether the integer encoding of a line fits: lines of at most MAX_ENCODED_LINE cells, or no
    distinct-lines rule."""
    return not puzzle.distinct_lines or max(puzzle.shape) <= MAX_ENCODED_LINE


@formulation("takuzu", "integer-encoding", applies=encodable,
             takes="puzzles with lines of at most 18 cells, or without distinct lines", description="""
    The binary model where, with distinct lines, each line is read as a binary
    number v = sum_j 2^j x_j (an integer variable) and two lines of a kind must get
    different numbers, through a binary order variable o and big-M 2^P
    (P = line length): v - v' >= 1 - M o, v' - v >= 1 - M (1 - o). Lines longer
    than 18 are refused: at 20, M = 2^20 times an integrality tolerance of 1e-6
    exceeds 1 and solvers return equal lines. Without distinct lines it is the
    binary model.""",
              constraints="""The core rows, and with ``distinct_lines``, for every line l of length P an
    integer v[l] in [0, 2^P - 1] and for every pair l < l' of the same kind a binary
    o[l,l']:

        v[l] = sum_{j<P} 2^j x[l,j]
        v[l] - v[l'] >= 1 - M o[l,l']
        v[l'] - v[l] >= 1 - M (1 - o[l,l'])
        minimize 0,   M = 2^P

    |v[l] - v[l']| <= 2^P - 1, so M = 2^P is the smallest M valid for every pair.
    Numerics: an o within the usual integrality tolerance 1e-6 of an integer moves
    M o by up to 1e-6 M. At P = 20 that is 1.05, which erases the gap of 1: HiGHS
    (through scipy) returned an empty 20 x 20 grid with two equal rows and
    o = 1 - 2^-20. Lines longer than ``MAX_ENCODED_LINE`` = 18 (1e-6 M = 0.26)
    therefore raise PuzzleError.
    """)
def integer_encoding(puzzle: Takuzu) -> Model:
    index = cell_index(puzzle)
    num_x = index.size
    if not puzzle.distinct_lines:
        return _core_model(puzzle, "integer-encoding")
    longest = max(puzzle.shape)
    if longest > MAX_ENCODED_LINE:
        raise PuzzleError(f"integer-encoding reads each line as a {longest}-bit number, and its big-M "
                          f"2^{longest} is numerically unsafe beyond {MAX_ENCODED_LINE} bits (the solvers' "
                          f"integrality tolerance times M passes 1/2); use binary or xor-distinct")
    kinds = [index, index.T]
    num_lines = [len(lines) for lines in kinds]
    num_pairs = [n * (n - 1) // 2 for n in num_lines]
    v_start = num_x + np.cumsum([0] + num_lines[:-1])
    o_start = num_x + sum(num_lines) + np.cumsum([0] + num_pairs[:-1])
    ncols = num_x + sum(num_lines) + sum(num_pairs)
    blocks = core_rows(puzzle, ncols)
    v_upper = []
    for lines, v0, o0, pairs in zip(kinds, v_start, o_start, num_pairs):
        count, length = lines.shape
        big_m = float(2 ** length)
        v = v0 + np.arange(count)
        blocks.append(rows_from_triplets(
            np.r_[np.arange(count), np.repeat(np.arange(count), length)], np.r_[v, lines.ravel()],
            np.r_[np.ones(count), -np.tile(2.0 ** np.arange(length), count)], count, ncols, 0.0, 0.0))
        first, second = np.triu_indices(count, 1)
        o = o0 + np.arange(pairs)
        p = np.arange(pairs)
        blocks.append(rows_from_triplets(
            np.r_[p, p, p, pairs + p, pairs + p, pairs + p],
            np.r_[v[first], v[second], o, v[first], v[second], o],
            np.r_[np.ones(pairs), -np.ones(pairs), np.full(pairs, big_m),
                  -np.ones(pairs), np.ones(pairs), np.full(pairs, -big_m)],
            2 * pairs, ncols, np.repeat([1.0, 1.0 - big_m], pairs), INF))
        v_upper.append(np.full(count, big_m - 1))
    lower, upper = cell_bounds(puzzle)
    col_upper = np.concatenate([upper, *v_upper, np.ones(sum(num_pairs))])
    col_lower = np.r_[lower, np.zeros(ncols - num_x)]
    return Model.from_rows(blocks, col_lower=col_lower, col_upper=col_upper,
                           integrality=np.ones(ncols, bool), decode=_grid_decoder(puzzle),
                           name=f"takuzu/integer-encoding/{puzzle.name}")


def equal_line_cuts(puzzle: Takuzu, x: np.ndarray) -> Rows | None:
    """No-good rows cutting off every pair of equal rows and equal columns of the
    integer solution ``x``, or None when all rows and all columns differ.

    For lines l, l' both equal to the pattern p in x, with ones(p) = {j : p_j = 1}:

        sum_{j in ones(p)} (x[l,j] + x[l',j]) - sum_{j not in ones(p)} (x[l,j] + x[l',j])
            <= 2 |ones(p)| - 1

    The left side reaches 2 |ones(p)| only when both lines equal p, so the row is
    valid for every solution in which l and l' differ; it cuts that one pattern
    for that one pair, not "l = l'" in general.
    """
    grid = _grid_decoder(puzzle)(x)
    index = cell_index(puzzle)
    ncols = len(x)
    blocks = []
    for lines, cells in ((grid, index), (grid.T, index.T)):
        first, second = np.triu_indices(len(lines), 1)
        equal = (lines[first] == lines[second]).all(axis=1)
        first, second = first[equal], second[equal]
        if not len(first):
            continue
        pattern = lines[first]
        sign = 2.0 * pattern - 1.0
        count, length = pattern.shape
        blocks.append(rows_from_triplets(
            np.repeat(np.arange(count), 2 * length),
            np.concatenate([cells[first], cells[second]], axis=1).ravel(),
            np.concatenate([sign, sign], axis=1).ravel(),
            count, ncols, -INF, 2.0 * pattern.sum(axis=1) - 1.0))
    return Rows.stack(blocks, ncols) if blocks else None


@formulation("takuzu", "lazy-distinct", description="""
    The binary model without the distinct-lines rows; with distinct lines, each
    integer solution found is separated: every pair of equal rows or columns gets
    a no-good row excluding that exact shared pattern for that pair, and the model
    is solved again until all lines differ. Without distinct lines it is the
    binary model.""",
              constraints="""The core rows only (module docstring), minimize 0; with ``distinct_lines``,
    ``Model.separate`` returns, for an integer solution x, the rows of
    :func:`equal_line_cuts` (one no-good per pair of equal lines), or None when all
    lines differ. The runner appends them and solves again; since each round cuts
    off the current x and there are finitely many grids, the loop terminates.
    """)
def lazy_distinct(puzzle: Takuzu) -> Model:
    separate = (lambda x: equal_line_cuts(puzzle, x)) if puzzle.distinct_lines else None
    return _core_model(puzzle, "lazy-distinct", separate)


@formulation("takuzu", "propagated", description="""
    Propagation to a fixpoint before modelling (two equal neighbours force the
    cells on either side, x.x forces the middle, a line with its half of one value
    fills the rest with the other), then the binary model with the cells
    propagation fixed as fixed columns and the rows on fixed cells only dropped.
    Propagation is timed as part of the build; a puzzle it solves is flagged
    solved in preprocessing.""",
              constraints="""Propagation (formulations/_propagate_takuzu.py) gives the set F of cells with one value
    left, f[i,j] for (i,j) in F.  The ``binary`` model (its core rows, and with
    ``distinct_lines`` its z rows) with

        x[i,j] = f[i,j] (bounds)             for (i,j) in F
        minimize 0

    and every row whose columns are all fixed left out (propagation guarantees it
    holds).  A contradiction found by propagation (an empty cell, or with
    distinct lines two equal complete lines) adds the row 0 = 1.
    """)
def propagated(puzzle: Takuzu) -> Model:
    cand, consistent = propagate_takuzu(puzzle.givens, puzzle.distinct_lines)
    model = _xor_model(puzzle, "propagated", exact=False)
    cells = cand.reshape(-1, 2)
    fixed = np.flatnonzero(cells.sum(axis=1) == 1)
    lower, upper = model.col_lower.copy(), model.col_upper.copy()
    lower[fixed] = upper[fixed] = cells[fixed, 1]
    keep = (abs(model.A) @ (lower < upper)) > 0
    blocks = [Rows(model.A[keep], model.row_lower[keep], model.row_upper[keep])]
    if not consistent:
        blocks.append(Rows(sp.csr_matrix((1, model.num_cols)), np.ones(1), np.ones(1)))
    result = Model.from_rows(blocks, col_lower=lower, col_upper=upper, integrality=model.integrality,
                             decode=model.decode, name=model.name)
    result.presolve_info["solved_in_preprocessing"] = consistent and len(fixed) == len(cells)
    return result


MAX_VALUE_LINE = 62
"""Longest line ``cp-natural`` reads as an integer: its value must fit CP-SAT's int64."""


@formulation("takuzu", "cp-natural", description="""
    The natural constraint-programming model: the binary model's cells and rows, and
    with distinct lines each line read as an integer v = sum_j 2^j x_j, the row
    values declared all-different and so are the column values.  CP-SAT adds
    AddAllDifferent and leaves out the z rows; MIP solvers, which ignore the
    declaration, get the binary model's z rows.  Without distinct lines it is the
    binary model.""",
              constraints="""The ``binary`` model, and with ``distinct_lines`` an integer v[l] in [0, 2^P - 1] for
    every line l of P cells with

        v[l] - sum_{j<P} 2^j x[l,j] = 0
        all_different(v[l] : l a row),  all_different(v[l] : l a column)   (declared)

    The z rows are marked as the declarations' encoding: CP-SAT solves the core
    rows, the v rows and AddAllDifferent (the z columns left free); MIP solvers
    solve the ``binary`` model (v is determined by x).  Lines longer than
    ``MAX_VALUE_LINE`` = 62 raise PuzzleError.
    """)
def cp_natural(puzzle: Takuzu) -> Model:
    model = _xor_model(puzzle, "cp-natural", exact=False)
    if not puzzle.distinct_lines:
        return model
    if max(puzzle.shape) > MAX_VALUE_LINE:
        raise PuzzleError(f"cp-natural reads each line as a {max(puzzle.shape)}-bit integer; "
                          f"at most {MAX_VALUE_LINE} bits fit; use binary")
    index = cell_index(puzzle)
    lines = [index, index.T]
    count = sum(len(cells) for cells in lines)
    v = model.num_cols + np.arange(count)
    ncols = model.num_cols + count
    line_cells = [cells[i] for cells in lines for i in range(len(cells))]
    lengths = np.array([len(cells) for cells in line_cells])
    link = rows_from_triplets(np.r_[np.arange(count), np.repeat(np.arange(count), lengths)],
                              np.r_[v, np.concatenate(line_cells)],
                              np.r_[np.ones(count), -np.concatenate([2.0 ** np.arange(n) for n in lengths])],
                              count, ncols, 0.0, 0.0)
    rows = Rows(sp.hstack([model.A, sp.csr_matrix((model.num_rows, count))], format="csr"),
                model.row_lower, model.row_upper)
    return Model.from_rows([rows, link], col_lower=np.r_[model.col_lower, np.zeros(count)],
                           col_upper=np.r_[model.col_upper, 2.0 ** lengths - 1],
                           integrality=np.ones(ncols, bool), decode=model.decode, name=model.name,
                           all_different=[v[:len(index)], v[len(index):]],
                           all_different_rows=np.arange(core_row_count(puzzle), model.num_rows))
