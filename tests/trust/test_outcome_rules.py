"""Each run's outcome, as the store decides it (puzzlebench/store/results.py, module doc): one rule per test,
each on rows that tell the rule apart from the ones next to it (issue 26).

The rows go through the public :func:`~puzzlebench.store.results.frame_from_rows`, as every reader of the
store sees them.
"""

from __future__ import annotations

import pandas as pd
import pytest
from store_rows import row

from puzzlebench.store.results import (
    ANOMALIES,
    OUTCOMES,
    SOLVED_OUTCOMES,
    find_anomalies,
    frame_from_rows,
)


def outcomes(*rows: dict) -> list[str]:
    return frame_from_rows(list(rows))["outcome"].tolist()


@pytest.mark.parametrize("status", ["optimal", "feasible"])
def test_found_with_an_accepted_grid_is_solved(status):
    assert outcomes(row(status=status, verified=True)) == ["solved"]


@pytest.mark.parametrize("status", ["optimal", "feasible"])
def test_found_without_a_grid_is_no_grid(status):
    assert outcomes(row(status=status)) == ["no_grid"]


@pytest.mark.parametrize("status", ["optimal", "feasible", "time_limit", "error", "infeasible"])
def test_a_rejected_grid_is_wrong_whatever_the_status(status):
    assert outcomes(row(status=status, verified=False)) == ["wrong"]


@pytest.mark.parametrize("status", ["time_limit", "error"])
def test_an_accepted_grid_under_time_limit_or_error_keeps_the_status(status):
    """A grid the checker accepts does not make a run solved unless the solver reported optimal/feasible."""
    assert outcomes(row(status=status, verified=True), row(status=status)) == [status, status]


def test_an_accepted_grid_under_infeasible_is_false_infeasible_not_solved():
    assert outcomes(row(status="infeasible", verified=True)) == ["false_infeasible"]


@pytest.mark.parametrize("status", ["unknown", "", "OPTIMAL", "interrupted"])
def test_an_unknown_status_is_an_error_never_solved(status):
    assert outcomes(row(status=status), row("p2", status=status, verified=True)) == ["error", "error"]


def test_skipped_stays_skipped():
    assert outcomes(row(status="skipped", message="does not apply")) == ["skipped"]


def test_infeasible_with_nothing_against_it_is_proved():
    assert outcomes(row(status="infeasible"), row(status="infeasible", solver="scip")) == [
        "infeasible_proved", "infeasible_proved"]


def test_infeasible_against_another_runs_accepted_grid_is_false_infeasible():
    """Any formulation or solver of the same puzzle counts as evidence, in either order."""
    assert outcomes(row(status="infeasible", solver="scip"), row(verified=True, formulation="integer"),
                    row(status="infeasible", solver="cbc")) == ["false_infeasible", "solved", "false_infeasible"]


def test_infeasible_against_a_known_reference_solution_is_false_infeasible():
    assert outcomes(row(status="infeasible", reference_known=True)) == ["false_infeasible"]


def test_a_grid_of_the_same_instance_name_in_another_set_is_no_evidence():
    """Instance names repeat across sets (p1 of sudoku/a is not p1 of sudoku/b)."""
    assert outcomes(row(status="infeasible", instance_set="sudoku/b"), row(verified=True, instance_set="sudoku/a"),
                    row(status="infeasible", instance="p2", instance_set="sudoku/a")) == [
        "infeasible_proved", "solved", "infeasible_proved"]


def test_a_rejected_or_missing_grid_is_no_evidence():
    assert outcomes(row(status="infeasible"), row(verified=False), row(status="time_limit", verified=None)) == [
        "infeasible_proved", "wrong", "time_limit"]


def test_reference_solves_are_decided_among_themselves():
    """A noise (reference) solve's grid is no evidence against a run, and the other way round."""
    assert outcomes(row(status="infeasible"), row(verified=True, role="noise"),
                    row(status="infeasible", role="noise", instance="p2"), row(verified=True, instance="p2")) == [
        "infeasible_proved", "solved", "infeasible_proved", "solved"]


def test_every_outcome_is_listed_and_the_solved_ones_are_solved_and_infeasible_proved():
    decided = set(outcomes(row(verified=True), row("b"), row("c", verified=False), row("d", "infeasible"),
                           row("e", "infeasible", reference_known=True), row("f", "time_limit"), row("g", "error"),
                           row("h", "skipped")))
    assert decided == set(OUTCOMES)
    assert SOLVED_OUTCOMES == ("solved", "infeasible_proved")
    assert set(ANOMALIES) == {"wrong", "false_infeasible", "no_grid", "error"}


