"""Propagation before modelling (formulations/_propagate*.py), the propagated and cp-natural
formulations, the solved-in-preprocessing flag and CP-SAT's all-different declarations."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from infeasible_puzzles import infeasible_puzzles
from puzzlebench.formulations._propagate import given_candidates, propagate
from puzzlebench.formulations._propagate_takuzu import propagate_takuzu
from puzzlebench.formulations.kakuro import run_cells
from puzzlebench.formulations.killer import cage_cells

from puzzlebench import Kakuro, KillerSudoku, Sudoku, Takuzu
from puzzlebench.io import read_puzzle, read_puzzles, read_solutions
from puzzlebench.io.sets import get_set
from puzzlebench.model import Model, rows_from_triplets
from puzzlebench.registry import formulations, solvers
from puzzlebench.run.runner import build, count_solutions, run
from puzzlebench.run.worker import SolverProcess
from puzzlebench.solvers.cpsat import build_cp_model, natural_model
from puzzlebench.solvers.contract import SolveOptions

ROOT = Path(__file__).resolve().parents[1]
OPTIONS = SolveOptions(time_limit=60, seed=1)
SEEDS = {
    "sudoku": ["instances/sudoku/seed/matlab_cleve.txt", "instances/sudoku/seed/fjmc_blog2025.txt"],
    "killer": ["instances/killer/seed/fjmc_blog2026.txt"],
    "kakuro": ["instances/kakuro/seed/fjmc_blog2026.txt"],
    "takuzu": ["instances/takuzu/seed/fjmc_blog2026.txt"],
}


@pytest.fixture(scope="module")
def process():
    with SolverProcess() as proc:
        yield proc


def reduce(puzzle):
    """The candidate table propagation leaves, as (cells, values) booleans, and its consistency."""
    if isinstance(puzzle, Takuzu):
        cand, consistent = propagate_takuzu(puzzle.givens, puzzle.distinct_lines)
        return cand.reshape(-1, 2), consistent
    if isinstance(puzzle, Kakuro):
        r = propagate(np.ones((int(puzzle.white.sum()), 9), bool), np.empty((0, 0), np.int64),
                      run_cells(puzzle), [run.total for run in puzzle.runs])
        return r.cand, r.consistent
    cand = given_candidates(puzzle.givens, puzzle.n)
    if isinstance(puzzle, KillerSudoku):
        r = propagate(cand, puzzle.units(), cage_cells(puzzle), puzzle.cage_sums)
    else:
        r = propagate(cand, puzzle.units())
    return r.cand, r.consistent


def solution_values(puzzle, grid) -> np.ndarray:
    """The solution as one candidate column per cell: digit - 1, or the Takuzu value."""
    grid = np.asarray(grid)
    if isinstance(puzzle, Takuzu):
        return grid.ravel()
    if isinstance(puzzle, Kakuro):
        return grid[puzzle.white] - 1
    return grid.ravel() - 1


def known_solutions():
    """(puzzle, solutions): the seeds with their shipped solutions, and janko samples of every set."""
    cases = []
    for paths in SEEDS.values():
        for path in paths:
            puzzle = read_puzzle(ROOT / path).puzzle
            stem = ROOT / path.replace(".txt", "")
            file = Path(f"{stem}.all_solutions.txt") if Path(f"{stem}.all_solutions.txt").exists() \
                else Path(f"{stem}.solution.txt")
            cases.append((puzzle, read_solutions(file, puzzle)))
    for name, picks in [("sudoku/exchange-solved", range(0, 100, 20)), ("sudoku/janko16", range(0, 90, 30)),
                        ("killer/janko", [0, 20, 60, 80, 100, 114]), ("killer/janko-x", [0, 5]),
                        ("kakuro/janko", [0, 5, 10]), ("takuzu/janko", [0, 30, 60, 90])]:
        entries = get_set(name).entries()
        cases += [(entries[i].puzzle, [entries[i].solution]) for i in picks]
    return cases


@pytest.mark.parametrize("puzzle,grids", known_solutions(), ids=lambda v: getattr(v, "name", None) or "")
def test_propagation_keeps_every_solution(puzzle, grids):
    cand, consistent = reduce(puzzle)
    assert consistent
    for grid in grids:
        values = solution_values(puzzle, grid)
        assert cand[np.arange(len(values)), values].all()
    assert cand.sum() < cand.size  # it did something


@pytest.mark.parametrize("puzzle", [p for paths in SEEDS.values() for p in paths] + ["kakuro-janko-5"])
def test_propagation_run_twice_changes_nothing(puzzle):
    p = get_set("kakuro/janko").entries()[5].puzzle if puzzle == "kakuro-janko-5" else read_puzzle(ROOT / puzzle).puzzle
    if isinstance(p, Takuzu):
        cand, _ = propagate_takuzu(p.givens, p.distinct_lines)
        givens = np.where(cand.sum(axis=2) == 1, cand.argmax(axis=2), -1)
        assert (propagate_takuzu(givens, p.distinct_lines)[0] == cand).all()
        return
    if isinstance(p, Kakuro):
        args = (np.empty((0, 0), np.int64), run_cells(p), [run.total for run in p.runs])
        first = propagate(np.ones((int(p.white.sum()), 9), bool), *args)
    else:
        args = (p.units(), cage_cells(p), p.cage_sums) if isinstance(p, KillerSudoku) else (p.units(),)
        first = propagate(given_candidates(p.givens, p.n), *args)
    second = propagate(first.cand, *args)
    assert (second.cand == first.cand).all() and second.consistent
    assert all((a == b).all() for a, b in zip(first.sets, second.sets))


def brute_force_support(cand: np.ndarray, total: int) -> tuple[np.ndarray, set]:
    """Which candidates of a group take part in a distinct assignment summing to ``total``, and the digit sets."""
    support = np.zeros_like(cand)
    sets = set()
    for digits in itertools.product(*[np.flatnonzero(row) for row in cand]):
        if len(set(digits)) == len(digits) and sum(digits) + len(digits) == total:
            support[np.arange(len(digits)), digits] = True
            sets.add(frozenset(digits))
    return support, sets


@pytest.mark.parametrize("seed", range(40))
def test_sum_group_filter_is_exact_generalised_arc_consistency(seed):
    rng = np.random.default_rng(seed)
    size, digits = int(rng.integers(2, 5)), int(rng.choice([6, 9]))
    cand = rng.random((size, digits)) < 0.6
    cand[np.arange(size), rng.integers(0, digits, size)] = True
    total = int(rng.integers(size * (size + 1) // 2, size * (2 * digits - size + 1) // 2 + 1))
    result = propagate(cand, np.empty((0, 0), np.int64), [np.arange(size)], [total])
    support, sets = brute_force_support(cand, total)
    if not sets:
        assert not result.consistent
        return
    assert (result.cand == support).all()
    assert {frozenset(np.flatnonzero(row)) for row in result.sets[0]} == sets


def test_singles_and_locked_candidates_on_a_small_sudoku():
    givens = np.zeros((4, 4), int)
    givens[0, :3] = 1, 2, 3                       # naked single: (0,3) = 4
    reduction = propagate(given_candidates(givens, 4), Sudoku(givens).units())
    assert reduction.cand[3].tolist() == [False, False, False, True]
    assert not reduction.cand[[4, 5], 0].any()    # the box of (0,0) already holds 1


def test_takuzu_rules_pair_gap_and_count():
    line = -np.ones((2, 6), int)
    line[0, 1:3] = 0                              # pair 0 0: both neighbours become 1
    line[1, [0, 2]] = 1                           # gap 1 . 1: the middle becomes 0
    givens = np.vstack([line, -np.ones((4, 6), int)])
    cand, consistent = propagate_takuzu(givens, False)
    values = np.where(cand.sum(axis=2) == 1, cand.argmax(axis=2), -1)
    assert consistent and values[0, 0] == values[0, 3] == 1 and values[1, 1] == 0
    full = -np.ones((4, 4), int)
    full[0, :2] = 0                               # two 0s of four: the rest of row 1 are 1s
    assert (np.where(propagate_takuzu(full, False)[0].sum(axis=2) == 1,
                     propagate_takuzu(full, False)[0].argmax(axis=2), -1)[0] == [0, 0, 1, 1]).all()


@pytest.mark.parametrize("puzzle", [p for p in infeasible_puzzles().values()
                                    if "propagated" in {f.name for f in formulations(p.puzzle)}], ids=lambda p: p.name)
def test_contradiction_is_detected_and_the_model_is_infeasible(puzzle, process):
    assert not reduce(puzzle)[1]
    model = build(puzzle, "propagated").model
    empty = np.flatnonzero(np.diff(model.A.indptr) == 0)
    assert ((model.row_lower[empty] > 0) | (model.row_upper[empty] < 0)).any()   # a row 0 = 1
    assert model.presolve_info["solved_in_preprocessing"] is False
    assert run(puzzle, "propagated", "highs", OPTIONS, process=process).status == "infeasible"


EASY = ROOT / "instances/sudoku/exchange-solved/easy_puzzle_and_solution.txt"


@pytest.mark.parametrize("solver", [s.name for s in solvers()])
def test_easy_sudoku_is_solved_in_preprocessing_and_the_record_says_so(solver, process):
    puzzle = read_puzzles(EASY)[0].puzzle
    model = build(puzzle, "propagated").model
    assert model.num_rows == 0 and model.num_cols == 81       # fixed columns: never an empty model
    assert (model.col_lower == 1).all()
    record = run(puzzle, "propagated", solver, OPTIONS, process=process)
    assert record.status == "optimal" and record.verified is True
    assert record.preprocessing_solved is True


def test_preprocessing_flag_is_false_when_search_is_left_and_none_without_propagation(process):
    hard = read_puzzle(ROOT / "instances/sudoku/top95/top95.txt", index=3).puzzle
    record = run(hard, "propagated", "highs", OPTIONS, process=process)
    assert record.verified is True and record.preprocessing_solved is False and record.cols > 81
    assert run(hard, "binary", "highs", OPTIONS, process=process).preprocessing_solved is None


@pytest.mark.parametrize("path", [p for paths in SEEDS.values() for p in paths])
def test_cpsat_with_all_different_gives_the_same_grid(path, process):
    puzzle = read_puzzle(ROOT / path).puzzle
    natural = build(puzzle, "cp-natural").model
    given, columns = natural_model(natural)
    constraints = build_cp_model(given).proto.constraints
    groups = sum(1 for c in constraints if c.has_all_diff())
    assert groups == len(natural.all_different)
    assert groups > 0 or isinstance(puzzle, Takuzu) and not puzzle.distinct_lines
    # CP-SAT gets its natural model: the big-M rows that encode the groups for MIP solvers are left
    # out, and so are the order binaries that appear only there
    assert len(constraints) - groups == natural.num_rows - (len(natural.all_different_rows) if groups else 0)
    if groups and not isinstance(puzzle, Takuzu):
        cells = int(puzzle.white.sum()) if isinstance(puzzle, Kakuro) else puzzle.n ** 2
        assert columns.tolist() == list(range(cells))                # the cell values y only
    grids = [run(puzzle, f, s, OPTIONS, process=process).solution
             for f, s in [("cp-natural", "cpsat"), ("cp-natural", "highs"), ("binary", "highs")]]
    if isinstance(puzzle, Kakuro):  # 17 solutions: each grid must be one of them
        shipped = {np.asarray(g).tobytes() for g in read_solutions(
            ROOT / "instances/kakuro/seed/fjmc_blog2026.all_solutions.txt", puzzle)}
        assert all(np.asarray(g, dtype=np.int64).tobytes() in shipped for g in grids)
    else:
        assert grids[0] == grids[1] == grids[2]


def test_cpsat_honours_all_different_beyond_the_rows(process):
    """Three integers in 1..2 with no rows: feasible for a MIP, infeasible once declared all-different."""
    free = Model(sp.csr_matrix((0, 3)), np.zeros(0), np.zeros(0), np.ones(3), np.full(3, 2.0), np.ones(3, bool),
                 np.zeros(3), decode=lambda x: x)
    declared = replace(free, all_different=[np.arange(3)])
    assert process.solve("cpsat", free, OPTIONS).status == "optimal"
    assert process.solve("cpsat", declared, OPTIONS).status == "infeasible"
    assert process.solve("highs", declared, OPTIONS).status == "optimal"   # MIP solvers ignore it
    extra = rows_from_triplets(np.zeros(1, int), np.zeros(1, int), 1.0, 1, 3, 1.0, 1.0)
    assert declared.with_rows(extra).all_different[0].tolist() == [0, 1, 2]


def test_takuzu_cp_natural_declares_distinct_line_values(process):
    givens = -np.ones((6, 6), int)
    puzzle = Takuzu(givens, distinct_lines=True, name="empty-distinct")
    model = build(puzzle, "cp-natural").model
    assert [len(g) for g in model.all_different] == [6, 6]
    assert (np.diff(model.A[model.all_different_rows].indptr) == 3).any()   # the z rows, left to MIP solvers
    record = run(puzzle, "cp-natural", "cpsat", OPTIONS, process=process)
    grid = np.array(record.solution)
    assert record.verified is True and len({tuple(r) for r in grid}) == 6 and len({tuple(c) for c in grid.T}) == 6


def test_propagated_kakuro_seed_keeps_all_17_solutions(process):
    puzzle = read_puzzle(ROOT / SEEDS["kakuro"][0]).puzzle
    assert count_solutions(puzzle, "propagated", "highs", 50, OPTIONS, process)[::2] == (17, "optimal")
