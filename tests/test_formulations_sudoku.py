"""The Sudoku formulations, solved with scipy's HiGHS MILP and checked against the rules."""

from __future__ import annotations

import highspy
import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, milp

from puzzlebench.checker import check
from puzzlebench.model import Model
from puzzlebench.puzzles import Sudoku
from puzzlebench.registry import formulations, get_formulation

NAMES = ["binary", "binary-symbreak", "binary-reduced", "integer", "integer-linked"]

MATLAB_CLUES = ".2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2."
MATLAB_SOLUTION = ("925631847618574293374982561749826135852413976163795482287359614"
                   "491267358536148729")


def solve(model: Model):
    """scipy.optimize.milp on the model's arrays; returns the OptimizeResult (status 0 optimal, 2 infeasible)."""
    return milp(model.objective, constraints=LinearConstraint(model.A, model.row_lower, model.row_upper),
                bounds=Bounds(model.col_lower, model.col_upper), integrality=model.integrality.astype(int),
                options={"time_limit": 60})


def digits(text: str) -> np.ndarray:
    n = int(round(len(text) ** 0.5))
    return np.array([0 if ch == "." else int(ch) for ch in text]).reshape(n, n)


def pattern_grid(box_rows: int, box_cols: int, seed: int) -> np.ndarray:
    """A valid grid from the pattern (bc*(r % br) + r // br + c) mod N, with its digits, rows
    within bands, bands, columns within stacks and stacks shuffled."""
    rng = np.random.default_rng(seed)
    n = box_rows * box_cols
    r, c = np.arange(n)[:, None], np.arange(n)[None, :]
    grid = (box_cols * (r % box_rows) + r // box_rows + c) % n + 1
    relabel = rng.permutation(n) + 1
    rows = np.concatenate([b * box_rows + rng.permutation(box_rows) for b in rng.permutation(n // box_rows)])
    cols = np.concatenate([s * box_cols + rng.permutation(box_cols) for s in rng.permutation(n // box_cols)])
    return relabel[grid[rows][:, cols] - 1]


def puzzle_from_grid(box_rows: int, box_cols: int, keep: float, seed: int) -> Sudoku:
    grid = pattern_grid(box_rows, box_cols, seed)
    n = box_rows * box_cols
    mask = np.random.default_rng(seed + 1000).random((n, n)) < keep
    return Sudoku(grid * mask, box_rows, box_cols, name=f"pattern{n}x{n}")


INSTANCES = {
    "4x4": lambda: puzzle_from_grid(2, 2, 0.4, 0),
    "6x6-2x3": lambda: puzzle_from_grid(2, 3, 0.4, 1),
    "6x6-3x2": lambda: puzzle_from_grid(3, 2, 0.4, 2),
    "9x9-matlab": lambda: Sudoku(digits(MATLAB_CLUES), name="matlab_cleve"),
    "12x12-3x4": lambda: puzzle_from_grid(3, 4, 0.5, 3),
    "16x16": lambda: puzzle_from_grid(4, 4, 0.6, 4),
}

# Givens individually consistent, jointly infeasible: row 1 holds 1 and 2, column 3 holds 3
# and 4, so cell (1, 3) has no digit left.
INFEASIBLE = np.array([[1, 2, 0, 0],
                       [0, 0, 0, 0],
                       [0, 0, 3, 0],
                       [0, 0, 4, 0]])


def build(name: str, puzzle) -> Model:
    return get_formulation("sudoku", name).build(puzzle)


def test_every_formulation_is_registered_with_math():
    registered = {f.name: f for f in formulations("sudoku")}
    assert set(NAMES) <= set(registered)
    for name in NAMES:
        assert "s.t." in registered[name].constraints and registered[name].description


def test_pattern_grids_are_valid():
    for br, bc in [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4), (5, 5)]:
        grid = pattern_grid(br, bc, seed=br * 10 + bc)
        assert check(Sudoku(grid, br, bc), grid) == []


@pytest.mark.parametrize("instance", list(INSTANCES))
@pytest.mark.parametrize("name", NAMES)
def test_solution_obeys_rules_and_keeps_givens(name, instance):
    puzzle = INSTANCES[instance]()
    model = build(name, puzzle)
    result = solve(model)
    assert result.status == 0, result.message
    assert model.is_feasible(result.x)
    grid = model.decode(result.x)
    assert grid.shape == puzzle.shape
    assert check(puzzle, grid) == []
    given = puzzle.givens > 0
    assert (grid[given] == puzzle.givens[given]).all()


@pytest.mark.parametrize("name", NAMES)
def test_matlab_example_has_its_unique_solution(name):
    puzzle = INSTANCES["9x9-matlab"]()
    model = build(name, puzzle)
    grid = model.decode(solve(model).x)
    assert "".join(map(str, grid.ravel())) == MATLAB_SOLUTION


@pytest.mark.parametrize("name", NAMES)
def test_jointly_infeasible_givens_are_reported_infeasible(name):
    puzzle = Sudoku(INFEASIBLE, name="no-digit-for-1-3")
    assert solve(build(name, puzzle)).status == 2


def test_reduced_model_writes_the_empty_row_for_a_cell_without_candidates():
    model = build("binary-reduced", Sudoku(INFEASIBLE))
    empty = np.flatnonzero(np.diff(model.A.indptr) == 0)
    assert len(empty) >= 1
    assert (model.row_lower[empty] == 1).all() and (model.row_upper[empty] == 1).all()


def test_binary_rows_accept_exactly_the_valid_grids():
    puzzle = Sudoku(digits(MATLAB_CLUES))
    solution = digits(MATLAB_SOLUTION)
    model = build("binary", puzzle)
    x = np.zeros(model.num_cols)
    x[np.arange(81) * 9 + solution.ravel() - 1] = 1
    assert model.is_feasible(x)
    broken = solution.copy()
    broken[[7, 8], 0] = broken[[8, 7], 0]  # swap two cells of column 1: rows 8 and 9 now repeat digits
    x_broken = np.zeros(model.num_cols)
    x_broken[np.arange(81) * 9 + broken.ravel() - 1] = 1
    assert check(puzzle, broken) != []
    assert not model.is_feasible(x_broken)


def test_reduced_model_has_one_column_per_candidate():
    puzzle = Sudoku(digits(MATLAB_CLUES))
    units = puzzle.units()
    flat = puzzle.givens.ravel()
    expected = 0
    for cell in np.flatnonzero(flat == 0):
        seen = {int(flat[c]) for u in units if cell in u for c in u}
        expected += len(set(range(1, 10)) - seen)
    reduced, full = build("binary-reduced", puzzle), build("binary", puzzle)
    assert reduced.num_cols == expected
    assert reduced.num_cols < full.num_cols


def test_linked_model_decodes_y_consistently_with_x():
    puzzle = INSTANCES["9x9-matlab"]()
    model = build("integer-linked", puzzle)
    x = solve(model).x
    from_x = build("binary", puzzle).decode(x[: 9 ** 3])
    assert (model.decode(x) == from_x).all()


def test_symbreak_objective_is_constant_over_solutions():
    puzzle = INSTANCES["6x6-2x3"]()
    result = solve(build("binary-symbreak", puzzle))
    assert result.fun == pytest.approx(36 * 7 / 2)


def test_stats_count_binaries_and_integers():
    puzzle = Sudoku(np.zeros((9, 9), int), name="blank")
    assert build("binary", puzzle).stats().binaries == 729
    assert build("binary", puzzle).stats().integers == 0
    linked = build("integer-linked", puzzle).stats()
    assert (linked.binaries, linked.integers, linked.cols) == (729, 81, 810)
    integer = build("integer", puzzle).stats()
    assert integer.integers == 81
    assert integer.binaries == 81 * 20 // 2  # each cell has 20 peers; one order binary per pair
    assert integer.rows == 2 * integer.binaries + 27  # two rows per pair, one sum per unit


def test_integer_model_skips_pairs_of_two_givens():
    blank = build("integer", Sudoku(np.zeros((4, 4), int)))
    puzzle = Sudoku(np.array([[1, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]))
    assert blank.num_cols - build("integer", puzzle).num_cols == 1  # the pair (1,1)-(1,2)


@pytest.mark.parametrize("name", NAMES)
def test_model_name_and_mps_round_trip(name, tmp_path):
    puzzle = INSTANCES["4x4"]()
    model = build(name, puzzle)
    assert model.name == f"sudoku/{name}/{puzzle.name}"
    path = tmp_path / "model.mps"
    model.to_mps(path)
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    assert highs.readModel(str(path)) == highspy.HighsStatus.kOk
    lp = highs.getLp()
    assert (lp.num_row_, lp.num_col_) == (model.num_rows, model.num_cols)
    assert highs.getNumNz() == model.A.nnz


def test_units_follow_the_box_shape():
    """A 6x6 grid valid for 2x3 boxes but not for 3x2 boxes: only the 2x3 model accepts it."""
    grid = pattern_grid(2, 3, seed=5)
    blank = np.zeros((6, 6), int)
    wide, tall = Sudoku(blank, 2, 3), Sudoku(blank, 3, 2)
    assert check(wide, grid) == [] and check(tall, grid) != []
    x = np.zeros(216)
    x[np.arange(36) * 6 + grid.ravel() - 1] = 1
    assert build("binary", wide).is_feasible(x)
    assert not build("binary", tall).is_feasible(x)
