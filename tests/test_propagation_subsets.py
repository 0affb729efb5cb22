"""The subset rules of formulations/_propagate.py (naked and hidden subsets, fish) and the
sudoku/propagated-subsets formulation built on them."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from puzzlebench.formulations._propagate import (
    MAX_SUBSET,
    RULES,
    given_candidates,
    owned_values,
    propagate,
)
from puzzlebench.formulations.killer import cage_cells

from puzzlebench.io import read_puzzles
from puzzlebench.io.sets import get_set
from puzzlebench.run.runner import build

ROOT = Path(__file__).resolve().parents[1]


def grid_of(n: int) -> np.ndarray:
    return np.arange(n * n).reshape(n, n)


def strong(puzzle):
    return propagate(given_candidates(puzzle.givens, puzzle.n), puzzle.units(), subsets=MAX_SUBSET,
                     grid=grid_of(puzzle.n))


def test_naked_pair_owns_its_two_values():
    table = np.array([[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 1, 1], [1, 0, 1, 1]], bool)
    member, held = owned_values(table, 2)
    assert member.tolist() == [[True, True, False, False]]
    assert held.tolist() == [[True, True, False, False]]


def test_three_items_on_two_values_is_a_contradiction():
    table = np.array([[1, 1, 0], [1, 1, 0], [1, 1, 0]], bool)
    member, held = owned_values(table, 3)
    assert member[~held.any(axis=1)].any()


def test_items_with_one_value_are_left_to_the_singles():
    table = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 1]], bool)
    assert len(owned_values(table, 3)[0]) == 0


def permutations_of(table: np.ndarray) -> np.ndarray:
    """The (item, value) pairs some perfect matching of a square table uses."""
    used = np.zeros_like(table)
    for perm in itertools.permutations(range(table.shape[1])):
        if table[np.arange(len(perm)), perm].all():
            used[np.arange(len(perm)), perm] = True
    return used


@pytest.mark.parametrize("seed", range(30))
def test_subset_rules_remove_only_unsupported_candidates(seed):
    # One exact-once unit of 6 cells and 6 digits: whatever the rules remove is in no assignment.
    rng = np.random.default_rng(seed)
    cand = rng.random((6, 6)) < 0.45
    cand[np.arange(6), rng.permutation(6)] = True          # keep it feasible
    result = propagate(cand, np.arange(6)[None, :], subsets=MAX_SUBSET)
    support = permutations_of(cand)
    assert result.consistent
    assert (result.cand[support]).all()
    assert not (result.cand & ~cand).any()


def test_x_wing_removes_the_digit_from_its_columns():
    # A 4x4 place table of one digit: rows 0 and 2 hold it only in columns 1 and 3.
    n = 4
    cand = np.ones((n * n, n), bool)
    cand[[0, 2, 8, 10], 0] = False
    reduction = propagate(cand, np.empty((0, 0), np.int64), subsets=2, grid=grid_of(n))
    assert not reduction.cand[[5, 7, 13, 15], 0].any()
    assert reduction.cand[[1, 3, 9, 11], 0].all()
    assert reduction.removed["fish"] == 4


@pytest.mark.parametrize("name,picks", [("sudoku/exchange-solved", range(0, 100, 25)),
                                        ("sudoku/janko16", range(0, 90, 45)), ("sudoku/ladder", [6, 9])])
def test_strong_propagation_keeps_the_solution_and_removes_at_least_as_much(name, picks):
    entries = get_set(name).entries()
    for i in picks:
        puzzle, solution = entries[i].puzzle, np.asarray(entries[i].solution)
        weak = propagate(given_candidates(puzzle.givens, puzzle.n), puzzle.units())
        reduction = strong(puzzle)
        assert reduction.consistent
        assert reduction.cand[np.arange(puzzle.n ** 2), solution.ravel() - 1].all()
        assert not (reduction.cand & ~weak.cand).any()
        again = propagate(reduction.cand, puzzle.units(), subsets=MAX_SUBSET, grid=grid_of(puzzle.n))
        assert (again.cand == reduction.cand).all()


def test_every_subset_rule_fires_on_the_frisch_set_and_the_counts_add_up():
    totals = dict.fromkeys(RULES, 0)
    for entry in read_puzzles(ROOT / "instances/sudoku/frisch25/frisch25_minimal.txt")[:4]:
        puzzle = entry.puzzle
        start = given_candidates(puzzle.givens, puzzle.n)
        reduction = strong(puzzle)
        assert sum(reduction.removed.values()) == start.sum() - reduction.cand.sum()
        for rule, count in reduction.removed.items():
            totals[rule] += count
    assert all(totals[rule] > 0 for rule in ("naked subsets", "hidden subsets", "fish"))


def test_propagated_subsets_model_is_smaller_and_reports_its_rules():
    puzzle = read_puzzles(ROOT / "instances/sudoku/frisch25/frisch25_minimal.txt")[1].puzzle
    weak, built = build(puzzle, "propagated").model, build(puzzle, "propagated-subsets").model
    assert built.num_cols < weak.num_cols
    assert set(built.presolve_info["removed"]) == set(RULES)


def test_killer_subsets_keep_the_solution_and_report_their_rules():
    entries = get_set("killer/janko").entries()
    for entry in [entries[i] for i in (0, 20, 60, 100)]:
        puzzle = entry.puzzle
        reduction = propagate(given_candidates(puzzle.givens, puzzle.n), puzzle.units(), cage_cells(puzzle),
                              puzzle.cage_sums, subsets=MAX_SUBSET, grid=grid_of(puzzle.n))
        solution = np.asarray(entry.solution).ravel()
        assert reduction.consistent and reduction.cand[np.arange(solution.size), solution - 1].all()
        weak, built = build(puzzle, "propagated").model, build(puzzle, "propagated-subsets").model
        assert built.num_cols <= weak.num_cols
        assert built.presolve_info["removed"] == reduction.removed
