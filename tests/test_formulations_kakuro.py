"""The Kakuro formulations, solved with scipy's HiGHS MILP and checked against the rules."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, milp

from puzzlebench.checker import check
from puzzlebench.formulations._combinations import cage_combinations


def run_combinations(size, total):
    return cage_combinations(size, total, 9).astype(bool)
from puzzlebench.model import Model, rows_from_triplets
from puzzlebench.puzzles import Kakuro
from puzzlebench.registry import formulations, get_formulation

NAMES = ["binary", "binary-symbreak", "combinations", "integer"]
DATA = Path(__file__).parent / "data"

# The seed post's example (fjmartincampo.com/blog/2026/kakuro), "D\A" = down and across clues.
SEED_GRID = [
    ["#", "23\\", "16\\", "10\\", "#"],
    ["\\14", ".", ".", ".", "3\\"],
    ["\\16", ".", ".", ".", "."],
    ["\\14", ".", ".", ".", "."],
    ["#", "\\8", ".", ".", "#"],
]

# janko.at Kakuro via puzzlekit-dataset (github.com/SmilingWayne/puzzlekit-dataset @ 53de2fcb):
# `problem` rows, "-" black, "0" white, "D,A" clue; `solution` rows, "-" for non-white cells.
JANKO = {
    "282_6x6": ("""- - 32, 12, 16, -
- 18,6 0 0 0 8,
,34 0 0 0 0 0
,13 0 0 10,4 0 0
,30 0 0 0 0 0
- ,9 0 0 0 -""", """- - - - - -
- - 2 3 1 -
- 8 7 9 6 4
- 4 9 - 3 1
- 6 8 9 4 3
- - 6 1 2 -"""),
    "91_6x6": ("""- 12, 21, - 16, 13,
,17 0 0 22,11 0 0
,15 0 0 0 0 0
- 4,13 0 0 0 10,
,18 0 0 0 0 0
,10 0 0 ,14 0 0""", """- - - - - -
- 9 8 - 2 9
- 3 2 5 1 4
- - 1 9 3 -
- 1 3 8 4 2
- 3 7 - 6 8"""),
    "92_6x6": ("""- - - 3, 11, 23,
- - 28,10 0 0 0
- 7,15 0 0 0 0
,12 0 0 4,16 0 0
,10 0 0 0 - -
,13 0 0 0 - -""", """- - - - - -
- - - 1 3 6
- - 4 2 1 8
- 4 8 - 7 9
- 2 7 1 - -
- 1 9 3 - -"""),
}


def solve(model: Model):
    """scipy.optimize.milp on the model's arrays; returns the OptimizeResult (status 0 optimal, 2 infeasible)."""
    return milp(model.objective, constraints=LinearConstraint(model.A, model.row_lower, model.row_upper),
                bounds=Bounds(model.col_lower, model.col_upper), integrality=model.integrality.astype(int),
                options={"time_limit": 60})


def kakuro_from_cells(cells: list[list[str]], sep: str, name: str) -> Kakuro:
    """White / across / down layers from cell tokens: white "." or "0", clue "D<sep>A"."""
    shape = (len(cells), len(cells[0]))
    white, across, down = np.zeros(shape, bool), np.zeros(shape, int), np.zeros(shape, int)
    for r, row in enumerate(cells):
        for c, token in enumerate(row):
            if token in (".", "0"):
                white[r, c] = True
            elif sep in token:
                d, a = token.split(sep)
                down[r, c], across[r, c] = int(d or 0), int(a or 0)
    return Kakuro(white, across, down, name=name)


def seed_kakuro() -> Kakuro:
    return kakuro_from_cells(SEED_GRID, "\\", "fjmc_blog2026")


def janko_kakuro(name: str) -> tuple[Kakuro, np.ndarray]:
    problem, solution = JANKO[name]
    puzzle = kakuro_from_cells([line.split() for line in problem.splitlines()], ",", name)
    grid = np.array([[0 if t == "-" else int(t) for t in line.split()] for line in solution.splitlines()])
    return puzzle, grid


def seed_solutions() -> list[np.ndarray]:
    """The 17 solutions of the seed instance, found by exhaustive backtracking (tests/data)."""
    rows = json.loads((DATA / "kakuro_fjmc_blog2026_all_solutions.json").read_text())["solutions"]
    return [np.array([[0 if ch == "#" else int(ch) for ch in line] for line in s]) for s in rows]


def build(name: str, puzzle: Kakuro) -> Model:
    return get_formulation("kakuro", name).build(puzzle)


def test_the_four_formulations_are_registered():
    assert set(NAMES) <= {f.name for f in formulations("kakuro")}
    for f in formulations("kakuro"):
        assert f.description and "sum" in f.constraints


@pytest.mark.parametrize("name", NAMES)
def test_seed_instance_solves_to_one_of_its_17_solutions(name):
    puzzle = seed_kakuro()
    model = build(name, puzzle)
    assert model.name == f"kakuro/{name}/fjmc_blog2026"
    result = solve(model)
    assert result.status == 0
    grid = model.decode(result.x)
    assert check(puzzle, grid) == []
    assert any((grid == s).all() for s in seed_solutions())


