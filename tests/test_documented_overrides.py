"""Every ``snakemake ... --config KEY=VALUE`` the project documents plans what it says.

The commands are collected from the docs themselves (the README and every other Markdown
file, the comments of config.yaml and of the study files, the Snakefile's docstring), so a
new example is tested without editing this file.  Each runs as ``snakemake -n -p`` in a
scratch folder; the planned batch jobs (their ``--job`` JSON) must carry the values the
override asks for, read as YAML reads them (what a user means by ``seeds=[0,1,2]``).  An
example the docs follow with ``# puzzlebench: config error: ...`` must be refused with
that line and exit code 2.
"""

from __future__ import annotations

import fnmatch
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from puzzlebench.errors import PuzzleError
from puzzlebench.run.jobs import Job
from puzzlebench.workflow.config import command_line_values, validate_config

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile")]
SKIP_DIRS = {".git", ".venv", "results", ".snakemake", "node_modules", "tests"}
REFUSAL = re.compile(r"^#\s*(puzzlebench: config error: .*)$")


def _doc_files() -> list[Path]:
    files = [ROOT / "Snakefile", *ROOT.glob("*.yaml"), *(ROOT / "studies").glob("*.yaml")]
    files += [p for p in ROOT.rglob("*.md") if not SKIP_DIRS & set(p.relative_to(ROOT).parts)]
    return sorted(set(p for p in files if p.is_file()))


def _logical_lines(text: str):
    """(line number, text) with backslash continuations joined and a leading ``#`` (a comment) dropped."""
    lines = text.splitlines()
    number = 0
    while number < len(lines):
        start, line = number + 1, lines[number].strip()
        while line.endswith("\\") and number + 1 < len(lines):
            number += 1
            line = line[:-1] + " " + lines[number].strip().lstrip("#").strip()
        number += 1
        yield start, line.lstrip("#").strip(), lines[number].strip() if number < len(lines) else ""


def documented_overrides() -> list[tuple[str, str, str | None]]:
    """(where, command, the refusal the docs print after it or None) for every documented command
    that runs snakemake with ``--config``."""
    found = []
    for path in _doc_files():
        for number, line, following in _logical_lines(path.read_text(encoding="utf-8")):
            commands = [line] if line.startswith("snakemake ") else re.findall(r"`(snakemake [^`]+)`", line)
            for command in commands:
                words = shlex.split(command, comments=True)
                if "--config" in words[:-1] and "=" in words[words.index("--config") + 1]:
                    refusal = REFUSAL.match(following)
                    found.append((f"{path.relative_to(ROOT)}:{number}", command,
                                  refusal.group(1) if refusal else None))
    return found


OVERRIDES = documented_overrides()


def test_the_docs_document_the_overrides_of_issue_25():
    """The collection finds the examples users copy (and so covers whatever is added beside them)."""
    commands = " ".join(command for _, command, _ in OVERRIDES)
    for example in ("seeds=[0,1,2]", "'formulations={\"sudoku\": [\"binary\"]}'", "max_instances=2",
                    "'solvers=[\"highs\",\"scip\"]'", "time_limit=abc"):
        assert example in commands, example
    assert {where.split(":")[0] for where, _, _ in OVERRIDES} >= {"docs/workflow.md", "config.yaml", "Snakefile",
                                                                  "studies/scaling.yaml"}


def _dry_run(command: str, tmp_path: Path):
    """The command as ``snakemake -n -p`` in ``tmp_path`` (study files found in the checkout):
    the completed process and the overrides as YAML reads them."""
    words = shlex.split(command, comments=True)
    assert words[0] == "snakemake"
    args, overrides, i = [], {}, 1
    while i < len(words):
        if words[i] == "--config":
            args.append(words[i])
            i += 1
            while i < len(words) and not words[i].startswith("-"):
                key, _, value = words[i].partition("=")
                overrides[key] = yaml.safe_load(value) if value else None
                args.append(words[i])
                i += 1
            continue
        if words[i] == "--configfile":
            args += ["--configfile", str(ROOT / words[i + 1]) if (ROOT / words[i + 1]).is_file() else words[i + 1]]
            i += 2
            continue
        args.append(words[i])
        i += 1
    done = subprocess.run([*SNAKEMAKE, "-n", "-p", "--directory", str(tmp_path), *args],
                          capture_output=True, text=True, timeout=300)
    return done, overrides


