"""The worked examples of docs/extending.md for a new formulation and a new solver run as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest
import yaml

from puzzlebench import registry
from puzzlebench.io import read_puzzle
from puzzlebench.run.runner import run
from puzzlebench.solvers.contract import SolveOptions

ROOT = Path(__file__).resolve().parents[1]


def python_blocks(section: str) -> list[str]:
    """The ```python blocks of docs/extending.md's section ``### {section}``, in order."""
    text = (ROOT / "docs/extending.md").read_text()
    body = re.split(r"\n##+ ", text.split(f"\n### {section}\n", 1)[1], maxsplit=1)[0]
    return re.findall(r"```python\n(.*?)```", body, re.S)


def load(code: str, package: str) -> None:
    module = types.ModuleType(f"{package}.readme_example")
    module.__package__ = package
    exec(compile(code, "docs/extending.md", "exec"), module.__dict__)


def test_readme_formulation_and_solver_examples_work(monkeypatch):
    registry.formulations(), registry.solvers()  # load the real plug-ins into the real registry first
    monkeypatch.setattr(registry, "_SOLVERS", dict(registry._SOLVERS))
    monkeypatch.setattr(registry, "_FORMULATIONS", dict(registry._FORMULATIONS))
    pulp_code, latin_code, _ = python_blocks("Add a formulation")
    [solver_code] = python_blocks("Add a solver")
    load(pulp_code, "puzzlebench.formulations")
    load(latin_code, "puzzlebench.formulations")
    load(solver_code, "puzzlebench.solvers")
    puzzle = read_puzzle(ROOT / "instances/sudoku/seed/matlab_cleve.txt").puzzle
    relaxed = run(puzzle, "latin-square", "scipy", SolveOptions(time_limit=30))
    assert relaxed.status == "optimal" and relaxed.verified is False
    assert any(v.startswith("box") for v in relaxed.violations)
    exact = run(puzzle, "binary", "scipy", SolveOptions(time_limit=30))
    assert exact.status == "optimal" and exact.verified is True
    written = run(puzzle, "my-pulp", "highs", SolveOptions(time_limit=30))
    assert written.verified is True and 0 < written.conversion_time <= written.build_time
    assert written.model_fingerprint == run(puzzle, "binary", "highs", SolveOptions(time_limit=30)).model_fingerprint


def test_readme_pulp_formulation_runs_beside_binary_as_the_config_line_says(monkeypatch, tmp_path):
    """The PuLP example and the workflow's line for it: a job of the formulations the line names,
    run by ``puzzlebench batch``, solves and verifies, and the claims name one identity group."""
    from puzzlebench.analysis.claims import findings
    from puzzlebench.analysis.outcomes import instance_times, prepare_runs
    from puzzlebench.cli import main
    from puzzlebench.store.results import read_store
    from puzzlebench.workflow.planner import plan

    registry.formulations()
    monkeypatch.setattr(registry, "_FORMULATIONS", dict(registry._FORMULATIONS))
    pulp_code = python_blocks("Add a formulation")[0]
    load(pulp_code, "puzzlebench.formulations")
    text = (ROOT / "docs/extending.md").read_text()
    line = yaml.safe_load(re.search(r"```yaml\n(formulations:\n  sudoku: \[.*?\]\n)```", text)[1])
    [job] = plan({"instance_sets": ["sudoku/seed"], **line, "solvers": ["highs"], "repeats": 2, "time_limit": 20})
    names = job.formulations
    assert names == ("binary", "my-pulp")
    out = tmp_path / "job.jsonl"
    assert main(["batch", "--job", job.to_json(), "-o", str(out)]) == 0
    runs = prepare_runs(read_store([out]))
    assert runs["verified"].all() and set(runs["formulation"]) == set(names)
    grouped = findings(runs, instance_times(runs), "time", 0.01)
    assert [group["formulations"] for group in grouped.identity] == [list(names)]


def test_readme_model_files_example_runs_through_batch(monkeypatch, tmp_path):
    """The model-file example as written, in a scratch folder: its files have ``binary``'s
    fingerprint, and a ``puzzlebench batch`` job of ``binary`` and ``my-files`` solves and
    verifies every run, one identity group."""
    from puzzlebench.analysis.claims import findings
    from puzzlebench.analysis.outcomes import instance_times, prepare_runs
    from puzzlebench.cli import main
    from puzzlebench.run.jobs import Job
    from puzzlebench.store.results import read_store

    registry.formulations()
    monkeypatch.setattr(registry, "_FORMULATIONS", dict(registry._FORMULATIONS))
    monkeypatch.chdir(tmp_path)
    files_code = python_blocks("Add a formulation")[2]
    load(files_code, "puzzlebench.formulations")
    assert sorted(p.name for p in (tmp_path / "my-models").iterdir()) == ["1.mps", "2.mps", "3.mps"]
    out = tmp_path / "job.jsonl"
    job = Job("sudoku/top95", ("binary", "my-files"), "highs", max_instances=3, time_limit=20)
    assert main(["batch", "--job", job.to_json(), "-o", str(out)]) == 0
    runs = prepare_runs(read_store([out]))
    assert len(runs) == 6 and runs["verified"].all() and runs["outcome"].eq("solved").all()
    files = runs[runs["formulation"] == "my-files"]
    assert (files["conversion_time"] > 0).all() and (files["conversion_time"] <= files["build_time"]).all()
    grouped = findings(runs, instance_times(runs), "time", 0.01)
    assert [group["formulations"] for group in grouped.identity] == [["binary", "my-files"]]


def scratch_tree(tmp_path) -> Path:
    """A copy of the repository (code, tests, seed instances) with both README examples dropped in."""
    import shutil
    tree = tmp_path / "tree"
    ignore = shutil.ignore_patterns(".git", ".venv", "results", "__pycache__", "*.egg-info", ".pytest_cache",
                                    ".snakemake")
    shutil.copytree(ROOT, tree, ignore=ignore, symlinks=True)
    latin_code = python_blocks("Add a formulation")[1]
    [solver_code] = python_blocks("Add a solver")
    (tree / "formulations/readme_latin_square.py").write_text(latin_code)
    (tree / "puzzlebench/solvers/readme_scipy.py").write_text(solver_code)
    for folder in ("formulations", "analysis"):  # found before the installed project's package-dir mapping
        (tree / "puzzlebench" / folder).symlink_to(tree / folder, target_is_directory=True)
    return tree


@pytest.mark.slow
def test_readme_examples_pass_the_conformance_tests_in_a_scratch_tree(tmp_path):
    tree = scratch_tree(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    listed = subprocess.run([sys.executable, "-m", "puzzlebench", "solvers"], cwd=tree, env=env,
                            capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0 and "scipy" in listed.stdout, listed.stderr
    listed = subprocess.run([sys.executable, "-m", "puzzlebench", "formulations", "--puzzle", "sudoku"], cwd=tree,
                            env=env, capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0 and "latin-square" in listed.stdout, listed.stderr
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/test_solvers.py", "tests/test_solve_matrix.py", "-k", "scipy or latin-square"],
                          cwd=tree, env=env, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stdout[-3000:]
    passed = int(re.search(r"(\d+) passed", done.stdout)[1])
    assert passed >= 40 and "skipped" not in done.stdout.splitlines()[-1], done.stdout.splitlines()[-1]
