"""A study's results go to results/<study>/ by default, and a run never overwrites another study's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlebench.errors import PuzzleError
from puzzlebench.workflow.study import (
    check_results_folder,
    record_study,
    results_folder,
)

ROOT = Path(__file__).resolve().parents[1]
TINY = {"instance_sets": ["sudoku/seed"], "formulations": ["binary"], "solvers": ["highs"], "time_limit": 5}


def dry_run(tmp_path, *extra):
    return subprocess.run([sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-n", "--cores", "1",
                           "--directory", str(tmp_path), *extra], capture_output=True, text=True, timeout=300)


def test_results_folder_is_named_after_the_study_file(tmp_path):
    study = tmp_path / "my-set.yaml"
    study.write_text(json.dumps(TINY))
    assert results_folder({"results": "results"}, [study], {}) == "results/my-set"
    assert results_folder({"results": "results"}, [], {}) == "results"
    assert results_folder({"results": "elsewhere"}, [study], {"results": "elsewhere"}) == "elsewhere"
    named = tmp_path / "named.yaml"
    named.write_text(json.dumps({**TINY, "results": "results/x"}))
    assert results_folder({"results": "results/x"}, [named], {}) == "results/x"


def test_snakemake_plans_a_study_into_its_own_folder(tmp_path):
    study = tmp_path / "my-set.yaml"
    study.write_text(json.dumps(TINY))
    done = dry_run(tmp_path, "--configfile", str(study))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "results/my-set/runs/sudoku/seed/highs/seed0/" in done.stdout
    assert "results/runs/" not in done.stdout


def test_another_grid_into_the_same_folder_is_refused(tmp_path):
    record_study(str(tmp_path / "results"), {**TINY, "seeds": [0]})
    check_results_folder(str(tmp_path / "results"), {**TINY, "seeds": [0], "chunk_size": 7})  # same grid: resumes
    with pytest.raises(PuzzleError, match=r"holds the runs of another study .*seeds differ"):
        check_results_folder(str(tmp_path / "results"), {**TINY, "seeds": [0, 1]})
    study = tmp_path / "study.yaml"
    study.write_text(json.dumps({**TINY, "seeds": [0, 1], "results": "results"}))
    done = dry_run(tmp_path, "--configfile", str(study))
    assert done.returncode != 0 and "holds the runs of another study" in done.stderr
    assert "Traceback" not in done.stderr