def test_seed_instance_has_17_solutions_not_one():
    """The post calls its example unique; no-good cuts over the binary model find 17."""
    puzzle = seed_kakuro()
    model = build("binary", puzzle)
    found = []
    while (result := solve(model)).status == 0:
        x = np.rint(result.x)
        grid = model.decode(x)
        assert check(puzzle, grid) == []
        found.append(grid)
        ones = np.flatnonzero(x == 1)
        model = model.with_rows(rows_from_triplets(np.zeros(len(ones), int), ones, 1.0, 1, model.num_cols,
                                                   -np.inf, len(ones) - 1))
        assert len(found) <= 17
    assert result.status == 2
    expected = {g.tobytes() for g in seed_solutions()}
    assert len(found) == 17 and {g.tobytes() for g in found} == expected


def grid_columns(name: str, puzzle: Kakuro, grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The model columns that encode the grid, and their values for ``grid``."""
    digits = grid[puzzle.white]
    if name == "integer":
        return np.arange(len(digits)), digits.astype(float)
    onehot = (digits[:, None] == np.arange(1, 10)).astype(float).ravel()
    return np.arange(onehot.size), onehot


@pytest.mark.parametrize("name", NAMES)
def test_every_seed_solution_is_feasible(name):
    """No formulation cuts off a valid grid. The seed solutions put 9 and 1 in one run
    (e.g. 9 1 4 across row 2), which a big-M of 8 in ``integer`` would forbid."""
    puzzle = seed_kakuro()
    model = build(name, puzzle)
    for grid in seed_solutions():
        cols, values = grid_columns(name, puzzle, grid)
        lower, upper = model.col_lower.copy(), model.col_upper.copy()
        lower[cols] = upper[cols] = values
        fixed = Model(model.A, model.row_lower, model.row_upper, lower, upper, model.integrality,
                      model.objective, model.decode)
        result = solve(fixed)
        assert result.status == 0
        assert (model.decode(result.x) == grid).all()


@pytest.mark.parametrize("instance", sorted(JANKO))
@pytest.mark.parametrize("name", NAMES)
def test_janko_instances_match_the_reference_solution(name, instance):
    puzzle, reference = janko_kakuro(instance)
    assert check(puzzle, reference) == []
    model = build(name, puzzle)
    result = solve(model)
    assert result.status == 0
    assert (model.decode(result.x) == reference).all()


def infeasible_kakuro() -> Kakuro:
    """Across 3 = {1,2} over 5, down 4 = {1,3} and 4 = {1,3}: the clue totals agree (8 = 8)
    and every clue is possible alone, but both top cells would have to be 1."""
    cells = [["#", "4\\", "4\\"], ["\\3", ".", "."], ["\\5", ".", "."]]
    return kakuro_from_cells(cells, "\\", "infeasible")


@pytest.mark.parametrize("name", NAMES)
def test_jointly_infeasible_clues_are_reported_infeasible(name):
    assert solve(build(name, infeasible_kakuro())).status == 2


def test_model_sizes():
    puzzle = seed_kakuro()
    white, runs = int(puzzle.white.sum()), len(puzzle.runs)
    pairs = sum(len(r.cells) * (len(r.cells) - 1) // 2 for r in puzzle.runs)
    sets = sum(len(run_combinations(len(r.cells), r.total)) for r in puzzle.runs)
    binary = build("binary", puzzle).stats()
    assert (binary.rows, binary.cols, binary.binaries, binary.integers) == (white + 10 * runs, 9 * white, 9 * white, 0)
    combos = build("combinations", puzzle).stats()
    assert (combos.rows, combos.cols, combos.binaries) == (white + 10 * runs, 9 * white + sets, 9 * white + sets)
    integer = build("integer", puzzle).stats()
    assert (integer.rows, integer.cols, integer.binaries, integer.integers) == (runs + 2 * pairs, white + pairs,
                                                                                pairs, white)


def test_symbreak_objective_is_constant_on_the_lp_relaxation():
    """Sum of all digits = sum of the across clues for every LP point: min = max."""
    puzzle = seed_kakuro()
    model = build("binary-symbreak", puzzle)
    across = sum(run.total for run in puzzle.runs if run.direction == "across")
    for sign in (1, -1):
        lp = milp(sign * model.objective, constraints=LinearConstraint(model.A, model.row_lower, model.row_upper),
                  bounds=Bounds(model.col_lower, model.col_upper))
        assert lp.status == 0
        assert model.objective @ lp.x == pytest.approx(across)


@pytest.mark.parametrize("size", range(1, 10))
def test_run_combinations_match_brute_force(size):
    for total in range(size * (size + 1) // 2, size * (19 - size) // 2 + 1):
        expected = {s for s in combinations(range(1, 10), size) if sum(s) == total}
        mask = run_combinations(size, total)
        got = {tuple(np.flatnonzero(row) + 1) for row in mask}
        assert got == expected and len(mask) == len(expected)
    assert [tuple(np.flatnonzero(r) + 1) for r in run_combinations(2, 10)] == [(1, 9), (2, 8), (3, 7), (4, 6)]
