"""The Killer Sudoku formulations, solved with scipy's HiGHS MILP and checked against the rules."""

from __future__ import annotations

from itertools import combinations

import highspy
import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, milp

from puzzlebench.formulations._sudoku_common import assignment_model
from puzzlebench.errors import PuzzleError
from puzzlebench.formulations import _combinations
from puzzlebench.formulations.killer import admissible_sets, cage_combinations, cage_rows
from puzzlebench.checker import check
from puzzlebench.model import Model
from puzzlebench.puzzles import Cage, KillerSudoku
from puzzlebench.registry import formulations, get_formulation

NAMES = ["binary", "binary-symbreak", "combinations", "integer"]

# fjmartincampo.com/blog/2026/sudokukiller, as transcribed in instances-seed/killer_sudoku/fjmc_blog2026.json
SEED_CAGE_MAP = ["AABCCCDEE", "FFBBGHDDI", "JBBGGHKKI", "JLMMNOOPI", "QLLMNORPP",
                 "QSSTUURVV", "WWWTTXYZZ", "aWbbXXYYc", "addeXfffc"]
SEED_SUMS = {"A": 10, "B": 32, "C": 21, "D": 14, "E": 6, "F": 6, "G": 8, "H": 7, "I": 21, "J": 14,
             "K": 10, "L": 20, "M": 11, "N": 6, "O": 20, "P": 8, "Q": 5, "R": 12, "S": 11, "T": 19,
             "U": 10, "V": 10, "W": 15, "X": 20, "Y": 16, "Z": 13, "a": 12, "b": 9, "c": 13, "d": 10,
             "e": 5, "f": 11}
SEED_SOLUTION = ("915687342427913568683254197871345926349726851256891473132479685"
                 "598162734764538219")

# Two 4x4 Sudoku grids meeting the same cages; only the first has distinct diagonals.
X_VALID = np.array([[1, 2, 3, 4], [3, 4, 1, 2], [4, 3, 2, 1], [2, 1, 4, 3]])
X_BROKEN = np.array([[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]])


def solve(model: Model):
    """scipy.optimize.milp on the model's arrays; returns the OptimizeResult (status 0 optimal, 2 infeasible)."""
    return milp(model.objective, constraints=LinearConstraint(model.A, model.row_lower, model.row_upper),
                bounds=Bounds(model.col_lower, model.col_upper), integrality=model.integrality.astype(int),
                options={"time_limit": 60})


def build(name: str, puzzle) -> Model:
    return get_formulation("killer", name).build(puzzle)


def one_hot(grid: np.ndarray) -> np.ndarray:
    """The x[c,k] vector of a full grid."""
    n = grid.shape[0]
    x = np.zeros(n ** 3)
    x[np.arange(n * n) * n + grid.ravel() - 1] = 1
    return x


def grid_text(grid) -> str:
    return "".join(map(str, np.asarray(grid).ravel()))


def seed_puzzle() -> KillerSudoku:
    cages = []
    for cage_id, total in SEED_SUMS.items():
        cells = tuple((r, c) for r, line in enumerate(SEED_CAGE_MAP) for c, ch in enumerate(line) if ch == cage_id)
        cages.append(Cage(cells, total))
    return KillerSudoku(np.zeros((9, 9), int), cages=cages, name="fjmc_blog2026")


def cages_of(grid: np.ndarray, owner: np.ndarray) -> list[Cage]:
    """The cages of a cage-index map, with totals read from a full grid."""
    return [Cage(tuple(map(tuple, np.argwhere(owner == k))), int(grid[owner == k].sum()))
            for k in range(owner.max() + 1)]


def random_cage_map(grid: np.ndarray, max_size: int, seed: int) -> np.ndarray:
    """A partition of the grid into connected cages of up to ``max_size`` cells with distinct digits."""
    rng = np.random.default_rng(seed)
    n = grid.shape[0]
    owner = np.full((n, n), -1)
    count = 0
    for start in rng.permutation(n * n):
        r, c = divmod(int(start), n)
        if owner[r, c] >= 0:
            continue
        cells, target = [(r, c)], rng.integers(1, max_size + 1)
        owner[r, c] = count
        while len(cells) < target:
            used = {grid[cell] for cell in cells}
            frontier = [(i + di, j + dj) for i, j in cells for di, dj in ((0, 1), (1, 0), (0, -1), (-1, 0))
                        if 0 <= i + di < n and 0 <= j + dj < n and owner[i + di, j + dj] < 0
                        and grid[i + di, j + dj] not in used]
            if not frontier:
                break
            cell = frontier[rng.integers(len(frontier))]
            owner[cell] = count
            cells.append(cell)
        count += 1
    return owner


def random_killer(grid: np.ndarray, box_rows: int, box_cols: int, seed: int) -> KillerSudoku:
    owner = random_cage_map(grid, 4, seed)
    return KillerSudoku(np.zeros_like(grid), box_rows, box_cols, cages=cages_of(grid, owner),
                        name=f"random{grid.shape[0]}")


