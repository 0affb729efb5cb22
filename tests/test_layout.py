"""The code that runs is the code of the tree ``puzzlebench`` was imported from (no mixing of clones)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import puzzlebench.analysis
import puzzlebench.formulations

ROOT = Path(__file__).resolve().parents[1]


def copy_tree(clone: Path) -> None:
    clone.mkdir()
    for name in ("puzzlebench", "formulations", "analysis", "instances"):
        shutil.copytree(ROOT / name, clone / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "Snakefile", "config.yaml"):
        shutil.copy(ROOT / name, clone)


def test_plugin_folders_come_from_this_tree():
    assert Path(puzzlebench.formulations.__file__).resolve() == ROOT / "formulations/__init__.py"
    assert Path(puzzlebench.analysis.__file__).resolve() == ROOT / "analysis/__init__.py"
    from puzzlebench.formulations import sudoku
    assert Path(sudoku.__file__).resolve() == ROOT / "formulations/sudoku.py"


def test_a_second_tree_runs_its_own_formulations_without_a_reinstall(tmp_path):
    clone = tmp_path / "clone"
    copy_tree(clone)
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


@pytest.mark.slow
def test_the_workflow_of_a_second_tree_runs_that_tree_in_every_job(tmp_path):
    import pandas as pd
    clone = tmp_path / "clone"
    copy_tree(clone)
    init = clone / "puzzlebench/__init__.py"
    init.write_text(init.read_text().replace('__version__ = "0.1.0"', '__version__ = "0.1.0+second-tree"'))
    study = tmp_path / "study.json"
    study.write_text('{"instance_sets": ["sudoku/seed"], "max_instances": 1, "formulations": ["binary"], '
                     '"solvers": ["highs"], "time_limit": 5, "results": "r"}')
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-m", "snakemake", "-s", str(clone / "Snakefile"), "--cores", "1",
                           "--directory", str(tmp_path), "--configfile", str(study), "--until", "gather"],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert set(pd.read_parquet(tmp_path / "r/runs.parquet")["puzzlebench_version"]) == {"0.1.0+second-tree"}