def test_anomalies_are_the_runs_that_went_wrong_each_with_its_detail():
    runs = frame_from_rows([row("ok", verified=True), row("a", "infeasible", reference_known=True),
                            row("b", "infeasible", solver="scip"), row("b", verified=True),
                            row("c", "feasible"), row("d", verified=False, violations=["row 1 has 2 twice", "x"]),
                            row("e", "error", message="solver died"), row("f", "time_limit"), row("g", "skipped")])
    listed = find_anomalies(runs)
    assert list(listed.columns) == ["kind", "instance_set", "instance", "permutation", "formulation", "solver",
                                    "seed", "status", "detail"]
    assert listed[["kind", "instance", "solver", "status", "detail"]].values.tolist() == [
        ["false_infeasible", "a", "highs", "infeasible", "infeasible, but 0 other run(s) found a valid grid and the "
                                                         "set gives its solution"],
        ["false_infeasible", "b", "scip", "infeasible", "infeasible, but 1 other run(s) found a valid grid"],
        ["no_grid", "c", "highs", "feasible", "status feasible but no grid returned"],
        ["wrong", "d", "highs", "optimal", "row 1 has 2 twice; x"],
        ["error", "e", "highs", "error", "solver died"]]
    assert listed["instance_set"].eq("sudoku/a").all() and listed["seed"].eq(0).all()


def test_a_relaxations_wrong_grids_are_not_anomalies_but_stay_wrong(monkeypatch):
    """A run of a formulation registered with ``relaxation=True`` carries the flag (its ``relaxation``
    column), and the store reads the rule from there, never from the formulations' code (its loading
    fails here).  The relaxation's other anomalies are still listed, and so are the wrong grids of a
    run without the flag: another formulation, or a row written before the flag was recorded (null)."""
    from puzzlebench import registry

    def no_plug_ins(package):
        raise AssertionError(f"the store loaded puzzlebench.{package}")
    monkeypatch.setattr(registry, "_load", no_plug_ins)
    runs = frame_from_rows([row("a", verified=False, formulation="loose", relaxation=True), row("a", verified=False),
                            row("b", "error", formulation="loose", relaxation=True),
                            row("c", verified=False, formulation="loose"),
                            row("d", verified=False, formulation="loose", relaxation=None)])
    assert runs["outcome"].tolist() == ["wrong", "wrong", "error", "wrong", "wrong"]
    assert runs["relaxation"].tolist() == [True, False, True, False, pd.NA]
    assert find_anomalies(runs)[["instance", "formulation", "kind"]].values.tolist() == [
        ["a", "binary", "wrong"], ["b", "loose", "error"], ["c", "loose", "wrong"], ["d", "loose", "wrong"]]
    assert find_anomalies(runs.iloc[::-1])[["instance", "formulation"]].values.tolist() == [
        ["d", "loose"], ["c", "loose"], ["b", "loose"], ["a", "binary"]]   # a frame in another order
    by_hand = runs.assign(relaxation=[True, None, True, None, None])       # objects, not the store's booleans
    assert find_anomalies(by_hand)["instance"].tolist() == ["a", "b", "c", "d"]


def test_detail_of_a_long_message_is_cut_to_500_characters():
    runs = frame_from_rows([row(status="error", message="x" * 800), row("b", verified=False, violations=["y" * 800])])
    assert find_anomalies(runs)["detail"].str.len().tolist() == [500, 500]


def test_anomalies_of_a_filtered_frame_and_of_one_with_list_violations():
    """A frame cut from a bigger one keeps its index; one built by hand may hold lists."""
    runs = frame_from_rows([row("ok", verified=True), row("w", verified=False, violations=["box 2 has 4 twice"])])
    part = runs.iloc[::-1]
    assert find_anomalies(part)["instance"].tolist() == ["w"]
    by_hand = part.assign(violations=[["box 2 has 4 twice", "row 1 has 4 twice"], []])
    assert find_anomalies(by_hand)["detail"].tolist() == ["box 2 has 4 twice; row 1 has 4 twice"]
    assert find_anomalies(runs.iloc[:0]).empty


def test_outcomes_of_a_frame_with_its_own_index():
    from puzzlebench.store.results import decide_outcomes
    runs = pd.DataFrame({"status": ["infeasible", "optimal"], "verified": [None, True], "reference_known": [False, False],
                         "role": ["run", "run"], "instance_set": ["s", "s"], "instance": ["a", "a"]}, index=[7, 3])
    assert decide_outcomes(runs).tolist() == ["false_infeasible", "solved"]
