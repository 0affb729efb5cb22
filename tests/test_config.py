"""The workflow config: schema checks, duplicate keys, exit code 2, and no value reaching a shell."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.errors import PuzzleError
from puzzlebench.workflow.config import load_study, validate_config
from puzzlebench.workflow.planner import plan, settings

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "--cores", "1"]
TINY = {"instance_sets": ["sudoku/seed"], "max_instances": 1, "formulations": ["binary"],
        "solvers": ["highs"], "seeds": [0], "time_limit": 5}
INJECT = "; touch pwned #"


@pytest.mark.parametrize("key, value", [
    ("time_limit", "abc"), ("time_limit", -1), ("time_limit", 0), ("time_limit", float("nan")),
    ("time_limit", float("inf")), ("seeds", ["a"]), ("seeds", [-5]), ("seeds", [2**31 - 1]),
    ("chunk_size", 0), ("threads", 0), ("threads", 2.5), ("instance_sets", []), ("max_instances", -1),
    ("permutations", -1), ("group_formulations", "maybe"), ("results", ""), ("solvers", []),
    ("analysis", {"shift": "0.01; touch FILE #"}), ("analysis", {"shfit": 1}),
    ("solver_configs", {"highs-ipm": {"options": {}}}),
])
def test_bad_config_values_are_one_line_naming_the_key(key, value):
    with pytest.raises(PuzzleError) as err:
        settings({**TINY, key: value})
    assert f"config {key}" in str(err.value) and "\n" not in str(err.value)


def test_good_config_values_pass():
    validate_config({**TINY, "seeds": 3, "solvers": "highs", "group_formulations": "false",
                     "formulations": {"sudoku": "all"}, "analysis": {"shift": 1},
                     "solver_configs": {"highs-ipm": {"solver": "highs", "options": {"mip_lp_solver": "ipm"}}}})
    assert len(plan({**TINY, "max_instances": 0})) == 1


def test_max_instances_zero_keeps_every_puzzle_and_nonzero_caps():
    assert sum(j.instances for j in plan({**TINY, "max_instances": 0})) == 2
    assert sum(j.instances for j in plan({**TINY, "max_instances": 1})) == 1


def test_duplicate_keys_in_a_study_are_refused(tmp_path, capsys):
    study = tmp_path / "study.yaml"
    study.write_text("instance_sets: [sudoku/seed]\ntime_limit: 3\nanalysis:\n  shift: 1\n  shift: 2\n")
    with pytest.raises(PuzzleError, match=r"study.yaml:5: key 'shift' appears twice \(first at line 4\)"):
        load_study(study)
    assert main(["config", "check", str(study)]) == 2
    assert "appears twice" in capsys.readouterr().err


def test_config_check_verb(tmp_path, capsys):
    assert main(["config", "check", str(ROOT / "studies/gap-to-cpsat.yaml")]) == 0
    assert "ok: 40 jobs" in capsys.readouterr().out
    study = tmp_path / "study.yaml"
    study.write_text(json.dumps({"time_limit": "abc"}))
    assert main(["config", "check", str(study)]) == 2
    assert capsys.readouterr().err.strip() == (f"puzzlebench: error: {study}: config time_limit = 'abc': "
                                               "must be a finite number of seconds > 0 and <= 1000000")


def snakemake(tmp_path, config: dict, *extra):
    study = tmp_path / "study.yaml"
    study.write_text(json.dumps(config))
    return subprocess.run([*SNAKEMAKE, "--directory", str(tmp_path), "--configfile", str(study), *extra],
                          capture_output=True, text=True, timeout=600)


def test_snakemake_refuses_a_bad_config_with_exit_2(tmp_path):
    done = snakemake(tmp_path, {**TINY, "results": str(tmp_path / "r")}, "-n", "--config", "time_limit=abc")
    assert done.returncode == 2, done.stderr[-2000:]
    assert "puzzlebench: config error: config time_limit = 'abc'" in done.stderr
    assert "Traceback" not in done.stderr
    (tmp_path / "dup.yaml").write_text("instance_sets: [sudoku/seed]\nseeds: [0]\nseeds: [1]\n")
    done = subprocess.run([*SNAKEMAKE, "-n", "--directory", str(tmp_path), "--configfile",
                           str(tmp_path / "dup.yaml")], capture_output=True, text=True, timeout=600)
    assert done.returncode == 2 and "dup.yaml:3: key 'seeds' appears twice" in done.stderr, done.stderr[-2000:]


# Every string- and number-typed value of the config, with a shell command appended.
INJECTED = {
    "instance_sets": ["sudoku/seed" + INJECT], "max_instances": "1" + INJECT,
    "formulations": ["binary" + INJECT], "solvers": ["highs" + INJECT], "seeds": ["0" + INJECT],
    "permutations": "0" + INJECT, "time_limit": "5" + INJECT, "threads": "1" + INJECT,
    "chunk_size": "50" + INJECT, "group_formulations": "true" + INJECT, "results": "r" + INJECT,
    "analysis": {"shift": "0.01" + INJECT},
    "solver_configs": {"highs" + INJECT: {"solver": "highs" + INJECT, "options": {"x": INJECT}}},
}


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(INJECTED))
def test_no_config_value_reaches_a_shell(tmp_path, key):
    done = snakemake(tmp_path, {**TINY, "results": "r", key: INJECTED[key]})
    assert not (tmp_path / "pwned").exists(), f"{key}: a config value ran a shell command"
    assert done.returncode in (0, 2), done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    if done.returncode == 2:
        assert "puzzlebench: config error:" in done.stderr
    else:  # accepted: the whole workflow ran with the value, quoted
        assert list(tmp_path.rglob("summary.md"))
