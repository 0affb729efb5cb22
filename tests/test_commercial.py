"""The commercial adapters for real, on models that fit their free licences and one that does not.

Each package installs from the registry with the size-limited licence it ships with
(``pip install -e '.[commercial]'``).  A missing package skips these tests on a
developer's machine and fails them in CI (which sets ``CI``), so CI cannot pass
without running them.
"""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.io.sets import get_set
from puzzlebench.run.runner import run
from puzzlebench.run.worker import SolverProcess
from puzzlebench.solvers.contract import SolveOptions
from puzzlebench.store.results import find_anomalies, frame_from_rows

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"gurobi": "gurobipy", "xpress": "xpress", "cplex": "cplex", "copt": "coptpy"}
# (set, index in the set): the seed puzzles and small public ones, all within every free licence
FITTING = [("sudoku/seed", 0), ("sudoku/seed", 1), ("sudoku/top95", 0), ("killer/seed", 0), ("killer/janko", 55),
           ("takuzu/seed", 0), ("takuzu/janko", 0), ("kakuro/seed", 0), ("kakuro/janko", 0)]


def require(solver: str) -> None:
    """Import the solver's package: skip without it, except in CI, where it is a failure."""
    try:
        importlib.import_module(PACKAGES[solver])
    except ImportError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"{PACKAGES[solver]} is not installed in CI (pip install -e '.[commercial]'): {exc}")
        pytest.skip(f"{PACKAGES[solver]} is not installed")


@pytest.fixture(scope="module")
def process():
    with SolverProcess() as proc:
        yield proc


def entry(name: str, index: int):
    return get_set(name).entries()[index]


@pytest.mark.parametrize("solver", list(PACKAGES))
def test_listed_as_installed_with_a_version(solver, capsys):
    require(solver)
    assert main(["solvers", "--json"]) == 0
    listed = {item["name"]: item for item in json.loads(capsys.readouterr().out)}
    assert listed[solver]["installed"] is True and listed[solver]["kind"] == "mip"
    assert any(ch.isdigit() for ch in listed[solver]["version"])


@pytest.mark.parametrize("solver", list(PACKAGES))
def test_small_public_puzzles_solve_and_verify(solver, process):
    require(solver)
    for name, index in FITTING:
        item = entry(name, index)
        record = run(item.puzzle, "binary", solver, SolveOptions(time_limit=30, seed=1), instance=item.name,
                     process=process)
        assert record.status == "optimal" and record.verified is True, (name, record.status, record.message)
        assert record.solver_adapter == solver and record.solver_kind == "mip"
        assert record.solver_time is not None and record.nodes is not None and record.lp_iterations is not None
        assert isinstance(record.root_solved, bool)  # presolved size: None when no presolve ran
        assert record.solver_version.split()[0] in ("Gurobi", "FICO", "CPLEX", "COPT")


@pytest.mark.parametrize("solver", list(PACKAGES))
def test_cli_solves_the_seed_killer(solver, capsys):
    require(solver)
    code = main(["solve", str(ROOT / "instances/killer/seed/fjmc_blog2026.txt"), "--solver", solver, "--json"])
    record = json.loads(capsys.readouterr().out)
    assert code == 0 and record["status"] == "optimal" and record["verified"] is True


@pytest.mark.parametrize("solver", list(PACKAGES))
def test_16x16_over_the_free_licence_is_skipped_with_the_limit_named(solver, process):
    require(solver)
    item = entry("sudoku/janko16", 0)  # 4,096 columns, 1,024 rows: over every free licence
    record = run(item.puzzle, "binary", solver, SolveOptions(time_limit=30), instance=item.name,
                 process=process)
    assert record.status == "skipped", (record.status, record.message)
    assert "licence size limit" in record.message and record.solution is None and record.verified is None
    runs = frame_from_rows([{**record.to_dict(), "instance_set": "sudoku/janko16", "permutation": 0}])
    assert list(runs["outcome"]) == ["skipped"]  # left out of the analysis, counted as skipped
    assert find_anomalies(runs).empty  # a fact of the run, not an anomaly


def test_without_the_extra_the_default_config_runs_and_a_commercial_solver_is_refused(tmp_path):
    """The core install: each commercial package made unimportable by a module that shadows it."""
    import subprocess
    import sys
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    for package in PACKAGES.values():
        (blocked / f"{package}.py").write_text(f"raise ImportError('{package} is not installed')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(blocked)])}

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "puzzlebench", *args], env=env, capture_output=True,
                              text=True, timeout=300, cwd=ROOT)
    listed = cli("solvers")
    assert listed.returncode == 0 and listed.stdout.count("NOT INSTALLED") == 4
    done = cli("batch", "--set", "sudoku/seed", "--formulation", "binary", "--solver", "highs",
               "-o", str(tmp_path / "out.jsonl"))
    assert done.returncode == 0, done.stderr
    refused = cli("solve", str(ROOT / "instances/sudoku/seed/matlab_cleve.txt"), "--solver", "gurobi")
    assert refused.returncode == 2 and "not installed" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    planned = subprocess.run([sys.executable, "-c", "import sys, yaml; from puzzlebench.workflow.planner import plan; "
                              "print(len(plan(yaml.safe_load(open('config.yaml')))))"],
                             env=env, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert planned.returncode == 0 and int(planned.stdout) > 0, planned.stderr
