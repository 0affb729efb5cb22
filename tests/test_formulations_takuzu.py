"""The Takuzu formulations, solved with scipy's HiGHS MILP and checked against the rules."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, milp

from puzzlebench.checker import check
from puzzlebench.errors import PuzzleError
from puzzlebench.formulations.takuzu import core_rows, equal_line_cuts, line_pairs
from puzzlebench.model import INF, Model, rows_from_triplets
from puzzlebench.puzzles import Takuzu
from puzzlebench.registry import formulations, get_formulation

NAMES = ["binary", "xor-distinct", "integer-encoding", "lazy-distinct"]
DISTINCT_BY_ROWS = ["binary", "xor-distinct", "integer-encoding"]

# The seed post's example (fjmartincampo.com/blog/2026/binarysudoku) and its solution,
# which is unique with and without the distinct-lines rule.
SEED = """.0.....1
0.0.1...
.....11.
00..1...
0.1...10
...1..0.
....1.0.
1..1...0"""
SEED_SOLUTION = """10100101
01011010
10010110
00101101
01101010
10010101
01101001
11010010"""

# 6x6 givens with two solutions under the count and no-three rules: EQUAL_ROWS (rows 3
# and 6 equal) and DISTINCT; only DISTINCT keeps every row and column different.
TWO_SOLUTIONS = """......
1...1.
..1...
..1.1.
0....0
.11..."""
EQUAL_ROWS = """100101
100110
011001
101010
010110
011001"""
DISTINCT = """100101
110010
001101
101010
010110
011001"""


def grid(text: str) -> np.ndarray:
    return np.array([[-1 if ch == "." else int(ch) for ch in line] for line in text.split()])


def solve(model: Model):
    """scipy.optimize.milp on the model's arrays; returns the OptimizeResult (status 0 optimal, 2 infeasible)."""
    return milp(model.objective, constraints=LinearConstraint(model.A, model.row_lower, model.row_upper),
                bounds=Bounds(model.col_lower, model.col_upper), integrality=model.integrality.astype(int),
                options={"time_limit": 60})


def solve_lazily(model: Model, max_rounds: int = 100):
    """Solve, add the separated rows, solve again until ``separate`` returns None.

    Returns the last result and the number of rounds that added rows."""
    rounds = 0
    while True:
        result = solve(model)
        if result.status != 0 or model.separate is None:
            return result, rounds
        cuts = model.separate(result.x)
        if cuts is None:
            return result, rounds
        assert (cuts.A @ result.x > cuts.upper + 0.5).all()  # every row cuts off the current x
        model = model.with_rows(cuts)
        rounds += 1
        assert rounds <= max_rounds


def solve_formulation(name: str, puzzle: Takuzu):
    model = get_formulation("takuzu", name).build(puzzle)
    result, _ = solve_lazily(model)
    return model, result


def with_fixed_grid(model: Model, fixed: np.ndarray) -> Model:
    """The model with its first R*C columns (the cells) fixed to ``fixed``."""
    lower, upper = model.col_lower.copy(), model.col_upper.copy()
    lower[:fixed.size] = upper[:fixed.size] = fixed.ravel()
    return replace(model, col_lower=lower, col_upper=upper)


def seed_post_distinct_model(puzzle: Takuzu) -> Model:
    """The seed post's distinct-lines rows as reconstructed (formulations/takuzu.py): z >= x - x',
    z >= x' - x, sum_j z >= 1, for every pair of rows and of columns (z bounded from below only)."""
    rows, cols = puzzle.shape
    index = np.arange(rows * cols).reshape(rows, cols)
    pairs = [line_pairs(lines) for lines in (index, index.T)]
    num_z = sum(first.size for first, _ in pairs)
    ncols = rows * cols + num_z
    blocks = core_rows(puzzle, ncols)
    start = rows * cols
    for first, second in pairs:
        count, length = first.shape
        z = start + np.arange(first.size)
        e = np.arange(first.size)
        for sign in (1.0, -1.0):
            blocks.append(rows_from_triplets(np.tile(e, 3), np.concatenate([z, first.ravel(), second.ravel()]),
                                             np.concatenate([np.ones(e.size), -sign * np.ones(e.size),
                                                             sign * np.ones(e.size)]),
                                             e.size, ncols, 0.0, INF))
        blocks.append(rows_from_triplets(np.repeat(np.arange(count), length), z, 1.0, count, ncols, 1.0, INF))
        start += first.size
    g = puzzle.givens.ravel()
    lower = np.r_[np.where(g >= 0, g, 0), np.zeros(num_z)]
    upper = np.r_[np.where(g >= 0, g, 1), np.ones(num_z)]
    return Model.from_rows(blocks, col_lower=lower, col_upper=upper, integrality=np.ones(ncols, bool),
                           decode=lambda x: np.rint(x[:rows * cols]).astype(int).reshape(rows, cols))


