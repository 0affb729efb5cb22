"""The README's worked examples for a new formulation and a new solver run as written."""

from __future__ import annotations

import re
import types
from pathlib import Path

from puzzlebench import registry
from puzzlebench.io import read_puzzle
from puzzlebench.records import SolveOptions
from puzzlebench.runner import run

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
