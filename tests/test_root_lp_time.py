"""``root_lp_time``: when each MIP solver had its root LP solved, read from its own log or statistics."""

from __future__ import annotations

from pathlib import Path

from puzzlebench.io.sets import get_set
from puzzlebench.run.runner import run
from puzzlebench.solvers import cbc, highs
from puzzlebench.solvers.configs import SHIPPED
from puzzlebench.solvers.contract import SolveOptions
from puzzlebench.solvers.scip import solve_scip
from puzzlebench.store.results import frame_from_rows

LOGS = Path(__file__).resolve().parent / "data" / "logs"


def test_highs_root_lp_time_is_the_first_tree_line_with_lp_iterations():
    log = (LOGS / "highs" / "frisch25-binary.log").read_text()
    assert highs.root_lp_time(log) == 0.3  # the line "... 3197  0.3s" after the 0-iteration line
    assert highs.root_lp_time("Presolve: Reduced to empty\n") is None


def test_cbc_root_lp_time_is_its_first_lp_optimal_line():
    log = (LOGS / "cbc" / "frisch25-binary.log").read_text()
    assert cbc.root_lp_time(log) == 0.115
    assert cbc.root_lp_time("Total time (Wallclock seconds): 0.01\n") is None


def _puzzle():
    """A 25x25 whose binary model needs an LP: propagation and presolve leave most of it."""
    return get_set("sudoku/frisch25").entries()[1].puzzle


def test_scip_reports_its_first_lp_time_and_none_without_an_lp():
    from puzzlebench.run.runner import build
    model = build(_puzzle(), "binary").model
    with_lp = solve_scip(model, SolveOptions(time_limit=5, solver_options={"limits/nodes": 1}))
    assert with_lp.lp_iterations > 0
    assert with_lp.root_lp_time is not None and 0 < with_lp.root_lp_time <= with_lp.solver_time
    without = solve_scip(model, SolveOptions(time_limit=5, solver_options=SHIPPED["scip-cp"].options))
    assert without.lp_iterations == 0 and without.root_lp_time is None


def test_the_record_and_the_store_carry_root_lp_time():
    record = run(_puzzle(), "binary", "highs", SolveOptions(time_limit=3))  # the root LP takes ~0.3 s
    assert record.lp_iterations > 0 and record.root_lp_time is not None
    assert 0 < record.root_lp_time <= record.solver_time
    frame = frame_from_rows([{**record.to_dict(), "instance_set": "sudoku/frisch25"}])
    assert frame["root_lp_time"].tolist() == [record.root_lp_time]