GRID_6X6 = np.array([[1, 2, 3, 4, 5, 6], [4, 5, 6, 1, 2, 3], [2, 3, 1, 5, 6, 4],
                     [5, 6, 4, 2, 3, 1], [3, 1, 2, 6, 4, 5], [6, 4, 5, 3, 1, 2]])

# Cages met by both X_VALID and X_BROKEN: horizontal pairs in rows 1-2, vertical pairs in rows 3-4.
X_CAGE_MAP = np.array([[0, 0, 1, 1], [2, 2, 3, 3], [4, 5, 6, 7], [4, 5, 6, 7]])


def killer_x(diagonal: bool) -> KillerSudoku:
    return KillerSudoku(np.zeros((4, 4), int), cages=cages_of(X_VALID, X_CAGE_MAP), diagonal=diagonal,
                        name="x4" if diagonal else "plain4")


INSTANCES = {
    "seed9x9": seed_puzzle,
    "random4x4": lambda: random_killer(X_VALID, 2, 2, seed=1),
    "random6x6": lambda: random_killer(GRID_6X6, 2, 3, seed=2),
    "killer-x4x4": lambda: killer_x(True),
}


def test_every_formulation_is_registered_with_math():
    registered = {f.name: f for f in formulations("killer")}
    assert set(NAMES) <= set(registered)
    for name in NAMES:
        assert "s.t." in registered[name].constraints and registered[name].description


def test_test_grids_are_valid():
    assert check(KillerSudoku(np.zeros((6, 6), int), 2, 3, cages=cages_of(GRID_6X6, np.arange(36).reshape(6, 6))),
                 GRID_6X6) == []
    assert check(killer_x(True), X_VALID) == []
    assert check(killer_x(False), X_BROKEN) == []
    assert check(killer_x(True), X_BROKEN) != []


@pytest.mark.parametrize("instance", list(INSTANCES))
@pytest.mark.parametrize("name", NAMES)
def test_solution_obeys_rules(name, instance):
    puzzle = INSTANCES[instance]()
    model = build(name, puzzle)
    result = solve(model)
    assert result.status == 0, result.message
    assert model.is_feasible(result.x)
    grid = model.decode(result.x)
    assert check(puzzle, grid) == []
    if instance == "seed9x9":
        assert grid_text(grid) == SEED_SOLUTION
    if puzzle.diagonal:
        assert len(set(np.diag(grid))) == 4 and len(set(np.diag(grid[:, ::-1]))) == 4


@pytest.mark.parametrize("name", NAMES)
def test_givens_are_kept(name):
    givens = np.zeros((6, 6), int)
    givens[0, 0], givens[3, 4], givens[5, 2] = GRID_6X6[0, 0], GRID_6X6[3, 4], GRID_6X6[5, 2]
    owner = random_cage_map(GRID_6X6, 3, seed=7)
    puzzle = KillerSudoku(givens, 2, 3, cages=cages_of(GRID_6X6, owner))
    grid = build(name, puzzle).decode(solve(build(name, puzzle)).x)
    assert check(puzzle, grid) == []
    assert (grid[givens > 0] == givens[givens > 0]).all()


def test_diagonal_rows_reject_a_grid_only_the_diagonal_rule_forbids():
    x = one_hot(X_BROKEN)
    assert build("binary", killer_x(False)).is_feasible(x)
    assert not build("binary", killer_x(True)).is_feasible(x)


def no_repeat_instance() -> KillerSudoku:
    """A 4x4 Killer with no valid solution: the cage {(2,2),(2,3),(3,3)} (1-based) must sum to 9,
    and the single-cell cages around it leave only 4+1+4, a repeat."""
    owner = np.arange(16).reshape(4, 4)
    owner[1, 2] = owner[2, 2] = owner[1, 1]
    _, owner = np.unique(owner, return_inverse=True)
    return KillerSudoku(np.zeros((4, 4), int), cages=cages_of(X_BROKEN, owner.reshape(4, 4)), name="no-repeat")


def test_cage_sum_without_distinct_digits_accepts_a_repeat():
    """The cage-sum row with the Sudoku rows does not imply distinct digits in a cage.

    A model with the sum rows but without the at-most-once rows solves this
    puzzle with a grid that repeats a digit in a cage; the formulations prove it
    infeasible, which it is.
    """
    puzzle = no_repeat_instance()
    sums_only = assignment_model(puzzle, "sum-only", extra_rows=cage_rows(puzzle)[:1])
    result = solve(sums_only)
    assert result.status == 0
    grid = sums_only.decode(result.x)
    assert grid_text(grid) == grid_text(X_BROKEN)
    assert check(puzzle, grid) == ["cage 6 has 4 twice"]
    for name in NAMES:
        assert solve(build(name, puzzle)).status == 2, name


@pytest.mark.parametrize("name", NAMES)
def test_jointly_infeasible_cages_are_reported_infeasible(name):
    """Cages {1,2} in the top row and {1,2} in the second row of the first box: each fine alone."""
    owner = np.array([[0, 0, 1, 1], [2, 2, 3, 3], [4, 5, 6, 7], [4, 5, 6, 7]])
    cages = cages_of(X_VALID, owner)
    cages[2] = Cage(cages[2].cells, 3)
    cages[3] = Cage(cages[3].cells, 7)
    assert solve(build(name, KillerSudoku(np.zeros((4, 4), int), cages=cages))).status == 2


