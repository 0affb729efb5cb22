"""The code that runs is the code of the tree ``puzzlebench`` was imported from (no mixing of clones)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import puzzlebench.analysis
import puzzlebench.formulations

ROOT = Path(__file__).resolve().parents[1]


def test_plugin_folders_come_from_this_tree():
    assert Path(puzzlebench.formulations.__file__).resolve() == ROOT / "formulations/__init__.py"
    assert Path(puzzlebench.analysis.__file__).resolve() == ROOT / "analysis/__init__.py"
    from puzzlebench.formulations import sudoku
    assert Path(sudoku.__file__).resolve() == ROOT / "formulations/sudoku.py"


def test_a_second_tree_runs_its_own_formulations_without_a_reinstall(tmp_path):
    clone = tmp_path / "clone"
    clone.mkdir()
    for name in ("puzzlebench", "formulations", "analysis", "instances"):
        shutil.copytree(ROOT / name, clone / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", clone)
    sudoku = clone / "formulations/sudoku.py"
    text = sudoku.read_text()
    assert "The classic assignment model" in text
    sudoku.write_text(text.replace("The classic assignment model", "The SECOND TREE's assignment model", 1))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-m", "puzzlebench", "formulations", "--puzzle", "sudoku"], cwd=clone,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "The SECOND TREE's assignment model" in done.stdout
    where = subprocess.run([sys.executable, "-c", "import puzzlebench.analysis as a; print(a.__file__)"],
                           cwd=clone, env=env, capture_output=True, text=True, timeout=120)
    assert Path(where.stdout.strip()).resolve() == (clone / "analysis/__init__.py").resolve(), where.stderr
