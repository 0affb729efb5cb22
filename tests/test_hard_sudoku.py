"""Issue 16's pieces outside the formulations: SolveOptions.solver_options and studies/hard_sudoku.py."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from puzzlebench.io.sets import get_set
from puzzlebench.run.runner import build
from puzzlebench.solvers.configs import SHIPPED
from puzzlebench.solvers.contract import SolveOptions
from puzzlebench.solvers.highs import solve_highs
from puzzlebench.solvers.scip import solve_scip

ROOT = Path(__file__).resolve().parents[1]


def study_script():
    spec = importlib.util.spec_from_file_location("hard_sudoku", ROOT / "studies/hard_sudoku.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def searched_model():
    """A 9x9 whose propagated model needs search (propagation does not solve it)."""
    puzzle = next(e.puzzle for e in get_set("sudoku/hardest").entries()
                  if not build(e.puzzle, "propagated").model.presolve_info["solved_in_preprocessing"])
    return build(puzzle, "binary").model


def test_scip_takes_its_own_parameters(searched_model):
    cp = SHIPPED["scip-cp"].options  # without the LP, the root node does not solve it
    free = solve_scip(searched_model, SolveOptions(time_limit=20, solver_options=cp))
    limited = solve_scip(searched_model, SolveOptions(time_limit=20, solver_options={
        **cp, "limits/nodes": 1, "presolving/maxrounds": 0}))
    assert free.status == "optimal"
    assert limited.status != "optimal" and limited.nodes <= 1


def test_highs_takes_its_own_options_and_refuses_unknown_ones(searched_model):
    ipm = solve_highs(searched_model, SolveOptions(time_limit=20, solver_options={"mip_lp_solver": "ipm"}))
    assert ipm.status == "optimal"
    wrong = solve_highs(searched_model, SolveOptions(time_limit=20, solver_options={"no_such_option": 1}))
    assert wrong.status == "error" and "no_such_option" in wrong.message


def test_the_script_runs_its_pairs_into_records_with_the_configurations_name(tmp_path):
    script = study_script()
    study = {"instance_sets": ["sudoku/seed"], "time_limit": 20, "threads": 1,
             "pairs": [{"formulation": "propagated-subsets", "solver": "scip-cp-norestart", "max_instances": 1},
                       {"formulation": "propagated-subsets", "solver": "highs-ipm-noheur", "max_instances": 1}]}
    out = tmp_path / "study.jsonl"
    script.run_pairs(study, out)
    records = script.read(out)
    assert [(r["solver"], r["solver_adapter"]) for r in records] == [("scip-cp-norestart", "scip"),
                                                                     ("highs-ipm-noheur", "highs")]
    assert all(r["status"] == "optimal" and r["verified"] for r in records)
    assert '"mip_lp_solver": "ipm"' in records[1]["solver_options"]
    script.run_pairs(study, out)  # records already there are not run again
    assert len(script.read(out)) == 2


def test_summary_counts_solved_runs_and_puts_the_others_at_the_limit():
    script = study_script()
    base = {"set": "s", "formulation": "f", "solver": "c", "nodes": 3, "build_time": 0.0, "verified": True,
            "root_lp_time": None, "removed": None, "instance": "i", "load": "", "message": "",
            "cols": 1}
    records = [{**base, "status": "optimal", "solver_time": 1.0},
               {**base, "status": "time_limit", "solver_time": 60.0, "verified": None}]
    row = script.summary(records, 60.0).splitlines()[2]
    assert "| 1/2 |" in row
    assert f"{script.sgm([1.0, 60.0]):.2f}" in row


def probes_script():
    spec = importlib.util.spec_from_file_location("hard_sudoku_probes", ROOT / "studies/hard_sudoku_probes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("experiment", [{"branching": "smallest-row"}, {"intersection_rows": True}])
def test_the_probes_experiments_solve_a_searched_puzzle_correctly(experiment):
    script = probes_script()
    puzzles = get_set("sudoku/hardest").entries()
    index = next(i for i, e in enumerate(puzzles)
                 if not build(e.puzzle, "propagated").model.presolve_info["solved_in_preprocessing"])
    found = script.run_probe("test", ("sudoku/hardest", index, "propagated", "scip-cp-norestart", {}, 30, 0,
                                      experiment))
    assert found["status"] == "optimal" and found["verified"] is True
    if "branching" in experiment:
        assert found["branch_calls"] > 0
    else:
        assert found["rows"] > build(puzzles[index].puzzle, "propagated").model.num_rows


def test_intersection_rows_hold_at_the_solution_and_name_every_probe():
    script = probes_script()
    entry = get_set("sudoku/seed").entries()[0]
    model = build(entry.puzzle, "propagated-subsets").model
    rows = script.intersection_rows(model, entry.puzzle.units(), script.column_cells(model))
    solved = solve_scip(model, SolveOptions(time_limit=20))
    activity = rows.A @ solved.x
    assert rows.A.shape[0] > 0 and np.allclose(activity, 0)
    assert all(spec[0] in ("sudoku/frisch25", "sudoku/blank65-36") for spec in script.PROBES.values())