@pytest.mark.parametrize("name", NAMES)
def test_a_given_no_cage_set_can_hold_is_infeasible(name):
    """A cage of two cells summing to 3 must be {1,2}: feasible blank, infeasible with a given 3 inside."""
    owner = np.array([[0, 0, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3], [4, 4, 4, 4]])
    cages = cages_of(X_BROKEN, owner)
    givens = np.zeros((4, 4), int)
    assert solve(build(name, KillerSudoku(givens, cages=cages))).status == 0
    givens[0, 0] = 3
    puzzle = KillerSudoku(givens, cages=cages)
    if name == "combinations":
        assert len(admissible_sets(puzzle)[0]) == 0
    assert solve(build(name, puzzle)).status == 2


def test_cage_combinations_match_brute_force():
    for size in range(1, 10):
        for total in range(0, 47):
            expected = [s for s in combinations(range(1, 10), size) if sum(s) == total]
            got = cage_combinations(size, total, 9)
            assert got.shape == (len(expected), 9)
            assert [tuple(np.flatnonzero(row) + 1) for row in got] == expected


def test_cage_combinations_are_cached_and_read_only():
    assert cage_combinations(3, 15, 9) is cage_combinations(3, 15, 9)
    assert not cage_combinations(3, 15, 9).flags.writeable
    assert cage_combinations(2, 31, 16).shape == (1, 16)  # 15 + 16


def test_cage_combinations_refuse_to_blow_up(monkeypatch):
    monkeypatch.setattr(_combinations, "MAX_CAGE_SETS", 3)
    assert len(cage_combinations(2, 7, 10)) == 3  # {1,6} {2,5} {3,4}: at the limit
    with pytest.raises(PuzzleError, match="more than 3 digit sets"):
        cage_combinations(4, 22, 10)


def test_givens_filter_the_cage_sets():
    owner = np.array([[0, 0, 1, 1], [2, 2, 3, 3], [4, 5, 6, 7], [4, 5, 6, 7]])
    grid = np.array([[1, 4, 2, 3], [2, 3, 1, 4], [3, 1, 4, 2], [4, 2, 3, 1]])
    blank = KillerSudoku(np.zeros((4, 4), int), cages=cages_of(grid, owner))
    givens = np.zeros((4, 4), int)
    givens[0, 0] = 1
    given = KillerSudoku(givens, cages=cages_of(grid, owner))
    assert [s.tolist() for s in admissible_sets(blank)[0]] == [[1, 0, 0, 1], [0, 1, 1, 0]]  # sum 5
    assert [s.tolist() for s in admissible_sets(given)[0]] == [[1, 0, 0, 1]]
    assert build("combinations", given).num_cols == build("combinations", blank).num_cols - 1


def test_stats_count_binaries_and_integers():
    puzzle = seed_puzzle()
    binary = build("binary", puzzle).stats()
    assert (binary.binaries, binary.integers) == (729, 0)
    assert binary.rows == 81 + 27 * 9 + len(puzzle.cages) * 10
    combos = build("combinations", puzzle).stats()
    assert combos.binaries == 729 + sum(len(s) for s in admissible_sets(puzzle)) and combos.integers == 0
    integer = build("integer", puzzle).stats()
    assert integer.integers == 81
    assert integer.binaries == integer.cols - 81
    assert integer.rows == 2 * integer.binaries + len(puzzle.cages) + 27  # pairs, cages, unit sums


def test_integer_model_separates_cage_cells_outside_any_unit():
    """Cage M of the seed spans two boxes; its cells (4,3) and (5,4) share no unit but get a pair."""
    puzzle = seed_puzzle()
    sudoku_pairs = 81 * 20 // 2
    cage_only_pairs = sum(
        1 for cage in puzzle.cages for (r1, c1), (r2, c2) in combinations(cage.cells, 2)
        if r1 != r2 and c1 != c2 and (r1 // 3, c1 // 3) != (r2 // 3, c2 // 3))
    assert cage_only_pairs > 0
    assert build("integer", puzzle).stats().binaries == sudoku_pairs + cage_only_pairs


@pytest.mark.parametrize("name", NAMES)
def test_model_name_and_mps_round_trip(name, tmp_path):
    puzzle = INSTANCES["random4x4"]()
    model = build(name, puzzle)
    assert model.name == f"killer/{name}/{puzzle.name}"
    path = tmp_path / "model.mps"
    model.to_mps(path)
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    assert highs.readModel(str(path)) == highspy.HighsStatus.kOk
    lp = highs.getLp()
    assert (lp.num_row_, lp.num_col_) == (model.num_rows, model.num_cols)
    assert highs.getNumNz() == model.A.nnz
    assert list(lp.integrality_) == [highspy.HighsVarType.kInteger] * model.num_cols
