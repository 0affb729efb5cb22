"""Models written in PuLP and Pyomo (issue 33): from_pulp and from_pyomo give the arrays the layer's
model states, and the seed models written as users write them are the model of ``binary``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pulp
import pyomo.environ as pyo  # the pyomo extra, which CI installs
import pytest

from puzzlebench.analysis.claims import findings
from puzzlebench.analysis.outcomes import instance_times, prepare_runs

from puzzlebench import registry
from puzzlebench.io import read_puzzle, read_puzzles
from puzzlebench.model import INF
from puzzlebench.model.layers import from_mps, from_pulp, from_pyomo, model_files
from puzzlebench.puzzles import Sudoku
from puzzlebench.registry import get_formulation
from puzzlebench.run.jobs import Job
from puzzlebench.run.runner import run
from puzzlebench.store.results import read_store
from puzzlebench.solvers.contract import SolveOptions

ROOT = Path(__file__).resolve().parents[1]
SEEDS = [("sudoku", p) for p in sorted((ROOT / "instances/sudoku/seed").glob("*.txt")) if "solution" not in p.name] \
    + [("killer", p) for p in sorted((ROOT / "instances/killer/seed").glob("*.txt")) if "solution" not in p.name]
LAYERS = ("binary-pulp", "binary-pyomo")


def _rows(model) -> dict[str, tuple[dict[str, float], float, float]]:
    """Each row by name: {column name: coefficient}, lower, upper (order-free, to compare)."""
    A = model.A.tocsr()
    return {name: ({model.col_names[j]: a for j, a in zip(A.indices[A.indptr[i]:A.indptr[i + 1]],
                                                          A.data[A.indptr[i]:A.indptr[i + 1]])},
                   model.row_lower[i], model.row_upper[i])
            for i, name in enumerate(model.row_names)}


def test_from_pulp_reads_senses_bounds_types_offset_and_maximise():
    problem = pulp.LpProblem("toy", pulp.LpMaximize)
    x = pulp.LpVariable("x", lowBound=-2, upBound=5, cat="Integer")
    y = pulp.LpVariable("y")  # free
    z = pulp.LpVariable("z", cat="Binary")
    problem += 3 * x - y + 7
    problem += x + 2 * y <= 4, "le"
    problem += x - z >= -1, "ge"
    problem += y + z + 1 == 3, "eq"  # the constant moves to the bounds
    model = from_pulp(problem, lambda values: np.array([[values["x"]]]))
    cols = {name: j for j, name in enumerate(model.col_names)}
    assert sorted(cols) == ["x", "y", "z"]
    assert (model.col_lower[cols["x"]], model.col_upper[cols["x"]]) == (-2, 5)
    assert (model.col_lower[cols["y"]], model.col_upper[cols["y"]]) == (-INF, INF)
    assert (model.col_lower[cols["z"]], model.col_upper[cols["z"]]) == (0, 1)
    assert model.integrality[[cols["x"], cols["y"], cols["z"]]].tolist() == [True, False, True]
    # maximise 3x - y + 7 is minimise -3x + y - 7
    assert model.objective[cols["x"]] == -3 and model.objective[cols["y"]] == 1 and model.offset == -7
    assert _rows(model) == {"le": ({"x": 1, "y": 2}, -INF, 4), "ge": ({"x": 1, "z": -1}, -1, INF),
                            "eq": ({"y": 1, "z": 1}, 2, 2)}
    x_vec = np.zeros(3)
    x_vec[cols["x"]] = 4
    assert model.decode(x_vec).tolist() == [[4]]


def test_from_pulp_refuses_sos():
    problem = pulp.LpProblem("sos", pulp.LpMinimize)
    a, b = pulp.LpVariable("a", 0, 1), pulp.LpVariable("b", 0, 1)
    problem += a + b
    problem.sos1["s"] = {a: 1, b: 2}
    with pytest.raises(ValueError, match="SOS"):
        from_pulp(problem, lambda values: None)


def test_from_pyomo_reads_ranged_rows_bounds_offset_and_maximise():
    m = pyo.ConcreteModel(name="toy")
    m.x = pyo.Var(domain=pyo.Integers, bounds=(-2, 5))
    m.y = pyo.Var()  # free
    m.z = pyo.Var(domain=pyo.Binary)
    m.objective = pyo.Objective(expr=3 * m.x - m.y + 7, sense=pyo.maximize)
    m.ranged = pyo.Constraint(expr=pyo.inequality(1, m.x + 2 * m.y + 1, 4))
    m.ge = pyo.Constraint(expr=m.x - m.z >= -1)
    model = from_pyomo(m, lambda values: np.array([[values["x"]]]))
    cols = {name: j for j, name in enumerate(model.col_names)}
    assert sorted(cols) == ["x", "y", "z"]
    assert (model.col_lower[cols["y"]], model.col_upper[cols["y"]]) == (-INF, INF)
    assert model.integrality[[cols["x"], cols["y"], cols["z"]]].tolist() == [True, False, True]
    assert model.objective[cols["x"]] == -3 and model.offset == -7
    assert _rows(model) == {"ranged": ({"x": 1, "y": 2}, 0, 3), "ge": ({"x": 1, "z": -1}, -1, INF)}


def test_a_pyomo_sudoku_with_fixed_givens_is_binary():
    """Givens written as ``x.fix(1)``, as Pyomo users write them, give the fingerprint of ``binary``: the fixed
    column stays in its rows with both bounds 1 (not folded into the rows' constants); the model is left as
    it was (the givens still fixed at 1)."""
    puzzle = read_puzzle(ROOT / "instances/sudoku/seed/matlab_cleve.txt").puzzle
    n, cells, digits = puzzle.n, range(puzzle.n), range(1, puzzle.n + 1)
    m = pyo.ConcreteModel(name="fixed-givens")
    m.x = pyo.Var(cells, cells, digits, within=pyo.Binary)
    m.objective = pyo.Objective(expr=0)
    m.cell = pyo.Constraint(cells, cells, rule=lambda m, r, c: sum(m.x[r, c, k] for k in digits) == 1)
    m.unit = pyo.Constraint(range(len(puzzle.units())), digits, rule=lambda m, u, k: sum(
        m.x[int(i) // n, int(i) % n, k] for i in puzzle.units()[u]) == 1)
    givens = [(r, c, int(puzzle.givens[r, c])) for r in cells for c in cells if puzzle.givens[r, c]]
    for r, c, k in givens:
        m.x[r, c, k].fix(1)
    model = from_pyomo(m, lambda values: None)
    binary = get_formulation("sudoku", "binary").build(puzzle)
    assert model.identity().fingerprint == binary.identity().fingerprint
    assert all(m.x[r, c, k].fixed and m.x[r, c, k].value == 1 for r, c, k in givens)


def test_from_pyomo_refuses_a_nonlinear_constraint_naming_it():
    m = pyo.ConcreteModel(name="bad")
    m.x = pyo.Var(bounds=(0, 3))
    m.square = pyo.Constraint(expr=m.x * m.x <= 4)
    with pytest.raises(ValueError, match="constraint square is not linear"):
        from_pyomo(m, lambda values: None)


def _sixteen():
    return read_puzzles(ROOT / "instances/sudoku/janko16/Sudoku_dataset.json")[0].puzzle


@pytest.mark.parametrize("layer", LAYERS)
def test_the_seed_models_written_in_a_layer_are_binary(layer):
    """The same fingerprint as ``binary`` on every bundled seed puzzle and on a 16x16."""
    puzzles = [(kind, entry.puzzle) for kind, path in SEEDS for entry in read_puzzles(path)]
    puzzles.append(("sudoku", _sixteen()))
    assert puzzles[-1][1].n == 16
    assert {kind for kind, _ in puzzles} == {"sudoku", "killer"}
    for kind, puzzle in puzzles:
        native = get_formulation(kind, "binary").build(puzzle).identity()
        written = get_formulation(kind, layer).build(puzzle)
        assert written.identity().fingerprint == native.fingerprint, (kind, puzzle.name)
        assert written.col_names[0] in ("x_0_0_1", "x[0,0,1]")


@pytest.mark.parametrize("layer", [*LAYERS, "binary"])
def test_a_run_records_the_conversion_time_within_the_build_time(layer):
    """A layer's run has 0 < conversion_time <= build_time; a native formulation's is None."""
    entry = read_puzzles(SEEDS[0][1])[0]
    record = run(entry.puzzle, layer, "highs", SolveOptions(time_limit=60))
    assert record.verified is True, record.message
    if layer == "binary":
        assert record.conversion_time is None
    else:
        assert 0 < record.conversion_time <= record.build_time


@pytest.mark.parametrize("solver", ["highs", "cbc", "scip", "cpsat"])
@pytest.mark.parametrize("layer", LAYERS)
def test_the_layer_models_solve_and_verify(layer, solver):
    kind, path = SEEDS[-1]
    entry = read_puzzles(path)[0]
    record = run(entry.puzzle, layer, solver, SolveOptions(time_limit=60))
    assert record.status == "optimal" and record.verified is True, record.message


def test_a_batch_job_groups_the_layer_models_with_binary(tmp_path):
    """``binary`` and the seed model written in PuLP and in Pyomo, run by ``puzzlebench batch`` as a
    workflow job runs them: one identity group, named by ``binary``, with every build time recorded."""
    out = tmp_path / "job.jsonl"
    job = Job("sudoku/seed", ("binary", *LAYERS), "highs", repeats=2, time_limit=20)
    done = subprocess.run([sys.executable, "-m", "puzzlebench", "batch", "--job", job.to_json(), "-o", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    runs = prepare_runs(read_store([out]))
    assert runs["verified"].all() and set(runs["formulation"]) == {"binary", *LAYERS}
    assert (runs["build_time"] > 0).all()
    layered = runs["formulation"].isin(LAYERS)
    assert runs.loc[~layered, "conversion_time"].isna().all()
    assert ((runs.loc[layered, "conversion_time"] > 0) & (runs.loc[layered, "conversion_time"]
                                                          <= runs.loc[layered, "build_time"])).all()
    grouped = findings(runs, instance_times(runs), "time", 0.01)
    assert [group["formulations"] for group in grouped.identity] == [["binary", *LAYERS]]
    pairs = [c for c in grouped.claims if c.kind == "pairwise"]
    assert len(pairs) == 3 and {c.verdict for c in pairs} == {"identical"}  # one model: never compared


def test_from_mps_reads_what_from_pulp_reads_and_an_lp_file(tmp_path):
    """A toy model written by PuLP as MPS and as LP, and by Model.to_mps, reads back as from_pulp
    reads the problem (PuLP's writers keep neither a maximised sense nor an objective constant:
    Model.to_mps writes the constant, and the sense is the next test's)."""
    problem = pulp.LpProblem("toy", pulp.LpMinimize)
    x = pulp.LpVariable("x", lowBound=-2, upBound=5, cat="Integer")
    y = pulp.LpVariable("y", lowBound=-3)
    z = pulp.LpVariable("z", cat="Binary")
    problem += 3 * x - y + 7
    problem += x + 2 * y <= 4, "le"
    problem += x - z >= -1, "ge"
    problem += y + z + 1 == 3, "eq"
    direct = from_pulp(problem, lambda values: None)
    problem.writeMPS(str(tmp_path / "toy.mps"))
    problem.writeLP(str(tmp_path / "toy.lp"))
    direct.to_mps(tmp_path / "ours.mps")
    for path in (tmp_path / "toy.mps", tmp_path / "toy.lp", tmp_path / "ours.mps"):
        model = from_mps(path, lambda values: np.array([[values["x"]]]))
        cols = {name: j for j, name in enumerate(model.col_names)}
        assert sorted(cols) == ["x", "y", "z"] and _rows(model) == _rows(direct), path
        assert model.integrality[[cols["x"], cols["y"], cols["z"]]].tolist() == [True, False, True]
        assert (model.col_lower[cols["y"]], model.col_upper[cols["y"]]) == (-3, INF)
        assert (model.objective[cols["x"]], model.objective[cols["y"]]) == (3, -1)
        assert model.offset == (7 if path.name == "ours.mps" else 0)
        assert 0 < model.conversion_time
        x_vec = np.zeros(3)
        x_vec[cols["x"]] = 4
        assert model.decode(x_vec).tolist() == [[4]]


def test_from_mps_minimises_a_maximised_objective_as_its_negation(tmp_path):
    path = tmp_path / "max.mps"
    path.write_text("NAME max\nOBJSENSE\n    MAX\nROWS\n N obj\n L cap\nCOLUMNS\n x obj 2 cap 1\n"
                    "RHS\n RHS obj -5 cap 4\nBOUNDS\n UP BND x 10\nENDATA\n")
    model = from_mps(path, lambda values: None)
    assert model.objective.tolist() == [-2] and model.offset == -5      # maximise 2x + 5
    assert (model.row_lower[0], model.row_upper[0], model.col_upper[0]) == (-INF, 4, 10)


def test_from_mps_refuses_what_highs_cannot_read_with_its_error_line(tmp_path):
    with pytest.raises(ValueError, match=r"nowhere\.mps: HiGHS cannot read it: ERROR: +File .*nowhere\.mps not found"):
        from_mps(tmp_path / "nowhere.mps", lambda values: None)


def test_model_files_run_as_a_formulation_naming_a_missing_file(tmp_path):
    """The binary model of one seed puzzle written with Model.to_mps, read back through model_files:
    binary's fingerprint, a verified run; a puzzle without a file is a skipped run naming the file."""
    entry = read_puzzles(SEEDS[0][1])[0]
    written = get_formulation("sudoku", "binary-pulp").build(entry.puzzle)
    written.to_mps(tmp_path / f"{entry.puzzle.name}.mps")
    model_files("sudoku", "test-files", tmp_path)
    try:
        info = get_formulation("sudoku", "test-files")
        model = info.build(entry.puzzle)
        native = get_formulation("sudoku", "binary").build(entry.puzzle)
        assert model.identity().fingerprint == native.identity().fingerprint
        record = run(entry.puzzle, "test-files", "highs", SolveOptions(time_limit=60))
        assert record.verified is True and 0 < record.conversion_time <= record.build_time
        missing = run(Sudoku(entry.puzzle.givens, name="elsewhere"), "test-files", "highs", SolveOptions(time_limit=60))
        assert missing.status == "skipped"
        assert missing.message == (f"formulation test-files: model could not be built: FileNotFoundError: "
                                   f"no model file {tmp_path / 'elsewhere.mps'} for puzzle 'elsewhere'")
    finally:
        registry._FORMULATIONS.pop(("sudoku", "test-files"))


@pytest.mark.parametrize("pattern", ["x_{r}_{c}", "x_{r}_{c}_{k}_{k}", "x_{row}_{c}_{k}", "x_{r:02}_{c}_{k}"])
def test_a_column_pattern_names_r_c_and_k_once_each(pattern):
    with pytest.raises(ValueError, match="column pattern"):
        model_files("sudoku", "never-registered", ".", columns=pattern)
