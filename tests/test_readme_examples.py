"""The README's worked examples for a new formulation and a new solver run as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from puzzlebench import registry
from puzzlebench.io import read_puzzle
from puzzlebench.run.runner import run
from puzzlebench.store.records import SolveOptions

ROOT = Path(__file__).resolve().parents[1]


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)


def load(code: str, package: str) -> None:
    module = types.ModuleType(f"{package}.readme_example")
    module.__package__ = package
    exec(compile(code, "README.md", "exec"), module.__dict__)


def test_readme_formulation_and_solver_examples_work(monkeypatch):
    registry.formulations(), registry.solvers()  # load the real plug-ins into the real registry first
    monkeypatch.setattr(registry, "_SOLVERS", dict(registry._SOLVERS))
    monkeypatch.setattr(registry, "_FORMULATIONS", dict(registry._FORMULATIONS))
    formulation_code, solver_code = python_blocks()
    load(formulation_code, "puzzlebench.formulations")
    load(solver_code, "puzzlebench.solvers")
    puzzle = read_puzzle(ROOT / "instances/sudoku/seed/matlab_cleve.txt").puzzle
    relaxed = run(puzzle, "latin-square", "scipy", SolveOptions(time_limit=30))
    assert relaxed.status == "optimal" and relaxed.verified is False
    assert any(v.startswith("box") for v in relaxed.violations)
    exact = run(puzzle, "binary", "scipy", SolveOptions(time_limit=30))
    assert exact.status == "optimal" and exact.verified is True


def scratch_tree(tmp_path) -> Path:
    """A copy of the repository (code, tests, seed instances) with both README examples dropped in."""
    import shutil
    tree = tmp_path / "tree"
    ignore = shutil.ignore_patterns(".git", ".venv", "results", "__pycache__", "*.egg-info", ".pytest_cache",
                                    ".snakemake")
    shutil.copytree(ROOT, tree, ignore=ignore, symlinks=True)
    formulation_code, solver_code = python_blocks()
    (tree / "formulations/readme_latin_square.py").write_text(formulation_code)
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
