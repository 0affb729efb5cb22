"""Solvers and formulations from an installed package, registered through entry points."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = '''
from puzzlebench.registry import formulation, get_formulation, get_solver, solver


@solver("plugin-highs", version=lambda: "plugin 0.1", description="HiGHS, registered from outside.")
def solve(model, options):
    return get_solver("highs").solve(model, options)


@formulation("sudoku", "plugin-binary", description="The binary model, registered from outside.")
def build(puzzle):
    """The binary model (see formulations/sudoku.py)."""
    return get_formulation("sudoku", "binary").build(puzzle)
'''


def installed_plugin(tmp_path, module: str = PLUGIN) -> dict:
    """A package installed as Python installs one: its module and a dist-info with entry_points.txt."""
    (tmp_path / "puzzlebench_demo_plugin.py").write_text(module)
    info = tmp_path / "puzzlebench_demo_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: puzzlebench-demo-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[puzzlebench.solvers]\ndemo = puzzlebench_demo_plugin\n\n"
                                           "[puzzlebench.formulations]\ndemo = puzzlebench_demo_plugin\n")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)])}


def cli(env, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlebench", *args], env=env, capture_output=True,
                          text=True, timeout=300)


def test_entry_points_register_a_solver_and_a_formulation(tmp_path):
    env = installed_plugin(tmp_path)
    assert "plugin-highs" in cli(env, "solvers").stdout
    assert "plugin-binary" in cli(env, "formulations", "--puzzle", "sudoku").stdout
    done = cli(env, "solve", str(ROOT / "instances/sudoku/seed/matlab_cleve.txt"), "--solver", "plugin-highs",
               "--formulation", "plugin-binary", "--json")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert (record["solver"], record["formulation"], record["verified"]) == ("plugin-highs", "plugin-binary", True)


def test_a_broken_entry_point_is_one_line_and_exit_2(tmp_path):
    env = installed_plugin(tmp_path, "raise ImportError('no such library')\n")
    done = cli(env, "solvers")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "puzzlebench.solvers" in done.stderr and "no such library" in done.stderr