def _planned(stdout: str) -> list[tuple[Job, str]]:
    """(job, output file) of every batch command of a ``snakemake -n -p`` listing."""
    out = []
    for line in stdout.splitlines():
        if line.startswith("Shell command:") and " batch --job " in line:
            words = shlex.split(line.removeprefix("Shell command:"))
            out.append((Job.from_json(words[words.index("--job") + 1]), words[words.index("-o") + 1]))
    return out


def _as_list(value) -> list:
    return value if isinstance(value, list) else [value]


def _check_plan(jobs: list[tuple[Job, str]], overrides: dict) -> None:
    """The planned jobs carry each override (the keys a job records; the others just plan)."""
    assert jobs, "no batch job planned"
    fields = {"seeds": "seed", "solvers": "solver"}
    for key, value in overrides.items():
        if key in fields:
            assert {getattr(job, fields[key]) for job, _ in jobs} == set(_as_list(value)), key
        elif key in ("time_limit", "threads", "permutations", "max_instances"):
            assert {getattr(job, key) for job, _ in jobs} == {value}, key
        elif key == "formulations" and value != "all":
            for job, _ in jobs:
                wanted = value.get(job.puzzle) if isinstance(value, dict) else value
                assert wanted is not None, f"a {job.puzzle} job, not in {value}"
                assert wanted == "all" or set(job.formulations) <= set(_as_list(wanted)), (job, value)
        elif key == "instance_sets":
            globs = [g for g in _as_list(value) if not g.startswith("tag:")]
            assert not globs or all(any(fnmatch.fnmatch(job.instance_set, g) for g in globs)
                                    for job, _ in jobs), value
        elif key == "results":
            assert all(out.startswith(f"{value}/runs/") for _, out in jobs), value


@pytest.mark.slow
@pytest.mark.parametrize("where, command, refusal", OVERRIDES, ids=[where for where, _, _ in OVERRIDES])
def test_every_documented_override_plans_its_runs(where, command, refusal, tmp_path):
    done, overrides = _dry_run(command, tmp_path)
    if refusal is not None:  # the docs show it refused: with that line, exit 2, nothing planned
        assert done.returncode == 2 and refusal in done.stderr.splitlines(), done.stderr[-1500:]
        return
    assert done.returncode == 0, f"{where}: {command}\n{done.stderr[-2000:]}"
    _check_plan(_planned(done.stdout), overrides)


def test_command_line_lists_and_mappings_are_read_as_numbers():
    from snakemake.cli import (
        parse_config,  # what snakemake hands the Snakefile as config_settings.config
    )
    raw = parse_config(["time_limit=30", "seeds=[0,1,2]", 'formulations={"sudoku": ["binary"]}',
                        'solver_configs={"h": {"solver": "highs", "options": {"mip_rel_gap": 0.5, "mip_max_nodes": 100}}}',
                        "instance_sets=[sudoku/seed]", "group_formulations=False"])
    assert raw["seeds"] == ["0", "1", "2"]  # why this is needed
    values = command_line_values(raw)
    assert values["seeds"] == [0, 1, 2] and values["time_limit"] == 30
    assert values["formulations"] == {"sudoku": ["binary"]} and values["instance_sets"] == ["sudoku/seed"]
    assert values["solver_configs"]["h"]["options"] == {"mip_rel_gap": 0.5, "mip_max_nodes": 100}
    assert values["group_formulations"] is False
    validate_config(values)


def test_a_config_file_keeps_its_types():
    """Only the command line is read again: a quoted number in a YAML file stays a string and is refused."""
    with pytest.raises(PuzzleError, match=r"config seeds = \['0'\]"):
        validate_config({"instance_sets": "sudoku/seed", "seeds": ["0"]})


@pytest.mark.slow
def test_three_seeds_from_the_command_line_run(tmp_path):
    study = tmp_path / "tiny.yaml"
    study.write_text(json.dumps({"instance_sets": ["sudoku/seed"], "formulations": ["binary"], "solvers": ["highs"],
                                 "max_instances": 1, "results": "results"}))
    done = subprocess.run([*SNAKEMAKE, "--cores", "2", "--directory", str(tmp_path), "--configfile", str(study),
                           "--config", "time_limit=30", "seeds=[0,1,2]"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    runs = pd.read_parquet(tmp_path / "results/runs.parquet")
    # config.yaml's 2 repeats of each seed (the study sets none)
    assert sorted(zip(runs["seed"], runs["repeat"])) == [(seed, repeat) for seed in (0, 1, 2) for repeat in (0, 1)]
    assert set(runs["time_limit"]) == {30.0}
