"""A bad model is its run's error, not a crash (issue 33): a decode that raises, gives the wrong
shape or asks for a variable the model lacks, a nonlinear Pyomo term and a PuLP SOS set each give
a ``skipped`` record whose message is one line naming the formulation and the constraint or
variable; a grouped batch job records it and goes on; ``solve`` prints the line and exits 2."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pulp
import pyomo.environ as pyo  # the pyomo extra, which CI installs
import pytest

from puzzlebench import registry
from puzzlebench.cli import main
from puzzlebench.io import read_puzzles
from puzzlebench.model.layers import from_pulp, from_pyomo
from puzzlebench.run.batch import run_job
from puzzlebench.run.jobs import Job
from puzzlebench.run.runner import count_solutions, run
from puzzlebench.solvers.contract import SolveOptions
from puzzlebench.store.results import frame_from_rows

ROOT = Path(__file__).resolve().parents[1]
PUZZLE_FILE = ROOT / "instances/sudoku/seed/matlab_cleve.txt"


def _cells(puzzle, decode, sos: bool = False):
    """A PuLP model with one digit per cell (x_r_c_k, sum_k x = 1): it solves; ``decode`` is the test's."""
    n = puzzle.n
    problem = pulp.LpProblem("cells", pulp.LpMinimize)
    x = pulp.LpVariable.dicts("x", (range(n), range(n), range(1, n + 1)), cat="Binary")
    problem += pulp.lpSum([])
    for r in range(n):
        for c in range(n):
            problem += pulp.lpSum(x[r][c].values()) == 1, f"cell_{r}_{c}"
    if sos:
        problem.sos1["first_row"] = {x[0][c][1]: c + 1 for c in range(n)}
    return from_pulp(problem, decode)


def _first_digits(n):
    return lambda values: np.array([[next(k for k in range(1, n + 1) if values[f"x_{r}_{c}_{k}"] > 0.5)
                                     for c in range(n)] for r in range(n)])


def _raises(values):
    raise RuntimeError("my decode broke")


def _nonlinear(puzzle):
    m = pyo.ConcreteModel(name="cells")
    m.x = pyo.Var(range(puzzle.n), bounds=(0, 1))
    m.square = pyo.Constraint(expr=m.x[0] * m.x[1] <= 1)
    return from_pyomo(m, lambda values: None)


BAD = {  # name -> (build, what its one line names)
    "bad-raise": (lambda p: _cells(p, _raises), "decode failed: RuntimeError: my decode broke"),
    "bad-shape": (lambda p: _cells(p, lambda values: np.zeros(3)),
                  "decode gave an array of shape (3,), the puzzle's grid is (9, 9)"),
    "bad-name": (lambda p: _cells(p, lambda values: values["y_0_0_1"]),
                 "decode failed: UnknownVariable: the model has no variable 'y_0_0_1' (it has 729, the first "
                 "named 'x_0_0_1')"),
    "bad-sos": (lambda p: _cells(p, _first_digits(p.n), sos=True),
                "model could not be built: ValueError: PuLP problem cells: SOS constraint(s) first_row"),
    "bad-nonlinear": (_nonlinear, "model could not be built: ValueError: Pyomo model cells: constraint square "
                                  "is not linear"),
}


@pytest.fixture
def bad_formulations():
    """The formulations of :data:`BAD`, registered for ``sudoku`` for the test, then removed."""
    for name, (build, _) in BAD.items():
        registry.formulation("sudoku", name, description=f"a {name} model (test)")(build)
    yield BAD
    for name in BAD:
        registry._FORMULATIONS.pop(("sudoku", name), None)


@pytest.mark.parametrize("name", BAD)
def test_a_bad_model_is_its_runs_skipped_record_naming_it(bad_formulations, name):
    puzzle = read_puzzles(PUZZLE_FILE)[0].puzzle
    record = run(puzzle, name, "highs", SolveOptions(time_limit=20))
    assert record.status == "skipped" and "\n" not in record.message
    assert record.message.startswith(f"formulation {name}: {bad_formulations[name][1]}"), record.message
    assert record.solution is None and record.verified is None
    built = name not in ("bad-sos", "bad-nonlinear")  # a decode failure keeps the solve's figures
    assert (record.model_fingerprint != "") == built and (record.wall_time is not None) == built
    assert frame_from_rows([record.to_dict()])["outcome"].tolist() == ["skipped"]


def test_a_grouped_job_records_the_bad_runs_and_goes_on(bad_formulations):
    job = Job("sudoku/seed", ("binary", *BAD), "highs", time_limit=20)
    rows = [row for row in run_job(job, progress=False) if isinstance(row, dict) and row.get("role") == "run"]
    runs = frame_from_rows(rows)
    assert len(runs) == 2 * (1 + len(BAD))
    good = runs[runs["formulation"] == "binary"]
    assert good["outcome"].eq("solved").all() and len(good) == 2
    bad = runs[runs["formulation"] != "binary"]
    assert bad["outcome"].eq("skipped").all()
    for formulation, message in zip(bad["formulation"], bad["message"]):
        assert message.startswith(f"formulation {formulation}: {BAD[formulation][1]}"), message


@pytest.mark.parametrize("name", ["bad-name", "bad-nonlinear"])
def test_solve_prints_one_line_and_exits_2(bad_formulations, name, capsys):
    assert main(["solve", str(PUZZLE_FILE), "--formulation", name, "--time-limit", "20"]) == 2
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    [line] = out.splitlines()
    assert line.startswith(f"# 1: skipped: formulation {name}: {BAD[name][1]}"), line


@pytest.mark.parametrize("name", ["bad-name", "bad-sos"])
def test_counting_solutions_of_a_bad_model_is_one_puzzle_error(bad_formulations, name):
    puzzle = read_puzzles(PUZZLE_FILE)[0].puzzle
    with pytest.raises(registry.PuzzleError, match=f"^formulation {name}: "):
        count_solutions(puzzle, name, "highs", 2, SolveOptions(time_limit=20))


@pytest.mark.parametrize("module", ["pyomo.environ", "pyomo.core"])
def test_a_layer_not_installed_is_one_line_naming_its_extra(monkeypatch, module):
    """With Pyomo absent (its module blocked in sys.modules), ``binary-pyomo`` is a skipped run whose
    one line names the extra that installs the layer."""
    monkeypatch.setitem(__import__("sys").modules, module, None)
    puzzle = read_puzzles(PUZZLE_FILE)[0].puzzle
    record = run(puzzle, "binary-pyomo", "highs", SolveOptions(time_limit=20))
    assert record.status == "skipped" and "\n" not in record.message
    assert record.message == ("formulation binary-pyomo: model could not be built: PuzzleError: "
                              "the modelling layer pyomo is not installed: pip install -e '.[pyomo]'"), record.message
