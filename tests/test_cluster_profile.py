"""profiles/slurm without a cluster: its partition/account check, job requests and the lint."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from puzzlebench.errors import PuzzleError
from puzzlebench.workflow.cluster import check_default_resources, unset_variables
from puzzlebench.workflow.planner import job_memory_mb, plan

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile")]
STUDY = {"instance_sets": ["sudoku/seed"], "formulations": ["binary"], "solvers": ["highs"]}


def test_unset_variables_finds_bare_and_braced_references():
    assert unset_variables("'$SBATCH_PARTITION'", {}) == ["SBATCH_PARTITION"]
    assert unset_variables("${A}-$B", {"B": ""}) == ["A"]
    assert unset_variables(2000, {}) == []


def test_check_default_resources_names_the_resource_and_the_variable():
    with pytest.raises(PuzzleError, match=r"slurm_account reads the environment variable SBATCH_ACCOUNT"):
        check_default_resources({"slurm_partition": "'$SBATCH_PARTITION'", "slurm_account": "'$SBATCH_ACCOUNT'"},
                                {"SBATCH_PARTITION": "short"})
    # an empty account is set: the cluster has no accounts
    check_default_resources({"slurm_partition": "'$SBATCH_PARTITION'", "slurm_account": "'$SBATCH_ACCOUNT'"},
                            {"SBATCH_PARTITION": "short", "SBATCH_ACCOUNT": ""})


def _dry_run(tmp_path, env_overrides: dict, drop: tuple = ()):
    config = tmp_path / "study.yaml"
    config.write_text(json.dumps({**STUDY, "results": str(tmp_path / "results")}))
    env = {k: v for k, v in {**os.environ, **env_overrides}.items() if k not in drop}
    return subprocess.run([*SNAKEMAKE, "--profile", str(ROOT / "profiles/slurm"), "--directory", str(tmp_path),
                           "--configfile", str(config), "-n"], capture_output=True, text=True, env=env, timeout=300)


def test_slurm_profile_without_a_partition_stops_with_one_line(tmp_path):
    done = _dry_run(tmp_path, {"SBATCH_ACCOUNT": ""}, drop=("SBATCH_PARTITION",))
    assert done.returncode == 2
    errors = [line for line in done.stderr.splitlines() if line.startswith("puzzlebench:")]  # not paths
    assert errors == ["puzzlebench: profile error: default resource slurm_partition reads the environment "
                      "variable SBATCH_PARTITION, which is not set: export SBATCH_PARTITION=<value>, or pass "
                      "--default-resources slurm_partition=<value>"]
    assert "Traceback" not in done.stderr


def test_slurm_profile_plans_batch_jobs_only_with_the_partition_set(tmp_path):
    done = _dry_run(tmp_path, {"SBATCH_PARTITION": "short", "SBATCH_ACCOUNT": ""})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "slurm_partition=short" in done.stdout + done.stderr


def test_profile_polls_with_squeue():
    """sacct, the plugin's default, hangs the run on clusters without accounting storage (tests/test_slurm.py)."""
    profile = yaml.safe_load((ROOT / "profiles/slurm/config.yaml").read_text())
    assert profile["slurm-status-command"] == "squeue"
    assert profile["groups"] == {"batch": "solve"} and profile["group-components"]["solve"] > 1


def test_memory_requests_grow_with_the_largest_grid():
    jobs = {job.instance_set: job for job in plan({"instance_sets": ["sudoku/seed", "sudoku/blank65-36"],
                                                  "solvers": ["highs"], "max_instances": 1})}
    small, large = job_memory_mb(jobs["sudoku/seed"]), job_memory_mb(jobs["sudoku/blank65-36"])
    assert jobs["sudoku/blank65-36"].max_cells == 36 * 36
    # twice the measured peaks (about 220 MB at 9x9, 370 MB at 36x36), far below the old flat 2000 MB
    assert 400 <= small < large <= 1000


def test_lint_reports_only_the_conda_note(tmp_path):
    config = tmp_path / "study.yaml"
    config.write_text(json.dumps({**STUDY, "results": str(tmp_path / "results")}))
    done = subprocess.run([*SNAKEMAKE, "--lint", "--configfile", str(config)], capture_output=True, text=True,
                          timeout=300)
    notes = set(re.findall(r"^    \* (.+)$", done.stdout + done.stderr, flags=re.M))
    assert notes <= {"Specify a conda environment or container for each rule.:"}, notes


def test_readme_cluster_study_plans():
    section = (ROOT / "docs/cluster.md").read_text()
    study = yaml.safe_load(re.search(r"```yaml\n(.*?)```", section, re.S).group(1))
    jobs = plan(study)
    assert len(jobs) == 228 and max(job_memory_mb(job) for job in jobs) == 800


def test_the_largest_cpu_request_and_the_partitions_nodes():
    from puzzlebench.workflow.cluster import (
        check_cpu_request,
        largest_cpu_request,
        partition_cpus,
        slurm_partition,
    )
    assert largest_cpu_request(1, 4, 8, 12) == 4 and largest_cpu_request(1, 4, 8, 2) == 2
    assert largest_cpu_request(2, 4, 1, 12) == 2 and largest_cpu_request(3, 4, 8, 1) == 3

    def sinfo(*args, **kwargs):
        return subprocess.CompletedProcess(args, 0, "short* 2\nshort* 2\nlong 16\nbig 8+\n", "")
    assert partition_cpus(None, sinfo) == ("short", 2) and partition_cpus("long", sinfo) == ("long", 16)
    assert partition_cpus("big", sinfo) == ("big", 8) and partition_cpus("none", sinfo) is None
    assert slurm_partition("'$SBATCH_PARTITION'", {"SBATCH_PARTITION": "long"}) == "long"
    assert slurm_partition("'$SBATCH_PARTITION'", {}) is None
    check_cpu_request(2, 1, 2, ("short", 2))
    with pytest.raises(PuzzleError, match="pass --cores 2$"):
        check_cpu_request(4, 1, 4, ("short", 2))
    with pytest.raises(PuzzleError, match="pass --config threads=2$"):
        check_cpu_request(4, 4, 4, ("short", 2))