def test_the_four_formulations_are_registered():
    assert set(NAMES) <= {f.name for f in formulations("takuzu")}
    for f in formulations("takuzu"):
        assert f.description and f.constraints


@pytest.mark.parametrize("distinct", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_seed_instance_solves(name, distinct):
    puzzle = Takuzu(grid(SEED), distinct_lines=distinct, name="fjmc_blog2026")
    model, result = solve_formulation(name, puzzle)
    assert model.name == f"takuzu/{name}/fjmc_blog2026"
    assert result.status == 0
    solution = model.decode(result.x)
    assert check(puzzle, solution) == []
    assert (solution == grid(SEED_SOLUTION)).all()


def test_two_solution_instance_has_one_solution_with_equal_rows():
    puzzle = Takuzu(grid(TWO_SOLUTIONS))
    model = get_formulation("takuzu", "binary").build(puzzle)
    found = []
    while (result := solve(model)).status == 0:
        x = np.rint(result.x)
        found.append(model.decode(x).tobytes())
        ones = np.flatnonzero(x == 1)
        model = model.with_rows(rows_from_triplets(np.zeros(len(ones), int), ones, 1.0, 1, model.num_cols,
                                                   -INF, len(ones) - 1))
        assert len(found) <= 2
    assert set(found) == {grid(EQUAL_ROWS).tobytes(), grid(DISTINCT).tobytes()}
    strict = Takuzu(grid(TWO_SOLUTIONS), distinct_lines=True)
    assert check(strict, grid(EQUAL_ROWS)) == ["rows 3 and 6 are equal"]
    assert check(strict, grid(DISTINCT)) == []


@pytest.mark.parametrize("name", NAMES)
def test_distinct_lines_exclude_the_solution_with_equal_rows(name):
    puzzle = Takuzu(grid(TWO_SOLUTIONS), distinct_lines=True, name="two")
    model, result = solve_formulation(name, puzzle)
    assert result.status == 0
    solution = model.decode(result.x)
    assert check(puzzle, solution) == []
    assert (solution == grid(DISTINCT)).all()


@pytest.mark.parametrize("name", DISTINCT_BY_ROWS)
def test_seed_post_version_accepts_equal_rows_and_the_fix_does_not(name):
    """With the cells fixed to EQUAL_ROWS, the post's one-sided XOR rows are satisfiable
    (z = 1 everywhere) although ``check`` rejects the grid; the fixed rows are not."""
    puzzle = Takuzu(grid(TWO_SOLUTIONS), distinct_lines=True)
    bad = grid(EQUAL_ROWS)
    assert check(puzzle, bad) != []
    post = solve(with_fixed_grid(seed_post_distinct_model(puzzle), bad))
    assert post.status == 0
    assert check(puzzle, seed_post_distinct_model(puzzle).decode(post.x)) == ["rows 3 and 6 are equal"]
    fixed = get_formulation("takuzu", name).build(puzzle)
    assert solve(with_fixed_grid(fixed, bad)).status == 2
    assert solve(with_fixed_grid(fixed, grid(DISTINCT))).status == 0


def test_seed_post_version_returns_equal_rows_when_steered_there():
    """Maximising agreement with EQUAL_ROWS: the post's model returns it, ``binary`` does not."""
    puzzle = Takuzu(grid(TWO_SOLUTIONS), distinct_lines=True)
    steer = (1.0 - 2.0 * grid(EQUAL_ROWS)).ravel()
    for model, expected in ((seed_post_distinct_model(puzzle), EQUAL_ROWS),
                            (get_formulation("takuzu", "binary").build(puzzle), DISTINCT)):
        objective = np.zeros(model.num_cols)
        objective[:steer.size] = steer
        result = solve(replace(model, objective=objective))
        assert (model.decode(result.x) == grid(expected)).all()


def test_lazy_loop_cuts_equal_rows_and_converges():
    """Steered to EQUAL_ROWS first, the loop must add a cut and end at DISTINCT."""
    puzzle = Takuzu(grid(TWO_SOLUTIONS), distinct_lines=True)
    model = get_formulation("takuzu", "lazy-distinct").build(puzzle)
    steered = replace(model, objective=(1.0 - 2.0 * grid(EQUAL_ROWS)).ravel())
    assert (model.decode(solve(steered).x) == grid(EQUAL_ROWS)).all()
    result, rounds = solve_lazily(steered)
    assert rounds >= 1
    assert check(puzzle, model.decode(result.x)) == []
    assert (model.decode(result.x) == grid(DISTINCT)).all()


def test_equal_line_cuts_cut_the_equal_pair_only():
    puzzle = Takuzu(grid(TWO_SOLUTIONS), distinct_lines=True)
    model = get_formulation("takuzu", "lazy-distinct").build(puzzle)
    bad, good = grid(EQUAL_ROWS).ravel().astype(float), grid(DISTINCT).ravel().astype(float)
    cuts = equal_line_cuts(puzzle, bad)
    assert cuts.A.shape == (1, 36)
    assert cuts.A @ bad > cuts.upper
    assert cuts.A @ good <= cuts.upper
    assert equal_line_cuts(puzzle, good) is None
    assert model.separate(good) is None
    # the cut is the no-good of pattern 011001 on rows 3 and 6 (1-based)
    row = cuts.A.toarray().reshape(6, 6)
    assert (row[[0, 1, 3, 4]] == 0).all()
    assert (row[2] == row[5]).all() and (row[2] == [-1, 1, 1, -1, -1, 1]).all()
    assert cuts.upper[0] == 2 * 3 - 1


def test_equal_line_cuts_cover_every_equal_pair_of_rows_and_columns():
    puzzle = Takuzu(-np.ones((4, 4), int), distinct_lines=True)
    x = np.array([[0, 0, 1, 1], [0, 0, 1, 1], [1, 1, 0, 0], [1, 1, 0, 0]]).ravel().astype(float)
    cuts = equal_line_cuts(puzzle, x)
    assert cuts.A.shape[0] == 4  # rows 1=2, 3=4 and columns 1=2, 3=4
    assert (cuts.A @ x > cuts.upper).all()


def test_lazy_distinct_without_distinct_lines_has_no_separation():
    assert get_formulation("takuzu", "lazy-distinct").build(Takuzu(grid(SEED))).separate is None


# Givens puzzles.py accepts (counts and given triples are fine) but no grid completes:
INFEASIBLE = {
    # column 1 is 1 1 ? ?, so it is 1 1 0 0 and row 3 gets three 0s
    "4x4": """1...
1...
.0.0
....""",
    # column 5 is 1 1 ? ? ? 1: its missing 0s form three in a row
    "6x6": """....1.
....1.
......
......
......
....1.""",
}


@pytest.mark.parametrize("distinct", [False, True])
@pytest.mark.parametrize("instance", sorted(INFEASIBLE))
@pytest.mark.parametrize("name", NAMES)
def test_jointly_infeasible_givens_are_reported_infeasible(name, instance, distinct):
    puzzle = Takuzu(grid(INFEASIBLE[instance]), distinct_lines=distinct)
    assert solve_formulation(name, puzzle)[1].status == 2


@pytest.mark.parametrize("name", NAMES)
def test_givens_infeasible_only_with_distinct_lines(name):
    """Rows 1 and 2 are forced to 0011 (neither is fully given, so puzzles.py accepts it)."""
    givens = grid("00..\n00..\n....\n....")
    assert solve_formulation(name, Takuzu(givens))[1].status == 0
    assert solve_formulation(name, Takuzu(givens, distinct_lines=True))[1].status == 2


def test_model_sizes():
    rows, cols = 6, 8
    cells = rows * cols
    core = rows + cols + rows * (cols - 2) + cols * (rows - 2)
    plain = Takuzu(-np.ones((rows, cols), int))
    strict = Takuzu(-np.ones((rows, cols), int), distinct_lines=True)
    build = {name: get_formulation("takuzu", name).build for name in NAMES}
    for name in NAMES:
        stats = build[name](plain).stats()
        assert (stats.rows, stats.cols, stats.binaries, stats.integers) == (core, cells, cells, 0)
    row_pairs, col_pairs = rows * (rows - 1) // 2, cols * (cols - 1) // 2
    num_z = row_pairs * cols + col_pairs * rows
    binary, xor = build["binary"](strict).stats(), build["xor-distinct"](strict).stats()
    assert (binary.cols, binary.binaries, binary.integers) == (cells + num_z, cells + num_z, 0)
    assert binary.rows == core + 2 * num_z + row_pairs + col_pairs
    assert xor.cols == binary.cols and xor.rows == binary.rows + 2 * num_z
    encoded = build["integer-encoding"](strict).stats()
    assert encoded.integers == rows + cols
    assert encoded.binaries == cells + row_pairs + col_pairs
    assert encoded.rows == core + rows + cols + 2 * (row_pairs + col_pairs)
    assert build["lazy-distinct"](strict).stats().rows == core


def test_integer_encoding_big_m_and_line_limit():
    strict = Takuzu(-np.ones((4, 6), int), distinct_lines=True)
    model = get_formulation("takuzu", "integer-encoding").build(strict)
    assert model.col_upper.max() == 2 ** 6 - 1
    assert set(np.abs(model.A.data)) >= {2.0 ** 5, 2.0 ** 6, 2.0 ** 4}
    get_formulation("takuzu", "integer-encoding").build(Takuzu(-np.ones((18, 18), int), distinct_lines=True))
    with pytest.raises(PuzzleError, match="20-bit"):
        get_formulation("takuzu", "integer-encoding").build(Takuzu(-np.ones((4, 20), int), distinct_lines=True))
    # without the distinct rule no encoding is built, so any size is fine
    get_formulation("takuzu", "integer-encoding").build(Takuzu(-np.ones((20, 20), int)))
