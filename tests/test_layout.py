"""The code that runs is the code of the tree ``puzzlebench`` was imported from: a second checkout on the
first one's install is refused, naming the install (no mixing of clones), with no import machinery."""

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


def test_a_second_tree_on_the_first_trees_install_is_refused_naming_the_install(tmp_path):
    # the second tree's puzzlebench (the working directory's) with this environment's editable install,
    # which maps puzzlebench.formulations to the first tree: one line naming the install, exit 2
    clone = tmp_path / "clone"
    copy_tree(clone)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-m", "puzzlebench", "solve", str(ROOT / "instances/sudoku/seed/matlab_cleve.txt")],
                          cwd=clone, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    [line] = done.stderr.splitlines()
    assert "puzzlebench.formulations is loaded from " + str(ROOT / "formulations") in line, line
    assert line.endswith(f"install this one: pip install -e {clone.resolve()}"), line


def test_the_workflow_of_a_second_tree_is_refused_naming_the_install(tmp_path):
    clone = tmp_path / "clone"
    copy_tree(clone)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-m", "snakemake", "-s", str(clone / "Snakefile"), "--cores", "1", "-n",
                           "--directory", str(tmp_path)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0
    assert (f"puzzlebench: install error: puzzlebench.formulations is loaded from {ROOT / 'formulations'}, but "
            f"puzzlebench from {clone.resolve()}: this environment's install is another checkout's; install this one: "
            f"pip install -e {clone.resolve()}") in done.stderr, done.stderr[-2000:]
    assert not (tmp_path / "results").exists()


def test_no_import_machinery_and_no_path_edits():
    # issue 36: no meta path finder of the project's, no sys.path edit in the package, Snakefile,
    # benchmarks or studies; the module paths before the stages are gone
    import importlib
    import re

    import puzzlebench.formulations.sudoku  # noqa: F401
    assert not [finder for finder in sys.meta_path if type(finder).__module__.startswith("puzzlebench")]
    edits = re.compile(r"sys\.(path\.(insert|append)|meta_path)")
    files = [ROOT / "Snakefile", *ROOT.glob("puzzlebench/**/*.py"), *ROOT.glob("formulations/*.py"),
             *ROOT.glob("analysis/*.py"), *ROOT.glob("benchmarks/*.py"), *ROOT.glob("studies/*.py")]
    assert not [str(f) for f in files if edits.search(f.read_text())]
    for old in ("puzzlebench.runner", "puzzlebench.records", "puzzlebench.config", "puzzlebench.generators.sudoku"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(old)


# -- issue 24, item 5: the package grouped by stage, the old module paths kept ----------------------

STAGES = {"model": {"arrays", "identity", "layers", "mps"},
          "run": {"jobs", "batch", "runner", "worker", "validation"},
          "system": {"capture", "processes", "atomic", "lazy_numpy"},
          "store": {"records", "chunks", "provenance", "results"},
          "workflow": {"config", "planner", "sampling", "study", "cluster"}}


def test_the_package_root_holds_the_stages_not_their_modules():
    root = ROOT / "puzzlebench"
    for stage, modules in STAGES.items():
        assert {p.stem for p in (root / stage).glob("*.py")} == modules | {"__init__"}
    flat = {p.stem for p in root.glob("*.py")}
    assert not flat & set().union(*STAGES.values()), "a stage's module at the root"
    assert len(flat) <= 12, sorted(flat)


def test_the_names_users_script_against_are_at_their_modules():
    import puzzlebench.model
    import puzzlebench.store
    from puzzlebench.model.arrays import Model
    from puzzlebench.registry import formulation, get_formulation
    from puzzlebench.store.results import MANIFEST, read_store
    from puzzlebench.workflow.planner import plan, settings
    assert puzzlebench.model.Model is Model and callable(read_store) and callable(plan) and callable(settings)
    assert MANIFEST == "store.json" and callable(formulation) and callable(get_formulation)
    with pytest.raises(AttributeError, match="has no attribute 'read_store'"):
        puzzlebench.store.read_store  # noqa: B018 -- the package forwards nothing


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
    # what two verbs share lives below the CLI (validate_set: run.validation) or in commands/_common.py
    import ast
    verbs = {p.stem for p in (ROOT / "puzzlebench" / "commands").glob("*.py")} - {"__init__", "_common"}
    for verb in sorted(verbs):
        tree = ast.parse((ROOT / "puzzlebench" / "commands" / f"{verb}.py").read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 1}
        assert not imported & verbs, (verb, imported & verbs)
