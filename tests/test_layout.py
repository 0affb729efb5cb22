"""The code that runs is the code of the tree ``puzzlebench`` was imported from (no mixing of clones)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import puzzlebench.analysis
import puzzlebench.formulations
import pytest

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


# -- issue 24, item 5: the package grouped by stage, the old module paths kept ----------------------

STAGES = {"model": {"arrays", "identity", "layers", "mps"},
          "run": {"jobs", "batch", "runner", "worker", "processes", "solver_configs"},
          "store": {"records", "chunks", "provenance", "results"},
          "workflow": {"config", "planner", "sampling", "study", "cluster"}}


def test_the_package_root_holds_the_stages_not_their_modules():
    root = ROOT / "puzzlebench"
    for stage, modules in STAGES.items():
        assert {p.stem for p in (root / stage).glob("*.py")} == modules | {"__init__"}
    flat = {p.stem for p in root.glob("*.py")}
    assert not flat & set().union(*STAGES.values()), "a stage's module at the root"
    assert len(flat) <= 12, sorted(flat)


def test_every_old_module_path_is_the_module_at_its_new_path():
    import importlib

    from puzzlebench._moved import MOVED
    assert "puzzlebench.runner" in MOVED and "puzzlebench.records" in MOVED
    for old, new in MOVED.items():
        assert importlib.import_module(old) is importlib.import_module(new), old
    from puzzlebench.runner import build  # a from-import through the old path

    from puzzlebench.run.runner import build as same
    assert build is same


def test_the_names_users_script_against_keep_their_paths():
    import puzzlebench.model
    import puzzlebench.store
    import puzzlebench.workflow
    from puzzlebench.model.arrays import Model
    from puzzlebench.registry import formulation, get_formulation
    from puzzlebench.store import MANIFEST, read_store
    from puzzlebench.store.results import read_store as read
    from puzzlebench.workflow import plan, settings
    from puzzlebench.workflow.planner import plan as planned
    assert puzzlebench.model.Model is Model and read_store is read and plan is planned and callable(settings)
    assert MANIFEST == "store.json" and callable(formulation) and callable(get_formulation)
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        puzzlebench.store.nothing  # noqa: B018
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        puzzlebench.workflow.nothing  # noqa: B018


@pytest.mark.slow
def test_the_wheel_holds_every_package_folder_without_a_list_to_edit(tmp_path):
    # a new folder under puzzlebench/ (a puzzle kind) is in the wheel with no edit of pyproject.toml
    import zipfile
    scratch = tmp_path / "tree"
    copy_tree(scratch)
    shutil.copy(ROOT / "setup.py", scratch)
    shutil.copy(ROOT / "README.md", scratch)
    kind = scratch / "puzzlebench" / "kinds" / "scratchkind"
    kind.mkdir()
    (kind / "__init__.py").write_text('"""A folder no list names."""\n')
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "wheel"),
                            str(scratch)], capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "wheel").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    folders = {p.parent.relative_to(scratch).as_posix() for p in (scratch / "puzzlebench").rglob("__init__.py")}
    assert "puzzlebench/kinds/scratchkind" in folders
    assert {f"{folder}/__init__.py" for folder in folders} <= names, sorted(folders)
    assert {"puzzlebench/formulations/__init__.py", "puzzlebench/analysis/__init__.py",
            "puzzlebench/workflow/config.schema.yaml"} <= names


def test_the_modules_that_moved_find_the_tree_they_came_from(monkeypatch):
    # the bundled instances, the default config and the commit are the source tree's, from any stage's depth
    from puzzlebench.commands.config import DEFAULT_CONFIG
    from puzzlebench.io.sets import instances_root
    from puzzlebench.store.provenance import git_commit
    monkeypatch.delenv("PUZZLEBENCH_INSTANCES", raising=False)
    assert instances_root() == ROOT / "instances" and DEFAULT_CONFIG == ROOT / "config.yaml"
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    assert git_commit().split("+")[0] == head


def test_only_the_command_line_imports_the_command_line():
    # the CLI layer is the top of the flow: a kind's generator took per_size from commands.generate
    import ast
    offenders = []
    for path in sorted((ROOT / "puzzlebench").rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[1] == "commands" or rel.name == "cli.py" or rel.name == "__main__.py":
            continue
        package = list(rel.with_suffix("").parts)[:-1]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                names = [f"{target}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            offenders += [f"{rel}:{node.lineno}" for n in names if n.startswith(("puzzlebench.commands", "puzzlebench.cli"))]
    assert not offenders, offenders


def test_a_command_imports_no_other_command():
    # what two verbs share lives below the CLI (validate_set: io.validation) or in commands/_common.py
    import ast
    verbs = {p.stem for p in (ROOT / "puzzlebench" / "commands").glob("*.py")} - {"__init__", "_common"}
    for verb in sorted(verbs):
        tree = ast.parse((ROOT / "puzzlebench" / "commands" / f"{verb}.py").read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 1}
        assert not imported & verbs, (verb, imported & verbs)
